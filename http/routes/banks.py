"""GET /v1/banks: the authorised bank list (valid bank_code values for banking data)."""

from models.services.banking import banks
from schemas.banking import BankListSchema

from ..blueprint import Blueprint

blp = Blueprint("banks", __name__, description="Authorised banks for disbursement")


@blp.route("/banks", endpoint="list_banks")
@blp.response(200, BankListSchema)
@blp.errors({})
def list_banks():
    """Banks the service disburses to, as {code, name} (COMPE code, 3 digits)."""
    listing = banks.listing()
    return {"banks": listing, "total": len(listing)}
