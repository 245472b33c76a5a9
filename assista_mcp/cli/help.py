"""What ``--help`` shows beyond the flags: each option's default, and an example per command.

The examples live here, in one table, so every command's help ends the same way; a test keeps
the table and the commands in step.
"""

from __future__ import annotations

import argparse

EXAMPLES: dict[str, str] = {
    "serve": (
        "assista-odoo serve --addons-path ~/odoo/custom-addons\n"
        "assista-odoo serve --transport http --port 8765   # for hosts that speak streamable HTTP"
    ),
    "check": (
        "assista-odoo check                                  # the modules under the current folder\n"
        "assista-odoo check my_module --format sarif -o check.sarif\n"
        "assista-odoo check --changed --base origin/main --format github"
    ),
    "doctor": "assista-odoo doctor --odoo-bin ~/odoo/odoo-bin --odoo-python ~/odoo/venv/bin/python",
    "templates": "assista-odoo templates list --format json\nassista-odoo templates prune",
    "odoo": "assista-odoo odoo install my_module --addons-path .\nassista-odoo odoo test my_module --demo",
    "run": 'assista-odoo run "add an edition field to library.book" --model openai/gpt-4o --mode auto-edit',
    "chat": "assista-odoo chat --model anthropic/claude-sonnet-4-5\nassista-odoo chat --continue",
    "sessions": (
        "assista-odoo sessions list\nassista-odoo sessions export 3f2a --format markdown -o session.md"
    ),
    "mcp-config": "assista-odoo mcp-config --client claude-code --addons-path ~/odoo/custom-addons --write",
    "undo": "assista-odoo undo            # the last turn's files, as they were before it",
    "diff": "assista-odoo diff            # what the agent's last turn changed",
    "trust": "assista-odoo trust              # trust ./assista-odoo.toml as it is now",
    "rules": "assista-odoo rules --series 18.0           # the codes holding on 18.0, as Markdown",
    "migrate": (
        "assista-odoo migrate my_module --to 18.0          # dry run: the diff and what is left\n"
        "assista-odoo migrate . --to 18.0 --commit --prove --odoo-bin ~/odoo18/odoo-bin"
    ),
}


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples' lines; adds ``(default: X)`` where an option has a real default and its
    help does not say it already."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or default in (None, False, argparse.SUPPRESS)
            or not action.option_strings
            or action.nargs == 0
        ):
            return text
        return f"{text} (default: %(default)s)"


def add_examples(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Give every command the shared formatter and its examples."""
    for name, parser in subparsers.choices.items():
        parser.formatter_class = HelpFormatter
        example = EXAMPLES.get(name)
        if example:
            lines = "\n".join(f"  {line}" for line in example.splitlines())
            parser.epilog = f"examples:\n{lines}"
