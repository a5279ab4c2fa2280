#!/usr/bin/env python3
"""Line coverage per target, from the report `swift test --enable-code-coverage` leaves behind.

    swift test --enable-code-coverage
    python3 Scripts/coverage.py [--minimum Fetch=95]

SwiftPM writes the report with the toolchain's `llvm-cov export`; this script sums its
per-file line counts by target folder, prints a table and exits 1 when a target named with
--minimum is under its percentage.
"""

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def report_path() -> pathlib.Path:
    output = subprocess.run(["swift", "test", "--show-codecov-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    return pathlib.Path(output.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minimum", action="append", default=[],
                        help="TARGET=PERCENT: fail when TARGET's line coverage is lower")
    arguments = parser.parse_args()
    minimums = {}
    for item in arguments.minimum:
        target, _, percent = item.partition("=")
        minimums[target] = float(percent)

    path = report_path()
    if not path.exists():
        sys.exit(f"No coverage report at {path}: run `swift test --enable-code-coverage` first.")
    report = json.loads(path.read_text())
    sources = ROOT / "Sources"
    totals: dict[str, list[int]] = {}
    for export in report["data"]:
        for file in export["files"]:
            name = pathlib.Path(file["filename"])
            if sources not in name.parents:
                continue
            target = name.relative_to(sources).parts[0]
            lines = file["summary"]["lines"]
            count = totals.setdefault(target, [0, 0])
            count[0] += lines["covered"]
            count[1] += lines["count"]

    failed = False
    print(f"{'target':<16}{'lines':>8}{'covered':>9}{'percent':>9}")
    for target, (covered, count) in sorted(totals.items()):
        percent = 100.0 * covered / count if count else 100.0
        floor = minimums.get(target)
        verdict = ""
        if floor is not None and percent < floor:
            verdict = f"  under {floor:g}%"
            failed = True
        print(f"{target:<16}{count:>8}{covered:>9}{percent:>8.2f}%{verdict}")
    for target in minimums.keys() - totals.keys():
        print(f"{target}: no lines in the report", file=sys.stderr)
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
