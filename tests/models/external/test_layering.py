"""Adapters talk to external systems only: no use case and no business policy is imported there."""
import ast
from pathlib import Path

import models.external

EXTERNAL_DIR = Path(models.external.__file__).parent


def _service_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return [name for name in names if name == "models.services" or name.startswith("models.services.")]


def test_no_adapter_imports_a_service():
    offenders = {str(path.relative_to(EXTERNAL_DIR)): _service_imports(path) for path in EXTERNAL_DIR.rglob("*.py")}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_check_sees_a_service_import(tmp_path):
    sample = tmp_path / "bad.py"
    sample.write_text("import os\nfrom models.services.credit import analysis\nimport models.services.queries\n")
    assert _service_imports(sample) == ["models.services.credit", "models.services.queries"]
