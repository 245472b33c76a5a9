"""Where each element of an XML file starts and ends in its text, paired with lxml's elements.

lxml finds (parents, attribute values, the tree's shape); this scanner says at which offsets a
start tag, an attribute value or an end tag sits, so a rule edits those bytes and nothing else.
The nth start tag of the text is the nth element lxml yields in document order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

_NAME = r"[A-Za-z_][\w.:-]*"
_START = re.compile(rf"<({_NAME})")
_ATTRIBUTE = re.compile(rf"\s+({_NAME})\s*=\s*(\"[^\"]*\"|'[^']*')")
_START_END = re.compile(r"\s*(/?)>")
_END = re.compile(rf"</({_NAME})\s*>")
_SKIPPED = (("<!--", "-->"), ("<![CDATA[", "]]>"), ("<?", "?>"), ("<!", ">"))


@dataclass
class Attribute:
    name: str
    start: int  # of the whitespace before the name: removing [start:end] removes the attribute
    end: int
    value_start: int  # inside the quotes
    value_end: int
    quote: str


@dataclass
class Tag:
    name: str
    start: int
    end: int  # just after '>'
    self_closing: bool
    attributes: dict[str, Attribute] = field(default_factory=dict)
    close_start: int = -1  # the end tag '</name>' (equal to start/end when self-closing)
    close_end: int = -1

    @property
    def inner(self) -> tuple[int, int]:
        """Offsets of the content between the start and the end tag."""
        return (self.end, self.close_start) if not self.self_closing else (self.end, self.end)


class XmlParseError(ValueError):
    pass


def scan_tags(text: str) -> list[Tag]:
    """Every element's tags, in document order."""
    tags: list[Tag] = []
    open_tags: list[Tag] = []
    position = 0
    while True:
        position = text.find("<", position)
        if position < 0:
            break
        skipped = _skip(text, position)
        if skipped is not None:
            position = skipped
            continue
        end_match = _END.match(text, position)
        if end_match:
            if not open_tags or open_tags[-1].name != end_match.group(1):
                raise XmlParseError(f"unbalanced </{end_match.group(1)}> at offset {position}")
            closed = open_tags.pop()
            closed.close_start, closed.close_end = position, end_match.end()
            position = end_match.end()
            continue
        tag = _start_tag(text, position)
        tags.append(tag)
        if tag.self_closing:
            tag.close_start, tag.close_end = tag.start, tag.end
        else:
            open_tags.append(tag)
        position = tag.end
    if open_tags:
        raise XmlParseError(f"<{open_tags[-1].name}> is never closed")
    return tags


def _skip(text: str, position: int) -> int | None:
    for opening, closing in _SKIPPED:
        if text.startswith(opening, position):
            end = text.find(closing, position + len(opening))
            if end < 0:
                raise XmlParseError(f"unterminated {opening} at offset {position}")
            return end + len(closing)
    return None


def _start_tag(text: str, position: int) -> Tag:
    match = _START.match(text, position)
    if not match:
        raise XmlParseError(f"stray '<' at offset {position}")
    attributes: dict[str, Attribute] = {}
    cursor = match.end()
    while True:
        attribute = _ATTRIBUTE.match(text, cursor)
        if not attribute:
            break
        value = attribute.group(2)
        attributes[attribute.group(1)] = Attribute(
            attribute.group(1),
            attribute.start(),
            attribute.end(),
            attribute.start(2) + 1,
            attribute.end(2) - 1,
            value[0],
        )
        cursor = attribute.end()
    closing = _START_END.match(text, cursor)
    if not closing:
        raise XmlParseError(f"cannot read the tag <{match.group(1)}> at offset {position}")
    return Tag(match.group(1), position, closing.end(), bool(closing.group(1)), attributes)


@dataclass
class XmlDocument:
    """A file's text, its lxml tree, and each element's tags."""

    text: str
    root: etree._Element
    tags: dict[etree._Element, Tag]

    def tag(self, element: etree._Element) -> Tag:
        return self.tags[element]


def read_xml(text: str) -> XmlDocument:
    """Parse ``text``; raises XmlParseError when it is not XML both readers agree on."""
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=False)
        root = etree.fromstring(text.encode("utf-8"), parser)
    except (etree.XMLSyntaxError, ValueError) as exc:
        raise XmlParseError(str(exc)) from exc
    elements = [e for e in root.iter() if isinstance(e.tag, str)]
    tags = scan_tags(text)
    if len(elements) != len(tags) or any(
        _local(e.tag) != _local(t.name) for e, t in zip(elements, tags, strict=True)
    ):
        raise XmlParseError("the file's tags could not be matched to its elements")
    return XmlDocument(text, root, dict(zip(elements, tags, strict=True)))


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1].rsplit(":", 1)[-1]


def quote_attribute(value: str, quote: str) -> tuple[str, str]:
    """``value`` escaped for an attribute, with the quote to use (the original one when it can)."""
    escaped = value.replace("&", "&amp;").replace("<", "&lt;")
    if quote in escaped:
        other = "'" if quote == '"' else '"'
        if other not in escaped:
            return escaped, other
        escaped = escaped.replace(quote, "&quot;" if quote == '"' else "&apos;")
    return escaped, quote
