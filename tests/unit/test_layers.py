"""Layer rules, checked on the imports of every module of each layer (ast, no import executed).

Every ``import`` and ``from ... import`` counts wherever it sits (module level or inside a
function), and relative imports are resolved to the module they name (``http/`` is the package
``httpapi``, see app.py). ``from models import db`` counts as importing ``models.db``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Folders mounted under another package name.
PACKAGE_OF_FOLDER = {"http": "httpapi"}
FRAMEWORKS = (
    "flask",
    "flask_smorest",
    "peewee",
    "playhouse",
    "dramatiq",
    "requests",
    "pika",
    "marshmallow",
    "psycopg2",
)


@dataclass(frozen=True)
class Rule:
    layer: str  # folder, relative to the repository root
    forbidden: tuple[str, ...]  # modules (and everything under them) the layer must not import
    why: str


RULES = (
    Rule(
        "models/domain",
        (
            "models.db",
            "models.services",
            "models.external",
            "models.settings",
            "httpapi",
            "rabbitmq",
            "actors",
            "schemas",
            "app",
            "bench",
            *FRAMEWORKS,
        ),
        "the domain is pure rules: no storage, use case, adapter, setting, web, broker or framework",
    ),
    Rule(
        "models/services",
        ("httpapi", "rabbitmq", "actors", "app"),
        "use cases do not know the web layer, the broker or the actors that call them; the composition root "
        "(app.py) registers what they need from those",
    ),
    Rule(
        "models/external",
        ("models.services",),
        "adapters translate one external system; policy lives in the domain or in a use case",
    ),
    Rule(
        "http",
        ("models.db", "peewee", "playhouse"),
        "routes, presenters and ops commands call use cases; only services touch the database",
    ),
)

# Known violations still to be removed, as (file, imported module). Each must still exist: once it
# is gone, delete its line here so the rule holds for that file too.
# (file, imported module) pairs tolerated while a known violation is being removed; empty now.
KNOWN_VIOLATIONS: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Found:
    path: str  # relative to the root, with "/"
    line: int
    statement: str
    module: str  # the module the statement imports from (relative imports resolved)
    names: tuple[str, ...]  # every module name it may bring in: module, and module.name per imported name


def module_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    parts[0] = PACKAGE_OF_FOLDER.get(parts[0], parts[0])
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(node: ast.ImportFrom, path: Path, root: Path) -> str:
    if node.level == 0:
        return node.module or ""
    package = module_of(path, root).split(".")
    if path.name != "__init__.py":
        package.pop()  # a module's relative imports start from its package
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(path: Path, root: Path = ROOT) -> list[Found]:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    relative = path.relative_to(root).as_posix()
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        statement = " ".join((ast.get_source_segment(source, node) or "").split())
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append(Found(relative, node.lineno, statement, alias.name, (alias.name,)))
        else:
            module = _resolve(node, path, root)
            names = (module, *(f"{module}.{alias.name}" for alias in node.names if alias.name != "*"))
            found.append(Found(relative, node.lineno, statement, module, names))
    return found


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def violations(rule: Rule, root: Path = ROOT) -> list[tuple[Found, str]]:
    """(import, forbidden module it reaches) for every forbidden import of the layer."""
    result = []
    for path in sorted((root / rule.layer).rglob("*.py")):
        for imported in imports_of(path, root):
            hit = next((f for f in rule.forbidden for n in imported.names if _under(n, f)), None)
            if hit is not None:
                result.append((imported, hit))
    return result


def _report(found: list[tuple[Found, str]], rule: Rule) -> str:
    lines = [f"{f.path}:{f.line}: {f.statement}  ({hit} is forbidden in {rule.layer}/)" for f, hit in found]
    return "\n".join([*lines, f"why: {rule.why}"])


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.layer)
def test_the_walker_sees_every_module_of_the_layer(rule):
    paths = list((ROOT / rule.layer).rglob("*.py"))
    assert len(paths) >= 5, f"{rule.layer}: too few modules found ({len(paths)}); is the layer still there?"
    assert sum(len(imports_of(path)) for path in paths) > len(paths), f"{rule.layer}: imports not seen"


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.layer)
def test_layer_imports_nothing_it_must_not(rule):
    found = [(f, hit) for f, hit in violations(rule) if (f.path, f.module) not in KNOWN_VIOLATIONS]
    if found:
        pytest.fail("forbidden imports:\n" + _report(found, rule), pytrace=False)


def test_every_known_violation_still_exists():
    present = {(f.path, f.module) for rule in RULES for f, _ in violations(rule)}
    gone = sorted(KNOWN_VIOLATIONS - present)
    assert not gone, f"fixed, so remove from KNOWN_VIOLATIONS: {gone}"


def test_the_checker_resolves_relative_package_and_function_local_imports(tmp_path):
    (tmp_path / "http" / "routes").mkdir(parents=True)
    (tmp_path / "http" / "routes" / "sample.py").write_text(
        "from ..auth import current_origin\ndef handler():\n    from peewee import fn\n    return fn\n"
    )
    (tmp_path / "models" / "domain" / "loan").mkdir(parents=True)
    (tmp_path / "models" / "domain" / "loan" / "sample.py").write_text(
        "from .. import errors\n"
        "from ...db import proposals\n"
        "from models import db\n"
        "import models.settings as settings\n"
    )
    (tmp_path / "models" / "services").mkdir(parents=True)
    (tmp_path / "models" / "services" / "__init__.py").write_text("from . import platform\n")

    route = imports_of(tmp_path / "http" / "routes" / "sample.py", tmp_path)
    assert [(f.line, f.module) for f in route] == [(1, "httpapi.auth"), (3, "peewee")]
    domain = violations(RULES[0], tmp_path)
    assert [(f.line, f.statement, hit) for f, hit in domain] == [
        (2, "from ...db import proposals", "models.db"),
        (3, "from models import db", "models.db"),
        (4, "import models.settings as settings", "models.settings"),
    ]
    assert [f.module for f in imports_of(tmp_path / "models" / "services" / "__init__.py", tmp_path)] == [
        "models.services"
    ]
    http_rule = next(rule for rule in RULES if rule.layer == "http")
    assert "sample.py:3: from peewee import fn" in _report(violations(http_rule, tmp_path), http_rule)
