"""The calls the benchmark times: every documented filter and sort, and the other read routes."""

from __future__ import annotations

from urllib.parse import urlencode

from models import runtime
from models.db.contracts import Contract
from models.db.database import db
from models.db.proposals import Proposal
from models.services.partners.accounts import partner_token


def headers_for() -> dict[str, dict]:
    settings = runtime.current().settings
    with db.connection_context():
        return {
            code: {"Authorization": "Bearer " + partner_token(settings, code)["access_token"]}
            for code in ("PARTNER_A", "PARTNER_B")
        }


def listing(name: str, origin: str = "PARTNER_A", **params) -> tuple[str, str, str]:
    return (f"list {name}", "/v1/proposals" + ("?" + urlencode(params) if params else ""), origin)


def cases() -> list[tuple[str, str, str]]:
    with db.connection_context():
        sample = Proposal.select().where(Proposal.origin == "PARTNER_A", Proposal.status == "DISBURSED").first()
        cpf_with_contract = Contract.select(Contract.cpf).where(Contract.origin == "PARTNER_A").first().cpf
    full = [
        listing("default (created_at:desc)"),
        listing("default, PARTNER_B", origin="PARTNER_B"),
        *[
            listing(f"sort {sort}", sort=sort)
            for sort in (
                "created_at:asc",
                "created_at:desc",
                "updated_at:asc",
                "updated_at:desc",
                "full_name:asc",
                "full_name:desc",
            )
        ],
        listing("limit=100", limit=100),
        listing("page=500 (offset 4,990)", page=500),
        listing("page=100 limit=100, full_name:asc", page=100, limit=100, sort="full_name:asc"),
        listing("cpf exact 11 digits", cpf=sample.cpf),
        listing("cpf partial 6 digits", cpf=sample.cpf[2:8]),
        listing("cpf partial 3 digits", cpf=sample.cpf[4:7]),
        listing("full_name partial 'silva' (common)", full_name="silva"),
        listing("full_name partial 'ana sil'", full_name="ana sil"),
        listing("full_name exact-ish (rare)", full_name=sample.full_name),
        listing("full_name partial, sort full_name:asc", full_name="ferreira", sort="full_name:asc"),
        listing("email partial 'gmail' (common)", email="gmail"),
        listing("email partial (rare)", email=sample.email.split("@")[0]),
        listing("phone partial 8 digits", phone=sample.phone[-8:]),
        listing("phone full with +", phone=sample.phone),
        listing("status single (DISBURSED)", status="DISBURSED"),
        listing("status 3 values", status="CREATED,TOKEN_SENT,TOKEN_VALIDATED"),
        listing("status rare (CANCELED), sort updated_at:asc", status="CANCELED", sort="updated_at:asc"),
        listing("bank_code 341", bank_code="341"),
        listing("created range 1 month", created_from="2026-06-01", created_to="2026-06-30"),
        listing("created range 1 day", created_from="2026-06-15", created_to="2026-06-15"),
        listing(
            "updated range 1 week, sort updated_at:desc",
            updated_from="2026-09-01",
            updated_to="2026-09-07",
            sort="updated_at:desc",
        ),
        listing(
            "status + created month + sort full_name",
            status="DISBURSED",
            created_from="2026-06-01",
            created_to="2026-06-30",
            sort="full_name:asc",
        ),
        listing("full_name + email + bank", full_name="silva", email="gmail", bank_code="001"),
        listing("no match", cpf="00000000000"),
        ("statistics, all time", "/v1/proposals/statistics", "PARTNER_A"),
        (
            "statistics, one month",
            "/v1/proposals/statistics?created_from=2026-06-01&created_to=2026-06-30",
            "PARTNER_A",
        ),
        ("detail", f"/v1/proposals/{sample.id}", "PARTNER_A"),
        ("analysis-data", f"/v1/proposals/{sample.id}/analysis-data", "PARTNER_A"),
        ("message-timeline", f"/v1/proposals/{sample.id}/message-timeline", "PARTNER_A"),
        ("customer contracts", f"/v1/customers/{cpf_with_contract}/contracts", "PARTNER_A"),
        ("customer available-loan-amount", f"/v1/customers/{cpf_with_contract}/available-loan-amount", "PARTNER_A"),
        ("customer summary", f"/v1/customers/{cpf_with_contract}/summary", "PARTNER_A"),
    ]
    return full
