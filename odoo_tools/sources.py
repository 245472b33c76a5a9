"""Parsing the Python and XML files of a module or of an Odoo source, which may be hostile: read within
the size cap (``storage.read_capped``: a pipe never blocks, a 768 MiB file is not read), and a
file that does not parse, nests too deep for the parser (a 5,000-deep ``-(-(...))``: ast's
RecursionError) or exhausts memory gives None, never an exception."""

from __future__ import annotations

import ast
import os
from typing import Any

from lxml import etree

from odoo_tools.storage import MAX_SOURCE_BYTES, read_capped

# What ast.parse / literal_eval raise on hostile text: bad syntax or a NUL byte (ValueError),
# nesting beyond the parser's or the compiler's depth (RecursionError, MemoryError).
UNPARSABLE = (SyntaxError, ValueError, RecursionError, MemoryError)


def python_tree(path: str | os.PathLike[str], cap: int = MAX_SOURCE_BYTES) -> ast.Module | None:
    """The file's syntax tree; None when it cannot be read within ``cap`` or parsed."""
    try:
        data = read_capped(path, cap)
    except OSError:
        return None
    if data is None:
        return None
    try:
        return ast.parse(data)
    except UNPARSABLE:
        return None


def literal_file(path: str | os.PathLike[str], cap: int = MAX_SOURCE_BYTES) -> Any:
    """The Python literal a file holds (a manifest); None when it holds none we can read."""
    try:
        data = read_capped(path, cap)
    except OSError:
        return None
    if data is None:
        return None
    try:
        return ast.literal_eval(data.decode("utf-8"))
    except (*UNPARSABLE, UnicodeDecodeError):
        return None


def xml_root(path: str | os.PathLike[str], parser: etree.XMLParser) -> etree._Element | None:
    """The root element of an XML file parsed with ``parser`` (entities and network off); None
    when it cannot be read within the cap or parsed."""
    try:
        data = read_capped(path)
        return etree.fromstring(data, parser) if data is not None else None
    except (OSError, etree.XMLSyntaxError, ValueError):
        return None
