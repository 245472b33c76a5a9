"""Modes and approvals: what each mode allows, and decisions bound to the call that asked."""

from __future__ import annotations

import pytest

from assista_mcp.agent.loop.approvals import (
    ApprovalRequest,
    Approvals,
    Decision,
    ToolKind,
    classify,
)
from odoo_tools.errors import InvalidInput

pytestmark = pytest.mark.anyio


def _request(name: str, kind: ToolKind, call_id: str = "call_1") -> ApprovalRequest:
    return ApprovalRequest(tool_call_id=call_id, tool_name=name, kind=kind)


def test_annotations_and_names_decide_the_kind() -> None:
    assert classify("read_file", True, own_server=True) is ToolKind.READ
    assert classify("edit_file", False, own_server=True) is ToolKind.EDIT
    assert classify("delete_file", False, own_server=True) is ToolKind.OTHER
    assert classify("install_module", False, own_server=True) is ToolKind.OTHER
    assert classify("mystery", None, own_server=True) is ToolKind.OTHER
    # A foreign server's "edit_file" is not trusted to be one of our sandboxed edits.
    assert classify("edit_file", False, own_server=False) is ToolKind.OTHER


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
    assert (await approvals.check(_request("read_file", ToolKind.READ))).allowed is read
    assert (await approvals.check(_request("edit_file", ToolKind.EDIT))).allowed is edit
    verdict = await approvals.check(_request("delete_file", ToolKind.OTHER))
    assert verdict.allowed is other
    if not other:
        assert "delete_file" in verdict.reason


def test_read_only_mode_offers_only_read_tools() -> None:
    approvals = Approvals("read-only")
    assert approvals.offered(ToolKind.READ)
    assert not approvals.offered(ToolKind.EDIT)
    assert not approvals.offered(ToolKind.OTHER)
    assert Approvals("ask").offered(ToolKind.OTHER)


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
    assert (await approvals.check(_request("edit_file", ToolKind.EDIT, "a"))).allowed
    denied = await approvals.check(_request("edit_file", ToolKind.EDIT, "b"))
    assert not denied.allowed and "not that file" in denied.reason
    assert (await approvals.check(_request("edit_file", ToolKind.EDIT, "c"))).allowed
    # "always" covers later calls of the same tool without asking again; other tools still ask.
    assert (await approvals.check(_request("edit_file", ToolKind.EDIT, "d"))).allowed
    assert asked == ["a", "b", "c"]
    answers = iter(["deny"])
    assert not (await approvals.check(_request("write_file", ToolKind.EDIT, "e"))).allowed
    assert asked == ["a", "b", "c", "e"]


async def test_a_decision_for_another_call_is_refused() -> None:
    async def confused(request: ApprovalRequest) -> Decision:
        return Decision(tool_call_id="call_other", verdict="always")

    approvals = Approvals("ask", confused)
    with pytest.raises(InvalidInput, match="call_other"):
        await approvals.check(_request("delete_file", ToolKind.OTHER, "call_1"))
    # The refused "always" granted nothing.
    assert approvals.always_allowed == set()
