"""Plugins through real runs: deny a tool, amend arguments, raising hooks, slow event hooks, entry points."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assista_mcp.agent.safety.plugins import ENTRY_POINT_GROUP, Denial, Hooks, PendingCall, plugin_manager
from tests.safety import sample_plugins
from tests.safety.conftest import RunAgent, StartServer, call, cli, tool_messages

PLUGINS = "tests.safety.sample_plugins"
DEMO = "library_base/demo/library_demo.xml"
NOTES = "library_base/NOTES.md"


def test_a_plugin_denies_a_tool_and_the_model_gets_the_reason(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    server = model_server([{"tool_calls": [call("d1", "delete_file", {"path": DEMO})]}, {"text": "Kept it."}])
    flags = ("--mode", "yolo", "--no-validate", "--plugin", f"{PLUGINS}:deny_deletes")
    code, _events, _ = run_agent(server, addons, "delete the demo data", *flags)
    assert code == 0 and (addons / DEMO).exists()
    result = tool_messages(server.requests[1])["d1"]
    assert result.startswith("Denied: This project never deletes files")
    assert f"plugin {PLUGINS}:deny_deletes" in result


def test_a_plugin_amends_the_arguments_before_the_call_runs(
    run_agent: RunAgent, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = model_server(
        [{"tool_calls": [call("w1", "write_file", {"path": NOTES, "content": "notes\n"})]}, {"text": "ok"}]
    )
    flags = ("--mode", "yolo", "--no-validate", "--plugin", f"{PLUGINS}:stamp_writes")
    assert run_agent(server, addons, "write notes", *flags)[0] == 0
    assert (addons / NOTES).read_text(encoding="utf-8") == "# reviewed\nnotes\n"
    # The checkpoint saw the amended call too: undo removes the file it created.
    assert cli(capsys, "undo", "--addons-path", str(addons))[0] == 0
    assert not (addons / NOTES).exists()


def test_raising_hooks_are_reported_once_and_the_run_goes_on(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    server = model_server(
        [{"tool_calls": [call("r1", "read_file", {"paths": [DEMO]})]}, {"text": "Read it."}]
    )
    flags = ("--mode", "yolo", "--no-validate", "--plugin", f"{PLUGINS}:explodes")
    code, events, _ = run_agent(server, addons, "read the demo data", *flags)
    assert code == 0 and events[-1]["data"]["status"] == "final"
    errors = [e["text"] for e in events if e["type"] == "error"]
    named = f"plugin {PLUGINS}:explodes"
    assert sum(f"{named}: session_start raised RuntimeError: boom at start" in e for e in errors) == 1
    # Two model calls, one report: a hook failing every time must not flood the stream.
    assert sum(f"{named}: before_model_call raised" in e for e in errors) == 1
    # on_event runs off the loop thread; its failure is reported at the next model call.
    assert sum(f"{named}: on_event raised RuntimeError: boom on an event" in e for e in errors) == 1
    assert len(server.requests) == 2


def test_a_crashing_guard_denies_the_call(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    server = model_server([{"tool_calls": [call("d1", "delete_file", {"path": DEMO})]}, {"text": "ok"}])
    flags = ("--mode", "yolo", "--no-validate", "--plugin", f"{PLUGINS}:crashing_guard")
    code, events, _ = run_agent(server, addons, "delete it", *flags)
    assert code == 0 and (addons / DEMO).exists()
    assert "guard crashed" in tool_messages(server.requests[1])["d1"]
    assert any("before_tool_call raised RuntimeError: guard crashed" in e["text"] for e in events)


def test_a_slow_event_hook_never_holds_up_the_loop(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    watcher = sample_plugins.slow_watcher
    watcher.reset()
    server = model_server(
        [{"tool_calls": [call("r1", "read_file", {"paths": [DEMO]})]}, {"text": "Read it."}]
    )
    flags = ("--mode", "yolo", "--no-validate", "--plugin", f"{PLUGINS}:slow_watcher")
    code, events, _ = run_agent(server, addons, "read", *flags)
    assert code == 0
    # The hook was stuck on the first event for the whole run, yet both model calls happened...
    assert watcher.seen_at_model_calls == [0, 0]
    # ...and at session end the queue was drained: every event, in order, off the loop's thread.
    assert watcher.seen == [e["type"] for e in events]
    assert watcher.threads and watcher.loop_thread not in watcher.threads


def test_plugins_from_the_entry_point_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist = tmp_path / "sample_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: sample-plugin\nVersion: 1.0\n")
    entries = f"guard = {PLUGINS}:deny_deletes\nbroken = no_such_module_for_assista:hooks\n"
    (dist / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entries}")
    monkeypatch.syspath_prepend(str(tmp_path))
    reports: list[str] = []
    manager = plugin_manager(report=reports.append)
    assert manager.get_plugin("guard") is sample_plugins.deny_deletes
    # An installed plugin that cannot load is reported and skipped, the others still work.
    assert manager.get_plugin("broken") is None
    assert len(reports) == 1 and reports[0].startswith("plugin broken (no_such_module_for_assista:hooks)")
    assert manager.get_plugin("guard") not in plugin_manager(entry_points=False).get_plugins()


def test_a_plugin_that_cannot_be_loaded_is_a_clear_usage_error(
    isolated_env: Path, addons: Path, capsys: pytest.CaptureFixture[str], model_env: None
) -> None:
    argv = ["run", "x", "--addons-path", str(addons), "--model", "openai/test-model"]
    code, _, err = cli(capsys, *argv, "--plugin", "no_such_module_here:thing")
    assert code == 2 and "Could not import plugin 'no_such_module_here:thing'" in err
    code, _, err = cli(capsys, *argv, "--plugin", f"{PLUGINS}:missing")
    assert code == 2 and "has no 'missing'" in err


def test_the_readme_plugin_example_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    [example] = [b for b in re.findall(r"```python\n(.*?)```", readme, re.DOTALL) if "--plugin my_guard" in b]
    (tmp_path / "my_guard.py").write_text(example, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    hooks = Hooks(plugin_manager(["my_guard"], entry_points=False))
    denied = hooks.before_tool_call(PendingCall(id="c1", name="delete_file", arguments={"path": "x.py"}))
    assert isinstance(denied, Denial) and "Never delete here" in denied.reason
    kept = PendingCall(id="c2", name="write_file", arguments={"path": "x.py", "content": ""})
    assert hooks.before_tool_call(kept) == kept
