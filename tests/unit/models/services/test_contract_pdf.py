"""The CCB PDF states everything the contract says: parties, amounts, rates, CET and its breakdown,
charges, the full installment schedule, first due date, disbursement data and consent evidence."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from models.domain.loan.price import amortization_schedule
from models.services.contract.pdf import SCHEDULE_HEADER, render
from tests.support.pdf_text import page_strings

CONTRACT_ID = "5b3c9f0e-8d8a-4f1e-9a3b-0c1d2e3f4a5b"
CONSENT_HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
LONG_URL = "https://partner.example.com/" + "customers/12345678909/" * 8 + "signature-return"


def _terms(installments: int = 96, **overrides) -> dict:
    schedule = amortization_schedule(Decimal("25603.27"), Decimal("0.0199"), installments, date(2027, 1, 5))
    terms = {
        "ccb_number": "CCB305407755813",
        "generated_at": "2026-03-10T15:00:01.250Z",
        "borrower": {
            "name": "MARIA DA CONCEIÇÃO",
            "cpf": "12345678909",
            "birth_date": "1985-04-12",
            "email": "maria@example.com",
            "phone": "+5511987654321",
        },
        "origin": {"code": "PARTNER_A", "name": "Sandbox Partner A"},
        "amounts": {
            "principal_amount": "24754.54",
            "total_amount": "57599.93",
            "installment_amount": "600.00",
            "iof_amount": "848.73",
            "tac_amount": "15.00",
            "insurance_amount": "321.09",
            "financed_amount": "25603.27",
            "installments": installments,
        },
        "rates": {
            "monthly_percent": "1.99",
            "annual_percent": "26.68",
            "cet_monthly_percent": "2.07",
            "cet_annual_percent": "27.81",
        },
        "cost_breakdown": [
            {"component": "principal", "amount": "24754.54", "percent": "42.98"},
            {"component": "iof", "amount": "848.73", "percent": "1.47"},
        ],
        "schedule": [
            {
                "number": r.number,
                "due_date": r.due_date.isoformat(),
                "installment": str(r.installment),
                "interest": str(r.interest),
                "amortization": str(r.amortization),
                "balance": str(r.balance),
            }
            for r in schedule
        ],
        "first_due_date": "2027-01-05",
        "final_due_date": schedule[-1].due_date.isoformat(),
        "terms_and_conditions": {"contract_type": "CCB", "late_payment_fee": "2.00"},
        "disbursement": {
            "expected_date": "2026-03-11",
            "destination": {
                "type": "ACCOUNT",
                "bank_code": "341",
                "bank_branch": "1234",
                "bank_account": "567890",
                "holder_name": "MARIA DA CONCEIÇÃO",
            },
        },
        "consent": {
            "ip": "203.0.113.7",
            "latitude": -23.5505,
            "longitude": -46.6333,
            "channel": "web",
            "captured_at": "2026-03-10T14:30:00.000Z",
            "document_text_sha256": CONSENT_HASH,
            "token_validated_at": "2026-03-10T14:29:00.000Z",
        },
    }
    return terms | overrides


def _strings(terms: dict) -> list[str]:
    return [s for page in page_strings(render(terms, CONTRACT_ID)) for s in page]


def test_states_parties_amounts_rates_cet_charges_disbursement_and_consent():
    # Given the terms of a 96-installment contract
    terms = _terms()

    # When the CCB is rendered
    shown = _strings(terms)

    # Then every stated value is on it, next to its label
    sections = {
        "Borrower": terms["borrower"],
        "Originator": terms["origin"],
        "Amounts (R$)": terms["amounts"],
        "Rates and CET (% per period)": terms["rates"],
        "Terms and conditions": terms["terms_and_conditions"],
        "Disbursement": {"expected_date": "2026-03-11", **terms["disbursement"]["destination"]},
        "Consent evidence": terms["consent"],
    }
    for title, rows in sections.items():
        for label, value in rows.items():
            assert shown[shown.index(label, shown.index(title)) + 1] == str(value), (title, label)
    for item in terms["cost_breakdown"]:
        at = shown.index(item["component"])
        assert shown[at : at + 3] == [item["component"], item["amount"], item["percent"]]
    assert "Installment schedule (first due 2027-01-05)" in shown
    assert f"Contract {CONTRACT_ID} - CCB number CCB305407755813 - generated at 2026-03-10T15:00:01.250Z" in " ".join(
        shown
    )


def test_lists_every_installment_in_order_with_the_header_on_every_page():
    # Given a schedule long enough to span pages
    terms = _terms(96)

    # When the CCB is rendered
    pages = page_strings(render(terms, CONTRACT_ID))

    # Then all 96 rows appear in order, each page of the schedule starting with its header
    shown = [s for page in pages for s in page if s not in SCHEDULE_HEADER]
    start = shown.index("Installment schedule (first due 2027-01-05)") + 1
    expected = [
        value
        for row in terms["schedule"]
        for value in (
            str(row["number"]),
            row["due_date"],
            row["installment"],
            row["interest"],
            row["amortization"],
            row["balance"],
        )
    ]
    assert shown[start : start + len(expected)] == expected
    schedule_pages = [
        page for page in pages if terms["schedule"][-1]["due_date"] in page or terms["schedule"][40]["due_date"] in page
    ]
    assert all(list(SCHEDULE_HEADER) == [s for s in page if s in SCHEDULE_HEADER][:6] for page in schedule_pages)
    assert len(pages) > 1


def test_a_value_wider_than_its_column_is_wrapped_not_cut():
    # Given a destination whose value is far wider than the value column
    terms = _terms(12)
    terms["disbursement"]["destination"]["return_url"] = LONG_URL

    # When the CCB is rendered
    shown = _strings(terms)

    # Then the value is split over consecutive lines that together are the whole value
    at = shown.index("return_url") + 1
    lines = []
    while len("".join(lines)) < len(LONG_URL):
        lines.append(shown[at + len(lines)])
    assert "".join(lines) == LONG_URL and len(lines) > 1


def test_missing_consent_is_stated_as_not_recorded():
    # Given terms of a proposal without consent
    terms = _terms(6, consent=None)

    # When the CCB is rendered
    shown = _strings(terms)

    # Then the consent section says so
    assert shown[shown.index("Consent evidence") : shown.index("Consent evidence") + 3] == [
        "Consent evidence",
        "consent",
        "not recorded",
    ]
