"""Issue 29: one wording registry for refusals, with namespaced reason codes.

Every reason the code base gives is built with `make_reason` or `Decision.deny`
(or the resolver's `_deny`, which passes its code on). These tests read the
sources of `league` and check that each code given there is namespaced by the
rules that refuse and has its words in `league.rules.refusals.WORDINGS`, and that
the registry holds no words for a code nothing gives.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

import league
from league.rules import Decision, Reason, refusal_text
from league.rules.model import make_reason
from league.rules.refusals import WORDINGS, reason_phrase, reason_sentence
from tests.fake_i18n import bracketing

LEAGUE_DIR = Path(league.__file__).parent
RULES_DIR = LEAGUE_DIR / "rules"

#: The calls that build a reason, and the position of their code argument.
REASON_MAKERS = {"make_reason": 0, "deny": 0, "_deny": 2}
#: Functions that only pass on a code their caller gave (checked at those callers).
FORWARDERS = {("rules/model.py", "deny"), ("rules/resolver.py", "_deny")}
NAMESPACED = re.compile(r"^[a-z][a-z_]*\.[a-z][a-z_]*$")


def _name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def _values(node: ast.expr, assigned: dict[str, set[str]]) -> set[str]:
    """The strings ``node`` may evaluate to: a literal, either side of a conditional,
    or what was assigned to a variable."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _values(node.body, assigned) | _values(node.orelse, assigned)
    if isinstance(node, ast.Name):
        return assigned.get(node.id, set())
    return set()


def _codes_in(path: Path) -> dict[str, str]:
    """Each reason code built in ``path``, with where (file:line) it is built."""
    where = path.relative_to(LEAGUE_DIR).as_posix()
    found: dict[str, str] = {}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        # A code chosen in a variable first: the strings assigned to it.
        assigned: dict[str, set[str]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, set()).update(_values(node.value, assigned))
        for call in ast.walk(function):
            if not isinstance(call, ast.Call) or _name(call) not in REASON_MAKERS:
                continue
            position = REASON_MAKERS[_name(call)]
            if len(call.args) <= position:
                continue
            argument = call.args[position]
            if isinstance(argument, ast.Name) and argument.id not in assigned:
                assert (where, function.name) in FORWARDERS, (
                    f"{where}:{call.lineno}: the code {argument.id} comes from elsewhere"
                )
                continue
            codes = _values(argument, assigned)
            assert codes, f"{where}:{call.lineno}: a reason code that is not written out"
            for code in codes:
                found.setdefault(code, f"{where}:{call.lineno}")
    return found


@functools.cache
def _codes_given() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(LEAGUE_DIR.rglob("*.py")):
        for code, where in _codes_in(path).items():
            found.setdefault(code, where)
    return found


def test_every_code_given_is_namespaced_and_has_its_words() -> None:
    given = _codes_given()
    assert len(given) >= 80  # the rules refuse in many ways: the walk found them
    for code, where in given.items():
        assert NAMESPACED.match(code), f"{where}: {code!r} has no namespace"
        assert code in WORDINGS, f"{where}: {code!r} has no words in the registry"


def test_the_registry_words_only_codes_given() -> None:
    assert set(WORDINGS) == set(_codes_given())


def test_every_namespace_names_the_rules_that_refuse() -> None:
    for code in WORDINGS:
        assert NAMESPACED.match(code), code
        domain = code.partition(".")[0]
        assert (RULES_DIR / f"{domain}.py").is_file(), code


def test_a_reason_keeps_its_namespace_and_answers_with_its_code() -> None:
    reason = make_reason("match_day.over_budget", cost=325_000, budget=300_000)
    assert (reason.key, reason.domain, reason.code) == (
        "match_day.over_budget",
        "match_day",
        "over_budget",
    )
    decision = Decision.from_reasons([reason])
    assert decision.codes == ("over_budget",)
    assert decision.reason("over_budget") is reason
    assert decision.reason("match_day.over_budget") is reason


def test_the_same_code_is_worded_for_the_rules_that_gave_it() -> None:
    """A full roster (16 players at most in every edition's team building): when
    hiring, when hiring a journeyman for good after a game, and at the pre-game;
    told apart by the namespace, not by the numbers."""
    hiring = make_reason("team_building.roster_full", max=16)
    after_game = make_reason("postgame.roster_full", max=16)
    pre_game = make_reason("match_day.roster_full", max=16)
    assert refusal_text(hiring, team="Reavers") == (
        "Reavers already has 16 players, the most a team may have."
    )
    assert refusal_text(after_game, team="Reavers") == refusal_text(hiring, team="Reavers")
    assert refusal_text(pre_game, team="Reavers") == "The roster already has 16 players."
    assert refusal_text(hiring, short=True) == "roster full"
    # The same numbers, another namespace: an unknown skill at the pre-game and for
    # an advancement.
    assert refusal_text(make_reason("match_day.unknown_skill", skill="Fly")) == (
        "There is no skill 'Fly' in this ruleset."
    )
    advancement = make_reason("advancement.unknown_skill", skill="Fly")
    assert reason_phrase(advancement) == "no such skill in this ruleset"
    assert (
        reason_sentence(advancement, "Grim") == "Grim asked for a skill this ruleset does not have"
    )


@pytest.mark.parametrize("code", ["advancement.unknown_kind", "advancement.no_random_table"])
def test_a_code_without_words_of_its_own_reads_as_its_words(code: str) -> None:
    reason = make_reason(code, kind="x")
    assert refusal_text(reason) == code.partition(".")[2].replace("_", " ")
    assert reason_phrase(reason) == code.partition(".")[2].replace("_", " ")


def test_a_code_the_registry_does_not_know_reads_as_its_words() -> None:
    assert refusal_text(Reason("somewhere.not_known")) == "not known"


def test_registry_words_are_looked_up_in_the_readers_language() -> None:
    """Issue 20: each sentence is one message id with its numbers put in."""
    with bracketing() as backend:
        text = refusal_text(make_reason("postgame.mvp_die", count=4, die=5))
    assert text.startswith("⟦")
    assert text.endswith(".⟧")
    assert "The die names a nominee from 1 to %(count)d; %(die)d names nobody: roll again." in (
        backend.asked
    )
