"""The authorised bank list: the only banks the service disburses to (GET /v1/banks serves it).

Codes are 3-digit COMPE codes; callers may send fewer digits, normalised by :func:`normalise_code`.
"""

from __future__ import annotations

AUTHORISED_BANKS: dict[str, str] = {
    "001": "Banco do Brasil S.A.",
    "033": "Banco Santander (Brasil) S.A.",
    "041": "Banco do Estado do Rio Grande do Sul S.A.",
    "070": "BRB - Banco de Brasília S.A.",
    "077": "Banco Inter S.A.",
    "104": "Caixa Econômica Federal",
    "208": "Banco BTG Pactual S.A.",
    "212": "Banco Original S.A.",
    "237": "Banco Bradesco S.A.",
    "260": "Nu Pagamentos S.A.",
    "290": "PagSeguro Internet S.A.",
    "323": "Mercado Pago",
    "336": "Banco C6 S.A.",
    "341": "Itaú Unibanco S.A.",
    "380": "PicPay",
    "422": "Banco Safra S.A.",
    "748": "Banco Cooperativo Sicredi S.A.",
    "756": "Banco Cooperativo do Brasil S.A. - Sicoob",
}


def normalise_code(code: str) -> str:
    """COMPE code with leading zeros restored: "1" -> "001"."""
    return code.strip().zfill(3)


def is_authorised(code: str | None) -> bool:
    """True when ``code`` (normalised or not) is on the authorised list."""
    return bool(code) and normalise_code(code) in AUTHORISED_BANKS


def listing() -> list[dict]:
    """Every authorised bank as {code, name}, ordered by code."""
    return [{"code": code, "name": name} for code, name in sorted(AUTHORISED_BANKS.items())]
