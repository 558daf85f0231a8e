"""Every table, in dependency order (create_schema creates them all)."""

from models.db.analysis import CreditAnalysis, Offer
from models.db.banking import BankDataSubmission
from models.db.contact import ContactToken, MessageSend
from models.db.contracts import Contract, Disbursement
from models.db.events import StatusEvent
from models.db.idempotency import IdempotencyRecord
from models.db.money_path import MoneyPathStep
from models.db.outbox import OutboxMessage
from models.db.partners import Partner, PartnerCredential
from models.db.proposals import Consent, Proposal, StatusChange
from models.db.sandbox import SandboxMessage
from models.db.sandbox_providers import SandboxFundingApplication, SandboxPayment, SandboxSigningProcess
from models.db.simulations import Simulation
from models.db.webhooks import AuctionProposal, DeliveryAttempt, WebhookDelivery

ALL_TABLES = [
    Partner,
    PartnerCredential,
    Proposal,
    StatusChange,
    Consent,
    ContactToken,
    MessageSend,
    CreditAnalysis,
    Offer,
    Contract,
    Disbursement,
    OutboxMessage,
    WebhookDelivery,
    DeliveryAttempt,
    AuctionProposal,
    Simulation,
    SandboxMessage,  # credit path (issue #4)
    # Contract path: banking-data submissions and the sandbox providers' own state.
    BankDataSubmission,
    SandboxSigningProcess,
    SandboxFundingApplication,
    SandboxPayment,
    # Beyond the spec (issue 16): Idempotency-Key records and the events feed.
    IdempotencyRecord,
    StatusEvent,
    MoneyPathStep,  # the money path's re-drive schedule (issue 12)
]
