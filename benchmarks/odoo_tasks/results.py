"""One JSON line per task and leg (``result.schema.json``), the summary table, and the comparison.

A line says which task, which leg (``agent`` = a model; ``oracle``, ``empty``, ``replay`` = the
release gate's), which model and whether the validation tools were on, the judge's verdict per
test, and what the agent spent. Two files of such lines (two models, tools on and off) compare with
``run.py compare A B``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks.odoo_tasks.agent import AgentRun
from benchmarks.odoo_tasks.judge import Verdict
from benchmarks.odoo_tasks.tasks_io import Task

SCHEMA = "odoo-tasks-result/1"
SCHEMA_PATH = Path(__file__).resolve().parent / "result.schema.json"


def record(
    task: Task, leg: str, model: str, validation: bool, verdict: Verdict, agent: AgentRun | None
) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "task": task.id,
        "series": task.series,
        "module": task.module,
        "kind": task.kind,
        "leg": leg,
        "model": model,
        "validation": validation,
        "resolved": verdict.resolved,
        "reason": verdict.reason,
        "tests": verdict.tests,
        "judge_seconds": verdict.seconds,
        "agent": asdict(agent) if agent else None,
    }


def read(path: Path) -> list[dict[str, Any]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _group(rows: list[dict[str, Any]]) -> dict[tuple[str, str, bool], list[dict[str, Any]]]:
    groups: dict[tuple[str, str, bool], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups[(row["leg"], row["model"], bool(row["validation"]))].append(row)
    return groups


def summary(rows: list[dict[str, Any]], label: str = "") -> str:
    """A markdown table: one line per (leg, model, validation)."""
    head = "| run | leg | model | tools | tasks | resolved | % | cost $ | tokens | steps | agent s |"
    lines = [head, "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for (leg, model, validation), group in sorted(_group(rows).items()):
        done = sum(1 for r in group if r["resolved"])
        agents = [r["agent"] for r in group if r.get("agent")]
        cost = sum(a["cost_usd"] for a in agents)
        tokens = sum(a["prompt_tokens"] + a["completion_tokens"] for a in agents)
        steps = sum(a["steps"] for a in agents)
        seconds = sum(a["seconds"] for a in agents)
        share = 100.0 * done / len(group) if group else 0.0
        tools = "on" if validation else "off"
        lines.append(
            f"| {label} | {leg} | {model or '-'} | {tools} | {len(group)} | {done} | {share:.1f} | {cost:.2f}"
            f" | {tokens} | {steps} | {seconds:.0f} |"
        )
    return "\n".join(lines)


def compare(first: list[dict[str, Any]], second: list[dict[str, Any]], names: tuple[str, str]) -> str:
    """Both summaries, then each task whose verdict differs (only tasks both runs judged)."""
    out = [summary(first, names[0]), summary(second, names[1]).split("\n", 2)[2], ""]
    one = {r["task"]: r for r in first}
    two = {r["task"]: r for r in second}
    both = sorted(set(one) & set(two))
    changed = [t for t in both if one[t]["resolved"] != two[t]["resolved"]]
    wins = sum(1 for t in changed if two[t]["resolved"])
    out.append(f"{len(both)} tasks in both runs; {len(changed)} differ ({wins} resolved only by {names[1]},")
    out[-1] += f" {len(changed) - wins} only by {names[0]})"
    for task in changed:
        out.append(f"- {task}: {names[0]} {_word(one[task])}, {names[1]} {_word(two[task])}")
    return "\n".join(out)


def _word(row: dict[str, Any]) -> str:
    return "resolved" if row["resolved"] else f"not resolved ({row['reason'][:80]})"
