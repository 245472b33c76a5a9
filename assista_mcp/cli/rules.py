"""``assista-odoo rules``: the code catalogue, every finding and rule code with what it means."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from odoo_tools.catalogue import entries, render_json, render_markdown
from odoo_tools.series import SUPPORTED_SERIES, normalize_series


def add_parsers(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "rules",
        help="list every finding and rule code: severity and why, series, hint (docs/rules.md)",
        description=(
            "Every code the checks, migrate and Odoo runs report, declared once: its title, severity "
            "and why, the series it holds on, the Odoo file it was read from and a hint."
        ),
    )
    parser.add_argument(
        "--series", metavar="X", help=f"only the codes holding on this series ({', '.join(SUPPORTED_SERIES)})"
    )
    parser.add_argument("--format", choices=("md", "json"), default="md", help="output format")
    parser.set_defaults(func=run_rules)


def run_rules(args: argparse.Namespace) -> int:
    series = normalize_series(args.series) if args.series is not None else None  # bad input: exit 2
    chosen = entries(series)
    sys.stdout.write(render_json(chosen) if args.format == "json" else render_markdown(chosen, series))
    return 0
