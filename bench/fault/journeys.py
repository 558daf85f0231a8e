"""Partner journeys that survive faults: each reads the proposal's status and takes the next step
from there (bench.flow.resume_steps), so a step lost to an outage is simply taken again.

A journey ends when the proposal is signed (what follows is the service's alone: the partner
waits for the webhook), final, or stuck: ``patience`` seconds in one status, or the run's
deadline. Journeys start when released (``release``: the injector releases one wave before each
fault), in order, on ``plan.concurrency`` partner threads.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from bench.client import GaveUp, StepFailed
from bench.fault.client import PatientClient, ProblemLog
from bench.flow import RESUME_ACTIONS, resume_steps
from models.domain.statuses import FINAL_STATUSES, SIGNED_FAMILY

HANDED_OVER = frozenset(status.value for status in SIGNED_FAMILY | FINAL_STATUSES)


@dataclass
class Journey:
    """One proposal as its partner saw it."""

    index: int
    partner: str
    customer: dict
    proposal_id: str | None = None
    last_status: str | None = None
    ended: str = "running"  # handed_over | gave_up
    detail: str = ""
    step_failures: Counter = field(default_factory=Counter)
    first_failures: dict[str, str] = field(default_factory=dict)  # step -> its first failure
    started_at: float = 0.0  # seconds since the run's start
    ended_at: float = 0.0


class Journeys:
    """Runs ``plan.n`` journeys on ``plan.concurrency`` partner threads against ``base_url``.

    ``deadline`` (time.monotonic()) is a safety net (Plan.journeys_limit): a journey ends long
    before it, handed over or stuck for ``plan.patience`` seconds."""

    def __init__(self, plan, base_url: str, customers: list[dict], log: ProblemLog, deadline: float) -> None:
        self.plan, self.base_url, self.log, self.deadline = plan, base_url, log, deadline
        self.journeys = [
            Journey(i, plan.partners[i % len(plan.partners)][0], customer) for i, customer in enumerate(customers)
        ]
        self._local = threading.local()
        self._stop = threading.Event()
        self._released = 0
        self._release = threading.Condition()

    def run(self) -> list[Journey]:
        with concurrent.futures.ThreadPoolExecutor(self.plan.concurrency, thread_name_prefix="partner") as pool:
            list(pool.map(self._one, self.journeys))
        return self.journeys

    def release(self, count: int) -> None:
        """Let ``count`` more journeys start."""
        with self._release:
            self._released += count
            self._release.notify_all()

    def stop(self) -> None:
        self._stop.set()
        with self._release:
            self._release.notify_all()

    def _client(self, partner: str) -> PatientClient:
        clients = getattr(self._local, "clients", None)
        if clients is None:
            clients = self._local.clients = {}
        if partner not in clients:
            _, client_id, secret = next(p for p in self.plan.partners if p[0] == partner)
            clients[partner] = PatientClient(
                self.base_url,
                client_id,
                secret,
                log=self.log,
                give_up_at=lambda: self.deadline,
                patience=self.plan.patience,
                poll_interval=self.plan.poll,
            )
        return clients[partner]

    def _one(self, journey: Journey) -> None:
        with self._release:
            self._release.wait_for(lambda: journey.index < self._released or self._stop.is_set())
        if self._stop.is_set():
            journey.ended, journey.detail = "gave_up", "run stopped before it started"
            return
        journey.started_at = time.monotonic() - self.log.started
        try:
            self._drive(journey, self._client(journey.partner))
        except Exception as error:  # recorded per journey: the run goes on
            journey.ended, journey.detail = "gave_up", f"{type(error).__name__}: {error}"[:300]
        journey.ended_at = time.monotonic() - self.log.started

    def _drive(self, journey: Journey, client: PatientClient) -> None:
        state = dict(journey.customer)
        since, seen = time.monotonic(), object()
        while True:
            status = self._status(client, state)
            journey.proposal_id, journey.last_status = state.get("proposal_id"), status
            if status != seen:
                since, seen = time.monotonic(), status
            if status in HANDED_OVER:
                journey.ended = "handed_over"
                return
            stuck_for = time.monotonic() - since
            if self._stop.is_set() or time.monotonic() > self.deadline:
                journey.ended, journey.detail = "gave_up", f"the run's time was up (in {status})"
                return
            if stuck_for > self.plan.patience:
                journey.ended, journey.detail = "gave_up", f"no progress from {status} for {stuck_for:.0f} s"
                return
            steps = resume_steps(status)
            # Nothing to do, or done from this status already and the service's move follows
            # (the signature result arrives after the signing page answered): wait for it.
            if not steps or ("done_from" in state and state["done_from"] == status):
                time.sleep(self.plan.poll)
                continue
            try:
                for step in steps:
                    RESUME_ACTIONS[step](client, state)
                state["done_from"] = status
            except GaveUp as gave_up:
                journey.ended, journey.detail = "gave_up", str(gave_up)
                return
            except StepFailed as failed:
                journey.step_failures[failed.step] += 1
                journey.first_failures.setdefault(failed.step, str(failed)[:300])
                if failed.step == "validate_token":  # expired or used up: ask for a new code
                    RESUME_ACTIONS["resend_token"](client, state)
                time.sleep(self.plan.poll)

    @staticmethod
    def _status(client: PatientClient, state: dict) -> str | None:
        if not state.get("proposal_id"):
            return None
        response = client.call("status", "GET", f"/proposals/{state['proposal_id']}")
        if response.status_code != 200:
            raise StepFailed("status", response)
        return response.json()["status"]
