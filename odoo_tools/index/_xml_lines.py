"""The line of an attribute in an XML start tag.

lxml's ``sourceline`` is the line where a start tag *ends*; a tag written one attribute per line
(OCA's prettier style) ends several lines below its ``id=``. A finding belongs on the attribute's
line: that is the line a pull request changes and a review annotation marks.
"""

from __future__ import annotations

import re
from functools import lru_cache

_LOOKBACK = 30  # lines; a start tag is never longer in practice


def attribute_line(lines: list[str], tag_line: int, name: str) -> int:
    """The line of ``name=`` in the start tag ending on ``tag_line`` (1-based); ``tag_line`` when
    the attribute cannot be placed with certainty."""
    pattern = _attribute_pattern(name)
    for number in range(tag_line, max(0, tag_line - _LOOKBACK), -1):
        text = lines[number - 1] if 0 < number <= len(lines) else ""
        if pattern.search(text):
            return number
        if "<" in text and number != tag_line:
            break  # the tag's first line: the attribute is not above it
    return tag_line


@lru_cache(maxsize=64)
def _attribute_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(^|\s){re.escape(name)}\s*=")
