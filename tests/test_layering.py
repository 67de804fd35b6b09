"""league.rules imports only the standard library, itself and the translation seam
`league.i18n` (docs/architecture.md, Layers; docs/i18n.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "league" / "rules"


def _imported_modules(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(), filename=str(source))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_rules_package_imports_only_the_standard_library_and_the_translation_seam() -> None:
    offenders = {
        f"{path.name}: {module}"
        for path in RULES.rglob("*.py")
        for module in _imported_modules(path)
        if module.split(".")[0] not in sys.stdlib_module_names
        and not (module == "league.rules" or module.startswith("league.rules."))
        # The translation seam, itself standard library only
        # (tests/rules/test_decision_and_purity.py).
        and module != "league.i18n"
    }
    assert sorted(RULES.rglob("*.py")), "the rules package has no modules"
    assert offenders == set()


SERVICES = RULES.parent / "services"


def _league_imports_inside_functions(tree: ast.Module) -> list[int]:
    lines = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else ["league"]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(name.startswith("league") for name in names):
                lines.append(node.lineno)
    return lines


def test_services_import_each_other_only_at_the_top_of_a_module() -> None:
    """A service module that imports another inside a function hides a cycle from a reader
    (docs/architecture.md, "Inside the services"); lint-imports holds the order."""
    offenders = {
        f"{path.name}:{line}"
        for path in SERVICES.rglob("*.py")
        for line in _league_imports_inside_functions(ast.parse(path.read_text()))
    }
    assert sorted(SERVICES.rglob("*.py")), "the services package has no modules"
    assert offenders == set()
