"""Property: any path the sandbox accepts resolves inside a root (a writable one for writes).

Paths are built from the hostile tree's own names (links out, ``..``, siblings, absolute
prefixes), so hypothesis explores combinations no hand-written list covers. Whatever the input,
``resolve`` either returns a contained path or raises one of our errors, nothing else.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from odoo_tools.errors import AssistaError
from odoo_tools.workspace import Workspace

from .conftest import Tree, build_tree

NAMES = [
    "..",
    ".",
    "",
    "m",
    "models",
    "__init__.py",
    "book.py",
    "link_file_out",
    "link_dir_out",
    "link_parent_out",
    "link_root_parent",
    "link_up_out",
    "link_in",
    "link_to_sibling",
    "link_to_readonly",
    "link_back",
    "link_chain_1",
    "dangling_in",
    "dangling_out",
    "dangling_out_dir",
    "loop_a",
    "hard_out.txt",
    "fifo",
    "addons",
    "addons2",
    "outside",
    "odoo",
    "base",
    "secret.txt",
    "sub",
    "new.py",
    "\\..",
    "..\u2215",
    "\uff0e\uff0e",
]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Tree, Workspace]:
    tree = build_tree(tmp_path_factory.mktemp("hostile"))
    return tree, Workspace([tree.root], readonly_roots=[tree.readonly])


def prefixes(tree: Tree) -> list[str]:
    folders = (tree.root, tree.base, tree.readonly)
    return ["", "/", *(f"{folder}/" for folder in folders), f"{tree.root}2/"]


def paths() -> st.SearchStrategy[tuple[int, str]]:
    parts = st.lists(st.one_of(st.sampled_from(NAMES), st.text(min_size=1, max_size=6)), max_size=8)
    return st.tuples(st.integers(min_value=0, max_value=5), parts.map("/".join))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    candidate=paths(),
    purpose=st.sampled_from(["read", "write"]),
    must_exist=st.booleans(),
    follow=st.booleans(),
)
def test_accepted_paths_resolve_inside_a_root(
    hostile: tuple[Tree, Workspace], candidate: tuple[int, str], purpose: str, must_exist: bool, follow: bool
) -> None:
    tree, ws = hostile
    prefix_index, rest = candidate
    user_path = prefixes(tree)[prefix_index] + rest
    try:
        resolved = ws.resolve(
            user_path,
            purpose=purpose,  # type: ignore[arg-type]
            must_exist=must_exist,
            follow_symlinks=follow,
        )
    except AssistaError:
        return
    if resolved.path.is_symlink():  # only without following: the link itself, in a real folder
        assert not follow
        folder = resolved.path.parent
        assert folder == Path(os.path.realpath(folder))
        assert any(folder == r.path or folder.is_relative_to(r.path) for r in ws.roots)
        return
    real = Path(os.path.realpath(resolved.path))
    allowed = [r.path for r in ws.roots if purpose == "read" or not r.readonly]
    assert any(real == root or real.is_relative_to(root) for root in allowed), (user_path, real)
    assert resolved.path == real  # the caller gets the already-resolved path, never the raw one
    assert not (real.exists() and real.is_file() and os.stat(real).st_nlink > 1)
    assert not (real.exists() and not (real.is_file() or real.is_dir()))
    assert tree.outside not in real.parents and tree.sibling not in real.parents
