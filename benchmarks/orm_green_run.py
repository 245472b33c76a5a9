"""Green stays green: the static checks over OCA branches that install, counting errors per module.

    .venv/bin/python benchmarks/orm_green_run.py "$CORPUS_DIR/green-run.txt" [--checks static]

(``CORPUS_DIR``: the folder of corpus lists that ``benchmarks/corpus.py`` writes.)

The list holds one module folder per line; modules are checked per repository branch (their
parent folder, so cross-module checks see the whole branch), without an Odoo source. Prints each
error (to be judged by hand) and the rate: the goal is at most 1 error per 300 modules.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

CLI = [sys.executable, "-m", "assista_mcp"]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("listing")
    parser.add_argument("--checks", default="static")
    args = parser.parse_args()
    by_root: dict[Path, list[str]] = defaultdict(list)
    for line in Path(args.listing).read_text(encoding="utf-8").splitlines():
        if line.strip():
            folder = Path(line.strip())
            by_root[folder.parent].append(folder.name)
    modules = errors = 0
    started = time.perf_counter()
    for root, names in sorted(by_root.items()):
        command = [*CLI, "check", "--addons-path", str(root), "--checks", args.checks]
        command += ["--format", "json", "--no-cache", *names]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        try:
            report = json.loads(done.stdout)
        except ValueError:
            print(f"{root}: no report (exit {done.returncode}): {done.stderr.strip()[:300]}")
            continue
        found = [f for f in report["findings"] if f["severity"] == "error"]
        modules += len(report["modules"])
        errors += len(found)
        print(f"{root.name}: {len(report['modules'])} modules, {len(found)} error(s)", flush=True)
        for f in found:
            print(f"  {f['path']}:{f.get('line')}: [{f['source']} {f['code']}] {f['message'][:200]}")
    seconds = time.perf_counter() - started
    rate = errors / modules * 300 if modules else 0.0
    print(f"total: {modules} modules, {errors} error(s) = {rate:.2f} per 300 modules ({seconds:.0f}s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
