"""``assista-odoo`` command line: one sub-command module per job.

Exit codes: 0 success, 1 the job's own failure (findings, failed install), 2 usage or
environment errors (with a message saying what to do), 130 interrupted, 141 the reader of the
output went away (``| head``), as a tool killed by SIGPIPE.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from assista_mcp import __version__
from assista_mcp.safety.redaction import redact
from odoo_tools.errors import AssistaError
from odoo_tools.safe_text import escape_controls
from odoo_tools.signals import terminate_like_interrupt

# One module per command (or group of commands), named after it; listed in the order help shows them.
SUBCOMMAND_MODULES = (
    "serve",
    "check",
    "odoo",
    "agent",
    "mcp_config",
    "checkpoints",
    "trust",
    "migrate",
    "rules",
)
# `check` from a pre-commit hook or CI must start fast: when it is the command, only its own
# module is imported (the agent's, the server's... take ~0.5 s to import and are not needed).
ALONE = {"check": "check"}
# Commands that may leave odoo-bin or a database behind: SIGTERM/SIGHUP clean up like Ctrl-C.
CLEAN_UP_ON_TERMINATE = ("serve", "odoo", "check", "doctor", "templates", "migrate", "run", "chat")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only``, just that sub-command's module (same parser)."""
    parser = argparse.ArgumentParser(
        prog="assista-odoo",
        description="MCP server, bundled agent and CI gate for Odoo addon developers.",
    )
    parser.add_argument("--version", action="version", version=f"assista-odoo {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _subcommands(only):
        module.add_parsers(subparsers)
    from assista_mcp.cli.help import add_examples

    add_examples(subparsers)
    return parser


def _early_cache_dir(words: list[str]) -> Path | None:
    """Where `check` keeps its cache, guessed before the settings load (``ASSISTA_CACHE_DIR`` or
    the platform's; a wrong guess only changes which linters start early)."""
    if "--no-cache" in words:
        return None
    if os.environ.get("ASSISTA_CACHE_DIR"):
        return Path(os.environ["ASSISTA_CACHE_DIR"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("assista-odoo"))


def _early_linters(words: list[str]) -> list[str]:
    """The linters `check` will likely run, started before its imports so they load theirs
    meanwhile (a guess from the words: a wrong one costs an unused process, never a result)."""
    if {"-h", "--help"} & set(words):
        return []
    wanted = ["pylint", "oca-hooks"]
    for position, word in enumerate(words):
        if word == "--checks":
            value = words[position + 1] if position + 1 < len(words) else ""
        elif word.startswith("--checks="):
            value = word.partition("=")[2]
        else:
            continue
        chosen = {c.strip() for c in value.split(",")}
        wanted = [tool for tool in wanted if tool in chosen]
    return wanted


def _subcommands(only: str | None) -> list[ModuleType]:
    import importlib

    names = [only] if only else SUBCOMMAND_MODULES
    return [importlib.import_module(f"assista_mcp.cli.{name}") for name in names]


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["check"]:
        from odoo_tools.lint import start_spares

        start_spares(_early_linters(words[1:]), cache_dir=_early_cache_dir(words[1:]))
    parser = build_parser(ALONE.get(words[0]) if words else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    terminating = args.command in CLEAN_UP_ON_TERMINATE
    try:
        with terminate_like_interrupt() if terminating else contextlib.nullcontext():
            code: int = args.func(args)
            sys.stdout.flush()  # here, where a closed pipe is handled, not at exit
        if argv is None:  # the process ends next: its last collection skips what is left
            gc.freeze()  # (seconds after a big index; a host kills a server that is slow to end)
        return code
    except BrokenPipeError:
        return _reader_went_away()
    except AssistaError as exc:
        # A name from the files (a module, a version) may carry ESC sequences or a newline.
        print(f"assista-odoo: {escape_controls(redact(str(exc)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("assista-odoo: interrupted", file=sys.stderr)
        return 130


def _reader_went_away() -> int:
    """``assista-odoo sessions list | head``: the pipe closed early; stop quietly. Later writes
    (the interpreter's own flush at exit) go nowhere instead of raising again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return 141
