"""Benchmark grep and search_files: everyday patterns on RE2 and the linear glob matcher, against
Python's ``re`` as the baseline engine in the same run; then the pathological patterns, which
only the new engines can answer (``re`` takes minutes to forever on them: not run).

    .venv/bin/python benchmarks/search_patterns.py [ROOT] [--repeat 5]

ROOT defaults to a generated tree of 200 Odoo-like modules (about 2,400 files) in a temporary
folder; pass an addons folder to measure a real one. Prints seconds per call and new/baseline.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odoo_tools.files import _searching, grep, search_files
from odoo_tools.workspace import Workspace

EVERYDAY_GREPS = ("def _compute_", r"fields\.Many2one\(", "(?i)todo", r"_name = ['\"]res\.partner")
EVERYDAY_GLOBS = ("*.py", "**/views/*.xml", "models/*.py")
PATHOLOGICAL = {
    "grep (.*.*)*Z": lambda ws: grep(ws, "(.*.*)*Z"),
    "search_files '*a' x25 'Z'": lambda ws: search_files(ws, "*a" * 25 + "Z"),
    "search_files '**/a/' x8 'Z'": lambda ws: search_files(ws, "**/a/" * 8 + "Z"),
    "grep include '*a' x25 'Z'": lambda ws: grep(ws, "x", include=["*a" * 25 + "Z"]),
}


def generate(root: Path, modules: int = 200) -> None:
    for m in range(modules):
        folder = root / f"mod_{m:03d}"
        for sub in ("models", "views", "security", "tests"):
            (folder / sub).mkdir(parents=True)
        (folder / "__manifest__.py").write_text("{'name': 'x', 'depends': ['base']}\n")
        for f in range(6):
            body = "".join(
                f"    f{i} = fields.Many2one('res.partner')\n    def _compute_f{i}(self):\n        pass\n"
                for i in range(40)
            )
            (folder / "models" / f"m{f}.py").write_text(
                f"class M{f}(models.Model):\n    _name = 'x.m{f}'\n{body}"
            )
            (folder / "views" / f"v{f}.xml").write_text(
                "<odoo>\n" + "  <record id='a'/>\n" * 200 + "</odoo>\n"
            )
    (root / "long.txt").write_text("a" * 4000 + "\n")
    (root / ("a" * 200 + ".txt")).write_text("x\n")
    deep = root.joinpath(*["a"] * 40)
    deep.mkdir(parents=True)
    (deep / "b").write_text("x\n")


def seconds(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def python_re(pattern: str, *, ignore_case: bool = False) -> Any:
    return re.compile(pattern.encode(), re.IGNORECASE if ignore_case else 0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("root", nargs="?")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.root) if args.root else Path(tmp)
        if not args.root:
            generate(root)
        ws = Workspace([root])
        for pattern in EVERYDAY_GREPS:
            new = seconds(lambda p=pattern: grep(ws, p, max_matches=2000), args.repeat)
            engine = _searching.compile_linear
            _searching.compile_linear = python_re  # type: ignore[assignment]
            try:
                old = seconds(lambda p=pattern: grep(ws, p, max_matches=2000), args.repeat)
            finally:
                _searching.compile_linear = engine
            print(f"grep {pattern!r:32} RE2 {new:.3f}s  re {old:.3f}s  ratio {new / old:.2f}")
        for glob in EVERYDAY_GLOBS:
            print(f"search_files {glob!r:24} {seconds(lambda g=glob: search_files(ws, g), args.repeat):.3f}s")
        for label, call in PATHOLOGICAL.items():
            print(f"{label:32} {seconds(lambda c=call: c(ws), 1):.3f}s (re: minutes or more, not run)")


if __name__ == "__main__":
    main()
