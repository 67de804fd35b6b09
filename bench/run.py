"""Run every script under bench/ (bench_*.py, pdf.py, load.sh, ...) and print their figures.

Benchmarks measure; they never assert timings. Each script prints lines of
`name: value unit` and exits 0. `make bench` runs them all.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    # bench_*.py, the scripts an issue names otherwise (bench/pdf.py), and shell
    # scripts (bench/load.sh); _*.py are helpers.
    scripts = sorted(
        path
        for path in [*HERE.glob("*.py"), *HERE.glob("*.sh")]
        if path.name != Path(__file__).name and not path.name.startswith("_")
    )
    if not scripts:
        print("No benchmarks under bench/ yet.")
        return 0
    failures = 0
    for script in scripts:
        started = time.perf_counter()
        command = ["bash", str(script)] if script.suffix == ".sh" else [sys.executable, str(script)]
        result = subprocess.run(  # noqa: S603  (our own scripts)
            command, capture_output=True, text=True, check=False
        )
        took = time.perf_counter() - started
        status = "ok" if result.returncode == 0 else f"FAILED ({result.returncode})"
        print(f"== {script.name}: {status} in {took:.1f}s")
        print(result.stdout.rstrip() or "(no output)")
        if result.returncode:
            failures += 1
            print(result.stderr.rstrip())
    print(f"\n{len(scripts)} benchmark(s), {failures} failed.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
