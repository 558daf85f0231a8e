"""Customer-level queries: contracts, available loan amount and their summary (by CPF).

Decision: a CPF the origin knows nothing about is not an error: contracts answer 200 with
``total`` 0 and an empty list (spec), the summary answers 200 with nulls and an empty list,
available-loan-amount answers 204 (spec). Only an invalid CPF (malformed or wrong check digits) is refused (400).
"""

from flask import Response

from models.services.queries import customers as customer_queries
from models.services.queries.params import valid_cpf
from schemas.queries import AvailableLoanAmountSchema, CustomerContractsSchema, CustomerSummarySchema

from ..auth import current_origin
from ..blueprint import Blueprint

blp = Blueprint("customers", __name__, description="Customer-level queries by CPF (scoped to the token's origin)")
PREFIX = "/customers"
INVALID_CPF = {400: "INVALID_CPF: 11 digits with valid check digits"}


@blp.route("/<cpf>/contracts", methods=["GET"], endpoint="get_customer_contracts")
@blp.response(200, CustomerContractsSchema)
@blp.errors(INVALID_CPF)
def contracts(cpf):
    """Every contract of the CPF at the token's origin, of every status."""
    items = customer_queries.customer_contracts(valid_cpf(cpf), current_origin())
    return {"cpf": cpf, "total": len(items), "contracts": items}


@blp.route("/<cpf>/available-loan-amount", methods=["GET"], endpoint="get_available_loan_amount")
@blp.response(200, AvailableLoanAmountSchema)
@blp.alt_response(204, description="no approved credit analysis for the CPF (empty body)")
@blp.errors(INVALID_CPF)
def available_loan_amount(cpf):
    """Limit of the last approved analysis minus contracts disbursed since, across origins."""
    available = customer_queries.available_loan_amount(valid_cpf(cpf), current_origin())
    if available is None:
        return Response(status=204)
    return {"cpf": cpf, "available_loan_amount": available.amount, "approved_at": available.approved_at}


@blp.route("/<cpf>/summary", methods=["GET"], endpoint="get_customer_summary")
@blp.response(200, CustomerSummarySchema)
@blp.errors(INVALID_CPF)
def summary(cpf):
    """Email of the latest proposal, available loan amount and contracts of the CPF."""
    return customer_queries.customer_summary(valid_cpf(cpf), current_origin())
