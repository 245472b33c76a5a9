"""The release gate of the task set: the empty change resolves none, the oracle every task, and a
scripted model replaying the oracle through the MCP tools (``apply_patch``, ``test_module``) every task.

Per task, in that order (one odoo-bin at a time): the empty leg and the oracle leg decide the tests
(as SWE-bench does): FAIL_TO_PASS = the mined candidates that pass with the oracle and not without
it, PASS_TO_PASS = those that pass with both; a test failing even with the oracle is left out. A task
with no such FAIL_TO_PASS test fails the gate; then the replay leg must resolve it. The verdicts go
to ``task.json`` (``gate``, the lists, ``judged``) and to ``--out``; ``--prune`` deletes the tasks that
failed and records why in ``dropped.json``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.odoo_tasks.judge import Odoo
from benchmarks.odoo_tasks.results import summary
from benchmarks.odoo_tasks.tasks_io import Task, forget, write_task_json

WorkTask = Callable[[Task, str, Odoo, argparse.Namespace, Path], dict[str, Any]]


def gate_task(
    task: Task, odoo: Odoo, args: argparse.Namespace, work: Path, work_task: WorkTask
) -> list[dict[str, Any]]:
    rows = []
    empty = work_task(task, "empty", odoo, args, work / "empty" / task.id)
    oracle = work_task(task, "oracle", odoo, args, work / "oracle" / task.id)
    rows += [empty, oracle]
    passing_oracle = {n for n, v in oracle["tests"].items() if v == "passed"}
    passing_empty = {n for n, v in empty["tests"].items() if v == "passed"}
    fail_to_pass = sorted(passing_oracle - passing_empty)
    pass_to_pass = sorted(passing_oracle & passing_empty)
    dropped = sorted(set(oracle["tests"]) - passing_oracle)
    if not passing_oracle:
        task.gate = {"oracle": f"fail: {oracle['reason'][:300]}"}
        return rows
    if not fail_to_pass:
        task.gate = {"empty": "fail: no hidden test fails before the change"}
        return rows
    task.fail_to_pass, task.pass_to_pass = fail_to_pass, pass_to_pass
    task.judged = (
        f"confirmed by the gate on Odoo {task.series}: FAIL_TO_PASS fail without the change and pass with"
        f" the commit's; PASS_TO_PASS pass with both; {len(dropped)} mined test(s) failing even with the"
        " commit left out"
    )
    task.gate = {"empty": "pass", "oracle": "pass"}
    replay = work_task(task, "replay", odoo, args, work / "replay" / task.id)
    rows.append(replay)
    task.gate["replay"] = "pass" if replay["resolved"] else f"fail: {replay['reason'][:300]}"
    # The two first legs judged against the mined lists; re-read against the confirmed ones.
    for row in (empty, oracle):
        row["tests"] = {n: row["tests"][n] for n in [*fail_to_pass, *pass_to_pass]}
        row["resolved"] = all(v == "passed" for v in row["tests"].values())
    return rows


def run_gate(tasks: list[Task], odoos: dict[str, Odoo], args: argparse.Namespace, work_task: WorkTask) -> int:
    work = Path(args.work or tempfile.mkdtemp(prefix="bench_gate_"))
    all_rows: list[dict[str, Any]] = []
    failed: dict[str, str] = {}
    # Tasks needing the same core modules one after the other: each template is built once.
    tasks = sorted(tasks, key=lambda t: (t.series, sorted(t.depends), t.id))
    with Path(args.out).open("a", encoding="utf-8") as out:
        for task in tasks:
            rows = gate_task(task, odoos[task.series], args, work, work_task)
            for row in rows:
                out.write(json.dumps(row) + "\n")
            out.flush()
            all_rows += rows
            write_task_json(task)
            bad = {leg: verdict for leg, verdict in task.gate.items() if verdict != "pass"}
            if bad:
                failed[task.id] = "; ".join(f"{leg} {verdict}" for leg, verdict in bad.items())
            print(f"{task.id}\t{'PASS' if not bad else 'FAIL ' + failed[task.id][:200]}", flush=True)
    if args.prune and failed:
        _prune(tasks, failed, Path(args.tasks))
    passed = [t for t in tasks if t.id not in failed]
    kept = [r for r in all_rows if r["task"] not in failed]
    print(summary(kept, "gate"))
    print(f"{len(passed)} of {len(tasks)} tasks pass the gate")
    return 0 if not failed else 1


def _prune(tasks: list[Task], failed: dict[str, str], root: Path) -> None:
    record = root / "dropped.json"
    dropped = json.loads(record.read_text(encoding="utf-8")) if record.is_file() else {}
    for task in tasks:
        if task.id in failed:
            dropped[task.id] = {"commit": task.commit, "repo": task.repo, "reason": failed[task.id]}
            shutil.rmtree(root / task.id, ignore_errors=True)
            forget(root, task.id)
    record.write_text(json.dumps(dropped, indent=1, sort_keys=True) + "\n", encoding="utf-8")
