"""The agent side of a task: ``assista-odoo run`` on the task folder, within a step/time/cost budget.

The agent is our bundled one with any LiteLLM model (``--model``, ``--api-base``); ``replay_script``
makes the scripted model of the release gate, which sends the oracle patch through the MCP tools
(``apply_patch``, then ``test_module``) and stops. Its usage is read from ``--events jsonl``; the run
is stopped (its process group) when the time or cost budget is spent.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.odoo_tasks.judge import Odoo
from benchmarks.odoo_tasks.tasks_io import Task

# --no-validation: these tools answer "not available" (a denial the model reads), and the post-turn
# validate-and-fix is off: what is left is reading and editing files.
VALIDATION_PLUGIN = "benchmarks.odoo_tasks.no_validation"


@dataclass
class Budget:
    max_steps: int = 30
    seconds: float = 1800.0
    cost_usd: float = 2.0


@dataclass
class AgentRun:
    exit_code: int | None = None
    steps: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    seconds: float = 0.0
    tool_calls: dict[str, int] = field(default_factory=dict)
    stopped: str = ""  # "" | "time budget" | "cost budget"
    end: str = ""  # the run's own last word (final answer, max steps...)


def replay_script(task: Task) -> list[dict[str, Any]]:
    """The scripted model's turns: the oracle patch through apply_patch, the module's tests, done."""
    patch = {"patch": task.code_patch()}
    return [
        {"tool_calls": [{"id": "call_patch", "name": "apply_patch", "arguments": json.dumps(patch)}]},
        {
            "tool_calls": [
                {
                    "id": "call_test",
                    "name": "test_module",
                    "arguments": json.dumps({"module": task.module, "demo": True}),
                }
            ]
        },
        {"text": "Applied the change and ran the module's tests."},
    ]


def command(
    task: Task, addons: Path, odoo: Odoo, model: str, api_base: str | None, budget: Budget, validation: bool
) -> list[str]:
    exe = Path(sys.executable).with_name("assista-odoo")
    cmd = [str(exe), "run", task.statement, "--addons-path", str(addons), "--model", model]
    cmd += ["--mode", "yolo", "--max-steps", str(budget.max_steps), "--events", "jsonl"]
    cmd += ["--odoo-bin", odoo.odoo_bin, "--odoo-python", odoo.python, "--odoo-series", task.series]
    if odoo.conf:
        cmd += ["--odoo-config", odoo.conf]
    if api_base:
        cmd += ["--api-base", api_base]
    if not validation:
        cmd += ["--no-validate", "--plugin", VALIDATION_PLUGIN]
    return cmd


def run_agent(cmd: list[str], work: Path, budget: Budget, env: dict[str, str] | None = None) -> AgentRun:
    """Run ``cmd`` (an ``assista-odoo run``) and read its events; stop it when over budget."""
    result = AgentRun()
    started = time.monotonic()
    events = (work / "events.jsonl").open("w", encoding="utf-8")
    process = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=(work / "agent.stderr").open("w"),
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        env={**os.environ, **(env or {}), "PYTHONPATH": _pythonpath()},
    )
    assert process.stdout is not None
    for line in process.stdout:
        events.write(line)
        _read_event(line, result)
        if time.monotonic() - started > budget.seconds:
            result.stopped = "time budget"
        elif result.cost_usd > budget.cost_usd:
            result.stopped = "cost budget"
        if result.stopped:
            os.killpg(process.pid, signal.SIGTERM)
            break
    try:
        result.exit_code = process.wait(timeout=max(1.0, budget.seconds - (time.monotonic() - started)))
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        result.stopped = result.stopped or "time budget"
        result.exit_code = process.wait()
    events.close()
    result.seconds = round(time.monotonic() - started, 1)
    return result


def _read_event(line: str, result: AgentRun) -> None:
    try:
        event = json.loads(line)
    except ValueError:
        return
    if not isinstance(event, dict):
        return
    kind = event.get("type")
    if kind == "usage" and isinstance(event.get("usage"), dict):
        usage = event["usage"]
        result.steps += 1
        result.prompt_tokens += int(usage.get("prompt_tokens", 0))
        result.completion_tokens += int(usage.get("completion_tokens", 0))
        result.cost_usd += float(usage.get("cost_usd", 0.0))
    elif kind == "tool_call":
        name = str(event.get("tool_name", ""))
        result.tool_calls[name] = result.tool_calls.get(name, 0) + 1
    elif kind == "end":
        result.end = str(event.get("text", ""))[:200]


def _pythonpath() -> str:
    # The --no-validation plugin is imported by name in the agent's process: the repository root.
    root = str(Path(__file__).resolve().parents[2])
    rest = os.environ.get("PYTHONPATH", "")
    return root + (os.pathsep + rest if rest else "")
