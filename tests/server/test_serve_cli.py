"""``assista-odoo serve`` refuses a bad setup before the protocol starts: stderr message, exit 2."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from assista_mcp.cli import main

from .conftest import SERVE, clean_env

INITIALIZE = (
    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n'
)


def serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*SERVE, *args],
        input=INITIALIZE,
        capture_output=True,
        env=clean_env(tmp_path),
        cwd=tmp_path,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--addons-path", "does/not/exist"), "not a folder"),
        ((), "No addons path configured"),
    ],
    ids=["missing_folder", "nothing_configured"],
)
def test_bad_addons_path_exits_2_before_any_frame(tmp_path: Path, args: tuple[str, ...], said: str) -> None:
    done = serve(tmp_path, *args)
    assert done.returncode == 2
    assert done.stdout == b""  # the host sees no half-open protocol
    assert said in done.stderr.decode()
    assert "--addons-path" in done.stderr.decode()  # what to do next


def test_addons_path_naming_a_file_is_refused(tmp_path: Path, isolated_env: Path) -> None:
    a_file = tmp_path / "addons.txt"
    a_file.write_text("not a folder")
    assert main(["serve", "--addons-path", str(a_file)]) == 2


def test_busy_port_is_reported_before_serving(
    addons: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(["serve", "--addons-path", str(addons), "--transport", "http", "--port", str(port)])
    assert code == 2
    err = capsys.readouterr().err
    assert f"127.0.0.1:{port}" in err and "another --port" in err


@pytest.mark.parametrize("port", ["0", "70000", "http"])
def test_port_out_of_range_is_a_usage_error(
    port: str, addons: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--addons-path", str(addons), "--transport", "http", "--port", port])
    assert exit_info.value.code == 2
    assert "--port" in capsys.readouterr().err


def test_unresolvable_host_is_reported(addons: Path, isolated_env: Path) -> None:
    args = ["--transport", "http", "--host", "no.such.host.invalid"]
    assert main(["serve", "--addons-path", str(addons), *args]) == 2


@pytest.mark.parametrize("flags", [["--port", "9999"], ["--host", "0.0.0.0", "--no-auth"]])
def test_http_flags_without_the_http_transport_are_a_usage_error(
    flags: list[str], addons: Path, isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Not silently a stdio server: the user meant HTTP.
    assert main(["serve", "--addons-path", str(addons), *flags]) == 2
    err = capsys.readouterr().err
    assert f"{flags[0]}" in err and "--transport http" in err
