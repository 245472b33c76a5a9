"""Property: any diff our edit_file prints (the `diff -u` format, incl. "\\ No newline" markers)
applies back with apply_patch and gives exactly the new text; a stale patch changes nothing."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from odoo_tools.errors import EditConflict
from odoo_tools.files import apply_patch
from odoo_tools.files._diffs import unified_diff
from odoo_tools.workspace import Workspace

# Few distinct lines, so hunks have repeated, ambiguous context (the hard case for placement).
LINE = st.sampled_from(["a", "b", "c", "", "    x = 1", "\tdef f():", "--- a", "+++ b", "@@ x"])
TEXT = (
    st.lists(LINE, max_size=30)
    .map("\n".join)
    .flatmap(lambda body: st.sampled_from([body, body + "\n"]) if body else st.just(body))
)
PROPERTY = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@PROPERTY
@given(before=TEXT, after=TEXT, context=st.integers(min_value=0, max_value=3))
def test_diff_then_patch_round_trips(tmp_path: Path, before: str, after: str, context: int) -> None:
    root = tmp_path / "round"
    root.mkdir(exist_ok=True)
    target = root / "f.txt"
    target.write_text(before, encoding="utf-8")
    patch = _diff("f.txt", before, after, context)
    if not patch:
        return  # identical texts: nothing to apply
    apply_patch(Workspace([root]), patch)
    assert target.read_text(encoding="utf-8") == after


@PROPERTY
@given(before=TEXT, after=TEXT, stale_before=TEXT, stale_after=TEXT, other=TEXT)
def test_a_two_file_patch_applies_whole_or_not_at_all(
    tmp_path: Path, before: str, after: str, stale_before: str, stale_after: str, other: str
) -> None:
    root = tmp_path / "pair"
    root.mkdir(exist_ok=True)
    first, second = root / "one.txt", root / "two.txt"
    first.write_text(before, encoding="utf-8")
    second.write_text(other, encoding="utf-8")  # the second diff was made for other content
    patch = unified_diff("one.txt", before, after) + unified_diff("two.txt", stale_before, stale_after)
    if before == after or stale_before == stale_after:
        return
    try:
        apply_patch(Workspace([root]), patch)
    except EditConflict:
        assert (first.read_text(encoding="utf-8"), second.read_text(encoding="utf-8")) == (before, other)
    else:
        assert first.read_text(encoding="utf-8") == after


def _diff(rel: str, before: str, after: str, context: int) -> str:
    if context == 3:
        return unified_diff(rel, before, after)  # exactly what edit_file shows
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{rel}", f"b/{rel}", n=context
    )
    return "".join(x if x.endswith("\n") else x + "\n\\ No newline at end of file\n" for x in lines)


def test_the_property_can_fail(tmp_path: Path) -> None:
    # A hunk whose context is absent from the file must not apply anywhere.
    root = tmp_path / "r"
    root.mkdir()
    (root / "f.txt").write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(EditConflict):
        apply_patch(Workspace([root]), unified_diff("f.txt", "x\ny\n", "x\nz\n"))
    assert (root / "f.txt").read_text(encoding="utf-8") == "a\nb\n"
