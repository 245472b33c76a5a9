"""Static scan: how many anchors of inherited core views are gone when a corpus moves one series up,
and what ``migrate`` does with them (retargeted, spec removed, left as a finding). No Odoo runs:
every module is migrated as a dry run.

    .venv/bin/python benchmarks/migrate_anchors_scan.py --corpus "$CORPUS_DIR/core-only-17.0.txt" \\
        --to 18.0 --odoo-path "$ODOO18_SRC" --from-odoo-path "$ODOO17_SRC"

(``CORPUS_DIR``: the folder of corpus lists that ``benchmarks/corpus.py`` writes; ``ODOO17_SRC``,
``ODOO18_SRC``: Odoo source trees of those series, the folders that hold odoo-bin.)

Without ``--from-odoo-path`` only the target series' source is read (gone anchors are then
findings, except renames the new view alone makes unambiguous). Prints the counts per finding
code and the time; ``--list`` prints every finding at file:line too.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odoo_tools.addons import detect_series
from odoo_tools.migrate import migrate
from odoo_tools.series import Series

CODES = ("retargeted-view-anchor", "removed-view-spec", "gone-view-anchor")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, required=True, help="module folders, one a line")
    parser.add_argument("--to", required=True, help="the target series, e.g. 18.0")
    parser.add_argument("--odoo-path", type=Path, required=True, help="the target series' Odoo source")
    parser.add_argument("--from-odoo-path", type=Path, default=None, help="the source series' Odoo source")
    parser.add_argument("--list", action="store_true", help="print every finding")
    args = parser.parse_args()
    sources: dict[Series, Path] = {}
    for path in (args.odoo_path, args.from_odoo_path):
        major = detect_series(odoo_path=path).major if path is not None else None
        if path is not None and major is None:
            print(f"{path} is not an Odoo source", file=sys.stderr)
            return 2
        if path is not None and major is not None:
            sources[Series(major)] = path
    folders = [
        Path(line.split("\t")[0].strip()) for line in args.corpus.read_text().splitlines() if line.strip()
    ]
    counts: Counter[str] = Counter()
    started = time.monotonic()
    for folder in folders:
        if not (folder / "__manifest__.py").is_file():
            continue
        [module] = migrate([folder], args.to, odoo_sources=sources).modules
        counts["modules"] += 1
        for finding in module.findings:
            if finding.code in CODES:
                counts[finding.code] += 1
                if args.list:
                    print(f"{finding.code}: {finding.location()}: {finding.message}")
    gone = sum(counts[code] for code in CODES)
    print(
        f"{counts['modules']} modules -> {args.to}, sources {sorted(sources)}: {gone} gone anchors, "
        f"{counts['retargeted-view-anchor']} retargeted, {counts['removed-view-spec']} specs removed, "
        f"{counts['gone-view-anchor']} left as findings ({time.monotonic() - started:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
