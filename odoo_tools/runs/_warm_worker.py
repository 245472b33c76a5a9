"""The warm worker: Odoo imported once, one forked ``odoo-bin`` per run (a script, not a module).

Run with Odoo's own interpreter (``--odoo-python``) by ``_warm.py``, in the environment the cold
path gives odoo-bin (``child_env``: nothing of ours beyond it), so it uses the standard library
only. It talks over one inherited ``SOCK_SEQPACKET`` socket (fd ``argv[1]``, one end of a socketpair:
nobody else can reach it; ``argv[2]`` only names its runner's log dir, for ``ps``), in JSON messages:

- hello ``{"odoo_bin", "config_args", "preload", "manifests"}`` -> ``{"ready": pid}`` once Odoo,
  the template's modules (``preload``, imported as Odoo's loader does) and the manifests of
  ``manifests`` are loaded; ``{"error": text}`` if that failed (the worker then exits).
- run ``{"args": [...]}`` with two fds: a reply socket and the log's write end. If a file it
  imported (or a manifest it read) changed since, it answers ``{"stale": why}`` and exits; else it
  forks: the child gets its own process group (what a cancel kills), dies with the
  worker, writes stdout+stderr to the log and runs ``odoo.cli.main()`` with ``sys.argv =
  [odoo-bin, *args]``, as odoo-bin does. The reply socket gets ``{"pid"}`` then ``{"exit": code}``
  (negative: killed by that signal; ``FAILED``: the child failed before Odoo ran).
EOF on the socket (our process ended) ends the worker and kills its children.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import json
import os
import selectors
import signal
import socket
import sys
import time
import traceback
from typing import Any

FAILED = 113  # the child failed before Odoo ran: the database is untouched
MAX_MESSAGE = 1 << 20
PR_SET_PDEATHSIG = 1


def main(argv: list[str]) -> int:
    control = socket.socket(fileno=int(argv[1]))
    hello = json.loads(control.recv(MAX_MESSAGE) or b"{}")
    try:
        watched = _prepare(hello)
    except BaseException as exc:  # an import error is an answer: the client runs cold
        traceback.print_exc()
        _send(control, {"error": f"{type(exc).__name__}: {exc}"})
        return 1
    _send(control, {"ready": os.getpid()})
    _serve(control, hello["odoo_bin"], watched)
    return 0


def _prepare(hello: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Import what every run of this template imports, then note the files it came from."""
    odoo_bin = os.path.realpath(hello["odoo_bin"])
    sys.path.insert(0, os.path.dirname(odoo_bin))  # as running the odoo-bin script does
    os.environ["TZ"] = "UTC"  # odoo-bin sets it before anything imports ``time``'s zone
    time.tzset()
    sys.argv = [hello["odoo_bin"], *hello["config_args"]]
    odoo = importlib.import_module("odoo")
    importlib.import_module("odoo.cli")
    manifests: list[str] = []
    loader = _attribute(odoo, "modules.module")
    config = _attribute(odoo, "tools.config")
    if loader is not None and config is not None and hasattr(config, "_parse_config"):
        config._parse_config(list(hello["config_args"]))  # the run's parse redoes it all
        loader.initialize_sys_path()
        for name in hello["preload"]:
            loader.load_openerp_module(name)
        for name in hello["manifests"]:
            with contextlib.suppress(Exception):
                loader.get_manifest(name)  # cached by Odoo (lru_cache), deep-copied on use
                path = loader.get_module_path(name, display_warning=False)
                if path:
                    manifests.append(os.path.join(path, "__manifest__.py"))
    files = [getattr(m, "__file__", None) for m in list(sys.modules.values())]
    return _stamps([odoo_bin, *manifests, *(f for f in files if isinstance(f, str))])


def _attribute(root: object, dotted: str) -> Any:
    for part in dotted.split("."):
        root = getattr(root, part, None)
    return root


def _stamps(paths: list[str]) -> dict[str, tuple[int, int]]:
    stamps: dict[str, tuple[int, int]] = {}
    for path in paths:
        with contextlib.suppress(OSError):
            info = os.stat(path)
            stamps[path] = (info.st_mtime_ns, info.st_size)
    return stamps


def _changed(watched: dict[str, tuple[int, int]]) -> str:
    now = _stamps(list(watched))
    for path, stamp in watched.items():
        if now.get(path) != stamp:
            return f"{path} changed since the worker imported it"
    return ""


def _serve(control: socket.socket, odoo_bin: str, watched: dict[str, tuple[int, int]]) -> None:
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ, None)
    children: dict[int, tuple[socket.socket, int | None]] = {}  # pid -> (reply, pidfd)
    try:
        while True:
            polling = any(pidfd is None for _reply, pidfd in children.values())
            for key, _events in selector.select(0.05 if polling else None):
                if key.data is not None:
                    _reap(selector, children, key.data, block=True)
                    continue
                message, fds, _flags, _addr = socket.recv_fds(control, MAX_MESSAGE, 2)
                if not message:
                    return  # our process is gone
                request = json.loads(message)
                reply, log = socket.socket(fileno=fds[0]), fds[1]
                stale = _changed(watched)
                if stale:
                    _send(reply, {"stale": stale})
                    return
                others = [control, reply, *(r for r, _ in children.values())]
                pid = _fork(odoo_bin, request["args"], log, others)
                os.close(log)
                _send(reply, {"pid": pid})
                pidfd = _pidfd(pid)
                children[pid] = (reply, pidfd)
                if pidfd is not None:
                    selector.register(pidfd, selectors.EVENT_READ, pid)
            for pid in [p for p, (_r, fd) in children.items() if fd is None]:
                _reap(selector, children, pid, block=False)
    finally:
        for pid in children:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None  # no pidfd: polled


def _reap(selector: selectors.BaseSelector, children: dict[int, tuple[socket.socket, int | None]],
          pid: int, *, block: bool) -> None:  # fmt: skip
    done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
    if done == 0:
        return
    reply, pidfd = children.pop(pid)
    if pidfd is not None:
        selector.unregister(pidfd)
        os.close(pidfd)
    with contextlib.suppress(OSError):
        _send(reply, {"exit": os.waitstatus_to_exitcode(status)})
    reply.close()


def _fork(odoo_bin: str, args: list[str], log: int, inherited: list[socket.socket]) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)  # done on both sides: its group exists before we tell its pid
        return pid
    code = FAILED
    try:
        os.setpgid(0, 0)  # its own process group: what a cancel or a timeout kills
        _die_with_parent()
        for sock in inherited:
            sock.close()
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        code = _run_odoo(odoo_bin, args)
    except BaseException:
        with contextlib.suppress(BaseException):
            traceback.print_exc()
    finally:
        with contextlib.suppress(BaseException):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _die_with_parent() -> None:
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() == 1:
        os._exit(FAILED)


def _run_odoo(odoo_bin: str, args: list[str]) -> int:
    """What ``odoo-bin args`` does from here on, exit code included."""
    sys.argv = [odoo_bin, *args]
    odoo = sys.modules["odoo"]
    code: int
    try:
        odoo.cli.main()
        code = 0
    except SystemExit as exc:
        code = _exit_code(exc.code)
    except BaseException:
        traceback.print_exc()  # as the interpreter does for an uncaught exception
        code = 1
    with contextlib.suppress(BaseException):
        atexit._run_exitfuncs()
    return code


def _exit_code(value: object) -> int:
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.sendall(json.dumps(message).encode() + b"\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
