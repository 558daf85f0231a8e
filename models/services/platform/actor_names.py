"""Every dramatiq actor of the service, by name: the one list services and actors agree on.

Services put messages on the outbox by name (they cannot import ``actors/``, which imports them),
so a name is the contract between the two sides. Actors are declared with these members and
services enqueue with them; ``tests/test_actor_names.py`` proves the set equals the declared
actors and that no production ``enqueue`` call passes anything else. A name the relay still
cannot publish (a row written by an older release, say) is parked, not retried forever
(rabbitmq/outbox_relay.py).
"""

from __future__ import annotations

from enum import Enum


class ActorName(str, Enum):
    """Wire name of each actor (the outbox's ``actor_name`` column holds the value)."""

    # credit path
    RUN_CREDIT_ANALYSIS = "run_credit_analysis"
    AUTO_RETRY_CREDIT_ANALYSIS = "auto_retry_credit_analysis"
    CREDIT_ANALYSIS_GAVE_UP = "credit_analysis_gave_up"
    RUN_SIMULATION = "run_simulation"
    # contract path
    VALIDATE_BANK_DATA = "validate_bank_data"
    GENERATE_CONTRACT = "generate_contract"
    CONTRACT_WATCHDOG = "contract_watchdog"
    EXPIRE_SIGNATURE = "expire_signature"
    RELEASE_CONTRACT = "release_contract"
    HANDLE_SIGNATURE_RESULT = "handle_signature_result"
    # after signature
    PROCESS_SIGNED_CONTRACT = "process_signed_contract"
    RUN_FRAUD_ANALYSIS = "run_fraud_analysis"
    ENDORSE_CONTRACT = "endorse_contract"
    DISBURSE = "disburse"
    # webhooks
    DELIVER_STATUS_CHANGE = "deliver_status_change"
    DELIVER_AUCTION = "deliver_auction"
    POLL_AUCTION_PROPOSALS = "poll_auction_proposals"
    # lifecycle
    SWEEP_LIFECYCLE = "sweep_lifecycle"
    SWEEP_MONEY_PATH = "sweep_money_path"

    def __str__(self) -> str:
        return self.value
