"""Hybrid waits wake on their own keys only (models/services/platform/wakeups.py)."""

from __future__ import annotations

import threading
import time

from models.services.platform import wakeups as wakeups_module
from models.services.platform.wakeups import Wakeups


def _waiting(wakeups: Wakeups, keys: tuple[str, ...], timeout: float = 5.0):
    """A thread waiting on ``keys`` until ``done`` is set; returns (thread, done, checks)."""
    done, checks = threading.Event(), []

    def predicate() -> bool:
        checks.append(time.monotonic())
        return done.is_set()

    thread = threading.Thread(target=wakeups.wait_until, args=(predicate, timeout), kwargs={"keys": keys})
    thread.start()
    while not checks:
        time.sleep(0.001)
    return thread, done, checks


def _settle() -> None:
    time.sleep(0.05)


def test_a_wake_of_another_key_does_not_send_the_waiter_back_to_the_database():
    wakeups = Wakeups()
    thread, done, checks = _waiting(wakeups, ("proposal:a",))
    for _ in range(20):
        wakeups.wake(["proposal:b"])
    _settle()
    assert len(checks) == 1
    done.set()
    wakeups.wake(["proposal:b", "proposal:a"])
    thread.join(2)
    assert not thread.is_alive() and len(checks) == 2


def test_a_waiter_naming_no_key_wakes_on_any_key():
    wakeups = Wakeups()
    thread, done, checks = _waiting(wakeups, ())
    done.set()
    wakeups.wake(["proposal:b"])
    thread.join(2)
    assert not thread.is_alive() and len(checks) == 2


def test_a_lost_wake_costs_one_re_check_interval(monkeypatch):
    monkeypatch.setattr(wakeups_module, "RECHECK_SECONDS", 0.05)
    wakeups = Wakeups()
    thread, done, checks = _waiting(wakeups, ("proposal:a",))
    done.set()  # the work finished, but its wake never comes
    thread.join(2)
    assert not thread.is_alive() and len(checks) == 2


def test_two_waiters_on_one_key_both_wake_and_the_key_is_forgotten_when_they_leave():
    wakeups = Wakeups()
    first, first_done, first_checks = _waiting(wakeups, ("proposal:a",))
    second, second_done, second_checks = _waiting(wakeups, ("proposal:a",))
    first_done.set()
    second_done.set()
    wakeups.wake(["proposal:a"])
    first.join(2)
    second.join(2)
    assert not first.is_alive() and not second.is_alive()
    assert len(first_checks) == len(second_checks) == 2
    assert (wakeups._by_key, wakeups._any_key) == ({}, set())


def test_a_timeout_returns_the_last_answer():
    wakeups = Wakeups()
    started = time.monotonic()
    assert wakeups.wait_until(lambda: False, 0.1, keys=("proposal:a",)) is False
    assert time.monotonic() - started >= 0.1


def test_a_wake_between_the_read_and_the_wait_is_not_lost():
    wakeups = Wakeups()
    reads = []

    def predicate() -> bool:
        reads.append(time.monotonic())
        if len(reads) == 1:
            wakeups.wake(["proposal:a"])  # the actor commits right after the first read
            return False
        return True

    started = time.monotonic()
    assert wakeups.wait_until(predicate, 5.0, keys=("proposal:a",)) is True
    assert len(reads) == 2 and time.monotonic() - started < 0.5  # not a re-check interval later


def test_a_poll_answers_with_the_value_it_read_last_and_whether_it_was_done():
    wakeups = Wakeups()
    reads = iter(["PENDING", "PENDING", "DONE", "never read"])
    result: list[tuple[str, bool]] = []

    def wait() -> None:
        result.append(wakeups.poll_until(lambda: next(reads), lambda value: value == "DONE", 5.0, keys=("k",)))

    waiter = threading.Thread(target=wait)
    waiter.start()
    for _ in range(2):
        _settle()
        wakeups.wake(["k"])
    waiter.join(2)
    assert result == [("DONE", True)]
    assert next(reads) == "never read"  # no read after the one that was done


def test_a_poll_that_times_out_answers_with_its_last_read_and_not_done():
    reads = iter(["PENDING", "STILL PENDING"])
    assert Wakeups().poll_until(lambda: next(reads), lambda v: v == "DONE", 0.0) == ("PENDING", False)
