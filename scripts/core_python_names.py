"""Write the bundled list of the public Python names Odoo's framework modules give, for one series.

    .venv/bin/python scripts/core_python_names.py SRC 18.0   # -> odoo_tools/series/python_names/18.0.json
    .venv/bin/python scripts/core_python_names.py SRC 18.0 OUT_DIR   # -> OUT_DIR/18.0.json

For every module of ``odoo.tools``, ``odoo.osv``, ``odoo.fields``, ``odoo.models``, ``odoo.api`` and
``odoo.http`` (a file, or a package and everything in it): the names ``from <module> import NAME``
finds there: its functions, classes and public assignments at top level (also inside a top-level
``if``/``try``), what it imports by name, what ``from .x import *`` brings
(``__all__`` when literal), and a package's submodules. Read with ``ast``: nothing is imported. A
module with a module-level ``__getattr__`` (names made on demand) is listed without names and
marked ``open``: nothing is claimed about it (so is one star-importing from outside Odoo). Names a
module imports from outside Odoo (``re``, ``defaultdict``) are listed too: ``from odoo.tools.misc
import defaultdict`` works as long as misc imports it.
``odoo_tools.series.removed_framework_names(old, new)`` compares two series' lists.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from odoo_tools.series.pack_maker.pack_python_names import python_names

OUT = Path(__file__).resolve().parent.parent / "odoo_tools" / "series" / "python_names"


def build(source: Path, series: str) -> dict[str, object]:
    listed, open_modules = python_names(source)
    return {"series": series, "source": "Odoo Community " + series, "modules": listed, "open": open_modules}


def main() -> int:
    source, series = Path(sys.argv[1]), sys.argv[2]
    out = Path(sys.argv[3]) if len(sys.argv) > 3 else OUT
    data = build(source, series)
    out.mkdir(exist_ok=True)
    target = out / f"{series}.json"
    target.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{target}: {len(data['modules'])} modules")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
