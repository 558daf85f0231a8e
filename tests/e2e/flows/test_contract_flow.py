"""The whole contract path through the HTTP API: PRE_ACCEPTED to DISBURSED, sandbox signing included."""

from urllib.parse import urlparse

import freezegun

from models.db.proposals import StatusChange
from tests.builders import HAPPY_PATH, pre_accepted_proposal

# A Tuesday, 12:00 in São Paulo: a business day, outside the payroll maintenance window.
BUSINESS_NOON = "2026-03-10T15:00:00Z"


def test_pre_accepted_to_disbursed_through_the_api(client, auth, drain):
    with freezegun.freeze_time(BUSINESS_NOON, tick=True):
        proposal = pre_accepted_proposal()
        base = f"/v1/proposals/{proposal.id}"
        banking = client.post(f"{base}/banking-data", json={"use_pix_cpf": True}, headers=auth())
        assert (banking.status_code, banking.json["status"]) == (200, "BANK_DATA_SUBMITTED")

        generated = client.post(
            f"{base}/contract", json={"signature_redirect_url": "https://partner.example/done"}, headers=auth()
        )
        assert generated.status_code == 201, generated.json
        signing_path = urlparse(generated.json["user_redirect_url"]).path
        assert client.get(f"{base}/contract", headers=auth()).json["proposal_status"] == "AWAITING_SIGNATURE"

        assert client.get(signing_path).status_code == 200
        drain()
        assert client.get(f"{base}/contract", headers=auth()).json["digital_signature"]["status"] == "IN_PROGRESS"
        signed = client.post(signing_path, json={})
        assert (signed.status_code, signed.headers["Location"]) == (303, "https://partner.example/done")
        drain()

        final = client.get(f"{base}/contract/status", headers=auth())
        assert final.status_code == 200
        assert (final.json["proposal_status"], final.json["contract_status"]) == ("DISBURSED", "ISSUED")
        assert final.json["disbursement"]["disbursement_amount"] == generated.json["principal_amount"]
        history = [
            c.new_status
            for c in StatusChange.select().where(StatusChange.proposal == proposal.id).order_by(StatusChange.sequence)
        ]
        assert history == list(HAPPY_PATH[HAPPY_PATH.index("PRE_ACCEPTED") :])
