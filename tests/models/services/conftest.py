from tests.support.webhooks import configure_partner, new_proposal, receiver, settle  # noqa: F401
