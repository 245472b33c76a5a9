"""One output switch for every command: ``--format`` (``--json`` stays one release as an alias),
and ``-o/--output FILE`` where a command writes a report."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class _DeprecatedJson(argparse.Action):
    """``--json``: the old switch, kept working for one release with a note on stderr."""

    def __call__(self, parser: Any, namespace: argparse.Namespace, values: Any, option: Any = None) -> None:
        print("note: --json is deprecated; use --format json", file=sys.stderr)
        namespace.format = "json"


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
    parser.add_argument("--json", action=_DeprecatedJson, nargs=0, help=argparse.SUPPRESS)


def add_output_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")


def emit(text: str, output: str | None) -> None:
    """Print ``text``, or write it to ``output`` (a file the user named)."""
    if output:
        Path(output).write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
