"""The CCB as a PDF (reportlab), written under ``contract.documents_dir``.

The document is the contract terms (``terms.py``) formatted for Brazil (``brazilian_format``) in
the wording of ``ccb_template``: quadro-resumo, parties, clauses, place and date of issue with the
signature lines, then the annexes (schedule, CET worksheet, consent evidence). The signed version is
the same document followed by an evidence page built from what was recorded at signing; a process
that rendered the original reuses its composed pages for it (``_RecentBodies``).

Drawn straight on reportlab's canvas (``pdf_layout``): the platypus Table measured every cell of
the 96-row schedule several times and drew each with its own text object. Page streams are
zlib-compressed without the pure-Python ASCII85 wrapping (reportlab's C accelerator is not
installed; binary streams are valid PDF).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import threading
from collections import OrderedDict
from decimal import Decimal
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from models.services.contract import brazilian_format as fmt
from models.services.contract import ccb_template as text
from models.services.contract.pdf_layout import Layout
from models.settings import ROOT, ContractSettings

# Process-wide reportlab default; this module is the service's only reportlab user.
rl_config.useA85 = 0

CREATOR = "consignado-origination"
PAIR_WIDTHS = (190.0, 325.0)
SCHEDULE_WIDTHS = (30.0, 75.0, 95.0, 95.0, 100.0, 120.0)
COMPONENT_WIDTHS = (255.0, 130.0, 130.0)
FLOW_WIDTHS = (52.0, 62.0, 38.0, 105.5) * 2


def documents_dir(contract_settings: ContractSettings) -> Path:
    configured = Path(contract_settings.documents_dir)
    return configured if configured.is_absolute() else ROOT / configured


def sha256(content: bytes) -> str:
    """Hex SHA-256 of a document (printed on the signed version's evidence page)."""
    return hashlib.sha256(content).hexdigest()


def _installments_text(terms: dict) -> str:
    schedule = terms["schedule"]
    regular, last = fmt.money(schedule[0]["installment"]), fmt.money(schedule[-1]["installment"])
    if regular == last:
        return text.INSTALLMENTS_EQUAL.format(count=len(schedule), amount=regular)
    return text.INSTALLMENTS_LAST_ADJUSTED.format(
        count=len(schedule), count_equal=len(schedule) - 1, amount=regular, last_amount=last
    )


def _destination_text(destination: dict) -> str:
    holder = {
        "holder_name": destination.get("holder_name") or "",
        "holder_cpf": fmt.cpf(destination.get("holder_document")),
    }
    if destination.get("type") == "PIX":
        key_type = destination.get("pix_key_type") or ""
        key = destination.get("pix_key") or ""
        shown = fmt.cpf(key) if key_type == "CPF" else fmt.phone(key) if key_type == "PHONE" else key
        return text.DESTINATION_PIX.format(key_type=text.PIX_KEY_TYPES.get(key_type, key_type), key=shown, **holder)
    return text.DESTINATION_ACCOUNT.format(
        account_type=text.ACCOUNT_TYPES.get(destination.get("account_type") or "", text.ACCOUNT_TYPE_UNKNOWN),
        account=fmt.with_digit(destination.get("bank_account"), destination.get("bank_account_digit")),
        branch=fmt.with_digit(destination.get("bank_branch"), destination.get("bank_branch_digit")),
        bank_code=destination.get("bank_code") or "",
        bank_name=destination.get("bank_name") or text.BANK_NAME_UNKNOWN,
        **holder,
    )


def _or_missing(value, formatter=str) -> str:
    return formatter(value) if value not in (None, "") else text.NOT_INFORMED


def fields(terms: dict) -> dict[str, str]:
    """Every placeholder of the template (``ccb_template.PLACEHOLDERS``), formatted for Brazil."""
    amounts, rates, charges = terms["amounts"], terms["rates"], terms["charges"]
    borrower, creditor, origin = terms["borrower"], terms["creditor"], terms["origin"]
    return {
        "ccb_number": terms.get("ccb_number") or text.CCB_NUMBER_PENDING,
        "contract_id": terms["contract_id"],
        "generated_at": fmt.instant(terms["generated_at"]),
        "issue_place": terms["issue"]["place"],
        "payment_place": terms["payment_place"],
        "borrower_name": borrower["name"],
        "borrower_cpf": fmt.cpf(borrower["cpf"]),
        "borrower_birth_date": fmt.day(borrower["birth_date"]),
        "borrower_email": _or_missing(borrower.get("email")),
        "borrower_phone": _or_missing(borrower.get("phone"), fmt.phone),
        "creditor_name": creditor["name"],
        "creditor_cnpj": fmt.cnpj(creditor["cnpj"]),
        "creditor_address": _or_missing(creditor.get("address")),
        "originator_name": origin["name"],
        "originator_code": origin["code"],
        **{
            name: fmt.money(amounts[name])
            for name in (
                "released_amount",
                "financed_amount",
                "iof_amount",
                "tac_amount",
                "insurance_amount",
                "interest_amount",
                "total_amount",
                "installment_amount",
            )
        },
        "installments": str(amounts["installments"]),
        "installments_text": _installments_text(terms),
        "first_due_date": fmt.day(terms["first_due_date"]),
        "final_due_date": fmt.day(terms["final_due_date"]),
        "monthly_rate": fmt.monthly_rate(rates["monthly_percent"]),
        "annual_rate": fmt.annual_rate(rates["annual_percent"]),
        "cet_monthly": fmt.monthly_rate(rates["cet_monthly_percent"]),
        "cet_annual": fmt.annual_rate(rates["cet_annual_percent"]),
        "late_fee": _or_missing(charges.get("late_payment_fee_percent"), fmt.percent),
        "default_interest": _or_missing(charges.get("default_interest_monthly_percent"), fmt.monthly_rate),
        "disbursement_date": fmt.day(terms["disbursement"]["expected_date"]),
        "destination": _destination_text(terms["disbursement"]["destination"]),
        "customer_service": _or_missing(terms["channels"].get("customer_service")),
        "ombudsman": _or_missing(terms["channels"].get("ombudsman")),
        "cet_release_date": fmt.day(terms["cet_worksheet"]["release_date"]),
    }


def _pairs(layout: Layout, rows, values: dict, title: str = "") -> None:
    layout.table(
        PAIR_WIDTHS, [(label, value.format_map(values)) for label, value in rows], title=title, bold_columns=(0,)
    )


def _summary_and_parties(layout: Layout, values: dict) -> None:
    layout.heading(text.SUMMARY_TITLE)
    _pairs(layout, text.SUMMARY, values)
    layout.heading(text.PARTIES_TITLE)
    _pairs(layout, text.BORROWER, values, text.BORROWER_TITLE)
    _pairs(layout, text.CREDITOR, values, text.CREDITOR_TITLE)
    _pairs(layout, text.ORIGINATOR, values, text.ORIGINATOR_TITLE)


def _clauses_and_signatures(layout: Layout, values: dict) -> None:
    layout.heading(text.CLAUSES_TITLE)
    for title, body in text.CLAUSES:
        layout.paragraph(body.format_map(values), lead=title)
    layout.heading(text.SIGNATURES_TITLE, keep_with=110)
    layout.paragraph(text.ISSUE_STATEMENT.format_map(values))
    for role, name, note in text.SIGNATURE_LINES:
        layout.signature(role, name.format_map(values), note)


def _schedule(layout: Layout, terms: dict, values: dict) -> None:
    layout.page_break()
    layout.heading(text.SCHEDULE_TITLE)
    layout.paragraph(text.SCHEDULE_INTRO.format_map(values))
    rows = [
        (
            str(r["number"]),
            fmt.day(r["due_date"]),
            fmt.money(r["installment"]),
            fmt.money(r["interest"]),
            fmt.money(r["amortization"]),
            fmt.money(r["balance"]),
        )
        for r in terms["schedule"]
    ]
    totals = {
        name: sum(Decimal(str(r[name])) for r in terms["schedule"])
        for name in ("installment", "interest", "amortization")
    }
    rows.append(
        (
            text.SCHEDULE_TOTAL,
            "",
            fmt.money(totals["installment"]),
            fmt.money(totals["interest"]),
            fmt.money(totals["amortization"]),
            "",
        )
    )
    layout.table(SCHEDULE_WIDTHS, rows, text.SCHEDULE_HEADER, fixed=True, align="RLRRRR", bold_last_row=True)


def _cet_worksheet(layout: Layout, terms: dict, values: dict) -> None:
    worksheet = terms["cet_worksheet"]
    layout.heading(text.CET_TITLE, keep_with=160)
    rows = [
        (
            text.CET_COMPONENT_NAMES.get(item["component"], item["component"]),
            fmt.money(item["amount"]),
            fmt.percent(item["share_percent"]),
        )
        for item in worksheet["components"]
    ]
    rows.append(
        (
            text.CET_COMPONENTS_TOTAL,
            values["financed_amount"],
            fmt.percent(sum(Decimal(str(item["share_percent"])) for item in worksheet["components"])),
        )
    )
    layout.table(COMPONENT_WIDTHS, rows, text.CET_COMPONENTS_HEADER, align="LRR", bold_last_row=True)
    layout.paragraph(text.CET_ROUNDING_NOTE, size=7.5)
    layout.paragraph(text.CET_INTEREST_LINE.format_map(values))
    layout.paragraph(text.CET_RATE_LINE.format_map(values), font="Helvetica-Bold")
    layout.paragraph(text.CET_FORMULA)
    cells: list[tuple[str, ...]] = [
        (
            text.CET_FLOW_RELEASE if flow["number"] == 0 else str(flow["number"]),
            fmt.day(flow["date"]),
            str(flow["days"]),
            fmt.money(flow["amount"]),
        )
        for flow in worksheet["flows"]
    ]
    if len(cells) % 2:
        cells.append(("", "", "", ""))  # an even count: flows are printed two per row
    flow_rows = [cells[index] + cells[index + 1] for index in range(0, len(cells), 2)]
    layout.table(
        FLOW_WIDTHS,
        flow_rows,
        text.CET_FLOWS_HEADER * 2,
        title=text.CET_FLOWS_TITLE.format_map(values),
        fixed=True,
        align="LLRRLLRR",
    )


def _consent(layout: Layout, terms: dict) -> None:
    layout.heading(text.CONSENT_TITLE, keep_with=100)
    layout.paragraph(text.CONSENT_INTRO)
    consent = terms.get("consent")
    if not consent:
        _pairs(layout, text.CONSENT_MISSING, {})
        return
    values = {
        "channel": consent.get("channel") or text.NOT_INFORMED,
        "ip": consent.get("ip") or text.NOT_INFORMED,
        "latitude": fmt.coordinate(consent["latitude"]),
        "longitude": fmt.coordinate(consent["longitude"]),
        "captured_at": fmt.instant(consent["captured_at"]),
        "document_text_sha256": consent["document_text_sha256"],
        "token_validated_at": (
            fmt.instant(consent["token_validated_at"]) + " (horário de Brasília)"
            if consent.get("token_validated_at")
            else text.TOKEN_NOT_VALIDATED
        ),
    }
    _pairs(layout, text.CONSENT, values)


def _result(code) -> str:
    if not code:
        return text.NOT_INFORMED
    meaning = text.RESULT_MEANINGS.get(code)
    return text.RESULT_TEXT.format(code=code, meaning=meaning) if meaning else str(code)


def _evidence(layout: Layout, evidence: dict, values: dict) -> None:
    layout.page_break()
    layout.heading(text.EVIDENCE_TITLE)
    layout.paragraph(text.EVIDENCE_INTRO.format_map(values))
    results = evidence.get("results") or {}
    recorded = {
        "provider": evidence.get("provider") or text.NOT_INFORMED,
        "process_id": evidence.get("process_id") or text.NOT_INFORMED,
        **{
            name: _result(results.get(name))
            for name in ("process_result", "authentication_result", "liveness_result", "trust_result")
        },
        "signed_at": fmt.instant(evidence["signed_at"]),
        "original_sha256": evidence.get("original_sha256") or text.NOT_INFORMED,
    }
    _pairs(layout, text.EVIDENCE, values | recorded)


def render(terms: dict, evidence: dict | None = None) -> bytes:
    """The PDF bytes of the CCB described by ``terms``; with ``evidence`` (recorded at signing:
    provider, process_id, results, signed_at, original_sha256), the signed version."""
    values = fields(terms)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(text.META_TITLE.format_map(values))
    canvas.setAuthor(terms["creditor"]["name"])
    canvas.setSubject((text.META_SUBJECT_SIGNED if evidence else text.META_SUBJECT).format_map(values))
    canvas.setCreator(CREATOR)
    layout = _bodies.body(terms, values).continued_on(canvas)
    if evidence:
        _evidence(layout, evidence, values)
    layout.finish()
    return buffer.getvalue()


def _compose_body(terms: dict, values: dict) -> Layout:
    """The document up to the consent annex, on a canvas of its own that is never saved."""
    footer = text.FOOTER.format(template_version=text.TEMPLATE_VERSION, page="{page}", pages="{pages}", **values)
    layout = Layout(Canvas(io.BytesIO(), pagesize=A4), footer=footer, notice=terms.get("document_notice") or "")
    layout.title(text.TITLE)
    layout.centered(text.SUBTITLE, size=9.0, font="Helvetica-Bold")
    layout.centered(text.HEADER.format_map(values), size=7.5)
    layout.space(6)
    _summary_and_parties(layout, values)
    _clauses_and_signatures(layout, values)
    _schedule(layout, terms, values)
    _cet_worksheet(layout, terms, values)
    _consent(layout, terms)
    return layout


class _RecentBodies:
    """The composed bodies of the last few contracts rendered by this process, by their terms.

    Why: the signed version repeats the original's pages from the same stored terms and adds the
    evidence page, so a process that rendered a contract's original (generation) and then renders
    its signed version (the signature result; the same pool on small hosts) composed the same
    pages twice: composing is about two thirds of a render. A body is the composition's page
    operators, copied for each document (``Layout.continued_on``); the key is the SHA-256 of the
    terms as canonical JSON, so any difference in the terms composes anew.
    """

    SIZE = 64

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bodies: OrderedDict[str, Layout] = OrderedDict()

    def body(self, terms: dict, values: dict) -> Layout:
        key = hashlib.sha256(json.dumps(terms, sort_keys=True, default=str).encode()).hexdigest()
        with self._lock:
            body = self._bodies.get(key)
            if body is not None:
                self._bodies.move_to_end(key)
                return body
        body = _compose_body(terms, values)
        with self._lock:
            self._bodies[key] = body
            while len(self._bodies) > self.SIZE:
                self._bodies.popitem(last=False)
        return body


_bodies = _RecentBodies()


def store(
    content: bytes, proposal_id: str, contract_id: str, *, contract_settings: ContractSettings, signed: bool = False
) -> str:
    """Write the PDF atomically; returns its path relative to the documents directory. The signed
    version is a separate file beside the original (``<contract_id>-signed.pdf``)."""
    relative = Path(proposal_id) / (f"{contract_id}-signed.pdf" if signed else f"{contract_id}.pdf")
    target = documents_dir(contract_settings) / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".pdf.tmp")
    temporary.write_bytes(content)
    os.replace(temporary, target)
    return str(relative)


def path_of(relative: str, *, contract_settings: ContractSettings) -> Path:
    """Absolute path of a stored document."""
    return documents_dir(contract_settings) / relative
