"""Request and response shapes of the read side: proposal listing, customers and statistics.

Amounts are Money (JSON numbers, the spec's "number"), instants Instant (``YYYY-MM-DDTHH:mm:ss.sssZ``)
and days Day (``YYYY-MM-DD``): the views hand over Decimals, datetimes and dates.
"""

from marshmallow import Schema, fields

from models.services.queries.params import SORTS, STATUS_CODES
from schemas import edge
from schemas.fields import Day, Instant, Money, Uuid
from schemas.offers import SelectedOfferSchema

# Beyond this page an offset no longer fits every database's integer (and no origin has that many).
MAX_PAGE = 1_000_000
# The whole status list: every status once, with commas.
MAX_STATUS_FILTER = sum(len(code) + 1 for code in STATUS_CODES)


def local_day(description: str) -> edge.Day:
    return edge.Day(metadata={"description": description})


class ProposalListArgsSchema(Schema):
    page = edge.Integer(minimum=1, maximum=MAX_PAGE, query=True, load_default=1, metadata={"description": "1-based"})
    limit = edge.Integer(
        minimum=1, maximum=100, query=True, load_default=10, metadata={"description": "page size, at most 100"}
    )
    cpf = fields.String(
        validate=edge.Pattern(r"^ *[0-9]{0,11} *$", error="must be up to 11 ASCII digits"),
        metadata={"description": "partial match"},
    )
    full_name = edge.NameFilter(
        metadata={"description": "partial match, case-insensitive; normalised like the stored name"}
    )
    email = edge.Text(max_length=254, metadata={"description": "partial match, case-insensitive"})
    phone = fields.String(
        validate=edge.Pattern(r"^ *\+?[0-9]{0,13} *$", error="must be '+' and up to 13 ASCII digits"),
        metadata={
            "description": "partial match; percent-encode '+' as %2B (a bare '+' reads as a space and is ignored)"
        },
    )
    status = edge.Text(
        max_length=MAX_STATUS_FILTER,
        metadata={"description": "comma-separated statuses, any of: " + ", ".join(STATUS_CODES)},
    )
    bank_code = fields.String(
        validate=edge.Pattern(r"^ *[0-9]{0,3} *$", error="must be a COMPE code of up to 3 ASCII digits"),
        metadata={"description": "exact COMPE code; leading zeros optional"},
    )
    created_from = local_day("inclusive, calendar day in America/Sao_Paulo")
    created_to = local_day("inclusive, calendar day in America/Sao_Paulo")
    updated_from = local_day("inclusive, calendar day in America/Sao_Paulo")
    updated_to = local_day("inclusive, calendar day in America/Sao_Paulo")
    sort = edge.Text(max_length=32, load_default="created_at:desc", metadata={"enum": list(SORTS)})


class StatusDetailSchema(Schema):
    code = fields.String()
    name = fields.String()
    description = fields.String()
    order = fields.Integer()


class ProposalItemSchema(Schema):
    id = Uuid()
    cpf = fields.String()
    full_name = fields.String()
    birth_date = Day()
    email = fields.String(allow_none=True)
    phone = fields.String(allow_none=True)
    status = fields.String(metadata={"enum": STATUS_CODES})
    status_detail = fields.Nested(StatusDetailSchema, allow_none=True)
    bank_code = fields.String(allow_none=True)
    agency = fields.String(
        allow_none=True,
        metadata={
            "description": "The branch (bank_branch as submitted; its optional digit is in GET "
            "/proposals/{proposal_id}, banking_data.bank_branch_digit). Null without a traditional account.",
            "example": "1234",
        },
    )
    account = fields.String(
        allow_none=True,
        metadata={
            "description": "The account, masked on purpose: only its last 4 digits, then '-' and its check "
            "digit. A listing is a bulk read (up to 100 proposals with CPF and name a page), and the "
            "partner already holds the full account it submitted. Null without a traditional account.",
            "example": "****5678-9",
        },
    )
    account_type = fields.String(allow_none=True)
    origin = fields.String()
    user_redirect_url = fields.String(allow_none=True)
    selected_offer = fields.Nested(SelectedOfferSchema, allow_none=True)
    created_at = Instant()
    updated_at = Instant()


class PaginationSchema(Schema):
    page = fields.Integer()
    limit = fields.Integer()
    total = fields.Integer()
    totalPages = fields.Integer()
    hasNext = fields.Boolean()
    hasPrev = fields.Boolean()


class AppliedFiltersSchema(Schema):
    cpf = fields.String()
    full_name = fields.String()
    email = fields.String()
    phone = fields.String()
    status = fields.List(fields.String())
    bank_code = fields.String()
    created_from = Day()
    created_to = Day()
    updated_from = Day()
    updated_to = Day()
    sort = fields.String()


class ProposalListSchema(Schema):
    data = fields.List(fields.Nested(ProposalItemSchema))
    pagination = fields.Nested(PaginationSchema)
    filters = fields.Nested(AppliedFiltersSchema, metadata={"description": "echo of the filters applied"})


class CustomerContractSchema(Schema):
    contract_id = Uuid()
    proposal_id = Uuid()
    status = fields.String()
    issuer_application_id = fields.String(allow_none=True)
    principal_amount = Money()
    total_amount = Money()
    installment_amount = Money()
    installments = fields.Integer()
    interest_rate = fields.Float(metadata={"description": "monthly, percent"})
    disbursement_amount = Money(allow_none=True)
    disbursement_date = Day(allow_none=True)
    disbursement_paid_at = Instant(allow_none=True)
    first_due_date = Day(allow_none=True)
    final_due_date = Day(allow_none=True)
    issue_date = Instant(allow_none=True)
    created_at = Instant()


class CustomerContractsSchema(Schema):
    cpf = fields.String()
    total = fields.Integer()
    contracts = fields.List(fields.Nested(CustomerContractSchema))


class AvailableLoanAmountSchema(Schema):
    cpf = fields.String()
    available_loan_amount = Money(
        metadata={
            "description": "The limit recorded at the token origin's last approved analysis of the CPF (the "
            "promotional one after a promotional analysis) minus the principal of every contract of the CPF "
            "disbursed after that approval, at any origin; never negative"
        }
    )
    approved_at = Instant(metadata={"description": "when that analysis (the base) was approved"})


class CustomerSummarySchema(Schema):
    cpf = fields.String()
    email = fields.String(allow_none=True)
    available_loan_amount = Money(allow_none=True)
    available_loan_approved_at = Instant(allow_none=True)
    contracts = fields.List(fields.Nested(CustomerContractSchema))
