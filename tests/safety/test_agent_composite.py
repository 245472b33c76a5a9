"""Hooks: registration order, amendments chained, first denial wins, failures isolated, follow-ups joined."""

from __future__ import annotations

import pytest

from assista_mcp.agent.safety.plugins import Denial, Hooks, PendingCall


class Recorder:
    def __init__(self, name: str, calls: list[str], follow_up: str | None = None) -> None:
        self.name, self.calls, self.follow_up = name, calls, follow_up

    def session_start(self, session_id: str) -> None:
        self.calls.append(f"{self.name}:start")

    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial:
        self.calls.append(f"{self.name}:{call.arguments.get('n', 0)}")
        return call.model_copy(update={"arguments": {"n": call.arguments.get("n", 0) + 1}})

    async def after_turn(self, touched_paths: set[str]) -> str | None:
        return self.follow_up


class Broken:
    def session_start(self, session_id: str) -> None:
        raise RuntimeError("no start")

    async def after_turn(self, touched_paths: set[str]) -> str | None:
        raise RuntimeError("no turn")


class Deny:
    def before_tool_call(self, call: PendingCall) -> PendingCall | Denial:
        return Denial(reason="not here")


def _call() -> PendingCall:
    return PendingCall(id="c1", name="write_file", arguments={})


def test_amendments_chain_in_order_and_a_denial_stops_the_chain() -> None:
    calls: list[str] = []
    chained = Hooks.of(Recorder("a", calls), Recorder("b", calls), report=print)
    assert chained.before_tool_call(_call()) == _call().model_copy(update={"arguments": {"n": 2}})
    assert calls == ["a:0", "b:1"]
    denied = Hooks.of(Recorder("a", calls), Deny(), Recorder("c", calls), report=print)
    answer = denied.before_tool_call(_call())
    assert isinstance(answer, Denial) and answer.reason.startswith("not here (plugin ")
    assert "c:1" not in calls


@pytest.mark.anyio
async def test_a_raising_member_is_reported_and_the_others_still_run() -> None:
    calls: list[str] = []
    reports: list[str] = []
    hooks = Hooks.of(
        Broken(),
        Recorder("a", calls, "fix A"),
        Recorder("b", calls),
        Recorder("c", calls, "fix C"),
        report=reports.append,
    )
    hooks.session_start("s1")
    assert calls == ["a:start", "b:start", "c:start"]
    assert await hooks.after_turn({"x"}) == "fix A\n\nfix C"
    assert [r.split(": ", 1)[1] for r in reports] == [
        "session_start raised RuntimeError: no start",
        "after_turn raised RuntimeError: no turn",
    ]
    assert await Hooks.of(Recorder("a", calls), report=reports.append).after_turn(set()) is None
