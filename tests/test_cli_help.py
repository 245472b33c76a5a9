"""Every command's --help ends with examples that parse, and its options show their defaults."""

from __future__ import annotations

import argparse
import shlex

import pytest

from assista_mcp.cli import build_parser
from assista_mcp.cli.help import EXAMPLES


def _commands() -> dict[str, argparse.ArgumentParser]:
    [subparsers] = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(subparsers.choices)


def test_every_command_has_examples() -> None:
    assert set(_commands()) <= set(EXAMPLES)


@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_each_example_is_a_valid_command_line(command: str) -> None:
    if command not in _commands():
        pytest.skip(f"{command} is not a command of this build")
    for line in EXAMPLES[command].splitlines():
        argv = shlex.split(line.split("  #")[0])
        assert argv[:2] == ["assista-odoo", command]
        build_parser().parse_args(argv[1:])  # exits (SystemExit) on a flag that does not exist


def test_help_shows_the_examples_and_real_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["sessions", "list", "--help"])
    shown = capsys.readouterr().out
    assert "(default: 20)" in shown and "(default: text)" in shown
    with pytest.raises(SystemExit):
        build_parser().parse_args(["odoo", "--help"])
    assert "examples:\n  assista-odoo odoo install my_module" in capsys.readouterr().out


def test_every_option_of_every_command_says_what_it_does() -> None:
    undocumented = [
        f"{name} {'/'.join(action.option_strings) or action.dest}"
        for name, parser in _commands().items()
        for action in parser._actions
        if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) and not action.help
    ]
    assert undocumented == []
