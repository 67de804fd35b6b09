"""The NAF (the international Blood Bowl players' association) results report: what
the NAF counts, decided here; `league.services.naf_report` gathers the event's games
and writes the document.

- Race names come from data (``data/naf_races.toml``: our team types -> the NAF's race
  names), so a name can be corrected without code.
- Team ratings are reported in thousands of gold (a team value of 1,150,000 is 1150).
- Only coaches with a NAF number can be reported: a game is reported only when both
  coaches have one.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping

from league.rules.base import RulesetError
from league.rules.loader import DATA_DIR

#: The file of the race mapping, under the rules data.
RACES_FILE = "naf_races.toml"
#: The NAF's report format's namespace (elements qualified).
NAMESPACE = "http://www.bloodbowl.net"
#: ``timeStamp``'s format: YYYY-MM-DD HH:MM.
TIME_STAMP = "%Y-%m-%d %H:%M"


@functools.cache
def naf_races() -> Mapping[str, str]:
    """Our team type ids -> the NAF's race names."""
    with (DATA_DIR / RACES_FILE).open("rb") as handle:
        data = tomllib.load(handle)
    races = data.get("races")
    if not isinstance(races, dict) or not all(
        isinstance(name, str) and name.strip() for name in races.values()
    ):
        raise RulesetError(RACES_FILE, "races", "expected a table of team type = race name")
    return dict(races)


def naf_race(team_type_id: str) -> str | None:
    """The NAF's name of the race of a team type (None: the mapping has none)."""
    return naf_races().get(team_type_id)


def team_rating(team_value: int) -> int:
    """A team value in gold as the NAF reports it: thousands, rounded down."""
    return team_value // 1000


def reportable(naf_number: int | None) -> bool:
    """A coach can be reported to the NAF only with a NAF membership number."""
    return naf_number is not None and naf_number > 0
