"""PDF tests; the helpers below serve the hardening tests' PDF checks too."""

from __future__ import annotations

from io import BytesIO

import pytest
from pypdf import PdfReader

from league.pdf import render


def pdf_text(data: bytes) -> list[str]:
    """The text of each page."""
    return [page.extract_text() for page in PdfReader(BytesIO(data)).pages]


def record_fetches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs the PDF renderer fetches from now on (the fetcher is spied on, not replaced)."""
    asked: list[str] = []
    fetch = render.StaticOnlyFetcher.fetch

    def spy(self: render.StaticOnlyFetcher, url: str, headers: object = None) -> object:
        asked.append(url)
        return fetch(self, url, headers)

    monkeypatch.setattr(render.StaticOnlyFetcher, "fetch", spy)
    return asked
