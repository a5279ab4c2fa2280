#!/usr/bin/env python3
"""Builds the DocC documentation of Fetch and FetchTesting with the toolchain's `docc`.

    python3 Scripts/docs.py                  # build both archives into .build/docs, warnings fail
    python3 Scripts/docs.py --preview Fetch  # serve one module's docs at http://localhost:8080

A build fails on any DocC warning (a symbol link that does not resolve, a missing parameter
in a doc comment...) and when a public top-level symbol is not placed in a topic group of its
catalog (a `## Topics` section of the landing page or of an article).
"""

import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from symbol_graphs import MODULES, ROOT, symbol_graph_dir

LINK = re.compile(r"``([A-Za-z_][A-Za-z0-9_]*)")


def catalog(module: str) -> pathlib.Path:
    return ROOT / "Sources" / module / f"{module}.docc"


def unplaced(module: str, graphs: pathlib.Path) -> list[str]:
    """The module's public top-level symbols that no `## Topics` section of its catalog lists."""
    graph = json.loads((graphs / f"{module}.symbols.json").read_text())
    top_level = {symbol["pathComponents"][0] for symbol in graph["symbols"]
                 if len(symbol["pathComponents"]) == 1}
    placed = set()
    for page in catalog(module).rglob("*.md"):
        text = page.read_text()
        topics = text.split("## Topics", 1)
        if len(topics) == 2:
            placed.update(LINK.findall(topics[1]))
    return sorted(top_level - placed)


def module_graphs(module: str, graphs: pathlib.Path, into: pathlib.Path) -> None:
    for file in [graphs / f"{module}.symbols.json", *graphs.glob(f"{module}@*.symbols.json")]:
        shutil.copy(file, into)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--preview", choices=MODULES, help="serve this module's docs locally")
    arguments = parser.parse_args()
    graphs = symbol_graph_dir()
    output = ROOT / ".build" / "docs"
    output.mkdir(parents=True, exist_ok=True)
    failed = False
    for module in [arguments.preview] if arguments.preview else MODULES:
        with tempfile.TemporaryDirectory() as scratch:
            own_graphs = pathlib.Path(scratch)
            module_graphs(module, graphs, own_graphs)
            command = [
                "docc", "preview" if arguments.preview else "convert", str(catalog(module)),
                "--additional-symbol-graph-dir", str(own_graphs),
                "--fallback-display-name", module,
                "--fallback-bundle-identifier", f"org.fetch.{module}",
                "--output-path", str(output / f"{module}.doccarchive"),
            ]
            if not arguments.preview:
                command.append("--warnings-as-errors")
            print("==", module, flush=True)
            if subprocess.run(command, cwd=ROOT).returncode != 0:
                failed = True
        missing = unplaced(module, graphs)
        if missing:
            failed = True
            print(f"{module}: public symbols in no topic group of {catalog(module).relative_to(ROOT)}: "
                  + ", ".join(missing), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
