"""Evaluating an ``<xpath expr>`` a repository supplies against a view: the one function to call.

An inheriting view's ``expr`` comes from a module (or an Odoo source) we do not trust, and lxml
evaluates XPath in C with no limit: ``//*[count(//*[count(//*) > 0]) > 0]`` is of degree three in
the view's size, and while lxml runs, the process ignores SIGTERM. So every expression is bounded:

- its size and nesting are capped (``MAX_EXPR_CHARS``, ``MAX_NESTING``): over them, it is refused;
- an expression of the shapes Odoo's views use (``//field[@name='x']/..``,
  ``//div[hasclass('a')]//h1``, ``(//page)[last()]``: predicates on attributes, children and
  position, a few descendant steps) costs at most a few passes over the view, and runs here;
- anything else (a path with ``//`` or another axis inside a predicate, a function outside that
  set, a variable...) runs in a forked worker with a time budget (``BUDGET_SECONDS``) and is
  killed (SIGKILL) when it overruns; an expression that overran once is refused from then on,
  and after ``MAX_OVERRUNS`` overruns within a minute (a repository of many distinct slow
  expressions) none goes to a worker until the minute has passed.

``find`` raises ``XPathRefused`` (a ``ValueError``) for an expression refused or over its
budget, ``XPathInvalid`` for one lxml cannot compile or run. Migration's view inheritance
(``odoo_tools.view_inheritance``) calls it; so should anything else that locates a
module's spec in a view (the gate's view application, the pack readers)."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import select
import signal
import struct
import time
from collections.abc import Callable
from typing import Any

from lxml import etree

MAX_EXPR_CHARS = 2000  # Odoo's own longest are a few hundred characters
MAX_NESTING = 24  # brackets and parentheses inside one another
BUDGET_SECONDS = 2.0  # for one expression run in a worker
_CHEAP_DESCENDANT_STEPS = 4  # '//' steps outside predicates an expression may take here
_CHEAP_FUNCTIONS = frozenset(
    {
        "hasclass",
        "not",
        "contains",
        "starts-with",
        "position",
        "last",
        "true",
        "false",
        "count",
        "text",
        "local-name",
        "name",
        "normalize-space",
        "string",
    }
)
_CHEAP_AXES = frozenset({"child", "attribute", "self", "parent"})
_DESCENDANT_AXES = frozenset({"descendant", "descendant-or-self"})
_TOKEN = re.compile(
    r"""\s*(?:(?P<literal>"[^"]*"|'[^']*')|(?P<number>\d+(?:\.\d*)?|\.\d+)|(?P<dslash>//)"""
    r"""|(?P<axis>[\w.-]+)\s*::|(?P<function>[\w.-]+(?::[\w.-]+)?)\s*\((?!\s*\))|(?P<call0>[\w.-]+)\s*\(\s*\)"""
    r"""|(?P<other>\.\.|[\w.-]+(?::[\w.-]+|:\*)?|[()\[\]@,|*/=<>!+\-$:.]|\S))"""
)

_slow: set[str] = set()  # expressions that overran their budget once: refused from then on
MAX_SLOW = 4096  # remembered at most; past that the set starts again (a long-lived server)
_overruns: list[float] = []  # when the last ones overran (time.monotonic())
MAX_OVERRUNS = 5  # within OVERRUN_WINDOW seconds: then no expression goes to a worker for a while
OVERRUN_WINDOW = 60.0


class XPathRefused(ValueError):
    """An expression too big, too deeply nested or too slow to evaluate against a view."""


class XPathInvalid(ValueError):
    """An expression lxml cannot compile or evaluate."""


def find(
    root: etree._Element,
    expr: str,
    extensions: dict[tuple[str | None, str], Callable[..., Any]] | None = None,
    budget: float = BUDGET_SECONDS,
) -> list[etree._Element]:
    """The elements of ``root``'s tree that ``expr`` selects, in document order (a string, number
    or boolean result selects none)."""
    if len(expr) > MAX_EXPR_CHARS:
        raise XPathRefused(
            f"the expression is {len(expr)} characters long, over the {MAX_EXPR_CHARS} allowed"
        )
    if expr in _slow:
        raise XPathRefused(f"it took over {budget:g} s before: not evaluated again")
    cheap = _cheap(expr)  # raises XPathRefused when nested too deep
    try:
        compiled = etree.XPath(expr, extensions=extensions)
    except etree.XPathSyntaxError as exc:
        raise XPathInvalid(str(exc)) from exc
    if cheap:
        return _elements(_run(compiled, root))
    now = time.monotonic()
    _overruns[:] = [t for t in _overruns if now - t < OVERRUN_WINDOW]
    if len(_overruns) >= MAX_OVERRUNS:
        raise XPathRefused(f"{len(_overruns)} expressions overran their {budget:g} s in the last minute")
    return _in_worker(compiled, root, expr, budget)


def _run(compiled: etree.XPath, root: etree._Element) -> object:
    try:
        return compiled(root)
    except etree.XPathEvalError as exc:
        raise XPathInvalid(str(exc)) from exc


def _elements(found: object) -> list[etree._Element]:
    return [node for node in found if isinstance(node, etree._Element)] if isinstance(found, list) else []


@functools.lru_cache(maxsize=8192)  # a core source's views ask for the same expressions again
def _cheap(expr: str) -> bool:
    """Whether ``expr`` has a shape whose cost is a few passes over the view (see the module's
    docstring); raises XPathRefused when its brackets nest deeper than ``MAX_NESTING``."""
    stack: list[str] = []  # "[" a predicate, "(" a grouping, "f" a function's arguments
    deepest, descendant_steps, cheap = 0, 0, True
    for match in _TOKEN.finditer(expr):
        kind, text = match.lastgroup, match.group(match.lastgroup or 0)
        inside = any(opened != "(" for opened in stack)  # in a predicate or a function's arguments
        if text in ("[", "(") or kind == "function":
            stack.append("f" if kind == "function" else text)
            deepest = max(deepest, len(stack))
        elif text in ("]", ")"):
            if stack:
                stack.pop()
        elif kind == "dslash":
            descendant_steps += 1
            cheap = cheap and not inside
        elif kind == "axis":  # outside predicates a descendant axis counts as a '//' step
            descendant_steps += not inside and text in _DESCENDANT_AXES
            cheap = cheap and (text in _CHEAP_AXES or (not inside and text in _DESCENDANT_AXES))
        if kind in ("function", "call0"):
            cheap = cheap and text in _CHEAP_FUNCTIONS
        elif text == "$":
            cheap = False
    if deepest > MAX_NESTING:
        raise XPathRefused(f"its brackets nest {deepest} deep, over the {MAX_NESTING} allowed")
    return cheap and descendant_steps <= _CHEAP_DESCENDANT_STEPS


def _in_worker(compiled: etree.XPath, root: etree._Element, expr: str, budget: float) -> list[etree._Element]:
    """Evaluate in a forked child (it shares the tree, nothing is copied up front) that writes the
    positions of the selected elements in document order; killed past ``budget`` seconds."""
    top = root.getroottree().getroot()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: evaluate, report, and leave without running any cleanup of ours
        code = 0
        try:
            os.close(read_end)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            found = _elements(compiled(root))
            wanted = {id(node) for node in found}  # lxml keeps one proxy per node while it lives
            positions = [index for index, node in enumerate(top.iter()) if id(node) in wanted]
            data = struct.pack(f"<{len(positions) + 1}q", len(positions), *positions)
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(data)
        except BaseException:  # an XPathEvalError or anything else: the parent reads no answer
            code = 3
        os._exit(code)
    os.close(write_end)
    try:
        answer = _read_within(read_end, time.monotonic() + budget)
    finally:
        os.close(read_end)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    if answer is None:
        if len(_slow) >= MAX_SLOW:
            _slow.clear()
        _slow.add(expr)
        _overruns.append(time.monotonic())
        raise XPathRefused(f"it did not finish within {budget:g} s")
    if len(answer) < 8:  # the child failed: lxml could not evaluate it (an unknown function...)
        raise XPathInvalid("lxml could not evaluate it against this view")
    count = struct.unpack_from("<q", answer)[0]
    selected = struct.unpack_from(f"<{count}q", answer, 8)
    nodes = list(top.iter())
    return [nodes[p] for p in selected if 0 <= p < len(nodes) and isinstance(nodes[p], etree._Element)]


def _read_within(fd: int, deadline: float) -> bytes | None:
    """Everything the child writes until it closes the pipe; None past the deadline."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
