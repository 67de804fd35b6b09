"""Coach ratings and the chart data on the large set (`flask seed-demo --large`): how long
the site-wide ratings (every played match, the NAF ranking formula), a coach's profile,
a league's race and a team's value history take to work out, p50 and p95 over a number
of rounds, on SQLite. They are worked out on every read (nothing is stored), so these
are what a page pays the first time after a write. Measures only.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import func, select

from bench._common import make_app, p50_p95, print_table, sqlite_url, summary, timed
from league.extensions import db
from league.models import League, Match, Team, User
from league.seeding.large_demo import seed_large_demo
from league.services.access import get_league
from league.services.charts import league_race, team_values
from league.services.coaches import coach_profile
from league.services.ratings import league_ratings, site_ratings
from league.services.unit_of_work import unit_of_work

ROUNDS = 10


def main() -> None:
    with sqlite_url() as url:
        app = make_app(url)
        with app.app_context():
            db.create_all()
            with unit_of_work() as session:
                seed_large_demo(session)
            session = db.session
            played = session.scalar(select(func.count()).where(Match.state == "played"))
            league_id = session.scalar(select(League.id).order_by(League.id))
            team = session.scalars(select(Team).where(Team.league_id == league_id)).first()
            if league_id is None or team is None:
                raise SystemExit("the large set has no league with a team")
            coach = session.scalar(select(User.username).where(User.id == team.coach_id)) or ""
            league = get_league(session, league_id)
            cases = {
                f"site-wide ratings ({played} matches)": lambda: site_ratings(session),
                "one league's ratings": lambda: league_ratings(session, league_id),
                "a coach's profile": lambda: coach_profile(session, coach),
                "a league's race": lambda: league_race(session, league),
                "a team's value history": lambda: team_values(session, team.id),
            }
            rows = []
            for name, action in cases.items():
                p50, p95 = p50_p95(timed(action, ROUNDS))
                rows.append((name, f"{p50:.1f}", f"{p95:.1f}"))
            print_table(("SQLite, large set", "p50 ms", "p95 ms"), rows)
            summary("ratings", "a coach's profile (large set, SQLite)", f"{rows[2][1]} ms")


if __name__ == "__main__":
    main()
