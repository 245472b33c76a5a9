"""No pattern freezes the server: regexes run on RE2, globs match in linear time, and a
cancelled search stops working. Pathological inputs that took minutes (holding the GIL, so
every other client waited) now answer at once; the pytest timeouts are generous backstops."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import anyio
import anyio.from_thread
import anyio.to_thread
import pytest

from odoo_tools.files import grep, search_files
from odoo_tools.files._globs import glob_matches
from odoo_tools.workspace import Workspace

pytestmark = pytest.mark.anyio

EXPONENTIAL_REGEX = "(.*.*)*Z"  # seconds on 25 characters with re, doubling with each one more
MANY_STARS = "*a" * 25 + "Z"
MANY_GLOBSTARS = "**/a/" * 8 + "Z"


@pytest.fixture
def bait(addons: Path) -> Path:
    """Files the pathological patterns almost match: long runs of 'a', a deep 'a/a/a...' path."""
    (addons / "long.txt").write_text("a" * 4000 + "\n", encoding="utf-8")
    (addons / ("a" * 200 + ".txt")).write_text("x\n", encoding="utf-8")
    deep = addons.joinpath(*["a"] * 40)
    deep.mkdir(parents=True)
    (deep / "b").write_text("x\n", encoding="utf-8")
    return addons


@pytest.mark.timeout(120)
def test_an_exponential_regex_answers(ws: Workspace, bait: Path) -> None:
    assert grep(ws, EXPONENTIAL_REGEX, "long.txt").matches == []
    assert [m.line for m in grep(ws, "(a|aa)*b|a{3}", "long.txt").matches] == [1]


@pytest.mark.timeout(120)
def test_globs_with_many_stars_answer(ws: Workspace, bait: Path) -> None:
    assert search_files(ws, MANY_STARS).matches == []
    assert search_files(ws, MANY_GLOBSTARS).matches == []
    assert grep(ws, "x", include=[MANY_STARS, MANY_GLOBSTARS]).matches == []
    deep_file = "/".join(["a"] * 40) + "/b"
    assert search_files(ws, "**/a/" * 3 + "b").matches == search_files(ws, "a/**/b").matches == [deep_file]


def test_globstar_semantics() -> None:
    assert glob_matches("static/**", "static/src/x.js") and not glob_matches("static/**", "static")
    assert glob_matches("**/tests/*.py", "tests/t.py") and glob_matches("**/tests/*.py", "m/x/tests/t.py")
    assert glob_matches("a/**/b/**/c", "a/b/c") and glob_matches("a/**/b/**/c", "a/x/b/y/z/c")
    assert not glob_matches("a/**/b/**/c", "a/x/c") and not glob_matches("a/*/c", "a/x/y/c")
    assert glob_matches("**", "x") and glob_matches(".*", ".hidden") and glob_matches("*", ".hidden")


@pytest.mark.timeout(300)
async def test_a_pathological_call_does_not_starve_another_client(call: Any, bait: Path) -> None:
    """Two clients at once: the pathological grep and search, and a plain listing, all answered."""
    results: dict[str, Any] = {}

    async def run(label: str, tool: str, **arguments: Any) -> None:
        results[label] = await call(tool, **arguments)

    async with anyio.create_task_group() as group:
        group.start_soon(lambda: run("grep", "grep", pattern=EXPONENTIAL_REGEX, include=["*.txt"]))
        group.start_soon(lambda: run("search", "search_files", pattern=MANY_GLOBSTARS))
        group.start_soon(lambda: run("list", "list_directory", path="."))
    assert not any(r.is_error for r in results.values()), results
    assert results["grep"].structured_content["matches"] == []
    assert results["search"].structured_content["matches"] == []
    assert "library_base" in {e["path"] for e in results["list"].structured_content["entries"]}


async def test_unsupported_regex_syntax_is_named_over_mcp(call: Any) -> None:
    result = await call("grep", pattern=r"(\w+) \1")
    assert result.is_error and "backreference \\1 is not supported" in result.content[0].text


@pytest.mark.timeout(120)
async def test_a_cancelled_search_stops_working(ws: Workspace, addons: Path) -> None:
    """The tool runs in a worker thread; once its caller is cancelled, the next check raises."""
    for i in range(300):
        (addons / f"f{i:03}.txt").write_text("needle\n", encoding="utf-8")
    checks = 0
    started, cancelled = threading.Event(), threading.Event()

    def stop() -> None:
        nonlocal checks
        checks += 1
        if checks == 1:
            started.set()
            cancelled.wait(60)  # the caller is cancelled while the search is under way
        anyio.from_thread.check_cancelled()

    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as group:
            group.start_soon(lambda: anyio.to_thread.run_sync(lambda: grep(ws, "needle", stop=stop)))
            await anyio.to_thread.run_sync(started.wait)
            scope.cancel()
            cancelled.set()
    assert scope.cancelled_caught
    assert checks == 1  # the first check after the cancellation raised: no file was searched
