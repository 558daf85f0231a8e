"""Banking data for disbursement (POST banking-data) and the authorised bank list."""

from marshmallow import Schema, fields, validate

from models.services.banking.options import ACCOUNT_TYPES, KEY_TYPES
from schemas import edge
from schemas.fields import Uuid


class BankingDataSchema(Schema):
    """Three mutually exclusive options; combination rules live in models/services/banking/options."""

    bank_code = fields.String(
        validate=edge.digits(1, 3, "must be a COMPE code of up to 3 digits"),
        metadata={"example": "001", "description": "3-digit COMPE code; leading zeros restored"},
    )
    bank_branch = fields.String(validate=edge.digits(1, 5), metadata={"example": "1234"})
    bank_branch_digit = fields.String(allow_none=True, validate=edge.Pattern(r"^[0-9Xx]$", error="one digit or X"))
    bank_account = fields.String(
        validate=edge.digits(1, 20),
        metadata={"example": "123456", "description": "without the digit"},
    )
    bank_account_digit = fields.String(validate=edge.Pattern(r"^[0-9Xx]{1,2}$", error="one or two digits or X"))
    account_type = fields.String(validate=validate.OneOf(sorted(ACCOUNT_TYPES)))
    use_pix_cpf = edge.Boolean(metadata={"description": "true: the customer's CPF is the Pix key; no other field"})
    pix_key = edge.Text(min_length=1, max_length=77, metadata={"example": "maria@example.com"})
    pix_key_type = edge.Text(
        max_length=8,
        metadata={"description": "EVP, EMAIL, PHONE or CPF (CNPJ is not accepted)", "enum": list(KEY_TYPES)},
    )


class BankingDataResultSchema(Schema):
    message = fields.String(required=True)
    proposal_id = Uuid(required=True)
    status = fields.String(
        required=True,
        metadata={
            "description": "BANK_DATA_SUBMITTED, or PIX_KEY_CPF_MISMATCH / PIX_KEY_NOT_CONFIRMED with ok false",
            "enum": ["BANK_DATA_SUBMITTED", "PIX_KEY_CPF_MISMATCH", "PIX_KEY_NOT_CONFIRMED"],
        },
    )
    ok = fields.Boolean(required=True)


class BankSchema(Schema):
    code = fields.String(required=True, metadata={"example": "001"})
    name = fields.String(required=True)


class BankListSchema(Schema):
    banks = fields.List(fields.Nested(BankSchema), required=True)
    total = fields.Integer(required=True)
