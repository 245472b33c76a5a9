"""Asking PyPI for the wheels of a corpus (``benchmarks/corpus.py download``), and the JSON state
files the corpus keeps (a pure move out of that script)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

PREFIX = "odoo-addon-"
PIP_TIMEOUT_SECONDS = 600
_NOT_FOUND = re.compile(
    r"No matching distribution found for (odoo-addon-[A-Za-z0-9_.\-]+?)(?=[<>=!~ ]|$)", re.M
)


def major(series: str) -> int:
    return int(series.split(".")[0])


def spec(name: str, series: str) -> str:
    return f"{name}>={series},<{major(series)}.1"


def dist_key(name: str) -> str:
    """The wheel file's project part for a PyPI name (``odoo-addon-a-b`` -> ``odoo_addon_a_b``)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def candidates(names_file: Path, series: str) -> list[str]:
    """The odoo-addon names of the list whose listed version is of ``series`` or later."""
    found: list[str] = []
    for line in names_file.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if not cols[0].startswith(PREFIX):
            continue
        version = cols[1] if len(cols) > 1 else ""
        listed = re.match(r"(\d+)\.", version)
        if listed is None or int(listed.group(1)) >= major(series):
            found.append(cols[0])
    return sorted(set(found))


def load_json(path: Path, default: Any) -> Any:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else default


def save_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def pip_download(names: list[str], series: str, wheels: Path) -> tuple[dict[str, str | None], str]:
    """One pip call for ``names``; returns (name -> wheel or None when the series has no release,
    pip's error text when the call failed for another reason). pip stops at the first name without
    a release, so that name is marked and the rest is asked again."""
    done: dict[str, str | None] = {}
    todo = list(names)
    while todo:
        before = {p.name for p in wheels.glob("*.whl")}
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "-q",
            "-d",
            str(wheels),
        ]
        try:
            proc = subprocess.run(
                cmd + [spec(n, series) for n in todo],
                capture_output=True,
                text=True,
                timeout=PIP_TIMEOUT_SECONDS,
            )
        except subprocess.TimeoutExpired:
            return done, "timeout"
        if proc.returncode == 0:
            files = {p.name for p in wheels.glob("*.whl")} | before
            for name in todo:
                prefix = f"{dist_key(name)}-{major(series)}.0"
                hits = sorted(f for f in files if f.lower().startswith(prefix))
                done[name] = hits[-1] if hits else None
            return done, ""
        missing = _NOT_FOUND.search(proc.stderr)
        if missing is None or missing.group(1) not in todo:
            return done, proc.stderr.strip()[-500:]
        done[missing.group(1)] = None
        todo.remove(missing.group(1))
    return done, ""


def download(corpus: Path, series: str, names: list[str], batch: int) -> None:
    """Ask pip for each name not yet asked, ``batch`` names per call, one call at a time. Other
    processes may work on the same list (another shard, or ``--reverse`` from its end): what they
    asked meanwhile is read back before each call and not asked again."""
    state_file = corpus / series / "download.json"
    wheels = corpus / "wheels" / series
    wheels.mkdir(parents=True, exist_ok=True)
    asked = 0
    print(f"{series}: {len(names)} names", flush=True)
    while True:
        state: dict[str, str | None] = load_json(state_file, {})
        chunk = [n for n in names if n not in state][:batch]
        if not chunk:
            break
        done, error = pip_download(chunk, series, wheels)
        if error:  # ask the rest of the chunk one by one, so one odd name does not block it
            for name in chunk:
                if name not in done:
                    one, err = pip_download([name], series, wheels)
                    done.update(one if name in one else {**one, name: None})
                    if err:
                        print(f"  {name}: {err.splitlines()[-1] if err.splitlines() else err}", flush=True)
        state = {**load_json(state_file, {}), **done}
        save_json(state_file, state)
        asked += len(chunk)
        print(f"  {asked} asked here, {sum(1 for n in names if n not in state)} left", flush=True)
