"""Property: edit_file does what str.replace would for a unique exact match, and refuses (leaving
the file as it was) when old_text occurs several times."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from odoo_tools.errors import EditConflict
from odoo_tools.files import Edit, edit_file
from odoo_tools.workspace import Workspace

TEXT = st.text(alphabet="ab \n\t", max_size=40)
NEEDLE = st.text(alphabet="ab \n", min_size=1, max_size=6).filter(lambda s: s.strip())
PROPERTY = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@PROPERTY
@given(text=TEXT, old=NEEDLE, new=st.text(alphabet="xy\n", max_size=6))
def test_exact_edits_behave_like_replace(tmp_path: Path, text: str, old: str, new: str) -> None:
    assume(old != new)
    root = tmp_path / "p"
    root.mkdir(exist_ok=True)
    target = root / "f.txt"
    target.write_text(text, encoding="utf-8", newline="")
    count = _count_overlapping(text, old)
    try:
        result = edit_file(Workspace([root]), "f.txt", [Edit(old, new)])
    except EditConflict as exc:
        assert count != 1
        if count > 1:
            assert f"matches {count} places" in exc.message
        assert target.read_bytes().decode() == text
    else:
        if count == 1:
            assert result.edits[0].strategy == "exact"
            assert target.read_bytes().decode() == text.replace(old, new, 1)
        else:
            assert count == 0 and result.edits[0].strategy == "whitespace"


def _count_overlapping(text: str, old: str) -> int:
    return sum(1 for i in range(len(text)) if text.startswith(old, i))
