"""Run every script under bench/ (pages.py, pdf.py, load.sh, ...) and print their figures.

Benchmarks measure; they never assert timings. Each script prints its own
figures and exits 0, and offers its headline figures (`_common.summary`, a line
appended to the file BENCH_SUMMARY names) for the summary table printed at the
end. `make bench` runs them all.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    # Every script (Python or shell) except this one; _*.py are helpers.
    scripts = sorted(
        path
        for path in [*HERE.glob("*.py"), *HERE.glob("*.sh")]
        if path.name != Path(__file__).name and not path.name.startswith("_")
    )
    if not scripts:
        print("No benchmarks under bench/ yet.")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        figures_file = Path(tmp) / "summary.tsv"
        figures_file.touch()
        environment = {**os.environ, "BENCH_SUMMARY": str(figures_file)}
        outcomes = {script.name: run(script, environment) for script in scripts}
        figures = [line.split("\t") for line in figures_file.read_text("utf-8").splitlines()]
    print_summary(figures, outcomes)
    failures = sum(1 for outcome in outcomes.values() if not outcome.startswith("ok"))
    print(f"\n{len(scripts)} benchmark(s), {failures} failed.")
    return 1 if failures else 0


def run(script: Path, environment: dict[str, str]) -> str:
    """Run one benchmark, print its output; 'ok in 12s' or 'FAILED (1) in 3s'."""
    started = time.perf_counter()
    command = ["bash", str(script)] if script.suffix == ".sh" else [sys.executable, str(script)]
    result = subprocess.run(  # noqa: S603  (our own scripts)
        command, capture_output=True, text=True, check=False, env=environment
    )
    took = time.perf_counter() - started
    status = "ok" if result.returncode == 0 else f"FAILED ({result.returncode})"
    print(f"== {script.name}: {status} in {took:.1f}s")
    print(result.stdout.rstrip() or "(no output)")
    if result.returncode:
        print(result.stderr.rstrip())
    return f"{status} in {took:.0f}s"


def print_summary(figures: list[list[str]], outcomes: dict[str, str]) -> None:
    """One table of every benchmark's headline figures (the README's summary)."""
    rows = [["benchmark", "what", "figure"]]
    rows += [[name, "(run)", outcome] for name, outcome in outcomes.items()]
    rows += [row for row in figures if len(row) == 3]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    print("\n== Summary")
    for index, row in enumerate(rows):
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
        if index == 0:
            print("  ".join("-" * width for width in widths))


if __name__ == "__main__":
    sys.exit(main())
