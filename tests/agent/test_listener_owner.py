"""The agent sends the data folder's token to a loopback URL only when our account owns the listener."""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from assista_mcp.agent.loop.listeners import foreign_owners, parse_listeners
from assista_mcp.agent.loop.toolset import ServerSpec, Toolset, url_spec
from assista_mcp.agent.loop.url_auth import bearer_token
from odoo_tools.errors import ConfigError

TOKEN = "t0ken-for-the-test-0123456789"
HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
TCP4 = HEADER + (
    "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1 0\n"
    "   1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2 1 0\n"
    "   2: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000  4242        0 3 1 0\n"
)
TCP6 = HEADER + (
    "   0: 00000000000000000000000001000000:1F91 00000000000000000000000000000000:0000 0A "
    "00000000:00000000 00:00000000 00000000  65534        0 4 1 0\n"
    "   1: 0000000000000000FFFF00000100007F:1F92 00000000000000000000000000000000:0000 0A "
    "00000000:00000000 00:00000000 00000000  7        0 5 1 0\n"
    "   2: 00000000000000000000000001000000:1F93 00000000000000000000000001000000:AB12 06 "
    "00000000:00000000 00:00000000 00000000  9        0 6 1 0\n"
)


@pytest.mark.skipif(sys.byteorder != "little", reason="sample rows are little-endian /proc/net text")
def test_proc_net_rows_are_parsed_listen_only() -> None:
    v4 = [(str(x.address), x.port, x.uid) for x in parse_listeners(TCP4)]
    assert v4 == [("127.0.0.1", 8080, 1000), ("0.0.0.0", 22, 0)]  # the ESTABLISHED row (01) is not a listener
    v6 = [(str(x.address), x.port, x.uid) for x in parse_listeners(TCP6)]
    assert v6 == [("::1", 8081, 65534), ("127.0.0.1", 8082, 7)]  # TIME_WAIT (06) skipped, v4-mapped unwrapped


@pytest.mark.skipif(sys.byteorder != "little", reason="sample rows are little-endian /proc/net text")
def test_foreign_owner_decision() -> None:
    rows = parse_listeners(TCP4) + parse_listeners(TCP6)
    assert foreign_owners(rows, 8080, 1000) == set()
    assert foreign_owners(rows, 8080, 0) == {1000}
    assert foreign_owners(rows, 22, 1000) == {0}  # a wildcard listener receives loopback connections too
    assert foreign_owners(rows, 8081, 1000) == {65534}
    assert foreign_owners(rows, 9999, 1000) == set()
    assert ipaddress.ip_address("127.0.0.1") == rows[0].address


def _home_with_token(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    token = home / "http-auth-token"
    token.write_text(TOKEN + "\n", encoding="utf-8")
    os.chmod(token, 0o600)
    return home


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux /proc/net")
def test_our_own_listener_gets_the_token(tmp_path: Path) -> None:
    home = _home_with_token(tmp_path)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        found = bearer_token(f"http://127.0.0.1:{port}/mcp", home, None, None)
    assert found is not None and found.value == TOKEN


FOREIGN_LISTENER = """
import os, socket, sys
os.setgid(65534)
os.setuid(65534)  # first: /proc/net shows the uid that created the socket
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
sock.listen()
print(sock.getsockname()[1], flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(
    not Path("/proc/net/tcp").exists() or os.geteuid() != 0, reason="needs Linux and root to listen as nobody"
)
def test_another_accounts_listener_never_gets_the_token(tmp_path: Path) -> None:
    home = _home_with_token(tmp_path)
    child = subprocess.Popen(
        [sys.executable, "-c", FOREIGN_LISTENER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        port = int(child.stdout.readline())
        url = f"http://127.0.0.1:{port}/mcp"
        with pytest.raises(ConfigError, match="another account") as refused:
            bearer_token(url, home, None, None)
        assert "--auth-token-file" in str(refused.value) and TOKEN not in str(refused.value)
        explicit = bearer_token(url, home, home / "http-auth-token", None)  # the user's choice: sent
        assert explicit is not None and explicit.value == TOKEN
    finally:
        child.kill()
        child.wait()


TAKE_OVER_THE_PORT = """
import os, signal, socket, sys
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # still print what was received
port = int(sys.argv[1])
os.setgid(65534)
os.setuid(65534)
sock = socket.socket()
sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
sock.bind(("127.0.0.1", port))
sock.listen()
print("ready", flush=True)
sock.settimeout(30)
received = b""
try:
    while True:
        conn, _ = sock.accept()
        conn.settimeout(2)
        try:
            while chunk := conn.recv(65536):
                received += chunk
        except OSError:
            pass
        conn.close()
except OSError:
    pass
finally:
    print(received.decode("latin-1"), flush=True)
"""


async def _connect(spec: ServerSpec) -> None:
    async with Toolset([spec]):
        pass


@pytest.mark.skipif(
    not Path("/proc/net/tcp").exists() or os.geteuid() != 0, reason="needs Linux and root to listen as nobody"
)
def test_a_listener_that_took_over_the_port_after_start_never_gets_the_token(tmp_path: Path) -> None:
    """Our server was there when the agent started (the start check passed), then it stopped and
    another account bound the port: the next connection is checked too, and carries nothing."""
    home = _home_with_token(tmp_path)
    with socket.socket() as ours:
        ours.bind(("127.0.0.1", 0))
        ours.listen()
        port = ours.getsockname()[1]
        url = f"http://127.0.0.1:{port}/mcp"
        spec = url_spec(url, set(), lambda u: bearer_token(u, home, None, None))
    child = subprocess.Popen(
        [sys.executable, "-c", TAKE_OVER_THE_PORT, str(port)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        with pytest.raises(ConfigError, match="another account"):
            anyio.run(_connect, spec)
    finally:
        child.terminate()
        received, _ = child.communicate(timeout=30)
    assert TOKEN not in received and "Authorization" not in received
