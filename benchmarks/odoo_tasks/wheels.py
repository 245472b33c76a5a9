"""Mine tasks from consecutive released wheels of an OCA module (``odoo-addon-<name>`` on PyPI).

    usage: python -m benchmarks.odoo_tasks.wheels --series 18.0 --wheels DIR [--limit 30] [--max-closure 3]
               [--back N] [--cache DIR] [--out DIR] [--dry-run]

OCA's bot releases a wheel at each merge that bumps a module's version, so two consecutive versions
are a real change (usually one pull request); its commit is not known, so the task records the two
versions. For each newest wheel in ``--wheels`` whose version is past the series' first (x.y.z not
1.0.0), that has tests and depends only on core modules of the series (at most ``--max-closure`` of
them with their own dependencies: the cheap ones first, sorted by that size then name), the release
just before the last bump is fetched (``pip download --no-deps "odoo-addon-<name><18.0.x.y.z"``: one
registry call per module) into ``--cache``. The two module trees make a task by the git rules
(``mine.py``): code and tests changed, FAIL_TO_PASS = the test methods added or changed.
The module before is rebuilt from the cached (or again downloaded) wheel, checked by its sha256.
``--back N`` mines an older pair instead: N releases before the newest, and the one before it (one
more registry call per step). The newest releases of a series may need a newer Odoo than a lab
holds (18.0's ``SETATTR_SOURCES``); their older pairs run on it.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from benchmarks.odoo_tasks.mine import NOISE, split_of
from benchmarks.odoo_tasks.tasks_io import TASKS_DIR, Task, save_task, wheel_cache
from benchmarks.odoo_tasks.testdiff import changed_methods, methods_of
from benchmarks.odoo_tasks.wheel_diff import module_patches, readme_words, unpack_module
from odoo_tools.series import core_graph

WHEEL = re.compile(r"odoo_addon_(\w+)-(\d+\.0(?:\.\d+)+)-py3-none-any\.whl$")


def candidates(folder: Path, series: str, max_closure: int) -> list[tuple[str, str, Path]]:
    """(module, version, wheel) of the newest wheels fit to mine, cheapest closure first."""
    core = core_graph(series).depends
    found: list[tuple[int, str, str, Path]] = []
    for wheel in sorted(folder.glob("*.whl")):
        match = WHEEL.search(wheel.name)
        if not match or match.group(2).split(".")[2:5] == ["1", "0", "0"]:
            continue
        with zipfile.ZipFile(wheel) as archive:
            names = archive.namelist()
            manifests = [n for n in names if n.count("/") == 3 and n.endswith("/__manifest__.py")]
            if len(manifests) != 1:
                continue
            module = manifests[0].split("/")[2]
            if not any(n.startswith(f"odoo/addons/{module}/tests/test_") for n in names):
                continue
            try:
                manifest = ast.literal_eval(archive.read(manifests[0]).decode())
            except (ValueError, SyntaxError):
                continue
        depends = [str(d) for d in manifest.get("depends", [])]
        external = manifest.get("external_dependencies") or {}
        if not all(d in core for d in depends) or any(external.values()):
            continue
        closure, todo = set(), list(depends)
        while todo:
            name = todo.pop()
            if name not in closure:
                closure.add(name)
                todo.extend(core.get(name, ()))
        if len(closure) <= max_closure:
            found.append((len(closure), module, match.group(2), wheel))
    return [(m, v, w) for _, m, v, w in sorted(found)]


def previous(module: str, version: str, cache: Path) -> Path | None:
    """The newest release before ``version``'s x.y.z (pip download into ``cache``), or None."""
    bump = ".".join(version.split(".")[:5])
    before = set(cache.glob("*.whl"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q",
         "-d", str(cache), f"odoo-addon-{module}<{bump}", f"odoo-addon-{module}>={bump[:4]}"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    new = [w for w in set(cache.glob("*.whl")) - before if WHEEL.search(w.name)]
    if done.returncode != 0 or not new:
        found = [w for w in cache.glob(f"odoo_addon_{module}-*.whl") if w.name.split("-")[1] < bump]
        return max(found, default=None, key=lambda w: [int(p) for p in w.name.split("-")[1].split(".")])
    return new[0]


def _version(wheel: Path) -> str:
    match = WHEEL.search(wheel.name)
    assert match, wheel.name
    return match.group(2)


def task_of(series: str, module: str, old: Path, new: Path) -> tuple[Task, str, str] | str:
    """The task two releases make, or why they make none."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        unpack_module(old, module, root / "before")
        unpack_module(new, module, root / "after")
        code_patch, test_patch, code_files = module_patches(root, module, NOISE)
        if not code_patch.strip() or not test_patch.strip():
            return "code+tests"
        if "Binary files" in code_patch + test_patch:
            return "binary"
        fail, passing = [], []
        for path in sorted((root / "after" / module / "tests").glob("*.py")):
            gone = root / "before" / module / "tests" / path.name
            old_src = gone.read_text(encoding="utf-8") if gone.is_file() else ""
            changed, same = changed_methods(methods_of(old_src), methods_of(path.read_text(encoding="utf-8")))
            fail += changed
            passing += same
        if not fail:
            return "no test changed"
        manifest = ast.literal_eval((root / "after" / module / "__manifest__.py").read_text(encoding="utf-8"))
        words = readme_words(root, module, fail)
    old_version, new_version = WHEEL.search(old.name), WHEEL.search(new.name)
    assert old_version and new_version
    repo = str(manifest.get("website", "")).rstrip("/").replace("https://github.com/", "")
    from benchmarks.odoo_tasks.statement import kind_of, statement_of

    task = Task(
        id=f"{series}-{module}-{new_version.group(2).replace('.', '')[3:]}",
        series=series,
        module=module,
        repo=repo,
        commit=f"odoo-addon-{module}=={new_version.group(2)}",
        parent=f"odoo-addon-{module}=={old_version.group(2)}",
        date="",
        kind=kind_of(code_files, code_patch),
        statement=statement_of(series, module, manifest, words[0], words[1]),
        depends=[str(d) for d in manifest.get("depends", [])],
        repo_modules=[],
        fail_to_pass=sorted(set(fail)),
        pass_to_pass=sorted(set(passing) - set(fail)),
        subject=f"release {old_version.group(2)} -> {new_version.group(2)}",
        judged="static: FAIL_TO_PASS = test methods the newer release adds or changes (parsed code); "
        "PASS_TO_PASS = the module's other test methods",
        before_wheel=old.name,
        before_sha256=hashlib.sha256(old.read_bytes()).hexdigest(),
    )
    return task, code_patch, test_patch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--series", required=True)
    parser.add_argument("--wheels", type=Path, required=True, help="the newest wheel of each module")
    parser.add_argument("--limit", type=int, default=30, help="at most N modules asked of the registry")
    parser.add_argument("--max-closure", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=None, help="where older wheels are kept")
    parser.add_argument("--out", type=Path, default=TASKS_DIR)
    parser.add_argument("--back", type=int, default=0, help="mine the pair N releases older")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args(argv)
    if not args.wheels.is_dir():
        print(f"wheels: no such folder {args.wheels}", file=sys.stderr)
        return 2
    cache = args.cache or wheel_cache()
    cache.mkdir(parents=True, exist_ok=True)
    reasons: dict[str, int] = {}
    made = []
    for module, version, wheel in candidates(args.wheels, args.series, args.max_closure)[: args.limit]:
        for _ in range(args.back):
            older = previous(module, version, cache)
            if older is None:
                break
            wheel, version = older, _version(older)
        old = previous(module, version, cache)
        result = task_of(args.series, module, old, wheel) if old else "no earlier release"
        if isinstance(result, str):
            reasons[result] = reasons.get(result, 0) + 1
            continue
        task, code_patch, test_patch = result
        made.append(task)
        tests = f"{len(task.fail_to_pass)} f2p\t{len(task.pass_to_pass)} p2p"
        print(f"{task.id}\t{task.kind}\t{tests}\t{task.subject}")
        if not args.dry_run:
            save_task(task, code_patch, test_patch, args.out)
    print(json.dumps({"tasks": len(made), "skipped": reasons}), file=sys.stderr)
    if not args.dry_run and made:
        record = args.out / "split.json"
        split = json.loads(record.read_text(encoding="utf-8"))["split"] if record.is_file() else {}
        split.update({t.id: split_of(t.id) for t in made})
        seed = json.loads(record.read_text(encoding="utf-8"))["seed"] if record.is_file() else 3232
        record.write_text(json.dumps({"seed": seed, "split": split}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
