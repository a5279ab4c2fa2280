"""Symbol graphs of the library targets, shared by the API record and the documentation build.

The targets are built with `swift build` plus the flags in the environment variable
SWIFT_BUILD_FLAGS, if set: a build made with other flags (CI's is instrumented for coverage)
is then reused rather than rebuilt.
"""

import os
import pathlib
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["Fetch", "FetchCaching", "FetchTesting"]


def symbol_graph_dir() -> pathlib.Path:
    """Builds the library targets, extracts their public symbol graphs and returns the folder."""
    flags = os.environ.get("SWIFT_BUILD_FLAGS", "").split()
    for target in ["FetchTesting", "FetchCaching"]:
        subprocess.run(["swift", "build", "--target", target, *flags], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    bin_path = pathlib.Path(subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT,
                                           check=True, capture_output=True, text=True).stdout.strip())
    triple = bin_path.parent.name
    graphs = bin_path.parent / "public-symbol-graphs"
    graphs.mkdir(parents=True, exist_ok=True)
    for old in graphs.glob("*.symbols.json"):
        old.unlink()
    tools = pathlib.Path(shutil.which("swift")).resolve().parent
    for module in MODULES:
        subprocess.run([str(tools / "swift-symbolgraph-extract"), "-module-name", module,
                        "-target", triple, "-I", str(bin_path / "Modules"),
                        "-module-cache-path", str(bin_path / "ModuleCache"),
                        "-minimum-access-level", "public", "-skip-synthesized-members",
                        "-omit-extension-block-symbols", "-output-dir", str(graphs)],
                       cwd=ROOT, check=True)
    return graphs
