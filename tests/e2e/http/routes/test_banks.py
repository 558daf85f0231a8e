"""GET /v1/banks: the authorised list served with code and name."""

from models.services.banking.banks import AUTHORISED_BANKS


def test_lists_every_authorised_bank_with_code_and_name(client, auth):
    response = client.get("/v1/banks", headers=auth())
    assert response.status_code == 200
    assert response.json["total"] == len(AUTHORISED_BANKS)
    assert response.json["banks"][0] == {"code": "001", "name": "Banco do Brasil S.A."}
    assert "999" not in [bank["code"] for bank in response.json["banks"]]


def test_requires_a_token(client):
    assert client.get("/v1/banks").status_code == 401
