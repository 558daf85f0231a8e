"""build_ports: one adapter per external system, chosen by external_mode, each HTTP adapter with
its own session (built once, reused call after call)."""

from __future__ import annotations

from models.external.credit_engine.http_adapter import HttpCreditEngine
from models.external.credit_engine.sandbox import SandboxCreditEngine
from models.external.esignature.sandbox import SandboxESignature
from models.external.partner_endpoints.http_adapter import HttpPartnerEndpoints
from models.external.partner_endpoints.sandbox import RecordingPartnerEndpoints
from models.external.payroll.http_adapter import HttpPayroll
from models.external.payroll.sandbox import SandboxPayroll
from models.external.ports import build_ports
from models.settings import load_settings

HTTP = load_settings(
    "staging",
    environ={"JWT_SIGNING_KEY": "k" * 40, "ESIGNATURE_CALLBACK_SECRET": "e" * 32, "FUNDING_CALLBACK_SECRET": "f" * 32},
)
SANDBOX = load_settings("sandbox", environ={})


def test_sandbox_mode_builds_the_sandbox_adapters_from_the_settings():
    ports = build_ports(SANDBOX)
    assert isinstance(ports.payroll, SandboxPayroll)
    assert isinstance(ports.credit_engine, SandboxCreditEngine)
    assert ports.credit_engine.slow_seconds == SANDBOX.credit.sandbox_slow_seconds
    assert isinstance(ports.esignature, SandboxESignature)
    assert ports.esignature.signing_url("p-1") == "http://127.0.0.1:8000/sandbox/esign/p-1"
    assert (ports.sms.channel, ports.messaging_app.channel) == ("sms", "whatsapp")


def test_http_mode_builds_http_adapters_each_with_its_own_session():
    ports = build_ports(HTTP)
    assert isinstance(ports.payroll, HttpPayroll) and isinstance(ports.credit_engine, HttpCreditEngine)
    clients = [
        ports.payroll.client,
        ports.credit_engine.client,
        ports.sms.client,
        ports.messaging_app.client,
        ports.collections.client,
        ports.esignature.client,
        ports.funding.client,
        ports.fraud.client,
        ports.endorsement.client,
        ports.pix_directory.client,
        ports.account_ownership.client,
    ]
    sessions = [client.session for client in clients] + [ports.auction_source.session, ports.partner_endpoints.pools]
    assert len({id(session) for session in sessions}) == len(sessions)
    assert [c.name for c in clients[:4]] == ["payroll", "credit_engine", "sms", "messaging_app"]
    assert clients[0].base_url == HTTP.external.payroll.url
    assert ports.esignature.callback_url == "http://127.0.0.1:8000/callbacks/esignature"


def test_the_partner_sender_follows_the_webhook_transport_in_every_mode():
    assert isinstance(build_ports(SANDBOX).partner_endpoints, HttpPartnerEndpoints)
    recording = load_settings("sandbox", environ={}, overrides={"webhooks": {"transport": "recording"}})
    assert isinstance(build_ports(recording).partner_endpoints, RecordingPartnerEndpoints)
