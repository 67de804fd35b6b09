"""The web layer stays readable: no function of league/web over 80 lines (issue 29, sizes).

A view gates, calls one service and renders or redirects; what it needs more (a message,
a confirmation's explanation) is a helper of its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "league" / "web"
LONGEST = 80


def test_no_function_of_the_web_layer_is_over_80_lines() -> None:
    paths = sorted(WEB.rglob("*.py"))
    assert paths, "league/web has no modules"
    long = [
        f"{path.relative_to(WEB)}:{node.lineno} {node.name} ({length} lines)"
        for path in paths
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > LONGEST
    ]
    assert long == []
