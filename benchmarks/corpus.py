"""Corpora of real Odoo modules from OCA's released wheels, split once into a development and a
held-out half, kept outside the checkout.

    usage: python benchmarks/corpus.py (download|unpack|show) --series 18.0 [--corpus DIR]
               [--names FILE] [--only-in SERIES [--core-only]] [--batch N] [--shard I/N] [--reverse]
               [--seed N]

    ASSISTA_CORPUS=/somewhere/corpus nice -n 10 python benchmarks/corpus.py download --series 18.0 \\
        --names pypi.tsv          # a list of PyPI names, one per line (tab-separated columns allowed)
    ASSISTA_CORPUS=... python benchmarks/corpus.py unpack --series 18.0
    ASSISTA_CORPUS=... python benchmarks/corpus.py download --series 17.0 --names pypi.tsv \\
        --only-in 18.0 --core-only  # the 17.0 releases of the core-only 18.0 modules

Every OCA module released for a series is on PyPI as ``odoo-addon-<name>`` (each passed OCA's CI).
``download`` asks pip (``pip download --no-deps "odoo-addon-X>=S,<S+0.1"``, a few names per call,
sequentially, each call with a timeout) for the names of the list that may have a release for the
series: those whose listed version is of that series or later (the list gives one version per name;
``--only-in`` narrows to the names that have a wheel in another series' corpus, e.g. the 17.0
modules that were ported to 18.0). It is resumable: ``<corpus>/<series>/download.json`` remembers
each name's wheel, or that the series has none.

``unpack`` puts each wheel's ``odoo/addons/<module>`` in ``<corpus>/<series>/<module>`` (the series
folder is an addons root) and writes ``<corpus>/<series>/modules.json``: per module its wheel, version,
depends, whether its depends are core modules only (the bundled core module list of that series),
whether its whole dependency closure is core or in the set (the measurable modules), what is missing
otherwise, and whether the next series' corpus has the same module (its human port). Then
``split.json``: the measurable modules, split at random into ``dev`` and ``held_out`` by a recorded
seed. The split is made once: a later run keeps every module where it was and places only new ones,
by the same seeded hash (so the split does not depend on download order).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SEED = 20261128
SERIES = ("16.0", "17.0", "18.0", "19.0")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_wheels import candidates, download, load_json, major, save_json  # noqa: E402


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest as data (``ast.literal_eval``: nothing in a wheel runs)."""
    try:
        data = ast.literal_eval((folder / "__manifest__.py").read_text(encoding="utf-8"))
    except (OSError, ValueError, SyntaxError):
        return {}
    return data if isinstance(data, dict) else {}


def unpack_wheel(wheel: Path, target_root: Path) -> list[str]:
    """Extract ``odoo/addons/<module>/...`` members into ``target_root/<module>``; members with an
    absolute path or ``..`` are refused (a wheel is hostile input)."""
    modules: set[str] = set()
    with zipfile.ZipFile(wheel) as zf, tempfile.TemporaryDirectory(dir=target_root) as tmp:
        for info in zf.infolist():
            parts = info.filename.split("/")
            if len(parts) < 4 or parts[:2] != ["odoo", "addons"] or info.is_dir():
                continue
            if any(p in ("", ".", "..") for p in parts[2:]) or info.filename.startswith("/"):
                raise ValueError(f"{wheel.name}: unsafe member {info.filename!r}")
            dest = Path(tmp).joinpath(*parts[2:])
            dest.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, dest.open("wb") as out:
                shutil.copyfileobj(src, out)
            modules.add(parts[2])
        for module in modules:
            final = target_root / module
            if final.exists():
                shutil.rmtree(final)
            (Path(tmp) / module).rename(final)
    return sorted(modules)


def core_list(series: str) -> dict[str, list[str]]:
    """The bundled core module list of ``series`` (module -> depends), wherever it lives now."""
    for folder in ("odoo_tools/series/core_modules", "odoo_tools/lint/core_modules"):
        path = ROOT / folder / f"{series}.json"
        if path.is_file():
            return dict(json.loads(path.read_text(encoding="utf-8"))["depends"])
    raise SystemExit(f"no core module list for {series} in this checkout")


def closure_missing(module: str, depends: dict[str, list[str]], core: set[str]) -> list[str]:
    """The dependencies of ``module``'s closure that are neither core nor in the set."""
    missing: set[str] = set()
    seen: set[str] = set()
    stack = [module]
    while stack:
        current = stack.pop()
        for dep in depends.get(current, []):
            if dep in core or dep in seen:
                continue
            seen.add(dep)
            if dep in depends:
                stack.append(dep)
            else:
                missing.add(dep)
    return sorted(missing)


def in_dev_half(seed: int, module: str) -> bool:
    return hashlib.sha256(f"{seed}:{module}".encode()).digest()[0] % 2 == 0


def unpack(corpus: Path, series: str, seed: int) -> None:
    root = corpus / series
    state: dict[str, str | None] = load_json(root / "download.json", {})
    index: dict[str, Any] = load_json(root / "modules.json", {})
    for name, wheel in sorted(state.items()):
        if not wheel:
            continue
        version = wheel.split("-")[1]
        if any(v.get("wheel") == wheel and (root / m).is_dir() for m, v in index.items()):
            continue
        for module in unpack_wheel(corpus / "wheels" / series / wheel, root):
            index[module] = {"wheel": wheel, "dist": name, "version": version}
    core = set(core_list(series))
    depends = {m: [str(d) for d in read_manifest(root / m).get("depends", [])] for m in index}
    following = f"{major(series) + 1}.0"
    ported = set(load_json(corpus / following / "modules.json", {}))
    for module, entry in index.items():
        entry["depends"] = depends[module]
        entry["core_only"] = all(d in core for d in depends[module])
        entry["missing"] = closure_missing(module, depends, core)
        entry["closure_in_set"] = not entry["missing"]
        entry[f"port_{following}"] = (
            module in ported if (corpus / following / "modules.json").is_file() else None
        )
    save_json(root / "modules.json", index)
    write_split(root, seed, [m for m, e in index.items() if e["closure_in_set"]])
    show(corpus, series)


def write_split(root: Path, seed: int, measurable: Iterable[str]) -> None:
    split = load_json(root / "split.json", None)
    if split is None:
        split = {"seed": seed, "rule": "sha256(f'{seed}:{module}')[0] even -> dev", "dev": [], "held_out": []}
    placed = set(split["dev"]) | set(split["held_out"])
    for module in sorted(set(measurable) - placed):
        split["dev" if in_dev_half(split["seed"], module) else "held_out"].append(module)
    split["dev"].sort()
    split["held_out"].sort()
    save_json(root / "split.json", split)


def show(corpus: Path, series: str) -> None:
    root = corpus / series
    index = load_json(root / "modules.json", {})
    split = load_json(root / "split.json", {"dev": [], "held_out": []})
    state = load_json(root / "download.json", {})
    core_only = [m for m, e in index.items() if e.get("core_only")]
    wheels = sum(1 for w in state.values() if w)
    print(
        f"{series}: {len(state)} names asked, {wheels} wheels, {len(index)} modules, "
        f"{sum(1 for e in index.values() if e.get('closure_in_set'))} with their closure core or in the set "
        f"(dev {len(split['dev'])}, held-out {len(split['held_out'])}), {len(core_only)} core-only"
    )
    port_key = f"port_{major(series) + 1}.0"
    if any(e.get(port_key) is not None for e in index.values()):
        ported = sum(1 for m in core_only if index[m].get(port_key))
        print(f"  core-only with a {major(series) + 1}.0 port: {ported}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=("download", "unpack", "show"))
    parser.add_argument("--series", required=True, choices=SERIES)
    parser.add_argument("--corpus", type=Path, default=os.environ.get("ASSISTA_CORPUS"))
    parser.add_argument("--names", type=Path, help="a list of PyPI names (first column), for download")
    parser.add_argument("--only-in", choices=SERIES, help="only names with a wheel in that series' corpus")
    parser.add_argument("--core-only", action="store_true", help="with --only-in: core-only modules there")
    parser.add_argument("--batch", type=int, default=20, help="names per pip call (default 20)")
    parser.add_argument(
        "--shard", default="1/1", help="I/N: ask only every N-th name from the I-th (2-3 at once)"
    )
    parser.add_argument("--reverse", action="store_true", help="ask from the end of the list")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="split seed, used once per series")
    args = parser.parse_args(argv)
    if args.corpus is None:
        parser.error("give --corpus DIR or set ASSISTA_CORPUS")
    corpus: Path = args.corpus
    if args.action == "download":
        if args.names is None or not args.names.is_file():
            parser.error("download needs --names FILE, a list of PyPI names")
        names = candidates(args.names, args.series)
        if args.only_in:
            other = load_json(corpus / args.only_in / "download.json", {})
            names = [n for n in names if other.get(n)]
            if args.core_only:  # the module there depends on core modules only
                there = load_json(corpus / args.only_in / "modules.json", {})
                core_only = {e["dist"] for e in there.values() if e.get("core_only")}
                names = [n for n in names if n in core_only]
        index, count = (int(x) for x in args.shard.split("/"))
        names = names[index - 1 :: count][:: -1 if args.reverse else 1]
        download(corpus, args.series, names, args.batch)
    elif args.action == "unpack":
        unpack(corpus, args.series, args.seed)
    else:
        show(corpus, args.series)
    return 0


if __name__ == "__main__":
    sys.exit(main())
