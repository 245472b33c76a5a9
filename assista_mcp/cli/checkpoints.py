"""``assista-odoo undo`` and ``diff``: the agent's checkpoints, one per turn, restored or shown."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from assista_mcp.cli.common import add_project_flags, settings_from_args
from odoo_tools.errors import EditConflict, NotFound


def add_parsers(subparsers: Any) -> None:
    undo: argparse.ArgumentParser = subparsers.add_parser(
        "undo",
        help="restore the files of the agent's last turn",
        description=(
            "Restore, byte for byte, the files the agent changed in its last turn (or --turn ID), "
            "including files it created or deleted. Refuses when a file changed after the turn."
        ),
    )
    undo.add_argument("--turn", metavar="ID", help="a turn from `assista-odoo diff --list`")
    add_project_flags(undo)
    undo.set_defaults(func=run_undo)
    diff: argparse.ArgumentParser = subparsers.add_parser(
        "diff",
        help="show what the agent's last turn changed",
        description="Show the unified diff of the agent's last turn (or --turn ID), or --list the turns.",
    )
    diff.add_argument("--turn", metavar="ID", help="a turn from --list")
    diff.add_argument("--list", action="store_true", help="list the recorded turns, newest first")
    add_project_flags(diff)
    diff.set_defaults(func=run_diff)


def run_undo(args: argparse.Namespace) -> int:
    from assista_mcp.agent.safety.checkpointing import open_store, undo_turn

    settings = settings_from_args(args)
    workspace = settings.workspace()
    try:
        print(undo_turn(open_store(settings, workspace), workspace, args.turn))
    except (EditConflict, NotFound) as exc:  # a refusal is this command's own answer: exit 1
        print(f"assista-odoo: {exc}", file=sys.stderr)
        return 1
    return 0


def run_diff(args: argparse.Namespace) -> int:
    from assista_mcp.agent.safety.checkpointing import diff_turn, list_turns, open_store

    settings = settings_from_args(args)
    workspace = settings.workspace()
    store = open_store(settings, workspace)
    if args.list:
        print(list_turns(store))
        return 0
    try:
        print(diff_turn(store, workspace, args.turn), end="")
    except NotFound as exc:
        print(f"assista-odoo: {exc}", file=sys.stderr)
        return 1
    return 0
