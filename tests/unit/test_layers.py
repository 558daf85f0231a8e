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
            "models.runtime",
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
        ("httpapi", "rabbitmq", "actors", "app", "models.runtime", "models.settings.current"),
        "use cases do not know the web layer, the broker or the actors that call them, nor the process's "
        "runtime: the route or actor passes them the ports and settings sections they use as parameters; "
        "the composition root (app.py) registers what else they need",
    ),
    Rule(
        "models/external",
        ("models.services", "models.runtime", "models.settings.current"),
        "adapters translate one external system and get their configuration when ports.py builds them; "
        "policy lives in the domain or in a use case",
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


def _external_systems() -> list[str]:
    """The systems of models/external/ports.py's Ports, read from its source (nothing imported)."""
    tree = ast.parse((ROOT / "models" / "external" / "ports.py").read_text(encoding="utf-8"))
    ports = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Ports")
    return [node.target.id for node in ports.body if isinstance(node, ast.AnnAssign)]


def adapter_lookups(root: Path = ROOT, systems: list[str] | None = None) -> list[str]:
    """``path:line name`` of every definition or call of a ``get_<system>`` factory under models/
    (``get_messaging`` included): adapters are built once by build_ports and passed to use cases."""
    names = {f"get_{system}" for system in (systems or _external_systems())} | {"get_messaging"}
    found = []
    for path in sorted((root / "models").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                name = node.name
            elif isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            else:
                continue
            if name in names:
                found.append(f"{path.relative_to(root).as_posix()}:{node.lineno} {name}")
    return found


def test_the_ports_container_lists_the_external_systems():
    systems = _external_systems()
    assert {"payroll", "credit_engine", "funding", "partner_endpoints", "auction_source"} <= set(systems)
    assert len(systems) == len(set(systems)) >= 10


def test_nothing_under_models_builds_or_looks_up_an_adapter_per_call():
    found = adapter_lookups()
    if found:
        pytest.fail(
            "per-call adapter factories (use the port the caller passes; build_ports builds them once):\n"
            + "\n".join(found),
            pytrace=False,
        )


def test_the_adapter_lookup_check_sees_definitions_and_calls(tmp_path):
    (tmp_path / "models" / "services").mkdir(parents=True)
    (tmp_path / "models" / "services" / "sample.py").write_text(
        "from models.external import payroll\n"
        "def get_payroll():\n    return None\n"
        "def use():\n    return payroll.get_payroll().query_margin('1'), get_funding(), get_messaging('sms')\n"
    )
    found = adapter_lookups(tmp_path, ["payroll", "funding"])
    assert sorted(found) == [
        "models/services/sample.py:2 get_payroll",
        "models/services/sample.py:5 get_funding",
        "models/services/sample.py:5 get_messaging",
        "models/services/sample.py:5 get_payroll",
    ]


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
    (tmp_path / "models" / "services" / "reads_globals.py").write_text(
        "from models.settings import CreditSettings, current\nfrom models import runtime\n"
    )

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
    services_rule = next(rule for rule in RULES if rule.layer == "models/services")
    assert [(f.line, hit) for f, hit in violations(services_rule, tmp_path)] == [
        (1, "models.settings.current"),
        (2, "models.runtime"),
    ]
    http_rule = next(rule for rule in RULES if rule.layer == "http")
    assert "sample.py:3: from peewee import fn" in _report(violations(http_rule, tmp_path), http_rule)
