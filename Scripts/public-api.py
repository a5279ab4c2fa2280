#!/usr/bin/env python3
"""The record of Fetch's public API, made from the compiler's symbol graphs.

    python3 Scripts/public-api.py            # rewrite API/Fetch.txt and API/FetchTesting.txt
    python3 Scripts/public-api.py --check    # exit 1, with a diff, when the record is stale

Each line is one public declaration, as the compiler prints it, after the path of the type
it belongs to, then the conformances of each public type. Lines are sorted, so a change to
the public surface shows in review as added and removed lines. The record is made on Linux:
extensions of Foundation types are listed under the module that declares them there.
"""

import difflib
import json
import pathlib
import sys

from symbol_graphs import MODULES, ROOT, symbol_graph_dir

RECORD = ROOT / "API"


def declaration(symbol: dict) -> str:
    text = "".join(fragment["spelling"] for fragment in symbol.get("declarationFragments", []))
    return " ".join(text.split())


def lines_for(module: str, graphs: pathlib.Path) -> list[str]:
    lines = []
    files = [graphs / f"{module}.symbols.json"] + sorted(graphs.glob(f"{module}@*.symbols.json"))
    for file in files:
        graph = json.loads(file.read_text())
        extended = file.stem.split("@")[1].removesuffix(".symbols") if "@" in file.stem else None
        names = {}
        for symbol in graph["symbols"]:
            path = ".".join(symbol["pathComponents"])
            names[symbol["identifier"]["precise"]] = path
            owner = ".".join(symbol["pathComponents"][:-1])
            prefix = f"[{extended}] " if extended else ""
            lines.append(f"{prefix}{owner + ': ' if owner else ''}{declaration(symbol)}")
        for relation in graph.get("relationships", []):
            if relation["kind"] != "conformsTo":
                continue
            source = names.get(relation["source"])
            if source is None or "." in source:
                continue
            target = relation.get("targetFallback") or names.get(relation["target"], relation["target"])
            target = target.split(".")[-1]
            lines.append(f"{source} conforms to {target}")
    return sorted(set(lines))


def main() -> int:
    check = "--check" in sys.argv[1:]
    graphs = symbol_graph_dir()
    stale = False
    RECORD.mkdir(exist_ok=True)
    for module in MODULES:
        record = RECORD / f"{module}.txt"
        fresh = "\n".join(lines_for(module, graphs)) + "\n"
        current = record.read_text() if record.exists() else ""
        declarations = sum(1 for line in fresh.splitlines() if " conforms to " not in line)
        print(f"{module}: {declarations} public declarations")
        if fresh == current:
            continue
        if check:
            stale = True
            sys.stdout.writelines(difflib.unified_diff(
                current.splitlines(keepends=True), fresh.splitlines(keepends=True),
                fromfile=f"API/{module}.txt (committed)", tofile=f"API/{module}.txt (from the code)"))
        else:
            record.write_text(fresh)
            print(f"wrote {record.relative_to(ROOT)}")
    if stale:
        print("The public API changed: run `python3 Scripts/public-api.py` and commit API/.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
