#!/usr/bin/env bash
# Throughput under load: gunicorn with 2 workers on 127.0.0.1 and wrk, 10 s per endpoint.
#
# Migrates a fresh SQLite database, seeds the large league set into it (200 teams,
# 10 seasons), serves it with LEAGUE_BENCH=1 (which adds /_bench/baseline: a 16-row
# table in the site's layout, no database), then drives each endpoint with wrk at
# bounded concurrency and prints requests/s, latency p50/p99 and the ratio to the
# baseline. The league, team and player pages are measured signed out, then signed in
# as the measured team's coach and as the commissioner (logged in once through the
# log-in form, the session cookie sent with every request), each signed-in group against
# the baseline page signed in. Needs `wrk` (Debian package; installed with apt-get when run as root,
# otherwise the benchmark is skipped with a message). Measures only.
#
# Settings: LOAD_SECONDS (10), LOAD_CONNECTIONS (8), LOAD_THREADS (2), LOAD_WORKERS (2),
# LOAD_DATABASE (sqlite, or postgresql: a fresh database on LOAD_POSTGRES_SERVER,
# default postgresql+psycopg://postgres@127.0.0.1:5432, dropped at the end; unset: both).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${LOAD_DATABASE:-}" ]; then
    LOAD_DATABASE=sqlite bash bench/load.sh
    echo
    LOAD_DATABASE=postgresql bash bench/load.sh
    exit 0
fi

BIN=.venv/bin
SECONDS_PER_ENDPOINT="${LOAD_SECONDS:-10}"
CONNECTIONS="${LOAD_CONNECTIONS:-8}"
THREADS="${LOAD_THREADS:-2}"
WORKERS="${LOAD_WORKERS:-2}"
DATABASE="$LOAD_DATABASE"
POSTGRES_SERVER="${LOAD_POSTGRES_SERVER:-postgresql+psycopg://postgres@127.0.0.1:5432}"

if ! command -v wrk >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing wrk from Debian..."
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -q wrk >/dev/null 2>&1 \
            || { apt-get update -q >/dev/null && apt-get install -y -q wrk >/dev/null; }
    else
        echo "load test skipped: wrk is not installed and this is not root (apt-get install wrk)."
        exit 0
    fi
fi
if [ ! -x "$BIN/gunicorn" ]; then
    echo "load test skipped: $BIN/gunicorn is missing (make install)."
    exit 0
fi

tmp="$(mktemp -d)"
server=""
postgres_database=""
# CREATE or DROP DATABASE on the PostgreSQL server (autocommit).
postgres() {
    "$BIN/python" -c 'import sys; from sqlalchemy import create_engine, text
engine = create_engine(sys.argv[1] + "/postgres", isolation_level="AUTOCOMMIT")
with engine.connect() as connection:
    connection.execute(text(sys.argv[2]))' "$POSTGRES_SERVER" "$1"
}
cleanup() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    if [ -n "$postgres_database" ]; then
        postgres "DROP DATABASE IF EXISTS \"$postgres_database\" WITH (FORCE)" || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

export PYTHONPATH="$PWD" SECRET_KEY=bench LEAGUE_BENCH=1 LEAGUE_ENV=production
# Production needs its public address; the measured pages are not rate-limited, so the
# workers may keep their own (in-memory) counts instead of a shared Redis.
export PUBLIC_URL="http://127.0.0.1" RATELIMIT_SINGLE_PROCESS=1
if [ "$DATABASE" = postgresql ]; then
    postgres_database="league_load_$$"
    postgres "CREATE DATABASE \"$postgres_database\"" \
        || { echo "load test skipped: PostgreSQL is not reachable at $POSTGRES_SERVER."; exit 0; }
    export DATABASE_URL="$POSTGRES_SERVER/$postgres_database"
else
    export DATABASE_URL="sqlite:///$tmp/load.sqlite3"
fi
"$BIN/flask" --app app db upgrade >"$tmp/migrate.log" 2>&1 || { cat "$tmp/migrate.log"; exit 1; }

# Seed (without writing instance/demo_credentials.txt) and pick the pages to load.
read -r league_id team_id player_id coach commissioner password < <("$BIN/python" - <<'PYTHON'
import time

from bench._common import heavy_pages
from league import create_app
from league.extensions import db
from league.models import Team
from league.seeding.large_demo import seed_large_demo
from league.services.unit_of_work import unit_of_work

app = create_app()
with app.app_context():
    started = time.perf_counter()
    with unit_of_work() as session:
        result = seed_large_demo(session)
    league_id = result.league_ids[0]
    # The longest roster page, its busiest player; signed in as that team's coach.
    team_id, player_id, _match_id = heavy_pages(league_id)
    coach = db.session.get(Team, team_id).coach.username
    import sys

    print(
        f"seeded {result.teams} teams, {result.players} players, {result.matches_played} results"
        f" in {time.perf_counter() - started:.1f}s",
        file=sys.stderr,
    )
    print(league_id, team_id, player_id, coach, result.username, result.password)
PYTHON
)

port="$("$BIN/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
"$BIN/gunicorn" --workers "$WORKERS" --bind "127.0.0.1:$port" --log-level warning \
    --error-logfile "$tmp/gunicorn.log" app:app &
server=$!
for _ in $(seq 1 100); do
    curl -fsS -o /dev/null "$base/_bench/baseline" 2>/dev/null && break
    sleep 0.1
done
curl -fsS -o /dev/null "$base/_bench/baseline" || { cat "$tmp/gunicorn.log"; exit 1; }

# Signs in through the real log-in form and prints the session cookie ("session=...") once
# the log-in's flash has been shown (a cookie still holding it would show it on every page).
log_in() {
    "$BIN/python" - "$base" "$1" "$2" <<'PYTHON'
import re
import sys

import requests

base, username, password = sys.argv[1:]


def session_cookie(response: requests.Response, cookie: str) -> str:
    # Production cookies are Secure: read off the header, as a cookie jar keeps them for
    # https only.
    found = re.search(r"(?:^|, )session=([^;]+)", response.headers.get("Set-Cookie", ""))
    return f"session={found.group(1)}" if found else cookie


page = requests.get(f"{base}/login")
cookie = session_cookie(page, "")
token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.text).group(1)
answer = requests.post(
    f"{base}/login",
    data={"csrf_token": token, "username": username, "password": password},
    headers={"Cookie": cookie},
    allow_redirects=False,
)
if answer.status_code != 302:
    sys.exit(f"log-in as {username} failed ({answer.status_code})")
cookie = session_cookie(answer, cookie)
shown = requests.get(f"{base}/_bench/baseline", headers={"Cookie": cookie})
print(session_cookie(shown, cookie))
PYTHON
}
coach_cookie="$(log_in "$coach" "$password")"
commissioner_cookie="$(log_in "$commissioner" "$password")"

# label|path|who: "" signed out, coach (the measured team's) or commissioner. Each signed-in
# group starts with the baseline page signed in, the figure its pages are compared with.
signed_in_pages=(
    "league home (standings)|/leagues/$league_id"
    "league table (standings page)|/leagues/$league_id/standings"
    "fixtures page|/leagues/$league_id/fixtures"
    "statistics and graveyard|/leagues/$league_id/stats"
    "team roster page|/teams/$team_id"
    "player page|/players/$player_id"
)
endpoints=(
    "baseline (16-row table, no database)|/_bench/baseline|"
    "team roster page|/teams/$team_id|"
    "league home (standings)|/leagues/$league_id|"
    "league table (standings page)|/leagues/$league_id/standings|"
    "fixtures page|/leagues/$league_id/fixtures|"
    "statistics and graveyard|/leagues/$league_id/stats|"
    "player page|/players/$player_id|"
    "roster API (JSON)|/api/v1/teams/$team_id|"
)
for who in coach commissioner; do
    endpoints+=("baseline (16-row table, no database)|/_bench/baseline|$who")
    for page in "${signed_in_pages[@]}"; do endpoints+=("$page|$who"); done
done
echo "gunicorn: $WORKERS sync workers on 127.0.0.1; wrk: $THREADS threads, $CONNECTIONS connections,"
echo "${SECONDS_PER_ENDPOINT}s per endpoint; league $league_id, team $team_id ($DATABASE, large league set)"
printf '%-52s %10s %9s %9s %9s\n' "endpoint" "req/s" "p50" "p99" "vs base"
printf '%-52s %10s %9s %9s %9s\n' "--------" "-----" "---" "---" "-------"
baseline_rps=""
for entry in "${endpoints[@]}"; do
    IFS='|' read -r label path who <<<"$entry"
    headers=()
    case "$who" in
        coach) headers=(-H "Cookie: $coach_cookie") ;;
        commissioner) headers=(-H "Cookie: $commissioner_cookie") ;;
    esac
    if [ -n "$who" ]; then label="$label, $who"; fi
    if [ "$path" = /_bench/baseline ]; then baseline_rps=""; fi
    # Warm up: each worker renders (and caches) the page once.
    for _ in 1 2 3 4; do curl -fsS -o /dev/null "${headers[@]}" "$base$path"; done
    out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_PER_ENDPOINT}s" --latency \
        "${headers[@]}" "$base$path")"
    rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
    p50="$(awk '$1 == "50%" {print $2}' <<<"$out")"
    p99="$(awk '$1 == "99%" {print $2}' <<<"$out")"
    errors="$(awk '/Non-2xx or 3xx responses:|Socket errors:/' <<<"$out")"
    if [ -z "$baseline_rps" ]; then baseline_rps="$rps"; fi
    ratio="$(awk -v r="$rps" -v b="$baseline_rps" 'BEGIN { printf "%.0f%%", 100 * r / b }')"
    printf '%-52s %10s %9s %9s %9s\n' "$label" "$rps" "$p50" "$p99" "$ratio"
    if [ -n "${BENCH_SUMMARY:-}" ]; then
        printf 'load.sh\t%s under load (%s)\t%s req/s, %s of the baseline\n' \
            "$label" "$DATABASE" "$rps" "$ratio" >>"$BENCH_SUMMARY"
    fi
    if [ -n "$errors" ]; then echo "  $errors"; fi
done
