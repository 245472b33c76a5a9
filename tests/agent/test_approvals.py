"""Modes and approvals: what each mode allows, and decisions bound to the call that asked."""

from __future__ import annotations

import pytest

from assista_mcp.agent.loop.approvals import ApprovalRequest, Approvals, Decision
from assista_mcp.safety.effects import Effect, PathEffects
from odoo_tools.errors import InvalidInput

pytestmark = pytest.mark.anyio


def _request(name: str, effect: Effect, call_id: str = "call_1") -> ApprovalRequest:
    return ApprovalRequest(tool_call_id=call_id, tool_name=name, effect=effect)


@pytest.mark.parametrize(
    ("mode", "read", "edit", "other"),
    [
        ("read-only", True, False, False),
        ("ask", True, False, False),
        ("auto-edit", True, True, False),
        ("yolo", True, True, True),
    ],
)
async def test_without_a_terminal_only_what_the_mode_allows_runs(
    mode: str, read: bool, edit: bool, other: bool
) -> None:
    approvals = Approvals(mode, prompter=None)
    assert (await approvals.check(_request("read_file", Effect.READ))).allowed is read
    assert (await approvals.check(_request("edit_file", Effect.EDIT))).allowed is edit
    verdict = await approvals.check(_request("delete_file", Effect.OTHER))
    assert verdict.allowed is other
    if not other:
        assert "delete_file" in verdict.reason


def test_read_only_mode_offers_only_read_tools() -> None:
    approvals = Approvals("read-only")
    assert approvals.offered(Effect.READ)
    assert not approvals.offered(Effect.EDIT)
    assert not approvals.offered(Effect.OTHER)
    assert Approvals("ask").offered(Effect.OTHER)


def test_unknown_mode_is_a_clear_error() -> None:
    with pytest.raises(InvalidInput, match="read-only, ask, auto-edit, yolo"):
        Approvals("sometimes")


async def test_prompt_once_always_and_deny_with_reason() -> None:
    answers = iter(["once", "deny", "always"])
    asked: list[str] = []

    async def prompter(request: ApprovalRequest) -> Decision:
        asked.append(request.tool_call_id)
        verdict = next(answers)
        return Decision(tool_call_id=request.tool_call_id, verdict=verdict, reason="not that file")  # type: ignore[arg-type]

    approvals = Approvals("ask", prompter)
    assert (await approvals.check(_request("edit_file", Effect.EDIT, "a"))).allowed
    denied = await approvals.check(_request("edit_file", Effect.EDIT, "b"))
    assert not denied.allowed and "not that file" in denied.reason
    assert (await approvals.check(_request("edit_file", Effect.EDIT, "c"))).allowed
    # "always" covers later calls of the same tool without asking again; other tools still ask.
    assert (await approvals.check(_request("edit_file", Effect.EDIT, "d"))).allowed
    assert asked == ["a", "b", "c"]
    answers = iter(["deny"])
    assert not (await approvals.check(_request("write_file", Effect.EDIT, "e"))).allowed
    assert asked == ["a", "b", "c", "e"]


async def test_a_decision_for_another_call_is_refused() -> None:
    async def confused(request: ApprovalRequest) -> Decision:
        return Decision(tool_call_id="call_other", verdict="always")

    approvals = Approvals("ask", confused)
    with pytest.raises(InvalidInput, match="call_other"):
        await approvals.check(_request("delete_file", Effect.OTHER, "call_1"))
    # The refused "always" granted nothing.
    assert approvals.always_allowed == set()


@pytest.mark.parametrize("effect", [Effect.DELETE, Effect.RUN_CODE, Effect.OTHER])
async def test_auto_edit_asks_for_everything_but_edits(effect: Effect) -> None:
    assert not (await Approvals("auto-edit").check(_request("x", effect))).allowed
    assert (await Approvals("yolo").check(_request("x", effect))).allowed


async def test_protected_paths_ask_in_every_mode_but_yolo_and_always_never_covers_them() -> None:
    asked: list[str] = []

    async def always(request: ApprovalRequest) -> Decision:
        asked.append(request.tool_call_id)
        return Decision(tool_call_id=request.tool_call_id, verdict="always")

    approvals = Approvals("auto-edit", always)
    config = PathEffects(written=("mod/.git/config",))
    plain = PathEffects(written=("mod/models/a.py",))
    for call_id, paths in (("a", config), ("b", plain), ("c", config)):
        request = approvals.request(call_id, "write_file", Effect.EDIT, {}, paths)
        assert (await approvals.check(request)).allowed
    assert asked == ["a", "c"]  # the plain edit ran without asking; .git/config asked twice
    headless = Approvals("auto-edit")
    request = headless.request("d", "write_file", Effect.EDIT, {}, PathEffects(written=(".pylintrc",)))
    verdict = await headless.check(request)
    assert not verdict.allowed and ".pylintrc" in verdict.reason
    assert (await Approvals("yolo").check(request)).allowed


async def test_always_covers_one_tool_with_one_effect_only() -> None:
    answers = iter(["always", "deny"])

    async def prompter(request: ApprovalRequest) -> Decision:
        return Decision(tool_call_id=request.tool_call_id, verdict=next(answers))  # type: ignore[arg-type]

    approvals = Approvals("ask", prompter)
    assert (await approvals.check(_request("apply_patch", Effect.EDIT, "a"))).allowed
    assert (await approvals.check(_request("apply_patch", Effect.EDIT, "b"))).allowed
    # The same tool deleting a file is asked again.
    assert not (await approvals.check(_request("apply_patch", Effect.DELETE, "c"))).allowed
