"""Skill summaries are our own words: the seed-text check finds no copied run of words."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT.parent / "shared" / "tools" / "seed_copy_check.py"


@pytest.mark.skipif(not CHECK.is_file(), reason="../shared (the seed texts) is not present")
def test_no_seed_text_is_copied_into_the_project() -> None:
    result = subprocess.run(  # noqa: S603 (our own tool, fixed arguments)
        [sys.executable, str(CHECK), str(ROOT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout
    assert result.stdout == ""
