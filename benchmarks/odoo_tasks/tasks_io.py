"""A task on disk and the addons folder it is worked in.

``tasks/<id>/task.json`` holds the facts (series, module, its dependencies, the real commit, the
statement, the tests), ``code.patch`` the commit's change outside the tests (the oracle) and
``test.patch`` its change to the tests (hidden from the agent, applied by the judge). The module
before the commit is not stored: ``build_before`` rebuilds it from the OCA repository's git history
(``git archive`` of the parent commit: no ``.git``, no history an agent could read the fix from).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
# Where the older wheels of wheel-mined tasks are kept (downloaded again when missing).
WHEELS_ENV = "ASSISTA_BENCH_WHEELS"
# Where `fetch`/`git clone --mirror` put the OCA repositories: <root>/OCA+<repo>/repo (a git dir).
MIRRORS_ENV = "ASSISTA_BENCH_MIRRORS"
DEFAULT_MIRRORS = Path("/work/.mirror")


@dataclass
class Task:
    id: str
    series: str
    module: str
    repo: str  # "OCA/server-tools"
    commit: str  # the real commit (its change is the oracle)
    parent: str  # the module before = this commit's tree
    date: str
    kind: str  # field+view | logic fix | wizard | security | report | migration step
    statement: str
    depends: list[str]  # the manifest's depends (core modules, or same-repo modules below)
    repo_modules: list[str]  # same-repo modules the task folder also holds (dependencies)
    fail_to_pass: list[str]  # "Class.method" as Odoo's test log names them
    pass_to_pass: list[str]
    subject: str = ""  # the commit's first line, as written
    judged: str = ""  # how the lists above were decided (static, then confirmed by the gate)
    gate: dict[str, str] = field(default_factory=dict)  # leg -> "pass" | reason it failed
    # A task mined from two released wheels (no git history): the older wheel's file name and sha256;
    # ``commit`` and ``parent`` then name the two releases (odoo-addon-<module>==<version>).
    before_wheel: str = ""
    before_sha256: str = ""
    root: str = field(default="", repr=False)  # the task set's folder (not stored)

    @property
    def folder(self) -> Path:
        return Path(self.root or TASKS_DIR) / self.id

    def as_json(self) -> str:
        raw = asdict(self)
        raw.pop("root")
        return json.dumps(raw, indent=1) + "\n"

    def code_patch(self) -> str:
        return (self.folder / "code.patch").read_text(encoding="utf-8")

    def test_patch(self) -> str:
        return (self.folder / "test.patch").read_text(encoding="utf-8")


def save_task(task: Task, code_patch: str, test_patch: str, root: Path = TASKS_DIR) -> Path:
    folder = root / task.id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "task.json").write_text(task.as_json(), encoding="utf-8")
    (folder / "code.patch").write_text(code_patch, encoding="utf-8")
    (folder / "test.patch").write_text(test_patch, encoding="utf-8")
    return folder


def write_task_json(task: Task) -> None:
    (task.folder / "task.json").write_text(task.as_json(), encoding="utf-8")


def load_task(folder: Path) -> Task:
    raw = json.loads((folder / "task.json").read_text(encoding="utf-8"))
    return Task(**raw, root=str(folder.parent))


def load_tasks(root: Path = TASKS_DIR, only: list[str] | None = None) -> list[Task]:
    tasks = [load_task(p.parent) for p in sorted(root.glob("*/task.json"))]
    if only:
        tasks = [t for t in tasks if t.id in only or any(t.id.startswith(o) for o in only)]
    return tasks


def mirror_git_dir(repo: str) -> Path:
    root = Path(os.environ.get(MIRRORS_ENV) or DEFAULT_MIRRORS)
    return root / repo.replace("/", "+") / "repo"


def build_before(task: Task, addons: Path) -> None:
    """The module (and its same-repo dependencies) as they were before the commit, in ``addons``.

    A task may carry them as files instead (``before/``: the small made-up tasks of the CI slice).
    A task folder is anyone's: its ``before/`` may hold only folders and regular files (see
    ``unfit_before``), so nothing outside it is copied and no git setting of its runs."""
    before = task.folder / "before"
    if before.is_dir() and not before.is_symlink():
        problem = unfit_before(before)
        if problem:
            raise SystemExit(f"task {task.folder.name}: {problem}; the task was not run")
        shutil.copytree(before, addons, dirs_exist_ok=True)
        return
    if task.before_wheel:
        _unpack_before_wheel(task, addons)
        return
    git_dir = mirror_git_dir(task.repo)
    if not git_dir.is_dir():
        raise SystemExit(f"no git snapshot of {task.repo} at {git_dir}: fetch it (git clone --mirror) first")
    addons.mkdir(parents=True, exist_ok=True)
    archive = addons / ".before.tar"
    paths = [task.module, *task.repo_modules]
    # git may complain about objects a partial snapshot lacks outside these paths: only a failure counts.
    done = subprocess.run(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", "-o", str(archive), task.parent, *paths],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"git archive {task.parent} {' '.join(paths)}: {done.stderr.strip()}")
    with tarfile.open(archive) as tar:
        tar.extractall(addons, filter="data")
    archive.unlink()


def wheel_cache() -> Path:
    return Path(os.environ.get(WHEELS_ENV) or Path.home() / ".cache" / "assista-bench-wheels")


def _unpack_before_wheel(task: Task, addons: Path) -> None:
    """The module before, from its older release (fetched with pip when not cached), checked by sha256."""
    from benchmarks.odoo_tasks.wheel_diff import unpack_module

    cache = wheel_cache()
    wheel = cache / task.before_wheel
    if not wheel.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q",
             "-d", str(cache), task.parent],
            capture_output=True, timeout=300,
        )  # fmt: skip
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest() if wheel.is_file() else ""
    if digest != task.before_sha256:
        raise SystemExit(f"task {task.id}: {task.before_wheel} missing or not the mined one (sha256)")
    addons.mkdir(parents=True, exist_ok=True)
    unpack_module(wheel, task.module, addons)


def unfit_before(before: Path) -> str | None:
    """Why a task's ``before/`` may not be copied, or None: a link (copying follows it, so a link
    to ~/.ssh/id_rsa put that file in the agent's workspace), a pipe or device, or a ``.git``
    (``git apply`` then ran in it, and its config's filter drivers ran as commands)."""
    for folder, folders, files in os.walk(before):
        for name in [*folders, *files]:
            path = Path(folder, name)
            if name.lower() == ".git":
                return f"before/ holds a git folder or file ({path.relative_to(before)})"
            if path.is_symlink():
                return f"before/ holds a link ({path.relative_to(before)})"
            if name in files and not path.is_file():
                return f"before/ holds a pipe, socket or device ({path.relative_to(before)})"
    return None


def apply_patch(addons: Path, patch: str) -> str | None:
    """Apply a unified diff inside ``addons``; None when it applied, else git's complaint."""
    if not patch.strip():
        return None
    if os.path.lexists(addons / ".git"):  # git would read its config: filters run as commands
        return "the work folder holds a .git: no patch is applied there"
    # The folder is no repository: stop git from finding one above it (paths would shift to its top).
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(addons.resolve().parent)}
    done = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", "-"],
        cwd=addons,
        input=patch,
        text=True,
        capture_output=True,
        env=env,
    )
    return None if done.returncode == 0 else (done.stderr.strip() or "git apply failed")


def forget(root: Path, task_id: str) -> None:
    """Take a dropped task out of ``split.json`` (its folder is removed by the caller)."""
    path = root / "split.json"
    if path.is_file():
        raw = json.loads(path.read_text(encoding="utf-8"))
        raw["split"].pop(task_id, None)
        path.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
