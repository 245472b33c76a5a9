"""Who owns the socket listening on a local port, read from ``/proc/net/tcp`` and ``tcp6`` (Linux).

Before the agent hands the data folder's token to a loopback URL it checks that the listener is
ours: on a shared machine another account can bind that port while our server is down and harvest
the token. Where ``/proc/net`` does not exist (macOS, Windows) the owner cannot be read cheaply, so
the check is skipped and the token is sent as before.
"""

from __future__ import annotations

import ipaddress
import sys
from dataclasses import dataclass
from pathlib import Path

LISTEN = "0A"
PROC_TABLES = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))


@dataclass(frozen=True)
class Listener:
    address: ipaddress.IPv4Address | ipaddress.IPv6Address
    port: int
    uid: int


def parse_address(hex_address: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
    """``0100007F:1F90`` -> (127.0.0.1, 8080); the address is 32-bit words in host byte order."""
    hex_ip, hex_port = hex_address.split(":")
    raw = bytes.fromhex(hex_ip)
    if sys.byteorder == "little":
        raw = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
    address = ipaddress.ip_address(raw)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address, int(hex_port, 16)


def parse_listeners(text: str) -> list[Listener]:
    """The LISTEN rows of a ``/proc/net/tcp`` or ``tcp6`` table (the header line is skipped)."""
    found = []
    for line in text.splitlines()[1:]:
        fields = line.split()
        if len(fields) < 8 or fields[3] != LISTEN:
            continue
        address, port = parse_address(fields[1])
        found.append(Listener(address, port, int(fields[7])))
    return found


def read_listeners(tables: tuple[Path, ...] = PROC_TABLES) -> list[Listener] | None:
    """Every listening TCP socket, or None where ``/proc/net`` is unavailable (non-Linux)."""
    texts = []
    for table in tables:
        try:
            texts.append(table.read_text(encoding="ascii"))
        except OSError:
            continue
    if not texts:
        return None
    return [listener for text in texts for listener in parse_listeners(text)]


def foreign_owners(listeners: list[Listener], port: int, own_uid: int) -> set[int]:
    """The uids other than ours that listen on ``port`` where a loopback connection can land."""
    return {
        item.uid
        for item in listeners
        if item.port == port
        and (item.address.is_loopback or item.address.is_unspecified)
        and item.uid != own_uid
    }


# The server's end of a fresh loopback connection: ESTABLISHED, or still SYN_RECV for a moment
# (a request socket, shown with its listener's owner).
CONNECTED = ("01", "03")
Endpoint = tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]


def endpoint(address: tuple[object, ...]) -> Endpoint:
    """A socket's ``getsockname()``/``getpeername()`` as (address, port), v4-mapped unwrapped."""
    ip = ipaddress.ip_address(str(address[0]).split("%")[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    port = address[1]
    assert isinstance(port, int)
    return ip, port


def connection_owner(ours: Endpoint, theirs: Endpoint, tables: tuple[Path, ...] = PROC_TABLES) -> int | None:
    """The uid owning the other end of our loopback connection ``ours`` -> ``theirs`` (the socket
    the server accepted, which carries its listener's owner), or None when no table shows it."""
    for table in tables:
        try:
            text = table.read_text(encoding="ascii")
        except OSError:
            continue
        for line in text.splitlines()[1:]:
            fields = line.split()
            if len(fields) < 8 or fields[3] not in CONNECTED:
                continue
            if parse_address(fields[1]) == theirs and parse_address(fields[2]) == ours:
                return int(fields[7])
    return None


def owners_readable(tables: tuple[Path, ...] = PROC_TABLES) -> bool:
    """Whether this system shows socket owners (Linux ``/proc/net``)."""
    return any(table.exists() for table in tables)
