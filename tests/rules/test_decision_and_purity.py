"""Decision objects, and the rules package's import discipline."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import league.rules
from league.rules import Decision, Reason

RULES_DIR = Path(league.rules.__file__).parent


def test_decision_allow_and_deny() -> None:
    assert Decision.allow().allowed
    assert Decision.allow().reasons == ()
    assert bool(Decision.allow())
    denied = Decision.deny("not_enough_spp", needed=8, have=5)
    assert not denied
    assert denied.codes == ("not_enough_spp",)
    assert denied.reasons[0] == Reason("not_enough_spp", {"needed": 8, "have": 5})
    assert str(denied.reasons[0]) == "not_enough_spp(needed=8, have=5)"
    assert denied.reason("not_enough_spp") is denied.reasons[0]
    assert denied.reason("other") is None


def test_reason_parameters_are_frozen() -> None:
    reason = Decision.deny("requires", skills=["Throw Team-mate"]).reasons[0]
    assert reason.params["skills"] == ("Throw Team-mate",)
    with pytest.raises(TypeError):
        reason.params["skills"] = ()  # type: ignore[index]


def test_from_reasons() -> None:
    assert Decision.from_reasons([]).allowed
    decision = Decision.from_reasons([Reason("a"), Reason("b")])
    assert decision.codes == ("a", "b")
    assert not decision.allowed


def test_ruleset_is_immutable() -> None:
    ruleset = league.rules.load_ruleset("bb2025")
    with pytest.raises(AttributeError):
        ruleset.name = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        ruleset.advancement.costs["chosen_primary"] = (1,)  # type: ignore[index]


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


#: The translation seam: the rules word their refusals through it (it imports only the
#: standard library itself; Flask-Babel is installed behind it by the app factory).
I18N_DIR = Path(league.rules.__file__).parent.parent / "i18n"
#: The seam and the list of languages it reads; league/i18n/babel.py (Flask-Babel behind
#: the seam) and catalogues.py (build tooling) are not imported by the rules.
I18N_PURE = ("__init__.py", "languages.py")


@pytest.mark.parametrize("path", sorted(RULES_DIR.glob("*.py")), ids=lambda p: p.name)
def test_rules_imports_only_stdlib_and_itself(path: Path) -> None:
    for name in _imports(path):
        top = name.split(".")[0]
        assert (
            top in sys.stdlib_module_names
            or name.startswith("league.rules")
            or name == "league.i18n"
        ), name


@pytest.mark.parametrize("module", I18N_PURE)
def test_the_translation_seam_imports_only_stdlib(module: str) -> None:
    found = _imports(I18N_DIR / module)
    assert found
    for name in found:
        assert name.split(".")[0] in sys.stdlib_module_names or name == "league.i18n.languages", (
            name
        )
