"""``assista-odoo trust [FILE]``: let a reviewed project file set every setting (like direnv allow)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from assista_mcp.config.loading import load_settings
from assista_mcp.config.project_file import TrustStore, default_project_file
from odoo_tools.errors import NotFound


def add_parsers(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "trust",
        help="trust a project file (assista-odoo.toml) after reviewing it",
        description=(
            "A project file may set mode, api_base, odoo-bin, databases and addons roots outside its "
            "folder only once you trust it. Trust records the file's sha256 in your user data folder; "
            "any later change makes it untrusted again."
        ),
    )
    parser.add_argument("file", nargs="?", type=Path, help="default: the project file in the working folder")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--list", action="store_true", help="list the trusted files")
    action.add_argument("--revoke", action="store_true", help="stop trusting FILE")
    parser.set_defaults(func=run_trust)


def run_trust(args: argparse.Namespace) -> int:
    store = TrustStore(load_settings(cwd=Path("/")).home)  # the data folder, whatever the cwd holds
    if args.list:
        for path, digest in sorted(store.entries().items()):
            print(f"{path}  sha256:{digest[:16]}")
        return 0
    file: Path = (args.file or default_project_file(Path.cwd())).absolute()  # a link stays a link
    if args.revoke:
        if not store.revoke(file):
            print(f"assista-odoo: {file} was not trusted")
            return 1
        print(f"assista-odoo: no longer trusting {file}")
        return 0
    if not file.is_symlink() and not file.is_file():
        raise NotFound(f"No project file {file}.", "Give the path of an assista-odoo.toml or pyproject.toml.")
    digest = store.trust(file)
    print(f"assista-odoo: trusting {file} (sha256:{digest[:16]}); a change to it needs a new `trust`")
    return 0
