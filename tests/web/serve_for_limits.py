"""One app process for the shared rate-limit test: `python -m tests.web.serve_for_limits
PORT DATABASE_URL KEY_PREFIX`, counting in RATELIMIT_STORAGE_URI (from the environment)."""

from __future__ import annotations

import sys

from werkzeug.serving import make_server

from tests.conftest import make_app


def main(port: str, database_url: str, key_prefix: str) -> None:
    app = make_app(database_url, RATELIMIT_KEY_PREFIX=key_prefix)
    make_server("127.0.0.1", int(port), app).serve_forever()


if __name__ == "__main__":
    main(*sys.argv[1:])
