"""Every status event delivered: one local receiver per sandbox partner (set as its webhook URL with
the ops CLI, as partners configure it) and, after the flow, the events received compared with the
status changes the database recorded."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from tests.support.receiver import LocalReceiver

# The sandbox partners the flow drives: code, client id, client secret (seeded at start-up).
PARTNERS = (
    ("PARTNER_A", "sandbox-partner-a", "sandbox-secret-a"),
    ("PARTNER_B", "sandbox-partner-b", "sandbox-secret-b"),
)
# Every change but the creation is announced (models/services/webhooks/status_events.ANNOUNCED).
STATUS_CHANGES = (
    "SELECT p.id, p.origin, s.sequence FROM status_change s JOIN proposal p ON p.id = s.proposal_id "
    "WHERE s.old_status IS NOT NULL"
)


def start_receivers(cli: Callable[..., str]) -> dict[str, LocalReceiver]:
    """A receiver per partner, set as its webhook URL (no auth: the bench checks arrival and order).
    It keeps connections open (HTTP/1.1) as a partner's production endpoint does: with the stdlib's
    HTTP/1.0 every event cost both sides a new TCP connection."""
    receivers = {code: LocalReceiver(keep_alive=True).start() for code, _, _ in PARTNERS}
    for code, receiver in receivers.items():
        cli("partners", "update", code, "--webhook-url", receiver.url(), "--webhook-auth", "none")
    return receivers


def _sequence(request) -> int:
    """The event's X-Event-Sequence header (header names are case-insensitive)."""
    for name, value in request.headers.items():
        if name.lower() == "x-event-sequence":
            return int(value)
    return -1


def _received(receivers: dict[str, LocalReceiver]) -> dict[tuple[str, int], list[str]]:
    """(proposal id, sequence) -> the partners whose receiver got it, from bodies and headers."""
    got: dict[tuple[str, int], list[str]] = {}
    for code, receiver in receivers.items():
        for request in list(receiver.received):
            try:
                body = json.loads(request.body)
                sequence = _sequence(request)
            except ValueError:
                continue
            got.setdefault((body.get("proposal_id"), sequence), []).append(code)
    return got


def check(
    receivers: dict[str, LocalReceiver], rows: Callable[[str], list[tuple]], limit: float = 120.0
) -> dict[str, float | int]:
    """Wait (at most ``limit`` s) until every recorded status change reached its partner's receiver.

    ``rows(sql)`` runs a query on the bench database. Returns expected, delivered, missing,
    misrouted (at another partner's receiver), duplicates, out_of_order (a proposal's events not
    received in sequence order) and the seconds waited after the flow ended."""
    started = time.monotonic()
    while True:
        expected = {(str(pid), int(seq)): origin for pid, origin, seq in rows(STATUS_CHANGES)}
        got = _received(receivers)
        missing = [key for key in expected if key not in got]
        if not missing or time.monotonic() - started > limit:
            break
        time.sleep(0.5)
    misrouted = sum(1 for key, origin in expected.items() if key in got and origin not in got[key])
    duplicates = sum(len(codes) - 1 for codes in got.values())
    return {
        "expected": len(expected),
        "delivered": len(expected) - len(missing),
        "missing": len(missing),
        "misrouted": misrouted,
        "duplicates": duplicates,
        "out_of_order": _out_of_order(receivers),
        "waited": time.monotonic() - started,
    }


def _out_of_order(receivers: dict[str, LocalReceiver]) -> int:
    """Proposals whose events arrived with a sequence lower than one already received."""
    highest: dict[str, int] = {}
    late: set[str] = set()
    arrivals = sorted(
        (request for receiver in receivers.values() for request in list(receiver.received)), key=lambda r: r.at
    )
    for request in arrivals:
        try:
            proposal = json.loads(request.body).get("proposal_id")
            sequence = _sequence(request)
        except ValueError:
            continue
        if sequence < highest.get(proposal, -1):
            late.add(proposal)
        highest[proposal] = max(sequence, highest.get(proposal, -1))
    return len(late)


def print_check(result: dict) -> None:
    print(
        f"  status webhooks: {result['delivered']}/{result['expected']} events delivered to the partners' local "
        f"receivers ({result['missing']} missing, {result['misrouted']} at the wrong partner, "
        f"{result['duplicates']} duplicates, {result['out_of_order']} proposals out of order), "
        f"the last {result['waited']:.1f} s after the flow"
    )
