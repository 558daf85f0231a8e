"""The documented pool layouts (rabbitmq/pools.py) serve every actor and are what the README shows."""

from pathlib import Path

import pytest

from models import runtime
from rabbitmq import pools
from rabbitmq.queues import ALL_QUEUES

ROOT = Path(__file__).resolve().parents[3]


def _family(queue: str) -> str:
    prefix = runtime.current().settings.queue_prefix
    return queue[len(prefix) :] if prefix and queue.startswith(prefix) else queue


LAYOUTS = pytest.mark.parametrize("layout", sorted(pools.LAYOUTS))


@LAYOUTS
def test_every_actor_queue_is_served_by_a_documented_pool(broker, layout):
    # Given every actor bound after bootstrap (their modules are imported by actors/__init__)
    actor_queues = {name: _family(broker.get_actor(name).queue_name) for name in broker.get_declared_actors()}
    # Then each one's queue is consumed by some pool of the layout
    served = pools.served_queues(pools.LAYOUTS[layout])
    unserved = {name: queue for name, queue in actor_queues.items() if queue not in served}
    assert actor_queues and unserved == {}


@LAYOUTS
def test_every_declared_queue_family_has_a_pool(layout):
    assert set(ALL_QUEUES) - pools.served_queues(pools.LAYOUTS[layout]) == set()


@LAYOUTS
def test_no_queue_is_consumed_by_two_pools(layout):
    queues = [queue for pool in pools.LAYOUTS[layout] for queue in pool.queues]
    assert len(queues) == len(set(queues))


@LAYOUTS
def test_readme_shows_the_layout_from_the_pools_table(layout):
    assert pools.markdown_table(pools.LAYOUTS[layout]) in (ROOT / "README.md").read_text()


def test_the_small_host_layout_is_chosen_on_the_command_line(capsys):
    assert pools.main(["--layout", "small", "procfile"]) == 0
    names = [line.split(":")[0] for line in capsys.readouterr().out.splitlines()[1:]]
    assert names == [f"pool_{pool.name}" for pool in pools.SMALL_HOST_POOLS]
    assert pools.main(["--layout", "tiny", "procfile"]) == 2


def test_pool_command_prefixes_queues_and_applies_overrides(monkeypatch):
    monkeypatch.setenv("QUEUE_PREFIX", "staging.")
    monkeypatch.setenv("POOL_WEBHOOKS_THREADS", "32")
    webhooks = next(pool for pool in pools.POOLS if pool.name == "webhooks")
    assert webhooks.command("dramatiq") == [
        "dramatiq",
        "rabbitmq.worker",
        "--skip-logging",
        "--processes",
        "1",
        "--threads",
        "32",
        "--queues",
        "staging.status_webhook",
        "staging.auction_webhook",
    ]


def test_procfile_lists_the_api_and_one_line_per_pool(monkeypatch):
    monkeypatch.delenv("QUEUE_PREFIX", raising=False)
    lines = pools.procfile().splitlines()
    assert lines[0].startswith("api: gunicorn")
    assert [line.split(":")[0] for line in lines[1:]] == [f"pool_{pool.name}" for pool in pools.POOLS]
