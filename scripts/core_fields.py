"""Write the bundled list of core models' fields and methods for one series, read from an Odoo source.

    .venv/bin/python scripts/core_fields.py SRC 18.0   # -> odoo_tools/series/core_fields/18.0.json.gz

Bundled for 16.0 to 19.0 (the 17.0, 18.0 and 19.0 lab sources, a 16.0 source snapshot whose extra
non-Community modules the core module list leaves out). Migrate compares two series' lists
(``odoo_tools.lint.core_difference``); the ORM-aware static checks read the series packs instead
(``odoo_tools.series.pack``: what a real registry of the series has).

For each model: its parents (``_inherit``, ``_inherits``) and every field (with its type and comodel)
and method that any core module's class gives it. Models with a class our index cannot read
completely (a plain Python base class...) are marked so: nothing is claimed about them.
The source is read by our own index (AST only, nothing imported); Community modules only (the
lab's source has the non-LGPL ones moved out).
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import sys
from pathlib import Path

from odoo_tools.index import ModelResolver, ProjectIndex
from odoo_tools.index._core_classes import encode, merge_classes
from odoo_tools.series import core_graph

OUT = Path(__file__).resolve().parent.parent / "odoo_tools" / "series" / "core_fields"


def build(source: Path, series: str) -> dict[str, object]:
    roots = [source / "odoo" / "addons", source / "addons"]
    index = ProjectIndex([], roots, odoo_path=source, workers=2)
    index.refresh()
    # The bundled core list's modules, without Odoo's own test modules (never installed for real)
    listed = {m for m in core_graph(series).depends if not m.startswith("test")}
    resolver = ModelResolver(index.tables, frozenset(listed), True, {}, frozenset(), frozenset())
    models: dict[str, list[str]] = {}
    for name in sorted(index.tables.model_classes):
        classes = [c.item for c in index.tables.model_classes[name] if c.module in listed]
        if classes and not name.startswith("test"):
            merged = merge_classes(classes)
            # A related relational field names no comodel: the list gives the one it resolves to.
            fields = tuple(
                dataclasses.replace(f, comodel=f.comodel or resolver.comodel(name, f.name) or "")
                for f in merged.fields
            )
            models[name] = encode(dataclasses.replace(merged, fields=fields))
    return {"series": series, "source": "Odoo Community " + series, "models": models}


def main() -> int:
    source, series = Path(sys.argv[1]), sys.argv[2]
    data = build(source, series)
    OUT.mkdir(exist_ok=True)
    target = OUT / f"{series}.json.gz"
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True).encode() + b"\n"
    target.write_bytes(gzip.compress(payload, compresslevel=9, mtime=0))
    print(f"{target}: {len(data['models'])} models")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
