"""Benchmark: do the two series' packs tell a migrate step what the two Odoo sources tell it?

    ASSISTA_SERIES_PACKS=/folder/with/full/packs nice -n 10 .venv/bin/python \\
        benchmarks/migrate_pack_agreement.py --from-odoo-path /work/labs/odoo17/src \\
        --odoo-path /work/labs/odoo18/src [--modules corpus-list.txt --limit 100]

Part one compares the readings migrate's passes diff, made once from the sources (our parse of their
files) and once from the packs (a real registry's facts): the core external IDs the step removed
(of modules both packs have), the methods gone from models both series have, the methods whose
parameters the step removed, the methods renamed everywhere. For each: how many each side finds
and how many both find. Part two (``--modules``: a file of module folders of the source series)
migrates each module in memory twice, with both sources and with none (the packs), and counts the
modules whose rewrites and findings are the same.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Set as AbstractSet
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odoo_tools.addons import detect_series
from odoo_tools.migrate import migrate
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.migrate.passes.core_xml_ids import CoreIds, core_ids
from odoo_tools.migrate.passes.renamed_methods import renamed_everywhere
from odoo_tools.migrate.passes.signature_changes import removed_parameters
from odoo_tools.migrate.passes.signatures import CoreMethods, core_methods
from odoo_tools.series import Series, pack_ref


def gone_ids(old: CoreIds, new: CoreIds, modules: set[str]) -> set[str]:
    """Ids the old side surely had and the new side surely lacks, of ``modules`` (as the pass judges)."""
    ids = set(old.loaded) | set(old.made)
    return {
        i for i in ids
        if i.split(".")[0] in modules and i.split(".")[0] in new.addons and not new.may_have(i)
    }  # fmt: skip


def gone_methods(old: CoreMethods, new: CoreMethods, models: set[str]) -> set[tuple[str, str]]:
    return {
        (model, method) for model, method in old.methods
        if model in models and new.knows(model) and new.lookup(model, method) is None
    }  # fmt: skip


def dropped_parameters(old: CoreMethods, new: CoreMethods, models: set[str]) -> set[tuple[str, str]]:
    found = set()
    for model, method in old.methods:
        before, after = old.lookup(model, method), new.lookup(model, method) if model in models else None
        if before is not None and after is not None and removed_parameters(before, after):
            found.add((model, method))
    return found


def compare(name: str, by_source: AbstractSet[object], by_pack: AbstractSet[object]) -> None:
    both = by_source & by_pack
    print(f"  {name}: sources {len(by_source)}, packs {len(by_pack)}, both {len(both)}")
    for label, only in (("only sources", by_source - by_pack), ("only packs", by_pack - by_source)):
        if only:
            print(f"    {label} (first 8): {sorted(map(str, only))[:8]}")


def readings(old: CoreSource, new: CoreSource) -> tuple[CoreMethods, CoreMethods, CoreIds, CoreIds]:
    return core_methods(old), core_methods(new), core_ids(old), core_ids(new)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--from-odoo-path", type=Path, required=True)
    parser.add_argument("--odoo-path", type=Path, required=True)
    parser.add_argument("--modules", type=Path, default=None)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    old_major = detect_series(odoo_path=args.from_odoo_path).major
    new_major = detect_series(odoo_path=args.odoo_path).major
    if old_major is None or new_major is None:
        print("cannot tell the series of the two sources", file=sys.stderr)
        return 2
    old_pack, new_pack = (
        pack_ref(f"{old_major}.0", installed=True),
        pack_ref(f"{new_major}.0", installed=True),
    )
    if old_pack is None or new_pack is None:
        print(f"no full pack of {old_major}.0 and {new_major}.0 (set ASSISTA_SERIES_PACKS)", file=sys.stderr)
        return 2
    s_old_m, s_new_m, s_old_i, s_new_i = readings(args.from_odoo_path, args.odoo_path)
    p_old_m, p_new_m, p_old_i, p_new_i = readings(old_pack, new_pack)
    modules = set(old_pack.pack.modules) & set(new_pack.pack.modules)
    models = {
        m for m in old_pack.pack.model_names if s_old_m.knows(m) and p_new_m.knows(m) and s_new_m.knows(m)
    }
    print(
        f"{old_major}.0 -> {new_major}.0: {len(modules)} modules in both packs, "
        f"{len(models)} models known everywhere"
    )
    compare("gone external IDs", gone_ids(s_old_i, s_new_i, modules), gone_ids(p_old_i, p_new_i, modules))
    compare("gone methods", gone_methods(s_old_m, s_new_m, models), gone_methods(p_old_m, p_new_m, models))
    compare(
        "removed parameters",
        dropped_parameters(s_old_m, s_new_m, models),
        dropped_parameters(p_old_m, p_new_m, models),
    )
    compare(
        "renamed everywhere",
        set(renamed_everywhere(args.from_odoo_path, args.odoo_path).items()),
        set(renamed_everywhere(old_pack, new_pack).items()),
    )
    if args.modules:
        same_modules(args, old_major, new_major)
    return 0


def same_modules(args: argparse.Namespace, old_major: int, new_major: int) -> None:
    folders = [Path(line.split("\t")[0]) for line in args.modules.read_text().splitlines() if line.strip()]
    folders = folders[: args.limit] if args.limit else folders
    sources = {Series(old_major): args.from_odoo_path, Series(new_major): args.odoo_path}
    same, differing = 0, Counter[str]()
    for folder in folders:
        with_src = migrate([folder], f"{new_major}.0", odoo_sources=sources).modules[0]
        with_pack = migrate([folder], f"{new_major}.0").modules[0]
        a = (with_src.rules_applied, sorted((f.code, f.path, f.line) for f in with_src.findings))
        b = (with_pack.rules_applied, sorted((f.code, f.path, f.line) for f in with_pack.findings))
        if a == b:
            same += 1
            continue
        rules = set(a[0].items()) ^ set(b[0].items())
        codes = {c for c, *_ in set(a[1]) ^ set(b[1])}
        differing.update(str(r[0]) for r in rules)
        differing.update(codes)
        print(f"  {folder.name}: rules differ {sorted(rules)[:4]}, findings differ {sorted(codes)}")
    print(f"modules migrated alike with sources and with packs: {same}/{len(folders)}")
    if differing:
        print(f"  what differs, by rule or finding code: {dict(differing.most_common())}")


if __name__ == "__main__":
    raise SystemExit(main())
