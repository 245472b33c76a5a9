"""Each Python file of a step parsed once: the passes and rules of a step all read the same files,
and parsing them and computing their positions again was most of a step's cost. Within
``parse_once`` the same text gives the same tree and one metadata wrapper; ``transform`` tells an
unchanged tree without comparing two trees."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst
from libcst.metadata import MetadataWrapper

if TYPE_CHECKING:
    from odoo_tools.migrate.engine.module_files import ModuleFiles


@dataclass
class _Parsed:
    """The Python files parsed during one step: each text once, with its metadata (positions,
    parents) computed once for every pass that reads it, until a pass changes the text."""

    trees: dict[str, cst.Module | cst.ParserSyntaxError] = field(default_factory=dict)
    # id of each parsed tree (kept alive by ``trees``) -> its wrapper
    wrappers: dict[int, MetadataWrapper] = field(default_factory=dict)


_PARSED: ContextVar[_Parsed | None] = ContextVar("parsed_python", default=None)


@contextmanager
def parse_once() -> Iterator[None]:
    """Within it, a text parsed again gives the tree (and metadata) it gave before: a step's
    passes and rules each read every file, parsing and computing positions was most of their cost."""
    token = _PARSED.set(_Parsed())
    try:
        yield
    finally:
        _PARSED.reset(token)


def parsed(text: str) -> cst.Module:
    """``text`` parsed (raises ParserSyntaxError), the same tree for the same text in ``parse_once``."""
    cache = _PARSED.get()
    if cache is None:
        return cst.parse_module(text)
    tree = cache.trees.get(text)
    if tree is None:
        try:
            tree = cst.parse_module(text)
            cache.wrappers[id(tree)] = MetadataWrapper(tree, unsafe_skip_copy=True)
        except cst.ParserSyntaxError as exc:
            tree = exc
        cache.trees[text] = tree
    if isinstance(tree, cst.ParserSyntaxError):
        raise tree
    return tree


def metadata_of(module: cst.Module) -> MetadataWrapper:
    """The metadata wrapper of ``module``: for a tree ``parsed`` gave within ``parse_once``, one
    shared wrapper over the tree itself (a parsed tree has no node twice, so no copy is needed);
    else a wrapper over a copy, as libcst makes by default (a rewritten tree may hold a node twice)."""
    cache = _PARSED.get()
    wrapper = cache.wrappers.get(id(module)) if cache is not None else None
    return wrapper or MetadataWrapper(module)


def transform(
    module: cst.Module, transformer: cst.CSTTransformer, wrapper: MetadataWrapper | None = None
) -> cst.Module:
    """``module`` after ``transformer`` (visited with its metadata, through ``wrapper`` when given:
    a wrapper of ``module``): ``module`` itself when the transformer replaced no node, so callers
    tell an unchanged file without comparing two trees."""
    wrapper = wrapper or metadata_of(module)
    replaced = False
    leave = transformer.on_leave

    def on_leave(original: cst.CSTNode, updated: cst.CSTNode) -> object:
        nonlocal replaced
        result = leave(original, updated)
        replaced = replaced or result is not updated
        return result

    transformer.on_leave = on_leave  # type: ignore[method-assign,assignment]
    try:
        result = wrapper.visit(transformer)
    finally:
        del transformer.on_leave
    return result if replaced else module


def python_modules(
    files: ModuleFiles, wanted: Callable[[str, str], bool]
) -> Iterator[tuple[str, cst.Module]]:
    """The module's Python files (path, parsed) a pass may change, in path order: ``wanted(path,
    text)`` says which may (a cheap test of the text); one libcst cannot parse is skipped (the rule
    pass already said so)."""
    for rel, text in sorted(files.texts.items()):
        if not rel.endswith(".py") or not wanted(rel, text):
            continue
        try:
            yield rel, parsed(text)
        except cst.ParserSyntaxError:
            continue


def keep_rewrite(files: ModuleFiles, rel: str, read: cst.Module, rewritten: cst.Module) -> None:
    """The rewritten file, only when a pass changed it: libcst's code drops a last lone carriage
    return, so a file written back unchanged could still differ from what was read."""
    if rewritten is not read and not rewritten.deep_equals(read):
        files.texts[rel] = rewritten.code
