"""The fault plan: which faults, in which order, how long, and how much time the run allows.

Pure data: the injector carries a plan out, the verdict reports against it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class FaultKind(str, Enum):
    KILL_WORKERS = "kill_workers"  # SIGKILL every dramatiq process of every pool
    RABBITMQ_RESTART = "rabbitmq_restart"
    POSTGRES_RESTART = "postgres_restart"
    POSTGRES_DOWN = "postgres_down"  # stopped for ``seconds``, then started
    RABBITMQ_DOWN = "rabbitmq_down"

    def __str__(self) -> str:
        return self.value


OUTAGES = frozenset({FaultKind.POSTGRES_DOWN, FaultKind.RABBITMQ_DOWN})
# Seconds a fault takes besides its outage (stop, start, pools back), measured on a 2-core machine;
# only used to bound how long the faults may take.
RECOVERY_ESTIMATE = {
    FaultKind.KILL_WORKERS: 10.0,
    FaultKind.RABBITMQ_RESTART: 12.0,
    FaultKind.POSTGRES_RESTART: 3.0,
    FaultKind.POSTGRES_DOWN: 3.0,
    FaultKind.RABBITMQ_DOWN: 12.0,
}


@dataclass(frozen=True)
class Fault:
    kind: FaultKind
    seconds: float = 0.0  # outage length (POSTGRES_DOWN, RABBITMQ_DOWN)

    def label(self) -> str:
        return f"{self.kind} {self.seconds:.0f} s" if self.kind in OUTAGES else str(self.kind)


@dataclass(frozen=True)
class Plan:
    """``n`` proposals in one wave per fault: a wave is released, and its fault strikes once
    ``money_path_min`` proposals are on the money path (signed, in fraud analysis, endorsing or
    disbursing; at least ``lead`` and at most ``money_path_wait`` seconds after the release), so
    every fault finds proposals at every stage. Once the faults are over and every journey has
    ended, ``settle`` seconds for the service to finish its part. A partner gives up a proposal
    that stays ``patience`` seconds in one status it cannot move on from."""

    n: int
    faults: tuple[Fault, ...]
    concurrency: int = 16
    lead: float = 5.0
    money_path_min: int = 3
    money_path_wait: float = 45.0
    settle: float = 300.0
    patience: float = 240.0
    poll: float = 0.5
    partners: tuple[tuple[str, str, str], ...] = field(
        default=(
            ("PARTNER_A", "sandbox-partner-a", "sandbox-secret-a"),
            ("PARTNER_B", "sandbox-partner-b", "sandbox-secret-b"),
        )
    )

    def waves(self) -> list[int]:
        """Proposals released before each fault (the first waves take the remainder)."""
        count = max(1, len(self.faults))
        size, extra = divmod(self.n, count)
        return [size + (1 if i < extra else 0) for i in range(count)]

    def longest_seconds(self) -> float:
        """An upper bound of the faults' duration (every wait at its limit)."""
        return sum(self.money_path_wait + fault.seconds + 2 * RECOVERY_ESTIMATE[fault.kind] for fault in self.faults)

    def journeys_limit(self) -> float:
        """A safety net for the partner journeys (seconds from the run's start): the faults at
        their longest, a minute per proposal and partner thread, then the settle time. Journeys
        end long before it unless the service stops answering altogether."""
        return self.longest_seconds() + 60.0 * self.n / self.concurrency + self.patience + self.settle

    def describe(self) -> str:
        faults = ", ".join(fault.label() for fault in self.faults)
        return (
            f"{self.n} proposals in waves of {self.waves()[0]}, one before each fault "
            f"({self.concurrency} partner threads); faults: {faults}; settle {self.settle:.0f} s"
        )


def standard_plan(n: int = 300, outage: float = 60.0, **options) -> Plan:
    """The issue's run: workers SIGKILLed twice, a RabbitMQ restart, a PostgreSQL restart, then
    PostgreSQL down ``outage`` seconds and RabbitMQ down ``outage`` seconds."""
    faults = (
        Fault(FaultKind.KILL_WORKERS),
        Fault(FaultKind.KILL_WORKERS),
        Fault(FaultKind.RABBITMQ_RESTART),
        Fault(FaultKind.POSTGRES_RESTART),
        Fault(FaultKind.POSTGRES_DOWN, outage),
        Fault(FaultKind.RABBITMQ_DOWN, outage),
    )
    options.setdefault("patience", max(240.0, outage + 180.0))
    options.setdefault("settle", max(300.0, outage + 240.0))
    return Plan(n=n, faults=faults, **options)
