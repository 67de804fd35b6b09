"""Team export and import: a versioned JSON document that carries a team to another league.

The document (``format`` "bbleague-team", ``version`` 1) holds what a team *is*,
without ids or users: the team's staff and treasury, every player who was ever
on it (with SPP, injuries and the advancements still in force) and the treasury
ledger. Importing recreates the team in a league of the same ruleset, in one
transaction, after checking everything against that league's rules; a document
with any problem imports nothing and every problem is reported at once.

The match events behind a player's SPP and injuries (and a team's dedicated
fans) stay in the league the team came from. An imported team therefore gets an
opening balance (``TeamOpening``, ``PlayerOpening``): the caches start from it
and this league's matches add to it (services.recompute.recompute_team), so
``flask recompute --check`` holds. Export, import and export again give the
same document.

Who may import: a commissioner of the receiving league (or a site admin), for
any coach of that league. Coaches cannot import their own teams: a document is
plain JSON anybody can edit, so the SPP and gold it brings need the
commissioner's say-so.

The package, by what it does: `export` writes the document; `checks` (with
`advancements` for a player's advancements) reads one against the receiving league's
rules into a plan (`document`: the plan, the problems and the limits); `writes`
stores the plan.
"""

from __future__ import annotations

from league.services.exchange.checks import check_document
from league.services.exchange.document import InvalidDocument
from league.services.exchange.export import export_team, team_document
from league.services.exchange.writes import import_team

__all__ = ["InvalidDocument", "check_document", "export_team", "import_team", "team_document"]
