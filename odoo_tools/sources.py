"""Parsing the Python and XML files of a module or of an Odoo source, which may be hostile: read within
the size cap (``storage.read_capped``: a pipe never blocks, a 768 MiB file is not read), and a
file that does not parse, nests too deep for the parser (a 5,000-deep ``-(-(...))``: ast's
RecursionError) or exhausts memory gives None, never an exception."""

from __future__ import annotations

import ast
import os
import threading
from typing import TYPE_CHECKING, Any

from odoo_tools.storage import MAX_SOURCE_BYTES, read_capped

# What ast.parse / literal_eval raise on hostile text: bad syntax or a NUL byte (ValueError),
# nesting beyond the parser's or the compiler's depth (RecursionError, MemoryError).
UNPARSABLE = (SyntaxError, ValueError, RecursionError, MemoryError)

if TYPE_CHECKING:  # lxml is imported by the callers of xml_root (they make its parser)
    from lxml import etree


def parse_source(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse``, as Python compiles the file when it imports it: ast's depth limit counts
    the caller's stack too, so a valid 2,900-term ``1 + 1 + ...`` fails deep in a server's or a
    test's stack and not at an import's. On RecursionError the parse is tried again on a fresh
    thread (a stack of its own); only what fails there too raises it."""
    try:
        return ast.parse(source, filename=filename)
    except RecursionError:
        pass
    outcome: list[ast.Module | BaseException] = []

    def parse() -> None:
        try:
            outcome.append(ast.parse(source, filename=filename))
        except BaseException as exc:  # handed to the caller's thread
            outcome.append(exc)

    worker = threading.Thread(target=parse, name="parse-python", daemon=True)
    worker.start()
    worker.join()
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _capped_bytes(path: str | os.PathLike[str], cap: int) -> bytes | None:
    """The file's bytes; None when it cannot be read or is over ``cap``."""
    try:
        return read_capped(path, cap)
    except OSError:
        return None


def python_tree(path: str | os.PathLike[str], cap: int = MAX_SOURCE_BYTES) -> ast.Module | None:
    """The file's syntax tree; None when it cannot be read within ``cap`` or parsed."""
    data = _capped_bytes(path, cap)
    if data is None:
        return None
    try:
        return parse_source(data)
    except UNPARSABLE:
        return None


def literal_file(path: str | os.PathLike[str], cap: int = MAX_SOURCE_BYTES) -> Any:
    """The Python literal a file holds (a manifest); None when it holds none we can read."""
    data = _capped_bytes(path, cap)
    if data is None:
        return None
    try:
        return ast.literal_eval(data.decode("utf-8"))
    except (*UNPARSABLE, UnicodeDecodeError):
        return None


def xml_root(path: str | os.PathLike[str], parser: etree.XMLParser) -> etree._Element | None:
    """The root element of an XML file parsed with ``parser`` (entities and network off); None
    when it cannot be read within the cap or parsed."""
    from lxml import etree

    try:
        data = read_capped(path)
        return etree.fromstring(data, parser) if data is not None else None
    except (OSError, etree.XMLSyntaxError, ValueError):
        return None
