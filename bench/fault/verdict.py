"""The checks of a fault-injection run and its report. Pure: plain values in, text out.

Checks (each a Check with its failures spelled out):
  final     every proposal DISBURSED (each other status named, with its proposals)
  payments  exactly one payment per DISBURSED proposal, none for any other
  events    every status change recorded in the database delivered at least once to its partner
  outbox    no due, unpublished outbox row left
  http      no 500 and no unanswered request; every 5xx a 503 with the spec's body and Retry-After
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

SHOWN = 12  # ids listed per group in the report


@dataclass
class Check:
    name: str
    ok: bool
    summary: str
    details: list[str] = field(default_factory=list)


@dataclass
class Verdict:
    checks: list[Check]
    report: str

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def failed(self) -> list[str]:
        return [f"{check.name}: {check.summary}" for check in self.checks if not check.ok]

    def __repr__(self) -> str:  # short: pytest prints it next to every failed check
        names = [check.name for check in self.checks if not check.ok]
        return f"Verdict({'PASS' if not names else 'FAIL: ' + ', '.join(names)})"


def _short(ids) -> str:
    ids = sorted(ids)
    shown = ", ".join(i[:8] for i in ids[:SHOWN])
    return shown + (f" (+{len(ids) - SHOWN} more)" if len(ids) > SHOWN else "")


def _window(at: float, faults) -> str:
    """Where ``at`` falls among the faults: during one, or before the next one."""
    for record in faults:
        if record.covers(at):
            return f"during {record.fault.label()}"
        if at < record.started_at:
            return f"before {record.fault.label()}"
    return "after the last fault"


def check_final(proposals: dict[str, str], journeys, changes, faults) -> Check:
    by_status: dict[str, list[str]] = defaultdict(list)
    for proposal_id, status in proposals.items():
        by_status[status].append(proposal_id)
    never = [j for j in journeys if not j.proposal_id]
    last_change: dict[str, float] = {}
    for change in changes:
        last_change[change.proposal_id] = max(last_change.get(change.proposal_id, change.at), change.at)
    gave_up = {j.proposal_id: j.detail for j in journeys if j.proposal_id and j.ended == "gave_up"}
    details = []
    for status, ids in sorted(by_status.items(), key=lambda item: -len(item[1])):
        if status == "DISBURSED":
            continue
        whens = Counter(_window(last_change[i], faults) for i in ids if i in last_change)
        when = "; ".join(f"{count} entered it {window}" for window, count in whens.most_common())
        details.append(f"{len(ids)} in {status} ({when}): {_short(ids)}")
        reasons = Counter(gave_up[i].split(":")[0] for i in ids if i in gave_up)
        for reason, count in reasons.most_common(3):
            details.append(f"    partner gave up on {count}: {reason}")
    if never:
        sample = never[0].detail or "no detail"
        details.append(f"{len(never)} journeys never got a proposal (first: {sample[:160]})")
    disbursed = len(by_status.get("DISBURSED", []))
    total = len(proposals)
    ok = disbursed == total == len(journeys) and not never
    return Check("final", ok, f"{disbursed} of {len(journeys)} proposals DISBURSED ({total} created)", details)


def check_payments(proposals: dict[str, str], payments) -> Check:
    paid: dict[str | None, list] = defaultdict(list)
    failed = [p for p in payments if p.status != "PAID"]
    for payment in payments:
        if payment.status == "PAID":
            paid[payment.proposal_id].append(payment)
    details = []
    disbursed = [pid for pid, status in proposals.items() if status == "DISBURSED"]
    unpaid = [pid for pid in disbursed if not paid.get(pid)]
    twice = [pid for pid, rows in paid.items() if pid is not None and len(rows) > 1]
    paid_not_disbursed = [pid for pid in paid if pid is not None and proposals.get(pid) != "DISBURSED"]
    orphans = paid.get(None, [])
    if unpaid:
        details.append(f"{len(unpaid)} DISBURSED without a payment: {_short(unpaid)}")
    if twice:
        details.append(f"{len(twice)} paid more than once: {_short(twice)}")
    if paid_not_disbursed:
        states = Counter(proposals.get(pid, "?") for pid in paid_not_disbursed)
        details.append(
            f"{len(paid_not_disbursed)} paid but not DISBURSED ({dict(states)}): {_short(paid_not_disbursed)}"
        )
    if orphans:
        details.append(f"{len(orphans)} payments matching no contract: {_short(p.idempotency_key for p in orphans)}")
    if failed:
        details.append(f"{len(failed)} payments not PAID (informative): {dict(Counter(p.status for p in failed))}")
    ok = not (unpaid or twice or paid_not_disbursed or orphans)
    once = sum(1 for pid in disbursed if len(paid.get(pid, [])) == 1)
    return Check("payments", ok, f"{once} of {len(disbursed)} DISBURSED proposals paid exactly once", details)


def check_events(changes, received, faults, delivery_of: dict | None = None) -> Check:
    """``delivery_of``: (proposal id, sequence) -> the service's delivery row status, to say what
    became of each missing event (PENDING: nothing drives it again; none: never recorded)."""
    got = Counter((event.proposal_id, event.sequence) for event in received)
    missing = [c for c in changes if got[(c.proposal_id, c.sequence)] == 0]
    duplicates = sum(count - 1 for count in got.values() if count > 1)
    known = {(c.proposal_id, c.sequence) for c in changes}
    unknown = sum(count for key, count in got.items() if key not in known)
    details = []
    if missing:
        by_status = Counter(c.new_status for c in missing)
        details.append("missing by new status: " + ", ".join(f"{s} {n}" for s, n in by_status.most_common()))
        by_window = Counter(_window(c.at, faults) for c in missing)
        details.append("missing, changed: " + "; ".join(f"{n} {w}" for w, n in by_window.most_common()))
        if delivery_of is not None:
            rows = Counter(delivery_of.get((c.proposal_id, c.sequence), "none") for c in missing)
            details.append(
                "missing, the service's delivery row: " + ", ".join(f"{s} {n}" for s, n in rows.most_common())
            )
        details.append("e.g. " + ", ".join(f"{c.proposal_id[:8]}#{c.sequence} {c.new_status}" for c in missing[:SHOWN]))
    if unknown:
        details.append(f"{unknown} received events match no recorded change")
    summary = (
        f"{len(changes) - len(missing)} of {len(changes)} status changes delivered at least once; "
        f"{len(missing)} missing, {duplicates} duplicates (allowed)"
    )
    return Check("events", not missing, summary, details)


def check_outbox(due: int, parked: int, due_actors: dict[str, int]) -> Check:
    details = [f"due by actor: {due_actors}"] if due_actors else []
    if parked:
        details.append(f"{parked} parked rows (informative)")
    summary = "outbox unreadable" if due < 0 else f"{due} due unpublished outbox rows"
    return Check("outbox", due == 0, summary, details)


def check_http(problems, faults) -> Check:
    bad = [p for p in problems if p.code is None or p.code != 503 or not p.spec_body or not p.retry_after]
    details = []
    groups = Counter((_window(p.at, faults), p.code, p.method, p.route) for p in problems)
    for (window, code, method, route), count in sorted(groups.items(), key=lambda item: (item[0][0], -item[1])):
        label = "no answer" if code is None else str(code)
        details.append(f"{window}: {label} x{count} {method} {route}")
    samples = {}
    for problem in bad:
        samples.setdefault((problem.code, problem.detail[:60]), problem)
    for problem in list(samples.values())[:5]:
        details.append(f"sample {problem.code} {problem.method} {problem.route}: {problem.detail[:160].strip()}")
    codes = Counter("no answer" if p.code is None else p.code for p in problems)
    summary = (
        f"{len(problems)} 5xx or unanswered ({dict(codes)}); {len(bad)} not a 503 with the spec's body and Retry-After"
    )
    return Check("http", not bad, summary, details)


def judge(run) -> Verdict:
    """``run``: an object with plan, evidence, journeys, problems, faults, restarts, timings (run.py)."""
    evidence = run.evidence
    checks = [
        check_final(evidence.proposals, run.journeys, evidence.changes, run.faults),
        check_payments(evidence.proposals, evidence.payments),
        check_events(evidence.changes, evidence.received, run.faults, evidence.delivery_of),
        check_outbox(evidence.outbox_due, evidence.outbox_parked, evidence.outbox_due_actors),
        check_http(run.problems, run.faults),
    ]
    return Verdict(checks, render(run, checks))


def _stuck(evidence, faults) -> list[str]:
    """One line per proposal left short of DISBURSED (the first SHOWN): where, since when, paid?"""
    stuck = sorted(pid for pid, status in evidence.proposals.items() if status != "DISBURSED")
    if not stuck:
        return []
    last: dict[str, float] = {}
    for change in evidence.changes:
        last[change.proposal_id] = max(last.get(change.proposal_id, change.at), change.at)
    paid = Counter(p.proposal_id for p in evidence.payments if p.status == "PAID")
    lines = [f"proposals not DISBURSED ({len(stuck)}; the first {min(len(stuck), SHOWN)}):"]
    for pid in stuck[:SHOWN]:
        at = last.get(pid)
        since = f"since +{at:.1f} s ({_window(at, faults)})" if at is not None else "no history"
        contracts = ", ".join(evidence.contracts.get(pid, [])) or "none"
        lines.append(
            f"  {pid} {evidence.proposals[pid]} {since}; contract {contracts}; payments PAID: {paid.get(pid, 0)}"
        )
    return lines


def render(run, checks: list[Check]) -> str:
    lines = [f"fault-injection run: {run.plan.describe()}"]
    lines += [f"  {line}" for line in run.timings]
    lines.append("faults (seconds since the run's start):")
    for record in run.faults:
        in_flight = {s: n for s, n in record.in_flight.items() if s != "DISBURSED"}
        lines.append(
            f"  +{record.started_at:6.1f} .. +{record.ended_at:6.1f}  {record.fault.label()}: {record.detail}; "
            f"proposals not yet disbursed at its start: {in_flight}"
        )
    if run.restarts:
        restarted = Counter((r.name, r.exit_code) for r in run.restarts)
        lines.append(
            "process manager restarts: "
            + ", ".join(f"{name} (exit {code}) x{n}" for (name, code), n in restarted.items())
        )
    ended = Counter(j.ended for j in run.journeys)
    failures = sum((j.step_failures for j in run.journeys), Counter())
    lines.append(f"partner journeys: {dict(ended)}; steps that failed and were taken again: {dict(failures)}")
    first: dict[str, str] = {}
    for journey in run.journeys:
        for step, message in journey.first_failures.items():
            first.setdefault(step, message)
    lines += [f"  first failure of {step}: {message[:200]}" for step, message in first.items()]
    evidence = run.evidence
    lines.append(f"webhook deliveries (status events) by status: {evidence.deliveries}")
    if evidence.dead_letters:
        lines.append(f"dead-lettered messages: {evidence.dead_letters}")
    else:
        lines.append("dead-lettered messages: none")
    lines += _stuck(evidence, run.faults)
    lines.append("checks:")
    for check in checks:
        lines.append(f"  [{'PASS' if check.ok else 'FAIL'}] {check.name}: {check.summary}")
        lines += [f"         {detail}" for detail in check.details]
    failed = [check.name for check in checks if not check.ok]
    lines.append(f"VERDICT: {'PASS' if not failed else 'FAIL (' + ', '.join(failed) + ')'}")
    return "\n".join(lines)
