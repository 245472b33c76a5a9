"""Run the Odoo task benchmark: an agent (or a gate leg) per task, judged by plain odoo-bin.

    python -m benchmarks.odoo_tasks.run run --model openai/gpt-4o --lab 17.0=/path/to/odoo17 \\
        [--lab 18.0=...] [--odoo 19.0=PYTHON,ODOO_BIN[,CONF]] [--api-base URL] [--max-steps 30] \\
        [--max-seconds 1800] [--max-cost 2.0] [--no-validation] [--task ID]... [--split dev|held_out] \\
        [--out results.jsonl]
    python -m benchmarks.odoo_tasks.run run --leg oracle|empty|replay ...   # one leg of the gate
    python -m benchmarks.odoo_tasks.run gate --lab ... [--prune]            # the release gate
    python -m benchmarks.odoo_tasks.run summary results.jsonl
    python -m benchmarks.odoo_tasks.run compare a.jsonl b.jsonl

A lab folder holds ``venv/bin/python``, ``src/odoo-bin`` and ``odoo.conf`` (addons_path, db_*);
PostgreSQL is reached with libpq's ``PG*`` variables. Each task gets a fresh folder (the module
before the commit, no ``.git``) and database (``bench_*``, copied from a template of its core
dependencies, dropped after). The agent is ``assista-odoo run --mode yolo`` within the budget; then
the tests are put back as they were and the commit's hidden tests applied, and odoo-bin judges.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.odoo_tasks.agent import AgentRun, Budget, command, replay_script, run_agent
from benchmarks.odoo_tasks.gate import run_gate
from benchmarks.odoo_tasks.judge import Odoo, Verdict, judge
from benchmarks.odoo_tasks.results import compare, read, record, summary
from benchmarks.odoo_tasks.tasks_io import TASKS_DIR, Task, apply_patch, build_before, load_tasks

LEGS = ("agent", "oracle", "empty", "replay")


def odoos_of(labs: list[str], odoos: list[str]) -> dict[str, Odoo]:
    found: dict[str, Odoo] = {}
    for spec in labs:
        series, _, folder = spec.partition("=")
        root = Path(folder)
        conf = root / "odoo.conf"
        found[series] = Odoo(series, str(root / "venv/bin/python"), str(root / "src/odoo-bin"), str(conf))
    for spec in odoos:
        series, _, rest = spec.partition("=")
        parts = rest.split(",")
        if len(parts) not in (2, 3):
            raise SystemExit(f"--odoo {spec}: give SERIES=PYTHON,ODOO_BIN[,CONF]")
        found[series] = Odoo(series, parts[0], parts[1], parts[2] if len(parts) == 3 else None)
    return found


def work_task(task: Task, leg: str, odoo: Odoo, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """One task, one leg: the folder, the change (the agent's, the oracle's or none), the judge."""
    shutil.rmtree(work, ignore_errors=True)
    addons, pristine = work / "addons", work / "pristine"
    build_before(task, addons)
    build_before(task, pristine)
    agent: AgentRun | None = None
    model = ""
    if leg == "oracle":
        failed = apply_patch(addons, task.code_patch())
        if failed:
            return record(task, leg, model, True, Verdict(False, reason=f"oracle patch: {failed}"), None)
    elif leg in ("agent", "replay"):
        budget = Budget(args.max_steps, args.max_seconds, args.max_cost)
        if leg == "replay":
            agent = _replay(task, addons, odoo, budget, work)
            model = "scripted-replay"
        else:
            model = args.model
            cmd = command(task, addons, odoo, args.model, args.api_base, budget, not args.no_validation)
            agent = run_agent(cmd, work, budget)
    # The judge's tests, not the agent's: the tests folder as it was, then the commit's test change.
    tests, before_tests = addons / task.module / "tests", pristine / task.module / "tests"
    shutil.rmtree(tests, ignore_errors=True)
    if before_tests.is_dir():
        shutil.copytree(before_tests, tests)
    failed = apply_patch(addons, task.test_patch())
    if failed:
        verdict = Verdict(False, reason=f"the hidden tests do not apply: {failed}")
    else:
        verdict = judge(odoo, task, addons, work)
    validation = leg != "agent" or not args.no_validation
    return record(task, leg, model, validation, verdict, agent)


def _replay(task: Task, addons: Path, odoo: Odoo, budget: Budget, work: Path) -> AgentRun:
    """The scripted model (the agent tests' stand-in provider) replays the oracle through MCP."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from fixtures.model_server import TEST_API_KEY, TEST_MODEL, ScriptedModelServer

    with ScriptedModelServer(replay_script(task)) as server:
        # --no-validate: the post-turn check would ask the script for a turn it does not have.
        cmd = [*command(task, addons, odoo, TEST_MODEL, server.api_base, budget, True), "--no-validate"]
        env = {"OPENAI_API_KEY": TEST_API_KEY, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        # One test_module per run: starting the warm worker (Odoo imported ahead) would cost more
        # than it saves; the tool path is the same.
        env["ASSISTA_WARM_WORKER"] = "false"
        return run_agent(cmd, work, budget, env)


def cmd_run(args: argparse.Namespace) -> int:
    odoos = odoos_of(args.lab, args.odoo)
    if args.leg == "agent" and not args.model:
        print(
            "run: --model is required for the agent leg (or give --leg oracle|empty|replay)", file=sys.stderr
        )
        return 2
    tasks = _chosen(args, odoos)
    if not tasks:
        print(
            "run: no task matches (check --task, --split and that --lab/--odoo covers its series)",
            file=sys.stderr,
        )
        return 2
    work_root = Path(args.work or tempfile.mkdtemp(prefix="bench_"))
    rows = []
    with Path(args.out).open("a", encoding="utf-8") as out:
        for task in tasks:
            row = work_task(task, args.leg, odoos[task.series], args, work_root / args.leg / task.id)
            out.write(json.dumps(row) + "\n")
            out.flush()
            rows.append(row)
            print(
                f"{task.id}\t{args.leg}\t{'resolved' if row['resolved'] else 'not resolved'}\t{row['reason']}"
            )
    print(summary(rows))
    return 0


def _chosen(args: argparse.Namespace, odoos: dict[str, Odoo]) -> list[Task]:
    tasks = load_tasks(Path(args.tasks), args.task or None)
    if args.split:
        split = json.loads((Path(args.tasks) / "split.json").read_text(encoding="utf-8"))["split"]
        tasks = [t for t in tasks if split.get(t.id) == args.split]
    return [t for t in tasks if t.series in odoos]


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True)
    for name in ("run", "gate"):
        one = sub.add_parser(name)
        one.add_argument("--lab", action="append", default=[], metavar="SERIES=DIR")
        one.add_argument("--odoo", action="append", default=[], metavar="SERIES=PYTHON,ODOO_BIN[,CONF]")
        one.add_argument("--task", action="append", default=[], help="a task id (or its prefix), repeatable")
        one.add_argument("--split", choices=("dev", "held_out"))
        one.add_argument("--tasks", default=str(TASKS_DIR), help="the task folder")
        one.add_argument("--work", help="where task folders are made (default: a new temporary folder)")
        one.add_argument("--out", default="results.jsonl", help="JSON lines are appended here")
        one.add_argument("--max-steps", type=int, default=30)
        one.add_argument("--max-seconds", type=float, default=1800.0)
        one.add_argument("--max-cost", type=float, default=2.0, help="US dollars per task")
        if name == "run":
            one.add_argument("--leg", choices=LEGS, default="agent")
            one.add_argument("--model", help="a LiteLLM model id")
            one.add_argument("--api-base")
            one.add_argument("--no-validation", action="store_true", help="deny the validation tools")
        else:
            one.add_argument("--prune", action="store_true", help="delete the tasks that fail the gate")
            one.add_argument(
                "--no-run", action="store_true", help="only count (and --prune) what task.json says"
            )
    one = sub.add_parser("summary")
    one.add_argument("results", nargs="+")
    two = sub.add_parser("compare")
    two.add_argument("first")
    two.add_argument("second")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    given = (
        args.results
        if args.command == "summary"
        else [getattr(args, "first", ""), getattr(args, "second", "")]
    )
    missing = [p for p in given if not Path(p).is_file()] if args.command in ("summary", "compare") else []
    if missing:
        print(f"{args.command}: no such results file: {', '.join(missing)}", file=sys.stderr)
        return 2
    if args.command == "summary":
        return _print(summary([row for path in args.results for row in read(Path(path))]))
    if args.command == "compare":
        first, second = Path(args.first), Path(args.second)
        return _print(compare(read(first), read(second), (first.stem, second.stem)))
    if args.command == "gate":
        odoos = odoos_of(args.lab, args.odoo)
        args.leg, args.model, args.api_base, args.no_validation = "gate", "", None, False
        return run_gate(_chosen(args, odoos), odoos, args, work_task)
    return cmd_run(args)


def _print(text: str) -> int:
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
