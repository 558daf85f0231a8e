"""Fast seeding of the bench database with COPY (proposals, history, offers, analyses, contracts)."""

from __future__ import annotations

import io
import random
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import peewee
import psycopg2

from models.db.analysis import CreditAnalysis, Offer
from models.db.contracts import Contract
from models.db.proposals import Proposal, StatusChange
from models.domain.cpf import with_check_digits
from tests.builders import HAPPY_PATH

FIRST = [
    "MARIA",
    "JOSE",
    "ANA",
    "JOAO",
    "FRANCISCO",
    "ANTONIO",
    "CARLOS",
    "PAULO",
    "PEDRO",
    "LUCAS",
    "LUIZ",
    "MARCOS",
    "LUIS",
    "GABRIEL",
    "RAFAEL",
    "DANIEL",
    "MARCELO",
    "BRUNO",
    "EDUARDO",
    "FELIPE",
    "JULIANA",
    "MARCIA",
    "FERNANDA",
    "PATRICIA",
    "ALINE",
    "SANDRA",
    "CAMILA",
    "AMANDA",
    "BRUNA",
    "JESSICA",
    "LETICIA",
]
LAST = [
    "SILVA",
    "SANTOS",
    "OLIVEIRA",
    "SOUZA",
    "RODRIGUES",
    "FERREIRA",
    "ALVES",
    "PEREIRA",
    "LIMA",
    "GOMES",
    "COSTA",
    "RIBEIRO",
    "MARTINS",
    "CARVALHO",
    "ALMEIDA",
    "LOPES",
    "SOARES",
    "FERNANDES",
    "VIEIRA",
    "BARBOSA",
    "ROCHA",
    "DIAS",
    "NASCIMENTO",
    "ANDRADE",
    "MOREIRA",
    "NUNES",
    "MARQUES",
    "MACHADO",
    "MENDES",
    "FREITAS",
]
DOMAINS = ["gmail.com", "hotmail.com", "outlook.com", "yahoo.com.br", "uol.com.br", "bol.com.br", "empresa.com.br"]
BANKS = ["001", "033", "104", "237", "260", "341", "077", "336", "290", "323"]
PATH = list(HAPPY_PATH)
# Final status -> (weight, index in PATH of the last step before it, or None when it is on the path).
OUTCOMES = {
    "CREATED": (8, None),
    "TOKEN_SENT": (10, None),
    "TOKEN_VALIDATED": (6, None),
    "CREDIT_ANALYSIS_FAILED": (3, 3),
    "REJECTED": (12, 3),
    "OFFERS_RECEIVED": (10, None),
    "EXPIRED": (12, 5),
    "PRE_ACCEPTED": (5, None),
    "BANK_DATA_SUBMITTED": (4, None),
    "AWAITING_SIGNATURE": (5, None),
    "CANCELED": (3, 11),
    "SIGNED": (4, None),
    "DISBURSED": (18, None),
}
END = datetime(2026, 11, 20, tzinfo=timezone.utc)


# The columns each table is seeded with, in the order of the rows built below; every other NOT NULL
# column gets the model's default (_copy).
COPIED_COLUMNS: dict[type[peewee.Model], tuple[str, ...]] = {
    Proposal: (
        "id",
        "origin",
        "product_id",
        "cpf",
        "full_name",
        "birth_date",
        "email",
        "phone",
        "status",
        "bank_code",
        "bank_branch",
        "bank_account",
        "bank_account_digit",
        "account_type",
        "use_pix_cpf",
        "selected_offer_id",
        "status_sequence",
        "created_at",
        "updated_at",
    ),
    StatusChange: (
        "proposal_id",
        "sequence",
        "old_status",
        "new_status",
        "trigger",
        "source",
        "changed_at",
    ),
    CreditAnalysis: (
        "id",
        "proposal_id",
        "cpf",
        "origin",
        "outcome",
        "attempt",
        "kind",
        "mode",
        "promotional",
        "retryable",
        "pod_limit_max",
        "started_at",
        "finished_at",
        "approved_at",
    ),
    Offer: (
        "id",
        "proposal_id",
        "source",
        "kind",
        "principal_amount",
        "installments",
        "installment_amount",
        "interest_rate",
        "expires_at",
        "payload",
        "created_at",
    ),
    Contract: (
        "id",
        "proposal_id",
        "offer_id",
        "origin",
        "cpf",
        "status",
        "principal_amount",
        "total_amount",
        "installment_amount",
        "installments",
        "interest_rate",
        "first_due_date",
        "final_due_date",
        "has_original_document",
        "disbursement_paid_at",
        "created_at",
        "updated_at",
    ),
}


def _history(status: str) -> list[str]:
    _, branch = OUTCOMES[status]
    if branch is None:
        return PATH[: PATH.index(status) + 1]
    return [*PATH[: branch + 1], status]


def _copy(cur, model: type[peewee.Model], columns: tuple[str, ...], rows: list[tuple]) -> None:
    """COPY ``rows`` into the model's table. COPY applies none of peewee's defaults, so every NOT
    NULL column left out gets the model's own default (a column added later cannot break the seed)."""
    defaults = _defaults_left_out(model, columns)
    buffer = io.StringIO()
    for row in rows:
        values = (*row, *(default() for default in defaults.values()))
        buffer.write("\t".join(_copy_text(value) for value in values) + "\n")
    buffer.seek(0)
    cur.copy_expert(f"COPY {model._meta.table_name} ({', '.join([*columns, *defaults])}) FROM STDIN", buffer)


def _defaults_left_out(model: type[peewee.Model], columns: tuple[str, ...]) -> dict[str, Callable[[], object]]:
    """Column -> a maker of its default value, for the model's NOT NULL columns not in ``columns``."""
    found: dict[str, Callable[[], object]] = {}
    for field in model._meta.sorted_fields:
        if field.column_name in columns or field.null or field.default is None:
            continue
        default = field.default

        def make(field=field, default=default):
            return field.db_value(default() if callable(default) else default)

        found[field.column_name] = make
    return found


def _copy_text(value: object) -> str:
    """A value in COPY's text format (None is NULL)."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    return str(value)


def seed(url: str, per_origin: int) -> None:
    """400k proposals (half per origin), their status history, offers, analyses and contracts."""
    rnd = random.Random(20260511)
    statuses, weights = list(OUTCOMES), [w for w, _ in OUTCOMES.values()]
    proposals, history, offers, analyses, contracts = [], [], [], [], []
    for origin in ("PARTNER_A", "PARTNER_B"):
        for _ in range(per_origin):
            pid, status = str(uuid.uuid4()), rnd.choices(statuses, weights)[0]
            created = END - timedelta(seconds=rnd.randrange(365 * 86400))
            steps = _history(status)
            updated = created + timedelta(minutes=len(steps) * rnd.randrange(1, 600))
            first, last = rnd.choice(FIRST), rnd.choice(LAST)
            # Valid check digits: the customer routes refuse any other CPF (same random draws as before).
            cpf = with_check_digits(f"{rnd.randrange(10**10, 10**11):011d}"[:9])
            email = f"{first.lower()}.{last.lower()}{rnd.randrange(1000)}@{rnd.choice(DOMAINS)}"
            phone = f"+55{rnd.randrange(11, 99)}9{rnd.randrange(10**8):08d}"
            banked = "BANK_DATA_SUBMITTED" in steps
            offer_id = str(uuid.uuid4()) if "OFFER_SELECTED" in steps else None
            proposals.append(
                (
                    pid,
                    origin,
                    "7c1f3f4e-0000-4000-8000-000000000001",
                    cpf,
                    f"{first} {rnd.choice(LAST)} {last}",
                    "1980-01-01",
                    email,
                    phone,
                    status,
                    rnd.choice(BANKS) if banked else None,
                    "0001" if banked else None,
                    f"{rnd.randrange(10**7):08d}" if banked else None,
                    "1" if banked else None,
                    "checking" if banked else None,
                    "f",
                    offer_id,
                    len(steps) - 1,
                    created.replace(tzinfo=None),
                    updated.replace(tzinfo=None),
                )
            )
            for seq, new in enumerate(steps):
                history.append(
                    (
                        pid,
                        seq,
                        steps[seq - 1] if seq else None,
                        new,
                        "SEED",
                        "http",
                        (created + timedelta(minutes=seq)).replace(tzinfo=None),
                    )
                )
            if "CREDIT_CHECK_COMPLETED" in steps:
                approved = (created + timedelta(minutes=4)).replace(tzinfo=None)
                analyses.append(
                    (
                        str(uuid.uuid4()),
                        pid,
                        cpf,
                        origin,
                        "APPROVED",
                        1,
                        "initial",
                        "hybrid",
                        "f",
                        "f",
                        "10000.00",
                        approved,
                        approved,
                        approved,
                    )
                )
            if offer_id:
                offers.append(
                    (
                        offer_id,
                        pid,
                        "analysis",
                        "standard",
                        "5000.00",
                        24,
                        "289.15",
                        "1.9900",
                        (created + timedelta(days=7)).replace(tzinfo=None),
                        "{}",
                        created.replace(tzinfo=None),
                    )
                )
            if "CONTRACT_GENERATED" in steps:
                paid = (created + timedelta(days=2)).replace(tzinfo=None) if status == "DISBURSED" else None
                contracts.append(
                    (
                        str(uuid.uuid4()),
                        pid,
                        offer_id,
                        origin,
                        cpf,
                        "ISSUED",
                        "5000.00",
                        "6939.60",
                        "289.15",
                        24,
                        "1.9900",
                        "2026-12-05",
                        "2028-11-05",
                        "f",
                        paid,
                        created.replace(tzinfo=None),
                        created.replace(tzinfo=None),
                    )
                )
    conn = psycopg2.connect(url)
    with conn, conn.cursor() as cur:
        _copy(cur, Proposal, COPIED_COLUMNS[Proposal], proposals)
        _copy(cur, StatusChange, COPIED_COLUMNS[StatusChange], history)
        _copy(cur, CreditAnalysis, COPIED_COLUMNS[CreditAnalysis], analyses)
        _copy(cur, Offer, COPIED_COLUMNS[Offer], offers)
        _copy(cur, Contract, COPIED_COLUMNS[Contract], contracts)
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute("VACUUM ANALYZE")
    conn.close()
