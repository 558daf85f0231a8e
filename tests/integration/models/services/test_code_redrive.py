"""A verification-code message lost between its commit and its outcome (a crash, a database outage)
is replaced by a new code once it has had no outcome for contact.unanswered_message_seconds: never
one instant earlier, once per lost message, never after a resend or a FAILED send, on its own
channel, and again if the replacement is lost too."""

import re
from dataclasses import replace
from datetime import timedelta

import pytest
from freezegun import freeze_time

from models import runtime
from models.db.contact import MessageSend
from models.db.sandbox import SandboxMessage
from models.domain.errors import DomainError
from models.external.messaging import SMS, WHATSAPP, MessagingError, MessagingPort
from models.external.messaging.sandbox import SandboxMessaging
from models.services.credit import code_redrive, contact
from models.services.platform import metrics
from tests import builders

T0 = builders.T0
WAIT = timedelta(seconds=60)
STEP = timedelta(microseconds=1)


class Crashing(MessagingPort):
    """The process dies after the commit, before the provider's answer is recorded."""

    channel = SMS

    def __init__(self):
        self.codes = []

    def send(self, phone, text, *, reference):
        self.codes.append(re.search(r"\d{6}", text).group())
        raise RuntimeError("worker killed")


class Refusing(MessagingPort):
    channel = SMS

    def send(self, phone, text, *, reference):
        raise MessagingError("provider down")


def settings():
    return runtime.current().settings


def redrive(**overrides):
    rt = runtime.current()
    arguments = dict(
        sms=rt.ports.sms,
        messaging_app=rt.ports.messaging_app,
        contact_settings=rt.settings.contact,
        jwt_signing_key=rt.settings.jwt_signing_key,
        batch_size=50,
    )
    arguments.update(overrides)
    return code_redrive.redrive_lost_codes(**arguments)


def send_contact(proposal, sms):
    return contact.send_contact(
        proposal.origin,
        proposal.id,
        "maria@example.com",
        proposal.phone,
        sms=sms,
        contact_settings=settings().contact,
        jwt_signing_key=settings().jwt_signing_key,
    )


def resend(proposal, channel, *, sms=None, messaging_app=None):
    rt = runtime.current()
    return contact.resend(
        proposal.origin,
        proposal.id,
        channel,
        sms=sms or rt.ports.sms,
        messaging_app=messaging_app or rt.ports.messaging_app,
        contact_settings=rt.settings.contact,
        jwt_signing_key=rt.settings.jwt_signing_key,
    )


def validate(proposal, code):
    return contact.validate(
        proposal.origin,
        proposal.id,
        code,
        proposal.phone,
        contact_settings=settings().contact,
        jwt_signing_key=settings().jwt_signing_key,
    )


def lost_code(proposal):
    """Contact given at T0; the SMS is lost in a crash after the commit. Returns the lost code."""
    crashing = Crashing()
    with freeze_time(T0), pytest.raises(RuntimeError):
        send_contact(proposal, crashing)
    return crashing.codes[0]


def sends(proposal):
    return list(MessageSend.select().where(MessageSend.proposal == proposal.id).order_by(MessageSend.id))


def codes_received(proposal):
    return [row.token for row in SandboxMessage.select().where(SandboxMessage.phone == proposal.phone)]


def test_a_lost_code_is_replaced_once_it_has_waited_the_setting_and_not_before():
    proposal = builders.recorded_proposal()
    lost_code(proposal)
    [lost] = sends(proposal)
    assert (lost.delivery_status, codes_received(proposal)) == ("QUEUED", [])

    with freeze_time(T0 + WAIT - STEP):
        assert redrive() == 0
    assert len(sends(proposal)) == 1

    with freeze_time(T0 + WAIT):
        assert redrive() == 1
        old, new = sends(proposal)
        assert (old.delivery_status, old.error) == (
            "FAILED",
            f"no outcome recorded within 60 s; replaced by message {new.id}",
        )
        assert (new.channel, new.delivery_status, new.recipient) == ("sms", "SENT", proposal.phone)
        [code] = codes_received(proposal)
        assert validate(proposal, code).status == "TOKEN_VALIDATED"


def test_the_lost_code_no_longer_works_once_replaced():
    proposal = builders.recorded_proposal()
    lost = lost_code(proposal)
    with freeze_time(T0 + WAIT):
        redrive()
        [new] = codes_received(proposal)
        if new != lost:  # one chance in a million that the new code is the same number
            with pytest.raises(DomainError) as refused:
                validate(proposal, lost)
            assert refused.value.error_code == "INVALID_TOKEN"


def test_each_lost_message_is_replaced_once():
    proposal = builders.recorded_proposal()
    lost_code(proposal)
    with freeze_time(T0 + WAIT):
        assert redrive() == 1
        assert redrive() == 0
    with freeze_time(T0 + 10 * WAIT):  # the replacement was delivered: nothing more to do
        assert redrive() == 0
    assert len(sends(proposal)) == 2 and len(codes_received(proposal)) == 1


def test_a_replacement_lost_in_turn_is_replaced_again():
    proposal = builders.recorded_proposal()
    lost_code(proposal)
    with freeze_time(T0 + WAIT):
        assert redrive(sms=Crashing()) == 0  # the re-drive's own send dies after its commit
    first, second = sends(proposal)
    assert (first.delivery_status, second.delivery_status) == ("FAILED", "QUEUED")
    with freeze_time(T0 + 2 * WAIT - STEP):
        assert redrive() == 0
    with freeze_time(T0 + 2 * WAIT):
        assert redrive() == 1
    assert [s.delivery_status for s in sends(proposal)] == ["FAILED", "FAILED", "SENT"]
    assert len(codes_received(proposal)) == 1


def test_a_resend_after_the_loss_leaves_nothing_to_replace():
    proposal = builders.recorded_proposal()
    lost_code(proposal)
    with freeze_time(T0 + timedelta(seconds=40)):
        resend(proposal, SMS)
    with freeze_time(T0 + 10 * WAIT):
        assert redrive() == 0
    assert [s.delivery_status for s in sends(proposal)] == ["QUEUED", "SENT"]


def test_a_send_the_provider_refused_is_not_replaced():
    proposal = builders.recorded_proposal()
    with freeze_time(T0), pytest.raises(DomainError):
        send_contact(proposal, Refusing())  # the partner was answered MESSAGE_NOT_SENT
    with freeze_time(T0 + 10 * WAIT):
        assert redrive() == 0
    assert [s.delivery_status for s in sends(proposal)] == ["FAILED"]


def test_a_lost_code_of_a_proposal_that_left_token_sent_is_left_alone():
    proposal = builders.recorded_proposal()
    lost_code(proposal)
    with freeze_time(T0 + timedelta(seconds=40)):
        resend(proposal, SMS)
        validate(proposal, codes_received(proposal)[0])
    builders.message(proposal, delivery_status="QUEUED", sent_at=T0 + timedelta(seconds=50))
    with freeze_time(T0 + 10 * WAIT):
        assert redrive() == 0
        assert code_redrive.unanswered_count(settings().contact) == 0


def test_a_lost_messaging_app_code_goes_out_again_by_the_messaging_app():
    proposal = builders.recorded_proposal()
    with freeze_time(T0):
        send_contact(proposal, SandboxMessaging(SMS))
    with freeze_time(T0 + timedelta(seconds=31)), pytest.raises(RuntimeError):
        resend(proposal, WHATSAPP, messaging_app=Crashing())
    with freeze_time(T0 + timedelta(seconds=31) + WAIT):
        assert redrive() == 1
    channels = [(s.channel, s.delivery_status) for s in sends(proposal)]
    assert channels == [("sms", "SENT"), ("whatsapp", "FAILED"), ("whatsapp", "SENT")]
    latest = SandboxMessage.select().order_by(SandboxMessage.id.desc()).first()
    assert latest.channel == WHATSAPP


def test_a_replacement_the_provider_refuses_is_failed_and_left_to_the_partner():
    proposal = builders.recorded_proposal()
    lost_code(proposal)
    with freeze_time(T0 + WAIT):
        assert redrive(sms=Refusing()) == 0
    with freeze_time(T0 + 10 * WAIT):
        assert redrive() == 0
    assert [s.delivery_status for s in sends(proposal)] == ["FAILED", "FAILED"]


def test_the_setting_at_zero_turns_the_redrive_off():
    proposal = builders.recorded_proposal()
    lost_code(proposal)
    off = replace(settings().contact, unanswered_message_seconds=0)
    with freeze_time(T0 + 10 * WAIT):
        assert redrive(contact_settings=off) == 0
        assert code_redrive.unanswered_count(off) == 0
    assert len(sends(proposal)) == 1


def test_the_gauge_counts_lost_messages_until_they_are_replaced():
    proposals = [builders.recorded_proposal(cpf=builders.next_cpf(), phone=f"+551198765432{i}") for i in range(2)]
    for proposal in proposals:
        lost_code(proposal)

    def gauge():
        [family] = [
            f for f in metrics._business_families(settings().contact) if f.name == "consignado_code_messages_unanswered"
        ]
        return family.samples[0].value

    with freeze_time(T0 + WAIT - STEP):
        assert gauge() == 0
    with freeze_time(T0 + WAIT):
        assert gauge() == 2
        assert redrive(batch_size=1) == 1
        assert gauge() == 1
        redrive()
        assert gauge() == 0


def test_the_lifecycle_sweep_sends_the_new_code(drain, use_runtime):
    every_minute = replace(settings().lifecycle, sweep_interval_seconds=60)
    use_runtime(settings={"lifecycle": every_minute})
    proposal = builders.recorded_proposal()
    lost_code(proposal)
    from models.services.lifecycle.sweep import schedule_next_sweep

    with freeze_time(T0 + timedelta(seconds=30)) as frozen:
        schedule_next_sweep(lifecycle_settings=every_minute)  # the slot at T0 + 60 s
        frozen.move_to(T0 + WAIT)
        drain()
    assert [s.delivery_status for s in sends(proposal)] == ["FAILED", "SENT"]
    assert len(codes_received(proposal)) == 1
