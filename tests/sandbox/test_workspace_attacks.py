"""Attacks on ``Workspace.resolve``: every escape is refused with a clear error, nothing else is.

Each case names the attack; ``None`` as the expected error means the path is legitimately inside.
"""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from odoo_tools.errors import AssistaError, InvalidInput, NotFound, SandboxViolation
from odoo_tools.workspace import MAX_PATH_CHARS, Workspace

from .conftest import SECRET, Tree

Case = tuple[str, str, bool, type[AssistaError] | None]  # path, purpose, must_exist, expected error

READ, WRITE = "read", "write"

RELATIVE_CASES: dict[str, Case] = {
    # `..` in every position
    "dotdot_alone": ("..", READ, True, SandboxViolation),
    "dotdot_leading": ("../outside/secret.txt", READ, True, SandboxViolation),
    "dotdot_leading_write_new": ("../outside/new.txt", WRITE, False, SandboxViolation),
    "dotdot_middle": ("m/../../outside/secret.txt", READ, True, SandboxViolation),
    "dotdot_middle_write": ("m/models/../../../outside/x.py", WRITE, False, SandboxViolation),
    "dotdot_trailing": ("m/models/../../..", READ, True, SandboxViolation),
    "dotdot_many": ("../" * 40 + "etc/passwd", READ, True, SandboxViolation),
    "dotdot_after_dot": ("./../outside/secret.txt", READ, True, SandboxViolation),
    "dotdot_double_slash": ("m//..//..//outside//secret.txt", READ, True, SandboxViolation),
    "dotdot_trailing_slash": ("m/../../", READ, True, SandboxViolation),
    # the OS cannot walk through a file (ENOTDIR), but the path leads outside: refused as such
    "dotdot_through_file": ("m/__init__.py/../../../outside/secret.txt", READ, True, SandboxViolation),
    "dotdot_through_file_write": ("m/__init__.py/../../../outside/new.txt", WRITE, False, SandboxViolation),
    "dotdot_into_sibling": ("../addons2/m/secret.py", READ, True, SandboxViolation),
    "dotdot_into_sibling_write": ("../addons2/m/evil.py", WRITE, False, SandboxViolation),
    # symlinks pointing out
    "symlink_file_out": ("link_file_out", READ, True, SandboxViolation),
    "symlink_file_out_write": ("link_file_out", WRITE, False, SandboxViolation),
    "symlink_chain_out": ("link_chain_1", READ, True, SandboxViolation),
    "symlink_dir_out_file": ("link_dir_out/secret.txt", READ, True, SandboxViolation),
    "symlink_dir_out_listing": ("link_dir_out", READ, True, SandboxViolation),
    "symlink_dir_out_new_file": ("link_dir_out/new.txt", WRITE, False, SandboxViolation),
    "symlink_dir_out_new_nested": ("link_dir_out/a/b/c.txt", WRITE, False, SandboxViolation),
    "symlink_parent_out": ("link_parent_out/outside/secret.txt", READ, True, SandboxViolation),
    "symlink_relative_dotdot": ("link_root_parent/outside/secret.txt", READ, True, SandboxViolation),
    "symlink_nested_up_out": ("m/models/link_up_out/secret.txt", READ, True, SandboxViolation),
    "symlink_then_dotdot": ("link_dir_out/sub/../secret.txt", READ, True, SandboxViolation),
    "symlink_to_sibling": ("link_to_sibling/m/secret.py", READ, True, SandboxViolation),
    "symlink_to_readonly_write": ("link_to_readonly/models.py", WRITE, True, SandboxViolation),
    "dangling_out_write": ("dangling_out", WRITE, False, SandboxViolation),
    "dangling_out_read": ("dangling_out", READ, True, SandboxViolation),
    "dangling_out_dir_write": ("dangling_out_dir/x.py", WRITE, False, SandboxViolation),
    "symlink_loop": ("loop_a", READ, True, InvalidInput),
    "symlink_loop_write_below": ("loop_a/x.py", WRITE, False, InvalidInput),
    # other files that must not be used
    "hard_link_to_outside_read": ("hard_out.txt", READ, True, SandboxViolation),
    "hard_link_to_outside_write": ("hard_out.txt", WRITE, False, SandboxViolation),
    "fifo_read": ("fifo", READ, True, SandboxViolation),
    # malformed text
    "empty": ("", READ, True, InvalidInput),
    "blank": ("   ", READ, True, InvalidInput),
    "nul_byte": ("m/__init__.py\x00.txt", READ, True, InvalidInput),
    "lone_surrogate": ("m/\ud800.py", WRITE, False, InvalidInput),
    "too_long_total": ("a/" * (MAX_PATH_CHARS // 2 + 1), WRITE, False, InvalidInput),
    "too_long_component": ("m/" + "x" * 256, WRITE, False, InvalidInput),
    "too_long_component_multibyte": ("m/" + "é" * 128, WRITE, False, InvalidInput),
    "new_file_below_a_file": ("m/__init__.py/child.py", WRITE, False, InvalidInput),
    "missing_read": ("m/nope.py", READ, True, NotFound),
    # legitimate paths stay usable
    "root_itself": (".", READ, True, None),
    "dotdot_staying_inside": ("m/models/../__init__.py", READ, True, None),
    "dotdot_from_link_inside": ("m/models/../../m/__init__.py", READ, True, None),
    "symlink_inside": ("link_in", READ, True, None),
    "dangling_inside_write": ("dangling_in", WRITE, False, None),
    "new_nested_file": ("newmod/models/x.py", WRITE, False, None),
    "backslashes_are_a_name": ("..\\..\\outside\\secret.txt", WRITE, False, None),
    "fullwidth_dots_are_a_name": ("\uff0e\uff0e/outside/secret.txt", WRITE, False, None),
    "one_dot_leader_is_a_name": ("\u2025/outside", WRITE, False, None),
    "tilde_is_a_name": ("~/secret.txt", WRITE, False, None),
    "url_is_a_name": ("file:///etc/passwd", WRITE, False, None),
    "component_255_bytes": ("m/" + "x" * 255, WRITE, False, None),
}


@pytest.fixture
def ws(tree: Tree) -> Workspace:
    return Workspace([tree.root], readonly_roots=[tree.readonly])


@pytest.mark.parametrize("case", sorted(RELATIVE_CASES))
def test_relative_path_attack(case: str, ws: Workspace, tree: Tree) -> None:
    path, purpose, must_exist, expected = RELATIVE_CASES[case]
    if expected is None:
        resolved = ws.resolve(path, purpose=purpose, must_exist=must_exist)  # type: ignore[arg-type]
        assert resolved.path.is_relative_to(tree.root)
        assert resolved.path == Path(os.path.realpath(resolved.path)) or not resolved.path.exists()
        return
    with pytest.raises(expected) as info:
        ws.resolve(path, purpose=purpose, must_exist=must_exist)  # type: ignore[arg-type]
    assert info.value.message  # a clear message, and a hint or a self-explaining message
    assert SECRET not in str(info.value)


def absolute_cases(tree: Tree) -> dict[str, tuple[Path | str, str, type[AssistaError] | None]]:
    root = tree.root
    return {
        "outside_file": (tree.secret, READ, SandboxViolation),
        "etc_passwd": ("/etc/passwd", READ, SandboxViolation),
        "filesystem_root": ("/", READ, SandboxViolation),
        "double_leading_slash": ("//" + str(tree.secret).lstrip("/"), READ, SandboxViolation),
        "sibling_prefix": (tree.sibling / "m" / "secret.py", READ, SandboxViolation),
        "sibling_prefix_write": (tree.sibling / "m" / "new.py", WRITE, SandboxViolation),
        "sibling_prefix_string": (str(root) + "2/m/secret.py", READ, SandboxViolation),
        "root_then_dotdot": (f"{root}/../outside/secret.txt", READ, SandboxViolation),
        "root_then_link_out": (root / "link_file_out", READ, SandboxViolation),
        "root_then_link_dir_out": (root / "link_dir_out" / "secret.txt", READ, SandboxViolation),
        "readonly_root_write": (tree.readonly / "base" / "models.py", WRITE, SandboxViolation),
        "readonly_root_new_file": (tree.readonly / "base" / "evil.py", WRITE, SandboxViolation),
        "proc_self_root": ("/proc/self/root" + str(tree.secret), READ, SandboxViolation),
        "readonly_root_read_ok": (tree.readonly / "base" / "models.py", READ, None),
        "inside_absolute_ok": (root / "m" / "__init__.py", READ, None),
        "inside_absolute_dotdot_ok": (f"{root}/m/models/../__init__.py", READ, None),
    }


ABSOLUTE_NAMES = sorted(absolute_cases(Tree(*(Path("/x"),) * 6)))


@pytest.mark.parametrize("case", ABSOLUTE_NAMES)
def test_absolute_path_attack(case: str, ws: Workspace, tree: Tree) -> None:
    path, purpose, expected = absolute_cases(tree)[case]
    must_exist = purpose == READ and expected is None
    if expected is None:
        resolved = ws.resolve(str(path), purpose=purpose)  # type: ignore[arg-type]
        assert any(resolved.path.is_relative_to(r.path) for r in ws.roots)
        return
    with pytest.raises(expected):
        ws.resolve(str(path), purpose=purpose, must_exist=must_exist)  # type: ignore[arg-type]


def test_root_given_through_a_symlink_is_the_same_root(tree: Tree) -> None:
    alias = tree.base / "alias"
    alias.symlink_to(tree.root)
    ws = Workspace([alias])
    assert ws.resolve(str(alias / "m" / "__init__.py")).rel == "m/__init__.py"
    assert ws.resolve(str(tree.root / "m" / "__init__.py")).rel == "m/__init__.py"
    with pytest.raises(SandboxViolation):
        ws.resolve(str(alias / ".." / "outside" / "secret.txt"))


def test_unicode_normalization_forms_are_distinct_names(ws: Workspace, tree: Tree) -> None:
    nfc = unicodedata.normalize("NFC", "café.py")
    nfd = unicodedata.normalize("NFD", "café.py")
    (tree.root / "m" / nfc).write_text("nfc")
    assert ws.resolve(f"m/{nfc}").path.read_text() == "nfc"
    # Linux names are bytes: the NFD spelling is another (missing) file, never a different root.
    with pytest.raises(NotFound):
        ws.resolve(f"m/{nfd}")
    assert ws.resolve(f"m/{nfd}", purpose="write", must_exist=False).path.is_relative_to(tree.root)


def test_relative_write_never_lands_in_a_readonly_root(tree: Tree) -> None:
    ws = Workspace([tree.root], readonly_roots=[tree.readonly])
    # The file exists only in the read-only root: reading finds it there, writing targets the
    # writable root instead of the Odoo source.
    assert ws.resolve("base/models.py").root.readonly
    target = ws.resolve("base/models.py", purpose="write", must_exist=False)
    assert not target.root.readonly
    assert target.path == tree.root / "base" / "models.py"


def test_hard_link_inside_the_root_is_refused_too(ws: Workspace, tree: Tree) -> None:
    # Both names inside: we cannot tell which name is "outside", so any shared inode is refused.
    os.link(tree.root / "m" / "__init__.py", tree.root / "m" / "twin.py")
    with pytest.raises(SandboxViolation, match="hard link"):
        ws.resolve("m/twin.py")


def test_file_moved_out_after_resolve_is_not_found_again(ws: Workspace, tree: Tree) -> None:
    ws.resolve("m/models/book.py")
    os.rename(tree.root / "m" / "models" / "book.py", tree.outside / "book.py")
    with pytest.raises(NotFound):
        ws.resolve("m/models/book.py")
    with pytest.raises(SandboxViolation):
        ws.resolve(str(tree.outside / "book.py"))


def test_symlink_moved_in_is_still_followed_to_the_outside(ws: Workspace, tree: Tree) -> None:
    planted = tree.outside / "planted"
    planted.symlink_to(tree.secret)
    os.rename(planted, tree.root / "m" / "planted.py")
    with pytest.raises(SandboxViolation):
        ws.resolve("m/planted.py")
    with pytest.raises(SandboxViolation):
        ws.resolve("m/planted.py", purpose="write", must_exist=False)


def test_symlink_swapped_for_a_folder_out_is_caught_on_next_resolve(ws: Workspace, tree: Tree) -> None:
    (tree.root / "m" / "data").mkdir()
    assert ws.resolve("m/data/x.xml", purpose="write", must_exist=False)
    (tree.root / "m" / "data").rmdir()
    (tree.root / "m" / "data").symlink_to(tree.outside)
    with pytest.raises(SandboxViolation):
        ws.resolve("m/data/x.xml", purpose="write", must_exist=False)


def test_missing_root_is_a_config_error(tree: Tree) -> None:
    from odoo_tools.errors import ConfigError

    with pytest.raises(ConfigError):
        Workspace([tree.base / "nope"])
    with pytest.raises(ConfigError):
        Workspace([tree.secret])
    with pytest.raises(ConfigError):
        Workspace([])


NO_FOLLOW_CASES: dict[str, tuple[str, str, type[AssistaError] | None]] = {
    "link_inside_is_the_link": ("link_in", "link_in", None),
    "link_out_is_the_link": ("link_file_out", "link_file_out", None),
    "dangling_out_is_the_link": ("dangling_out", "dangling_out", None),
    "loop_is_the_link": ("loop_a", "loop_a", None),
    "regular_file_unchanged": ("m/models/book.py", "m/models/book.py", None),
    "dotdot_last_is_followed": ("m/models/..", "m", None),
    "file_below_link_out": ("link_dir_out/secret.txt", "", SandboxViolation),
    "link_located_outside": ("link_dir_out/link_back", "", SandboxViolation),
    "link_located_in_parent_of_root": ("link_root_parent/outside/link_back", "", SandboxViolation),
    "dotdot_out": ("../outside/secret.txt", "", SandboxViolation),
    "hard_link_still_refused": ("hard_out.txt", "", SandboxViolation),
    "fifo_still_refused": ("fifo", "", SandboxViolation),
}


@pytest.mark.parametrize("case", sorted(NO_FOLLOW_CASES))
@pytest.mark.parametrize("purpose", ["read", "write"])
def test_resolving_a_link_itself(case: str, purpose: str, ws: Workspace, tree: Tree) -> None:
    path, rel, expected = NO_FOLLOW_CASES[case]
    if expected is not None:
        with pytest.raises(expected):
            ws.resolve(path, purpose=purpose, follow_symlinks=False)  # type: ignore[arg-type]
        return
    resolved = ws.resolve(path, purpose=purpose, follow_symlinks=False)  # type: ignore[arg-type]
    assert resolved.rel == rel
    assert resolved.path == tree.root / rel
    assert resolved.path.is_symlink() == (tree.root / rel).is_symlink()
