"""One output switch for every command, ``--format``, and ``-o/--output FILE`` where a command
writes a report."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from odoo_tools.errors import InvalidInput


def add_format_flag(
    parser: argparse.ArgumentParser,
    what: str,
    choices: Sequence[str] = ("text", "json"),
    default: str = "text",
) -> None:
    parser.add_argument(
        "--format",
        choices=choices,
        default=default,
        help=f"how to print {what} (default: %(default)s)",
    )


def add_output_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o", "--output", metavar="FILE", type=writable_file, help="write to FILE instead of standard output"
    )


def writable_file(value: str) -> str:
    """An argparse ``type``: a file we can write, checked before any work is done (a usage error,
    exit 2, rather than a traceback after a long run)."""
    try:
        refuse_unwritable(value, "--output")
    except InvalidInput as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return value


def refuse_unwritable(value: str, flag: str) -> None:
    """``InvalidInput`` when ``value`` cannot be created or replaced, saying why."""
    path = Path(value)
    folder = path.parent
    if not value or path.is_dir():
        raise InvalidInput(f"{flag} {value or repr(value)}: a file name is needed, not a folder.")
    if not folder.is_dir():
        raise InvalidInput(f"{flag} {value}: the folder {folder} does not exist; create it first.")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InvalidInput(f"{flag} {value}: permission denied; choose a file in a folder you can write.")


def write_output(path: str, text: str, flag: str = "--output") -> None:
    """Write a file the user named; a failure (disk full, a folder gone meanwhile) is a clear error."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"{flag} {path}: cannot write it: {exc.strerror or exc}.") from None


def emit(text: str, output: str | None) -> None:
    """Print ``text``, or write it to ``output`` (a file the user named)."""
    if output:
        write_output(output, text + "\n")
    else:
        sys.stdout.write(text + "\n")
