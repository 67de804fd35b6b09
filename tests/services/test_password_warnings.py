"""zxcvbn's warnings are English; every one it can give is marked for the catalogues."""

from __future__ import annotations

import ast
import inspect

import zxcvbn.feedback

from league.services.users import ZXCVBN_WARNINGS, password_problem


def _warnings_in_zxcvbn() -> set[str]:
    """The texts zxcvbn assigns to a warning (`warning = _(...)`, `"warning": _(...)`)."""
    tree = ast.parse(inspect.getsource(zxcvbn.feedback))
    found: set[str] = set()
    for node in ast.walk(tree):
        value = None
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "warning" for t in node.targets
        ):
            value = node.value
        elif isinstance(node, ast.Dict):
            for key, item in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "warning":
                    value = item
                    if isinstance(value, ast.Call) and value.args:
                        arg = value.args[0]
                        if isinstance(arg, ast.Constant) and arg.value:
                            found.add(arg.value)
            continue
        if isinstance(value, ast.Call) and value.args:
            arg = value.args[0]
            if isinstance(arg, ast.Constant) and arg.value:
                found.add(arg.value)
    return found


def test_every_zxcvbn_warning_is_marked() -> None:
    in_zxcvbn = _warnings_in_zxcvbn()
    assert len(in_zxcvbn) >= 10  # the parse found them
    assert in_zxcvbn <= ZXCVBN_WARNINGS


def test_the_warning_is_part_of_the_refusal() -> None:
    problem = password_problem("qwertyuiop", "grim")
    assert problem is not None
    assert problem.startswith("That password is too easy to guess: ")
