"""Mine Odoo tasks from the real history of OCA repositories (reproducible: same snapshots, same tasks).

    usage: python -m benchmarks.odoo_tasks.mine --repo OCA/server-tools --series 17.0 [--repo ...]
               [--series 18.0] [--per-module 2] [--max-lines 300] [--out DIR] [--dry-run]

A commit on the series branch becomes a task when it changes one module's code (Python, XML or CSV
outside ``tests/``) AND its tests; the module's manifest says the same series before and after (the
branch's history also holds the older series' commits a migration carried over); it is installable,
has no external Python dependency, and depends only on core modules of that series (the bundled core
list, ``odoo_tools.series``) or on same-repo modules that themselves do; it is not a migration or a
new module ([MIG]/[ADD]); its code change is at most ``--max-lines`` changed lines.

The oracle is the commit's change outside ``tests/`` (translations, readme and description pages left
out); the commit's test change is kept apart. FAIL_TO_PASS = the test methods the commit adds or
changes (compared as parsed code), PASS_TO_PASS = the module's other tests; the release gate
(``run.py gate``) then keeps only what real Odoo confirms.
Snapshots: ``$ASSISTA_BENCH_MIRRORS/OCA+<repo>/repo`` (git dirs, e.g.
``git clone --mirror https://github.com/OCA/<repo> OCA+<repo>/repo``).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmarks.odoo_tasks.statement import kind_of, statement_of
from benchmarks.odoo_tasks.tasks_io import (
    TASKS_DIR,
    Task,
    forget,
    load_tasks,
    mirror_git_dir,
    save_task,
    write_task_json,
)
from benchmarks.odoo_tasks.testdiff import changed_methods, methods_of
from odoo_tools.series import core_graph

NOISE = ("i18n/", "i18n_extra/", "readme/", "README.rst", "static/description/")
CODE_SUFFIXES = (".py", ".xml", ".csv")
# Not a task a user would ask for: migrations, new modules, bots, moves, forward-ports, clean-ups.
SKIP_SUBJECT = re.compile(
    r"^\s*\[(MIG|ADD|BOT|UPD|REF|REM|MV|FW|RFC)\]|migrat(e|ion) to|pre-?commit|dotfiles"
    r"|forward-port|unused code",
    re.I,
)
SPLIT_SEED = 3232  # dev / held-out split of the tasks, recorded once (split.json)


@dataclass
class Commit:
    sha: str
    parent: str
    date: str
    subject: str
    body: str
    files: list[str]


class Repo:
    def __init__(self, name: str) -> None:
        self.name = name
        self.git_dir = mirror_git_dir(name)
        if not self.git_dir.is_dir():
            raise SystemExit(f"no git snapshot of {name} at {self.git_dir}")

    def git(self, *args: str, partial: bool = False) -> str:
        """git's output; "" on failure unless ``partial`` (a log over a snapshot that lacks old objects
        stops there with an error: what it printed before is still true)."""
        done = subprocess.run(["git", f"--git-dir={self.git_dir}", *args], capture_output=True)
        ok = done.returncode == 0 or partial
        return done.stdout.decode("utf-8", errors="replace") if ok else ""

    def show(self, rev: str, path: str) -> str:
        return self.git("show", f"{rev}:{path}")

    def manifest(self, rev: str, module: str) -> dict[str, object] | None:
        text = self.show(rev, f"{module}/__manifest__.py")
        try:
            value = ast.literal_eval(text) if text else None
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, dict) else None

    def commits(self, revs: list[str]) -> list[Commit]:
        """The non-merge commits of ``revs`` (``--not --branches`` style arguments allowed), newest first.

        Files are listed per commit: a snapshot may lack an old commit's objects, and one unreadable
        commit must not hide the others."""
        raw = self.git("log", "--no-merges", "--format=\x1e%H %P\x1f%cI\x1f%s\x1f%b", *revs, partial=True)
        found = []
        for chunk in raw.split("\x1e")[1:]:
            head, date, subject, body = chunk.split("\x1f", 3)
            shas = head.split()
            if len(shas) != 2:
                continue
            names = self.git("diff-tree", "-r", "--name-only", "--no-commit-id", shas[1], shas[0])
            files = [n for n in names.splitlines() if n.strip()]
            if files:
                found.append(Commit(shas[0], shas[1], date, subject.strip(), body.strip(), files))
        return found


def _closure(repo: Repo, rev: str, series: str, module: str) -> tuple[list[str], list[str]] | None:
    """(the module's depends, the same-repo modules of its closure), or None when one is out of reach."""
    core = core_graph(series).depends
    manifest = repo.manifest(rev, module)
    if manifest is None:
        return None
    own_depends = _depends(manifest)
    extra: list[str] = []
    todo = list(own_depends)
    while todo:
        name = todo.pop()
        if name in core or name in extra:
            continue
        dep = repo.manifest(rev, name)
        if dep is None or not _fits(dep, series):
            return None
        extra.append(name)
        todo.extend(_depends(dep))
    return own_depends, sorted(extra)


def _depends(manifest: dict[str, object]) -> list[str]:
    raw = manifest.get("depends")
    return [str(d) for d in raw] if isinstance(raw, list | tuple) else []


def _fits(manifest: dict[str, object], series: str) -> bool:
    external = manifest.get("external_dependencies") or {}
    return (
        str(manifest.get("version", "")).startswith(series + ".")
        and manifest.get("installable", True) is not False
        and not (isinstance(external, dict) and any(external.values()))
    )


def _changed_lines(patch: str) -> int:
    return sum(1 for line in patch.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---")))


def task_from(repo: Repo, series: str, commit: Commit, max_lines: int) -> tuple[Task, str, str] | str:
    """The task a commit makes, or why it makes none."""
    if SKIP_SUBJECT.search(commit.subject):
        return "subject"
    modules = {f.split("/")[0] for f in commit.files if "/" in f and not f.startswith(("setup/", "."))}
    if len(modules) != 1:
        return "modules"
    module = modules.pop()
    inner = [f[len(module) + 1 :] for f in commit.files if f.startswith(module + "/")]
    tests = [f for f in inner if f.startswith("tests/") and f.endswith(".py")]
    code = [f for f in inner if not f.startswith(("tests/", *NOISE)) and f.endswith(CODE_SUFFIXES)]
    if not tests or not code:
        return "code+tests"
    before, after = repo.manifest(commit.parent, module), repo.manifest(commit.sha, module)
    if before is None or after is None or not _fits(before, series) or not _fits(after, series):
        return "manifest"
    closure = _closure(repo, commit.parent, series, module)
    if closure is None:
        return "depends"
    excluded = [f":(exclude){module}/{n}" for n in ("tests", *NOISE)]
    code_patch = repo.git("diff", "--no-renames", commit.parent, commit.sha, "--", module, *excluded)
    test_patch = repo.git("diff", "--no-renames", commit.parent, commit.sha, "--", f"{module}/tests")
    if "Binary files" in code_patch + test_patch or not code_patch.strip():
        return "binary/empty"
    if _changed_lines(code_patch) > max_lines:
        return "size"
    fail, passing = [], []
    listing = repo.git("ls-tree", "-r", "--name-only", commit.sha, f"{module}/tests/").split()
    for path in listing:
        if path.endswith(".py"):
            new, same = changed_methods(
                methods_of(repo.show(commit.parent, path)), methods_of(repo.show(commit.sha, path))
            )
            fail += new
            passing += same
    if not fail:
        return "no test changed"
    task = Task(
        id=f"{series}-{module}-{commit.sha[:8]}",
        series=series,
        module=module,
        repo=repo.name,
        commit=commit.sha,
        parent=commit.parent,
        date=commit.date,
        kind=kind_of(code, code_patch),
        statement=statement_of(series, module, before, commit.subject, commit.body),
        depends=closure[0],
        repo_modules=closure[1],
        fail_to_pass=sorted(set(fail)),
        pass_to_pass=sorted(set(passing) - set(fail)),
        subject=commit.subject,
        judged="static: FAIL_TO_PASS = test methods the commit adds or changes (parsed code); "
        "PASS_TO_PASS = the module's other test methods",
    )
    return task, code_patch, test_patch


def split_of(task_id: str) -> str:
    digest = hashlib.sha256(f"{SPLIT_SEED}:{task_id}".encode()).digest()
    return "dev" if digest[0] % 2 == 0 else "held_out"


def restate(out: Path) -> int:
    """Write the statements of the tasks in ``out`` again from their commits (after a change of the
    rules in statement.py); a task whose subject the rules now skip is removed."""
    for task in load_tasks(out):
        repo = Repo(task.repo)
        message = repo.git("log", "-1", "--format=%s%x1f%b", task.commit)
        subject, _, body = message.partition("\x1f")
        if SKIP_SUBJECT.search(subject):
            print(f"{task.id}\tremoved: its subject is skipped now", file=sys.stderr)
            shutil.rmtree(task.folder)
            forget(out, task.id)
            continue
        manifest = repo.manifest(task.parent, task.module) or {}
        task.statement = statement_of(task.series, task.module, manifest, subject.strip(), body.strip())
        write_task_json(task)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repo", action="append", default=[], help="OCA/<name>, repeatable")
    parser.add_argument("--series", action="append", default=[], help="17.0, 18.0 ... repeatable")
    parser.add_argument("--per-module", type=int, default=2, help="at most N tasks per module (newest first)")
    parser.add_argument("--max-lines", type=int, default=300)
    parser.add_argument("--out", type=Path, default=TASKS_DIR)
    parser.add_argument("--pulls", action="store_true", help="mine the unmerged pull-request commits instead")
    parser.add_argument("--restate", action="store_true", help="rewrite the statements of the tasks in --out")
    parser.add_argument("--dry-run", action="store_true", help="count, write nothing")
    args = parser.parse_args(argv)
    if args.restate:
        return restate(args.out)
    reasons: dict[str, int] = {}
    made: list[Task] = []
    for name in args.repo:
        repo = Repo(name)
        for series in args.series:
            per_module: dict[str, int] = {}
            revs = [series]
            if args.pulls:
                # Pull requests' own commits (refs/pull/N/head in an OCA mirror) not merged as such;
                # the manifest's version still decides the series, the gate whether they hold.
                pulls = repo.git("for-each-ref", "--format=%(refname)", "refs/pull/").split()
                revs = [*pulls, "--not", "--branches"]
            for commit in repo.commits(revs):
                result = task_from(repo, series, commit, args.max_lines)
                if isinstance(result, str):
                    reasons[result] = reasons.get(result, 0) + 1
                    continue
                task, code_patch, test_patch = result
                if per_module.get(task.module, 0) >= args.per_module:
                    reasons["per-module cap"] = reasons.get("per-module cap", 0) + 1
                    continue
                per_module[task.module] = per_module.get(task.module, 0) + 1
                made.append(task)
                if not args.dry_run:
                    save_task(task, code_patch, test_patch, args.out)
    for task in made:
        counts = f"{len(task.fail_to_pass)} f2p\t{len(task.pass_to_pass)} p2p"
        print(f"{task.id}\t{task.kind}\t{counts}\t{task.subject}")
    print(json.dumps({"tasks": len(made), "skipped": reasons}), file=sys.stderr)
    if not args.dry_run:
        record = args.out / "split.json"
        # Tasks mined before keep their half (one split, seed recorded); the new ones join by the same rule.
        split = json.loads(record.read_text(encoding="utf-8"))["split"] if record.is_file() else {}
        split.update({t.id: split_of(t.id) for t in made})
        record.write_text(json.dumps({"seed": SPLIT_SEED, "split": split}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
