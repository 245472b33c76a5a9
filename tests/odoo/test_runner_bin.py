"""odoo_tools.runs._odoo_bin: finding odoo-bin, its version, its command line and environment, running it."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import anyio
import pytest

from odoo_tools.errors import ProcessFailed, ToolMissing
from odoo_tools.runs._odoo_bin import (
    OdooBin,
    RunSpec,
    build_argv,
    child_env,
    find_odoo_bin,
    free_port,
    inspect_odoo,
    parse_version,
    run_odoo,
)
from odoo_tools.runs._pg import PgParams


def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _odoo(major: int = 18) -> OdooBin:
    return OdooBin(Path("/opt/odoo/odoo-bin"), "/venv/bin/python", f"{major}.0", f"{major}.0", major)


def test_find_prefers_explicit_then_conf_neighbour_then_path(tmp_path: Path) -> None:
    explicit = _script(tmp_path / "mine" / "odoo-bin", "")
    src_bin = _script(tmp_path / "src" / "odoo-bin", "")
    (tmp_path / "src" / "addons").mkdir()
    on_path = _script(tmp_path / "bin" / "odoo", "")
    conf_paths = [tmp_path / "src" / "addons"]
    assert find_odoo_bin(explicit, conf_addons_paths=conf_paths) == explicit
    assert find_odoo_bin(None, conf_addons_paths=conf_paths) == src_bin
    assert find_odoo_bin(None, search_path=str(tmp_path / "bin")) == on_path


def test_find_says_how_to_configure_when_nothing_is_found(tmp_path: Path) -> None:
    with pytest.raises(ToolMissing) as info:
        find_odoo_bin(None, search_path=str(tmp_path))
    assert "--odoo-bin" in info.value.hint
    with pytest.raises(ToolMissing, match="does not exist"):
        find_odoo_bin(tmp_path / "nope")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Odoo Server 18.0-20241005\n", ("18.0-20241005", "18.0", 18)),
        ("Odoo Server 17.0+e\n", ("17.0+e", "17.0", 17)),
        ("Odoo Server saas~17.4\n", ("saas~17.4", "saas~17.4", 17)),
        ("Odoo Server 19.0\n", ("19.0", "19.0", 19)),
    ],
)
def test_parse_version(text: str, expected: tuple[str, str, int]) -> None:
    assert parse_version(text) == expected


def test_parse_version_rejects_garbage() -> None:
    with pytest.raises(ProcessFailed, match="Cannot read an Odoo version"):
        parse_version("command not found")


@pytest.mark.anyio
async def test_inspect_runs_version_in_the_given_interpreter(tmp_path: Path) -> None:
    fake_python = _script(tmp_path / "py", 'echo "Odoo Server 16.0-20230101 via $1"\n')
    odoo_bin = _script(tmp_path / "src" / "odoo-bin", "exit 3\n")
    (tmp_path / "src" / "addons").mkdir()
    odoo = await inspect_odoo(odoo_bin, str(fake_python))
    assert (odoo.version, odoo.series, odoo.major) == ("16.0-20230101", "16.0", 16)
    assert odoo.core_addons == (tmp_path / "src" / "addons",)
    assert odoo.command() == [str(fake_python), str(odoo_bin)]


@pytest.mark.anyio
async def test_inspect_failure_points_at_the_interpreter(tmp_path: Path) -> None:
    odoo_bin = _script(tmp_path / "odoo-bin", "echo 'No module named snap7' >&2; exit 1\n")
    with pytest.raises(ProcessFailed) as info:
        await inspect_odoo(odoo_bin)
    assert "--odoo-python" in info.value.hint


def test_install_argv_has_no_password_and_no_http() -> None:
    pg = PgParams(host="db.local", port=5433, user="odoo", password="s3cret")
    spec = RunSpec(database="assista_x_1", install=["a", "b"])
    argv = build_argv(_odoo(18), spec, addons_paths=[Path("/srv/addons")], data_dir=Path("/d"), pg=pg)
    assert argv[:2] == ["/venv/bin/python", "/opt/odoo/odoo-bin"]
    assert "--database=assista_x_1" in argv
    assert argv[argv.index("-i") + 1] == "a,b"
    assert {"--db_host=db.local", "--db_port=5433", "--db_user=odoo"} <= set(argv)
    assert "--without-demo=all" in argv and "--no-http" in argv and "--stop-after-init" in argv
    assert not any("s3cret" in a for a in argv)
    assert not any(a.startswith("--test") for a in argv)


def test_test_argv_narrows_tags_and_binds_loopback_on_a_free_port() -> None:
    port = free_port()
    spec = RunSpec(database="assista_t", install=["a", "b"], test_modules=["a", "b"], http_port=port)
    argv = build_argv(_odoo(17), spec, addons_paths=[], data_dir=Path("/d"), pg=PgParams())
    assert "--test-tags=/a,/b" in argv
    assert f"--http-port={port}" in argv and "--http-interface=127.0.0.1" in argv
    assert "--no-http" not in argv
    assert not any(a.startswith("--db_") for a in argv)
    with pytest.raises(ProcessFailed, match="HTTP port"):
        build_argv(
            _odoo(), RunSpec("d", test_modules=["a"]), addons_paths=[], data_dir=Path("/d"), pg=PgParams()
        )


@pytest.mark.parametrize(
    ("major", "demo", "flag", "absent"),
    [(18, False, "--without-demo=all", "--with-demo"), (18, True, None, "--without-demo=all"),
     (19, False, None, "--with-demo"), (19, True, "--with-demo", "--without-demo=all")],
)  # fmt: skip
def test_demo_flags_follow_the_series(major: int, demo: bool, flag: str | None, absent: str) -> None:
    argv = build_argv(
        _odoo(major),
        RunSpec("d", update=["a"], demo=demo),
        addons_paths=[],
        data_dir=Path("/d"),
        pg=PgParams(),
    )
    if flag:
        assert flag in argv
    assert absent not in argv
    assert argv[argv.index("-u") + 1] == "a"


def test_addons_path_lists_user_roots_then_odoo_core_once(tmp_path: Path) -> None:
    core = tmp_path / "odoo" / "addons"
    core.mkdir(parents=True)
    odoo = OdooBin(Path("/x/odoo-bin"), None, "18.0", "18.0", 18, (core,))
    argv = build_argv(
        odoo, RunSpec("d"), addons_paths=[tmp_path / "mine", core], data_dir=tmp_path, pg=PgParams()
    )
    assert f"--addons-path={tmp_path / 'mine'},{core}" in argv


def test_child_env_keeps_only_what_odoo_needs() -> None:
    ours = {
        "PATH": "/usr/bin",
        "HOME": "/home/me",
        "LC_ALL": "C.UTF-8",
        "OPENAI_API_KEY": "sk-secret",
        "ANTHROPIC_API_KEY": "sk-ant",
        "ASSISTA_DB_PASSWORD": "x",
        "PGPASSWORD": "stale",
    }
    env = child_env(PgParams(user="odoo", password="pw"), ours, data_dir=Path("/data"))
    assert env["PATH"] == "/usr/bin" and env["LC_ALL"] == "C.UTF-8"
    assert env["PGPASSWORD"] == "pw" and env["PGUSER"] == "odoo"
    assert env["ODOO_RC"] == "/data/no-odoorc"
    assert not {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ASSISTA_DB_PASSWORD"} & set(env)
    assert "PGPASSWORD" not in child_env(PgParams(), ours)


@pytest.mark.anyio
async def test_run_merges_streams_and_feeds_lines_live(tmp_path: Path) -> None:
    script = _script(tmp_path / "odoo-bin", "echo one; echo two >&2; sleep 0.1; echo three; exit 255\n")
    seen: list[str] = []
    run = await run_odoo([str(script)], env={"PATH": os.environ["PATH"]}, timeout=30, on_line=seen.append)
    assert run.returncode == 255
    assert sorted(seen) == ["one", "three", "two"] and seen[-1] == "three"
    assert run.log.splitlines() == seen


@pytest.mark.anyio
async def test_cancel_kills_a_child_that_ignores_sigterm(tmp_path: Path) -> None:
    # An MCP cancel arrives as an anyio cancel scope: the graceful wait is cancelled too.
    pidfile = tmp_path / "pid"
    script = _script(tmp_path / "odoo-bin", f"trap '' TERM; echo $$ > {pidfile}; sleep 60\n")
    async with anyio.create_task_group() as group:
        group.start_soon(lambda: run_odoo([str(script)], env={"PATH": os.environ["PATH"]}, timeout=60))
        await _wait_for_file(pidfile)
        group.cancel_scope.cancel()
    pid = int(pidfile.read_text())
    assert _gone(pid)


async def _wait_for_file(path: Path) -> None:
    for _ in range(600):
        if _has_content(path):
            return
        await anyio.sleep(0.05)


def _has_content(path: Path) -> bool:
    return path.exists() and bool(path.read_text().strip())


def _gone(pid: int) -> bool:
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False
