"""The domain core must stay framework-free: walk every module's imports with ast."""

import ast
from pathlib import Path

import models.domain

FORBIDDEN = {
    "flask",
    "flask_smorest",
    "peewee",
    "playhouse",
    "dramatiq",
    "pika",
    "requests",
    "marshmallow",
    "psycopg2",
}
DOMAIN_DIR = Path(models.domain.__file__).parent


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_walker_sees_the_domain_modules():
    names = {path.name for path in DOMAIN_DIR.rglob("*.py")}
    assert {
        "clock.py",
        "errors.py",
        "statuses.py",
        "status_machine.py",
        "lifecycles.py",
        "cpf.py",
        "policies.py",
        "credit_limit.py",
        "offer_availability.py",
        "analysis_rules.py",
        "funnel.py",
    } <= names


def test_no_framework_imports_in_domain():
    offenders = {
        str(path.relative_to(DOMAIN_DIR)): sorted(_imported_roots(path) & FORBIDDEN)
        for path in DOMAIN_DIR.rglob("*.py")
    }
    assert {name: bad for name, bad in offenders.items() if bad} == {}


def test_walker_detects_a_forbidden_import(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("import os\nfrom peewee import Model\nimport flask.json\n")
    assert _imported_roots(sample) & FORBIDDEN == {"peewee", "flask"}
