from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.errors import EditConflict, InvalidInput
from odoo_tools.files import PatchTargets, apply_patch, patch_targets
from odoo_tools.files._patching import parse_patch
from odoo_tools.workspace import Workspace
from tests.files.conftest import BOOK, error_text

pytestmark = pytest.mark.anyio
LOAN = "library_loan/models/library_loan.py"
REPO = Path(__file__).resolve().parents[2]


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _git_diff(before: Path, after: Path) -> str:
    """A real `git diff` between two trees, with a/ b/ prefixes as git prints them."""
    out = subprocess.run(
        ["git", "diff", "--no-index", "--no-color", "-M", "before", "after"],
        cwd=before.parent, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert out.returncode == 1, out.stderr  # 1 = differences found
    return out.stdout.replace("a/before/", "a/").replace("b/after/", "b/")


def _edited_copy(addons: Path, tmp_path: Path) -> tuple[Path, Path]:
    before, after = tmp_path / "before", tmp_path / "after"
    shutil.copytree(addons, before)
    shutil.copytree(addons, after)
    book = after / BOOK
    text = book.read_text(encoding="utf-8")
    book.write_text(text.replace("pages = fields.Integer()", "pages = fields.Integer(default=1)")
                    .replace("# Copyright 2026", "# Copyright 2027"), encoding="utf-8")  # fmt: skip
    (after / "library_base/models/extra.py").write_text("X = 1\n", encoding="utf-8")
    (after / "library_broken/views/unlisted_views.xml").unlink()
    return before, after


async def test_git_diff_with_new_deleted_and_multi_hunk_files(
    call: Any, addons: Path, tmp_path: Path
) -> None:
    before, after = _edited_copy(addons, tmp_path)
    patch = _git_diff(before, after)
    result = await call("apply_patch", patch=patch)
    assert not result.is_error, result
    actions = {f["path"]: f["action"] for f in result.structured_content["files"]}
    assert actions == {
        BOOK: "modify",
        "library_base/models/extra.py": "create",
        "library_broken/views/unlisted_views.xml": "delete",
    }
    assert _snapshot(addons) == _snapshot(after)


def test_diff_u_output_applies(ws: Workspace, addons: Path, tmp_path: Path) -> None:
    _, after = _edited_copy(addons, tmp_path)
    out = subprocess.run(
        ["diff", "-u", f"before/{BOOK}", f"after/{BOOK}"], cwd=tmp_path, capture_output=True, text=True
    )
    assert out.stdout.startswith(f"--- before/{BOOK}\t")  # diff -u adds a timestamp after a tab
    result = apply_patch(ws, out.stdout)
    assert [(f.path, f.action, f.hunks) for f in result.files] == [(BOOK, "modify", 2)]
    assert (addons / BOOK).read_bytes() == (after / BOOK).read_bytes()


async def test_bad_hunk_leaves_every_file_unchanged(call: Any, addons: Path, tmp_path: Path) -> None:
    before, after = _edited_copy(addons, tmp_path)
    patch = _git_diff(before, after)
    # Break the second hunk of library_book.py: its context no longer matches the file.
    broken = patch.replace("     date_published = fields.Date(", "     date_published = fields.Datetime(")
    assert broken != patch
    original = _snapshot(addons)
    result = await call("apply_patch", patch=broken)
    message = error_text(result)
    assert BOOK in message and "hunk 2" in message and "Nothing was written" in message
    assert "fields.Datetime" in message  # shows what it expected
    assert _snapshot(addons) == original


def test_new_file_that_exists_is_a_conflict_and_nothing_changes(ws: Workspace, addons: Path) -> None:
    original = _snapshot(addons)
    patch = (
        f"--- a/{BOOK}\n+++ b/{BOOK}\n@@ -1 +1 @@\n-# Copyright 2026 Assista Examples\n+# Copyright 2027\n"
        "--- /dev/null\n+++ b/library_base/__init__.py\n@@ -0,0 +1 @@\n+x\n"
    )
    with pytest.raises(EditConflict, match="already exists"):
        apply_patch(ws, patch)
    assert _snapshot(addons) == original


def test_dry_run_writes_nothing(ws: Workspace, addons: Path) -> None:
    original = _snapshot(addons)
    patch = "--- /dev/null\n+++ b/new_mod/__init__.py\n@@ -0,0 +1,2 @@\n+a\n+b\n"
    result = apply_patch(ws, patch, dry_run=True)
    assert result.dry_run and result.files[0].added == 2
    assert _snapshot(addons) == original


def test_hunk_found_when_lines_moved(ws: Workspace, addons: Path) -> None:
    target = addons / "m.py"
    target.write_text("".join(f"l{n}\n" for n in range(1, 21)), encoding="utf-8")
    # The header claims line 2; the text sits at line 12 (earlier edits moved it).
    patch = "--- a/m.py\n+++ b/m.py\n@@ -2,3 +2,3 @@\n l11\n-l12\n+L12\n l13\n"
    apply_patch(ws, patch)
    assert "L12\n" in target.read_text(encoding="utf-8") and "l12\n" not in target.read_text(encoding="utf-8")


def test_no_newline_at_end_of_file_markers(ws: Workspace, addons: Path) -> None:
    target = addons / "eol.txt"
    target.write_text("a\nb", encoding="utf-8")
    patch = "--- a/eol.txt\n+++ b/eol.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
    apply_patch(ws, patch)
    assert target.read_text(encoding="utf-8") == "a\nc\n"


def test_rename_with_git_headers(ws: Workspace, addons: Path) -> None:
    patch = (
        "diff --git a/library_broken/views/unlisted_views.xml b/library_broken/views/listed.xml\n"
        "similarity index 100%\n"
        "rename from library_broken/views/unlisted_views.xml\n"
        "rename to library_broken/views/listed.xml\n"
    )
    before = (addons / "library_broken/views/unlisted_views.xml").read_bytes()
    result = apply_patch(ws, patch)
    assert result.files[0].action == "rename" and result.files[0].path == "library_broken/views/listed.xml"
    assert (addons / "library_broken/views/listed.xml").read_bytes() == before
    assert not (addons / "library_broken/views/unlisted_views.xml").exists()


def test_new_file_mode_is_applied(ws: Workspace, addons: Path) -> None:
    patch = (
        "diff --git a/tools/run.sh b/tools/run.sh\nnew file mode 100755\nindex 0000000..e69de29\n"
        "--- /dev/null\n+++ b/tools/run.sh\n@@ -0,0 +1 @@\n+#!/bin/sh\n"
    )
    apply_patch(ws, patch)
    assert (addons / "tools/run.sh").stat().st_mode & 0o111


def test_malformed_patches_name_the_problem(ws: Workspace) -> None:
    with pytest.raises(InvalidInput, match="No file changes"):
        apply_patch(ws, "just some text\n")
    with pytest.raises(InvalidInput, match=r"hunk 1 .*shorter than its header"):
        apply_patch(ws, f"--- a/{BOOK}\n+++ b/{BOOK}\n@@ -1,5 +1,5 @@\n a\n")
    with pytest.raises(InvalidInput, match="does not start with"):
        apply_patch(ws, f"--- a/{BOOK}\n+++ b/{BOOK}\n@@ -1,2 +1,2 @@\n a\n*b\n")


def test_patch_outside_the_sandbox_is_refused(ws: Workspace, tmp_path: Path) -> None:
    with pytest.raises(Exception, match="outside"):
        apply_patch(ws, "--- /dev/null\n+++ b/../../evil.py\n@@ -0,0 +1 @@\n+x\n")
    assert not (tmp_path / "evil.py").exists()


def test_parser_reads_removed_lines_that_look_like_headers() -> None:
    patch = "--- a/x.sql\n+++ b/x.sql\n@@ -1 +1 @@\n--- a comment\n+++ b/not-a-header\n"
    (item,) = parse_patch(patch)
    assert item.hunks[0].lines == [("-", "-- a comment"), ("+", "++ b/not-a-header")]


def test_a_file_inside_a_file_the_patch_creates_is_refused_before_writing(
    ws: Workspace, addons: Path
) -> None:
    # "pkg" (created as a file) cannot also be the folder of "pkg/x.py": refused while planning.
    original = _snapshot(addons)
    patch = (
        f"--- a/{BOOK}\n+++ b/{BOOK}\n@@ -1 +1 @@\n-# Copyright 2026 Assista Examples\n+# changed\n"
        "--- /dev/null\n+++ b/pkg\n@@ -0,0 +1 @@\n+a file\n"
        "--- /dev/null\n+++ b/pkg/x.py\n@@ -0,0 +1 @@\n+x\n"
    )
    with pytest.raises(InvalidInput, match="not a folder"):
        apply_patch(ws, patch)
    assert _snapshot(addons) == original
    assert not (addons / "pkg").exists()


# Runs in its own process: an audit hook cannot be removed once added. When the first staged file
# is renamed into place (the first step of the commit), the second target is swapped for a folder,
# as another program could do at that moment; the second rename then fails (EISDIR, even as root).
MID_WRITE = """
import os, sys
from pathlib import Path
from odoo_tools.errors import EditConflict
from odoo_tools.files import apply_patch
from odoo_tools.workspace import Workspace

root, patch, second = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
renames = []

def swap_the_second_file_for_a_folder(event, args):
    if event == "os.rename" and str(args[1]).endswith((".py", ".xml")):  # a step, not the journal
        renames.append(os.path.basename(args[1]))
        if len(renames) == 1:
            os.unlink(second)
            os.mkdir(second)

sys.addaudithook(swap_the_second_file_for_a_folder)
try:
    apply_patch(Workspace([root]), patch)
except EditConflict as exc:
    print(exc.message)
    print("renamed:", renames)
"""


def test_failure_while_writing_restores_the_files_already_written(addons: Path) -> None:
    book_before = (addons / BOOK).read_bytes()
    patch = (
        f"--- a/{BOOK}\n+++ b/{BOOK}\n@@ -1 +1 @@\n-# Copyright 2026 Assista Examples\n+# changed\n"
        f"--- a/{LOAN}\n+++ b/{LOAN}\n@@ -1 +1 @@\n-# Copyright 2026 Assista Examples\n+# changed\n"
    )
    assert apply_patch(Workspace([addons]), patch, dry_run=True).files  # both hunks apply
    run = subprocess.run(
        [sys.executable, "-c", MID_WRITE, str(addons), patch, str(addons / LOAN)],
        capture_output=True, text=True, timeout=60, cwd=REPO,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Writing the patch failed" in run.stdout
    assert "the files already written were restored" in run.stdout
    # library_book.py was renamed into place, library_loan.py failed, library_book.py was put back
    assert "renamed: ['library_book.py', 'library_loan.py', 'library_book.py']" in run.stdout
    assert (addons / BOOK).read_bytes() == book_before  # put back
    assert (addons / LOAN).is_dir()  # what the other program made is left alone
    leftovers = [p.name for p in (addons / LOAN).parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []  # no staged file left behind


def test_a_255_byte_file_name_can_be_written(ws: Workspace, addons: Path) -> None:
    name = "é" * 127 + "x"  # 255 bytes in UTF-8
    apply_patch(ws, f"--- /dev/null\n+++ b/{name}\n@@ -0,0 +1 @@\n+x\n")
    assert (addons / name).read_text(encoding="utf-8") == "x\n"


def test_patch_targets_names_what_the_patch_may_change() -> None:
    patch = (
        "diff --git a/m/old.xml b/m/new.xml\nsimilarity index 100%\n"
        "rename from m/old.xml\nrename to m/new.xml\n"
        "--- /dev/null\n+++ b/m/added.py\n@@ -0,0 +1 @@\n+x\n"
        f"--- a/{BOOK}\n+++ b/{BOOK}\n@@ -1 +1 @@\n-a\n+b\n"
        "--- before/m/plain.py\n+++ after/m/plain.py\n@@ -1 +1 @@\n-a\n+b\n"
    )
    assert patch_targets(patch) == PatchTargets(
        written=("m/new.xml", "m/added.py", BOOK, "after/m/plain.py", "m/plain.py", "before/m/plain.py"),
        deleted=("m/old.xml",),
        moved=(("m/old.xml", "m/new.xml"),),
    )


def test_what_apply_patch_changes_is_what_patch_targets_announces(
    ws: Workspace, addons: Path, tmp_path: Path
) -> None:
    # Approvals and protected files judge a patch by patch_targets before it runs: a file the
    # patch then changes or removes without being announced would slip past them.
    before, after = _edited_copy(addons, tmp_path)
    plain = subprocess.run(
        ["diff", "-u", f"before/{BOOK}", f"after/{BOOK}"], cwd=tmp_path, capture_output=True, text=True
    ).stdout
    rename = (
        "diff --git a/library_broken/views/unlisted_views.xml b/library_broken/views/listed.xml\n"
        "similarity index 100%\nrename from library_broken/views/unlisted_views.xml\n"
        "rename to library_broken/views/listed.xml\n"
    )
    for patch in (_git_diff(before, after), plain, rename):
        announced = patch_targets(patch)
        start = _snapshot(addons)
        apply_patch(ws, patch)
        end = _snapshot(addons)
        changed = {p for p in start.keys() | end.keys() if start.get(p) != end.get(p)}
        assert changed, patch
        assert changed <= set(announced.written) | set(announced.deleted), patch
        assert start.keys() - end.keys() <= set(announced.deleted), patch
        shutil.rmtree(addons)
        shutil.copytree(before, addons)
