"""Validate and fix through a real run: findings go back to the model, it fixes them, or the cap stops it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fixtures.model_server import TEST_MODEL
from tests.agent.conftest import EVERY_PROVIDER
from tests.safety.conftest import ANCHOR, BOOK, RunAgent, StartServer, cli, edit

BROKEN = "    pages = fields.Integer(\n"  # an unclosed call: a syntax error every checker reports
FOLLOW_UP = "Automatic validation after your edits"


def _user_messages(request: dict[str, Any]) -> list[str]:
    return [m["content"] for m in request["messages"] if m["role"] == "user"]


def _report(events: list[dict[str, Any]]) -> dict[str, Any]:
    reports = [e for e in events if e["type"] == "tool_result" and e["tool_name"] == "validation"]
    assert len(reports) == 1, reports
    data: dict[str, Any] = reports[0]["data"]
    return data


@EVERY_PROVIDER
def test_broken_edit_gets_findings_back_then_the_fix_passes(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    server = model_server(
        [
            {"tool_calls": [edit("e1", BOOK, ANCHOR, BROKEN)]},
            {"text": "Done."},
            {"tool_calls": [edit("e2", BOOK, BROKEN, ANCHOR)]},
            {"text": "Fixed the syntax error."},
        ]
    )
    code, events, _ = run_agent(server, addons, "touch the book model", "--mode", "auto-edit")
    assert code == 0
    assert len(server.requests) == 4
    follow_up = _user_messages(server.requests[2])[-1]
    assert follow_up.startswith(FOLLOW_UP) and "fix round 1 of 3" in follow_up
    assert BOOK in follow_up and "library_base" in follow_up  # file:line and the module
    assert _user_messages(server.requests[1]) == ["touch the book model"]  # no follow-up before the answer
    report = _report(events)
    assert report["passed"] is True and report["fix_rounds"] == 1
    assert report["validated"] == ["check_module:library_base"] and report["files_changed"] == [BOOK]
    assert ANCHOR in (addons / BOOK).read_text(encoding="utf-8")
    assert events[-1]["type"] == "end" and events[-1]["data"]["status"] == "final"
    # The validation calls are shown and stored like any other tool call.
    checks = [e for e in events if e["type"] == "tool_result" and e["tool_name"] == "check_module"]
    # before the first write (what already failed there), after the edit, after the fix
    assert [c["data"]["passed"] for c in checks] == [True, False, True]


def test_gives_up_after_the_cap_with_a_report(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    server = model_server(
        [
            {"tool_calls": [edit("e1", BOOK, ANCHOR, BROKEN)]},
            {"text": "Done."},
            {"text": "I cannot see the problem."},
            {"text": "Still nothing to change."},
        ]
    )
    code, events, _ = run_agent(
        server, addons, "touch the book model", "--mode", "auto-edit", "--max-fix-rounds", "2"
    )
    assert code == 1  # the edit still fails after the fix rounds
    assert len(server.requests) == 4  # the answer, then two fix rounds, then the report
    assert "fix round 2 of 2" in _user_messages(server.requests[3])[-1]
    report = _report(events)
    assert report["passed"] is False and report["fix_rounds"] == 2
    assert report["still_failing"] and all(p["check"] == "check_module" for p in report["still_failing"])
    assert any(p["where"].startswith(BOOK) for p in report["still_failing"])
    final = next(e for e in events if e["tool_name"] == "validation")
    assert final["is_error"] is True and "Still failing" in final["text"]


def test_no_validate_skips_the_checks(run_agent: RunAgent, model_server: StartServer, addons: Path) -> None:
    server = model_server([{"tool_calls": [edit("e1", BOOK, ANCHOR, BROKEN)]}, {"text": "Done."}])
    code, events, _ = run_agent(server, addons, "break it", "--mode", "auto-edit", "--no-validate")
    assert code == 0 and len(server.requests) == 2
    assert not any(e["tool_name"] in ("validation", "check_module") for e in events)


def test_a_turn_without_edits_is_not_validated(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    server = model_server([{"text": "Nothing to do."}])
    code, events, _ = run_agent(server, addons, "just talk", "--mode", "auto-edit")
    assert code == 0 and not any(e["tool_name"] == "validation" for e in events)


SHELF = """from odoo import fields, models


class LibraryShelf(models.Model):
    _name = "library.shelf"
    _description = "Library Shelf"

    name = fields.Char(required=True)
"""
ACL = "library_base/security/ir.model.access.csv"
ACL_LINE = "access_library_shelf_user,library.shelf user,model_library_shelf,group_library_user,1,1,1,1\n"


def test_a_new_model_without_access_rule_is_reported_and_fixed(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    acl = (addons / ACL).read_text(encoding="utf-8")
    server = model_server(
        [
            {
                "tool_calls": [
                    {
                        "id": "w1",
                        "name": "write_file",
                        "arguments": {"path": "library_base/models/library_shelf.py", "content": SHELF},
                    },
                    edit(
                        "e1",
                        "library_base/models/__init__.py",
                        "from . import library_book\n",
                        "from . import library_book\nfrom . import library_shelf\n",
                    ),
                ]
            },
            {"text": "Added library.shelf."},
            {"tool_calls": [edit("e2", ACL, acl, acl + ACL_LINE)]},
            {"text": "Added its access rule."},
        ]
    )
    code, events, _ = run_agent(server, addons, "add a shelf model", "--mode", "auto-edit")
    assert code == 0
    follow_up = _user_messages(server.requests[2])[-1]
    assert "library.shelf" in follow_up and "access" in follow_up.lower()
    report = _report(events)
    assert report["passed"] is True and report["fix_rounds"] == 1
    assert ACL in report["files_changed"]


def test_the_report_is_printed_and_kept_in_the_session(
    isolated_env: Path, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = model_server([{"tool_calls": [edit("e1", BOOK, ANCHOR, BROKEN)]}, {"text": "Done."}])
    argv = ["run", "break it", "--addons-path", str(addons), "--model", TEST_MODEL]
    argv += ["--api-base", server.api_base, "--mode", "auto-edit", "--max-fix-rounds", "0"]
    code, out, _ = cli(capsys, *argv)
    assert code == 1 and len(server.requests) == 2  # no fix round: checked and reported only
    assert f"Files changed: {BOOK}." in out and "Validated: check_module:library_base" in out
    assert "Still failing" in out and f"- {BOOK}:" in out
    code, listing, _ = cli(capsys, "sessions", "list")
    session_id = listing.split()[0]
    code, exported, _ = cli(capsys, "sessions", "export", session_id)
    stored = [e for e in json.loads(exported)["events"] if e["tool_name"] == "validation"]
    assert len(stored) == 1 and stored[0]["data"]["passed"] is False


REVIEW = "library_broken/models/library_review.py"
RATING = "    rating = fields.Integer()\n"


def test_errors_that_were_there_before_the_edit_are_not_fed_back(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    # library_broken already fails check (removed attrs, a missing data file...): a harmless edit
    # is not the model's cue to fix the module, and the run succeeds.
    server = model_server(
        [
            {"tool_calls": [edit("e1", REVIEW, RATING, RATING + "    # rated 1 to 5\n")]},
            {"text": "Documented the rating."},
        ]
    )
    code, events, _ = run_agent(server, addons, "document the rating", "--mode", "auto-edit")
    assert len(server.requests) == 2  # no fix round
    report = _report(events)
    assert report["passed"] is True and report["fix_rounds"] == 0
    assert report["already_failing"] >= 3 and report["still_failing"] == []
    assert code == 0


def test_only_what_the_edit_broke_is_fed_back_and_the_run_fails_while_it_does(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    server = model_server(
        [
            {"tool_calls": [edit("e1", REVIEW, RATING, "    rating = fields.Integer(\n")]},
            {"text": "Done."},
            {"text": "I cannot see the problem."},
        ]
    )
    code, events, _ = run_agent(
        server, addons, "touch the review model", "--mode", "auto-edit", "--max-fix-rounds", "1"
    )
    follow_up = _user_messages(server.requests[2])[-1]
    assert follow_up.startswith(FOLLOW_UP) and REVIEW in follow_up
    assert "removed-attrs" not in follow_up and "data-file-missing" not in follow_up
    report = _report(events)
    assert report["passed"] is False and report["already_failing"] >= 1
    assert all(p["where"].startswith(REVIEW) for p in report["still_failing"])
    assert code == 1  # the task's own change still fails: not a success
