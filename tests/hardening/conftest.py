"""Fixtures of every hardening module."""

from __future__ import annotations

import pytest

from tests.hardening import use_fast_password_hashes


@pytest.fixture(autouse=True)
def fast_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    use_fast_password_hashes(monkeypatch)
