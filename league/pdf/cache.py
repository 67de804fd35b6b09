"""Rendered PDFs on disk, keyed on the state of what they print.

Files live under ``instance/pdf-cache/`` (``PDF_CACHE_DIR`` overrides), so every
app process on the machine shares them. A file is named ``<name>-<key>.pdf``
where ``name`` says what it is (``team-12``, ``league-3``, ``team-12-fr`` for the French
sheet: each language is an entry of its own) and ``key`` hashes the
sheet's plain values plus the design version: a change to the team, its
players, advancements, matches or the ruleset gives a new key, and the old file
is removed when the new one is written. Writes go to a temporary file renamed
into place, so a reader never sees half a PDF.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from flask import current_app

CACHE_FOLDER = "pdf-cache"
#: "team-12", "league-3", "team-12-letter", "team-12-fr", "team-12-letter-de".
_NAME = re.compile(r"^[a-z]+-\d+(-[a-z0-9]+){0,2}$")
_KEY = re.compile(r"^[0-9a-f]{16,64}$")


def cache_dir() -> Path:
    configured = current_app.config.get("PDF_CACHE_DIR")
    return Path(configured) if configured else Path(current_app.instance_path) / CACHE_FOLDER


class PdfCache:
    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or cache_dir()

    def _path(self, name: str, key: str, suffix: str = ".pdf") -> Path:
        if not _NAME.match(name) or not _KEY.match(key):
            raise ValueError(f"bad cache entry {name!r} {key!r}")
        return self.directory / f"{name}-{key}{suffix}"

    def get(self, name: str, key: str) -> bytes | None:
        try:
            return self._path(name, key).read_bytes()
        except FileNotFoundError:
            return None

    def put(self, name: str, key: str, data: bytes) -> None:
        """Store `data`, replacing any older version of `name`."""
        path = self._path(name, key)
        self._write(path, data)
        older = re.compile(rf"^{re.escape(name)}-[0-9a-f]+\.pdf$")
        for old in self.directory.glob(f"{name}-*.pdf"):
            if old != path and older.match(old.name):
                with contextlib.suppress(FileNotFoundError):
                    old.unlink()

    def get_meta(self, name: str) -> dict[str, Any] | None:
        """What was recorded about the latest build of `name` (e.g. how long it took)."""
        try:
            meta: dict[str, Any] = json.loads((self.directory / f"{name}.json").read_text())
        except (FileNotFoundError, ValueError):
            return None
        return meta

    def put_meta(self, name: str, meta: dict[str, Any]) -> None:
        if not _NAME.match(name):
            raise ValueError(f"bad cache entry {name!r}")
        self._write(self.directory / f"{name}.json", json.dumps(meta).encode())

    def _write(self, path: Path, data: bytes) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=".tmp-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise
