"""Sizes that read: no module of `league` over 800 lines, no function over 80.

Walks every module with `ast`. A function is counted from its ``def`` line to its last
line (decorators aside, its docstring and nested functions in); methods and nested
functions are checked too, each named by where it sits (``Class.method``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "league"
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80


def _functions(
    node: ast.AST, prefix: str = ""
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield prefix + child.name, child
            yield from _functions(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, f"{prefix}{child.name}.")
        else:
            yield from _functions(child, prefix)


def _sizes() -> dict[str, tuple[int, int]]:
    """Every module and function of `league`: its length and its limit."""
    found: dict[str, tuple[int, int]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        name = path.relative_to(ROOT).as_posix()
        found[name] = (len(source.splitlines()), MAX_MODULE_LINES)
        for qualified, function in _functions(ast.parse(source, filename=name)):
            length = (function.end_lineno or function.lineno) - function.lineno + 1
            found[f"{name}::{qualified}"] = (length, MAX_FUNCTION_LINES)
    return found


def test_no_module_or_function_is_over_its_size() -> None:
    sizes = _sizes()
    assert len(sizes) > 100, "the walk found too little of league/"
    over = {
        f"{name}: {length} lines (at most {limit})"
        for name, (length, limit) in sizes.items()
        if length > limit
    }
    assert sorted(over) == []


def test_the_size_walk_counts_functions_and_methods_by_their_lines() -> None:
    tree = ast.parse(
        "class Rows:\n"
        "    @property\n"
        "    def count(self) -> int:\n"
        "        def inner() -> int:\n"
        "            return 1\n"
        "        return inner()\n"
        "\n"
        "async def fetch() -> None:\n"
        "    pass\n"
    )
    lengths = {
        name: (function.end_lineno or 0) - function.lineno + 1
        for name, function in _functions(tree)
    }
    # The decorator is not counted; the nested function is counted in its parent too.
    assert lengths == {"Rows.count": 4, "Rows.count.inner": 2, "fetch": 2}
