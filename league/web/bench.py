"""The load test's reference page (registered only with LEAGUE_BENCH=1).

`/_bench/baseline` renders a 16-row table in the site's layout without touching
the database: what a page costs in Flask, Jinja and the WSGI server alone.
bench/load.sh compares the real pages' throughput with it.
"""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("bench", __name__, url_prefix="/_bench")

ROWS = tuple(
    {
        "number": n,
        "name": f"Player {n}",
        "position": "Lineman",
        "stats": (6, 3, 3, 4, 9),
        "skills": "Block, Dodge" if n % 3 == 0 else "-",
        "spp": n * 2,
        "value": 50_000 + 1_000 * n,
    }
    for n in range(1, 17)
)


@bp.get("/baseline")
def baseline() -> str:
    return render_template("bench/baseline.html", rows=ROWS)
