"""A step parses each Python text once: every pass and rule reads the same tree and its metadata
until one of them changes the text (issue 34: migration itself within 5 s per module)."""

from __future__ import annotations

import libcst as cst
import pytest
from libcst.metadata import PositionProvider

from odoo_tools.migrate.engine.python_parsing import metadata_of, parse_once, parsed, transform

TEXT = "class A:\n    def create(self, vals):\n        return vals\n"


class _Nothing(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        self.get_metadata(PositionProvider, original)  # reads the metadata, replaces nothing
        return updated


class _Rename(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[int] = []

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        if original.value != "vals":
            return updated
        self.lines.append(self.get_metadata(PositionProvider, original).start.line)
        return updated.with_changes(value="values")


def test_within_a_step_a_text_is_parsed_once_and_its_positions_computed_once() -> None:
    with parse_once():
        tree = parsed(TEXT)
        assert parsed(TEXT) is tree
        wrapper = metadata_of(tree)
        assert wrapper.module is tree  # no copy of a parsed tree
        assert metadata_of(tree) is wrapper
        assert wrapper.resolve(PositionProvider) is metadata_of(tree).resolve(PositionProvider)
        assert parsed(TEXT + "\n") is not tree  # a changed text is parsed again


def test_outside_a_step_nothing_is_kept() -> None:
    assert parsed(TEXT) is not parsed(TEXT)
    tree = parsed(TEXT)
    assert metadata_of(tree).module is not tree  # libcst's own copy, as before


def test_a_syntax_error_is_raised_every_time_it_is_asked() -> None:
    with parse_once():
        for _ in range(2):
            with pytest.raises(cst.ParserSyntaxError):
                parsed("def (:\n")


@pytest.mark.parametrize("in_step", [True, False])
def test_transform_gives_the_same_tree_when_nothing_was_replaced(in_step: bool) -> None:
    def run() -> None:
        tree = parsed(TEXT)
        assert transform(tree, _Nothing()) is tree
        rename = _Rename()
        renamed = transform(tree, rename)
        assert renamed is not tree
        assert renamed.code == TEXT.replace("vals", "values")
        assert rename.lines == [2, 3]
        # the transformer is left as it was: no instance hook stays behind
        assert "on_leave" not in vars(rename)

    if in_step:
        with parse_once():
            run()
    else:
        run()
