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
from benchmarks.odoo_tasks.tasks_io import Task, forget, write_task_json
from odoo_tools.series import core_graph

WorkTask = Callable[[Task, str, Odoo, argparse.Namespace, Path], dict[str, Any]]


def decide_tests(
    task: Task, odoo: Odoo, args: argparse.Namespace, work: Path, work_task: WorkTask
) -> list[dict[str, Any]]:
    """The empty and oracle legs; they fix FAIL_TO_PASS and PASS_TO_PASS."""
    empty = work_task(task, "empty", odoo, args, work / "empty" / task.id)
    oracle = work_task(task, "oracle", odoo, args, work / "oracle" / task.id)
    passing_oracle = {n for n, v in oracle["tests"].items() if v == "passed"}
    passing_empty = {n for n, v in empty["tests"].items() if v == "passed"}
    fail_to_pass = sorted(passing_oracle - passing_empty)
    pass_to_pass = sorted(passing_oracle & passing_empty)
    left_out = sorted(set(oracle["tests"]) - passing_oracle)
    if not passing_oracle:
        task.gate = {"oracle": f"fail: {oracle['reason'][:300]}"}
        return [empty, oracle]
    if not fail_to_pass:
        task.gate = {"empty": "fail: no hidden test fails before the change"}
        return [empty, oracle]
    task.fail_to_pass, task.pass_to_pass = fail_to_pass, pass_to_pass
    task.judged = (
        f"confirmed by the gate on Odoo {task.series}: FAIL_TO_PASS fail without the change and pass with"
        f" the commit's; PASS_TO_PASS pass with both; {len(left_out)} mined test(s) failing even with the"
        " commit left out"
    )
    task.gate = {"empty": "pass", "oracle": "pass"}
    # Both legs were judged against the mined lists; read them again against the confirmed ones.
    for row in (empty, oracle):
        row["tests"] = {n: row["tests"][n] for n in [*fail_to_pass, *pass_to_pass]}
        row["resolved"] = all(v == "passed" for v in row["tests"].values())
    return [empty, oracle]


def replay(
    task: Task, odoo: Odoo, args: argparse.Namespace, work: Path, work_task: WorkTask
) -> list[dict[str, Any]]:
    row = work_task(task, "replay", odoo, args, work / "replay" / task.id)
    task.gate["replay"] = "pass" if row["resolved"] else f"fail: {row['reason'][:300]}"
    return [row]


def run_gate(tasks: list[Task], odoos: dict[str, Odoo], args: argparse.Namespace, work_task: WorkTask) -> int:
    """Every leg of one task, then the next; resumable (a leg judged in task.json is not run again).
    Tasks whose core dependencies are fewest come first, those needing the same ones together: each
    template database is built once, and the cheap tasks are judged before the costly ones."""
    work = Path(args.work or tempfile.mkdtemp(prefix="bench_gate_"))
    tasks = sorted(tasks, key=lambda t: (t.series, _closure_size(t), sorted(t.depends), t.id))
    with Path(args.out).open("a", encoding="utf-8") as out:
        for task in [] if args.no_run else tasks:
            for step, done in ((decide_tests, ("empty", "oracle")), (replay, ("replay",))):
                if any(verdict != "pass" for verdict in task.gate.values()):
                    break  # failed a leg
                if all(task.gate.get(leg) == "pass" for leg in done):
                    continue  # judged by an earlier run
                for row in step(task, odoos[task.series], args, work, work_task):
                    out.write(json.dumps(row) + "\n")
                out.flush()
                write_task_json(task)
            print(f"{task.id}\t{json.dumps(task.gate)}", flush=True)
    failed = {
        t.id: "; ".join(f"{leg} {v}" for leg, v in t.gate.items() if v != "pass")
        for t in tasks
        if any(v != "pass" for v in t.gate.values())
    }
    for leg in ("empty", "oracle", "replay"):
        judged = [t for t in tasks if leg in t.gate]
        print(f"{leg}: {sum(t.gate[leg] == 'pass' for t in judged)} of {len(judged)} judged tasks pass")
    if args.prune and failed:
        _prune(tasks, failed, Path(args.tasks))
    passed = [t for t in tasks if len(t.gate) == 3 and t.id not in failed]
    for (series, half), counts in sorted(_by_half(tasks, failed, Path(args.tasks)).items()):
        print(f"{series} {half}: " + ", ".join(f"{n} {what}" for what, n in counts.items()))
    print(f"{len(passed)} of {len(tasks)} tasks pass the gate")
    return 0 if len(passed) == len(tasks) else 1


def _by_half(tasks: list[Task], failed: dict[str, str], root: Path) -> dict[tuple[str, str], dict[str, int]]:
    """Per series and half: tasks passing every leg, failing one (here or dropped before), unjudged."""
    from benchmarks.odoo_tasks.mine import split_of

    record = root / "dropped.json"
    dropped = json.loads(record.read_text(encoding="utf-8")) if record.is_file() else {}
    rows: dict[tuple[str, str], dict[str, int]] = {}

    def state(task: Task) -> str:
        return "failed a leg" if task.id in failed else "pass" if len(task.gate) == 3 else "unjudged"

    states = [(t.id, t.series, state(t)) for t in tasks]
    states += [(i, i.split("-")[0], "failed a leg") for i in dropped if i not in {t.id for t in tasks}]
    for task_id, series, verdict in states:
        counts = rows.setdefault((series, split_of(task_id)), {"pass": 0, "failed a leg": 0, "unjudged": 0})
        counts[verdict] += 1
    return rows


def _closure_size(task: Task) -> int:
    """How many core modules the task's template holds (what building it costs)."""
    graph = core_graph(task.series).depends
    seen: set[str] = set()
    todo = [d for d in task.depends if d in graph]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(graph.get(name, ()))
    return len(seen)


def _prune(tasks: list[Task], failed: dict[str, str], root: Path) -> None:
    record = root / "dropped.json"
    dropped = json.loads(record.read_text(encoding="utf-8")) if record.is_file() else {}
    for task in tasks:
        if task.id in failed:
            dropped[task.id] = {"commit": task.commit, "repo": task.repo, "reason": failed[task.id]}
            shutil.rmtree(root / task.id, ignore_errors=True)
            forget(root, task.id)
    record.write_text(json.dumps(dropped, indent=1, sort_keys=True) + "\n", encoding="utf-8")
