"""Every message the service enqueues names a declared actor, through ActorName."""

import ast
from pathlib import Path

from models.services.platform.actor_names import ActorName

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = ("models", "http", "actors", "rabbitmq", "app.py")


def _production_files():
    for entry in PRODUCTION:
        path = ROOT / entry
        yield from ([path] if path.is_file() else sorted(path.rglob("*.py")))


def test_the_declared_actors_are_exactly_the_actor_names(broker):
    assert set(broker.actors) >= {name.value for name in ActorName}
    service_actors = {name for name, actor in broker.actors.items() if actor.fn.__module__.startswith("actors.")}
    assert service_actors == {name.value for name in ActorName}


def test_every_enqueue_call_names_its_actor_through_actor_name():
    offenders = []
    for path in _production_files():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "enqueue":
                first = node.args[0] if node.args else None
                named = (
                    isinstance(first, ast.Attribute)
                    and isinstance(first.value, ast.Name)
                    and first.value.id == "ActorName"
                    and first.attr in ActorName.__members__
                )
                is_broker_call = (
                    isinstance(node.func, ast.Attribute)
                    and node.func.attr == "enqueue"
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "broker"
                )
                if not named and not is_broker_call:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert offenders == [], "enqueue must name its actor as ActorName.X:\n" + "\n".join(offenders)


def test_actors_are_declared_with_actor_name_members():
    for path in sorted((ROOT / "actors").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.keyword) and node.arg in ("actor_name", "on_failure"):
                assert ast.unparse(node.value).startswith("ActorName."), f"{path.name}: {ast.unparse(node)}"
