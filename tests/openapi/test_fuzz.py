"""Schemathesis drives the served document against the app: examples, coverage (positive and
negative edge cases, undeclared methods, missing auth), fuzzing (positive and negative) and the
stateful phase following the document's links through a partner's journey, with every check,
repeated until the time budget of schemathesis.toml is spent.

The app runs in this process, served over HTTP by waitress from a thread (as ``make run`` serves
it), with the in-process broker's worker running the queued work. Settings: schemathesis.toml
beside this file (seeded, bounded examples). The run must end with 0 failures and 0 errors.
"""

from __future__ import annotations

import collections
import os
import time
from pathlib import Path

import pytest
import schemathesis
from schemathesis.config import SchemathesisConfig
from schemathesis.engine import Status, events, from_schema

from tests.openapi import fuzz_support
from tests.support.wsgi_server import ServedApp

CONFIG = Path(__file__).with_name("schemathesis.toml")


def _describe(recorder, case_id: str, check) -> str:
    interaction = recorder.interactions.get(case_id)
    request = f"{interaction.request.method} {interaction.request.uri}" if interaction else "?"
    body = interaction.request.body[:300] if interaction and interaction.request.body else b""
    answer = interaction.response.status_code if interaction and interaction.response else "no response"
    failure = getattr(check.failure_info, "failure", check.failure_info)
    return f"{recorder.label} [{check.name}] {request} {body!r} -> {answer}: {str(failure)[:500]}"


@pytest.fixture
def hypothesis_home(tmp_path):
    """Hypothesis' own files (its example database) go to a temporary directory, not the work tree."""
    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(tmp_path / "hypothesis")
    yield
    set_hypothesis_home_dir(None)


def test_the_fuzzer_finds_no_failure(app, worker, access_token, monkeypatch, hypothesis_home):
    fuzz_support.install()
    fuzz_support.start_journeys_at_start()
    monkeypatch.setenv("FUZZ_ACCESS_TOKEN", access_token)
    config = SchemathesisConfig.from_path(CONFIG)
    failures, errors = [], []
    cases, calls = collections.Counter(), collections.Counter()
    started = time.monotonic()
    with ServedApp(app) as base_url:
        schema = schemathesis.openapi.from_url(f"{base_url}/v1/openapi.json", config=config)
        for event in from_schema(schema).execute():
            if isinstance(event, events.ScenarioFinished):
                recorder = event.recorder
                cases[str(event.phase)] += len(recorder.cases)
                calls[str(event.phase)] += len(recorder.interactions)
                for case_id, checks in recorder.checks.items():
                    failures.extend(_describe(recorder, case_id, c) for c in checks if c.status == Status.FAILURE)
            elif isinstance(event, (events.NonFatalError, events.FatalError)):
                errors.append(str(getattr(event, "info", None) or getattr(event, "exception", event))[:500])
    elapsed = time.monotonic() - started
    summary = ", ".join(f"{phase} {cases[phase]} cases / {calls[phase]} calls" for phase in sorted(cases))
    print(f"\nfuzzer: {summary}; {elapsed:.1f} s; {len(failures)} failures; {len(errors)} errors")
    report = os.environ.get("FUZZ_REPORT")
    if report:
        Path(report).write_text(f"{summary}; {elapsed:.1f} s\n" + "\n".join(failures + errors))
    assert {"examples", "coverage", "fuzzing", "stateful"} <= set(cases), summary
    assert errors == []
    assert failures == []
