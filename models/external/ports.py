"""Every external system the use cases call, as one container built once per process.

``build_ports(settings)`` chooses each system's adapter by ``external_mode``: "http" builds the real
HTTP adapters, each with its own client (one ``requests.Session``, its pool of connections reused
call after call); "sandbox" builds the deterministic sandbox adapters of the README. The partner
webhook sender follows ``webhooks.transport`` instead ("http" in every mode: partners trying the
sandbox run their own receivers; "recording" keeps requests in memory).

``app.bootstrap`` builds the ports and registers them in ``models.runtime`` for the edges; a use
case receives the port it calls as a keyword parameter named after its field here
(``payroll=``, ``funding=``), so a test passes a fake without patching anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from models.external.account_ownership.port import AccountOwnership
from models.external.auctions.port import AuctionSource
from models.external.collections.port import CollectionsPort
from models.external.credit_engine.port import CreditEnginePort
from models.external.endorsement.port import Endorsement
from models.external.esignature.port import ESignature
from models.external.fraud.port import FraudAnalysis
from models.external.funding.port import Funding
from models.external.messaging.port import SMS, WHATSAPP, MessagingPort
from models.external.partner_endpoints.port import PartnerEndpoints
from models.external.payroll.port import PayrollPort
from models.external.pix_directory.port import PixDirectory
from models.settings import Settings


@dataclass(frozen=True)
class Ports:
    """One adapter per external system (README "How it is built")."""

    payroll: PayrollPort
    credit_engine: CreditEnginePort
    sms: MessagingPort
    messaging_app: MessagingPort
    collections: CollectionsPort
    esignature: ESignature
    funding: Funding
    fraud: FraudAnalysis
    endorsement: Endorsement
    pix_directory: PixDirectory
    account_ownership: AccountOwnership
    partner_endpoints: PartnerEndpoints
    auction_source: AuctionSource


def build_ports(settings: Settings) -> Ports:
    """The adapters ``settings`` asks for, each built once."""
    if settings.external_mode == "http":
        return _http_ports(settings)
    return _sandbox_ports(settings)


def _http_ports(settings: Settings) -> Ports:
    from models.external.account_ownership.http_adapter import HttpAccountOwnership
    from models.external.auctions.http_adapter import HttpAuctionSource
    from models.external.collections.http_adapter import HttpCollections
    from models.external.credit_engine.http_adapter import HttpCreditEngine
    from models.external.endorsement.http_adapter import HttpEndorsement
    from models.external.esignature.http_adapter import HttpESignature
    from models.external.fraud.http_adapter import HttpFraudAnalysis
    from models.external.funding.http_adapter import HttpFunding
    from models.external.http_base import client_for
    from models.external.messaging.http_adapter import HttpMessaging
    from models.external.payroll.http_adapter import HttpPayroll
    from models.external.pix_directory.http_adapter import HttpPixDirectory

    external = settings.external
    esignature = settings.esignature
    return Ports(
        payroll=HttpPayroll(client_for(external.payroll, "payroll")),
        credit_engine=HttpCreditEngine(client_for(external.credit_engine, "credit_engine")),
        sms=HttpMessaging(client_for(external.sms, "sms"), SMS),
        messaging_app=HttpMessaging(client_for(external.messaging_app, "messaging_app"), WHATSAPP),
        collections=HttpCollections(client_for(external.collections, "collections")),
        esignature=HttpESignature(
            esignature.base_url,
            esignature.timeout_seconds,
            f"{settings.public_base_url}/callbacks/esignature",
        ),
        funding=HttpFunding(settings.funding.base_url, settings.funding.timeout_seconds),
        fraud=HttpFraudAnalysis(settings.fraud.base_url, settings.fraud.timeout_seconds),
        endorsement=HttpEndorsement(settings.endorsement.base_url, settings.endorsement.timeout_seconds),
        pix_directory=HttpPixDirectory(settings.pix_directory.base_url, settings.pix_directory.timeout_seconds),
        account_ownership=HttpAccountOwnership(
            settings.account_ownership.base_url, settings.account_ownership.timeout_seconds
        ),
        partner_endpoints=_partner_endpoints(settings),
        auction_source=HttpAuctionSource(settings.auctions.base_url, timeout=settings.auctions.timeout_seconds),
    )


def _sandbox_ports(settings: Settings) -> Ports:
    from models.external.account_ownership.sandbox import SandboxAccountOwnership
    from models.external.auctions.sandbox import SandboxAuctionSource
    from models.external.collections.sandbox import SandboxCollections
    from models.external.credit_engine.sandbox import SandboxCreditEngine
    from models.external.endorsement.sandbox import SandboxEndorsement
    from models.external.esignature.sandbox import SandboxESignature
    from models.external.fraud.sandbox import SandboxFraudAnalysis
    from models.external.funding.sandbox import SandboxFunding
    from models.external.messaging.sandbox import SandboxMessaging
    from models.external.payroll.sandbox import SandboxPayroll
    from models.external.pix_directory.sandbox import SandboxPixDirectory

    return Ports(
        payroll=SandboxPayroll(),
        credit_engine=SandboxCreditEngine(slow_seconds=settings.credit.sandbox_slow_seconds),
        sms=SandboxMessaging(SMS),
        messaging_app=SandboxMessaging(WHATSAPP),
        collections=SandboxCollections(),
        esignature=SandboxESignature(settings.public_base_url),
        funding=SandboxFunding(),
        fraud=SandboxFraudAnalysis(),
        endorsement=SandboxEndorsement(),
        pix_directory=SandboxPixDirectory(),
        account_ownership=SandboxAccountOwnership(),
        partner_endpoints=_partner_endpoints(settings),
        auction_source=SandboxAuctionSource(),
    )


def _partner_endpoints(settings: Settings) -> PartnerEndpoints:
    webhooks = settings.webhooks
    if webhooks.transport == "recording":
        from models.external.partner_endpoints.sandbox import RecordingPartnerEndpoints

        return RecordingPartnerEndpoints()
    from models.external.partner_endpoints.http_adapter import HttpPartnerEndpoints

    # Partners trying the sandbox (and the tests) run receivers on their own machine.
    return HttpPartnerEndpoints(
        connect_timeout=webhooks.connect_timeout_seconds,
        snippet_chars=webhooks.response_snippet_chars,
        public_only=not settings.is_local,
    )
