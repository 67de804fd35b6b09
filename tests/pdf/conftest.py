"""PDF tests: the app with its PDF cache in the test's own folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask


@pytest.fixture(autouse=True)
def pdf_cache(app: Flask, tmp_path: Path) -> Path:
    """Each test starts with an empty cache of its own (never the real instance/)."""
    folder = tmp_path / "pdf-cache"
    app.config["PDF_CACHE_DIR"] = str(folder)
    return folder


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """build/test-artifacts/ (gitignored): pictures of the PDFs to look at."""
    folder = Path(__file__).resolve().parents[2] / "build" / "test-artifacts"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
