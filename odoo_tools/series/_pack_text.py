"""Reading a pack's JSON without decoding all of it: a check asks for a few dozen of its ~900 models.

A pack is compact JSON with sorted keys (the pack maker writes it so). Every model object starts
with its ``"abstract"`` key and every view object with its ``"arch"`` key, keys no other object of
the pack has first: so the offset of each model (and view) is found with ``str.find``, and each is
decoded only when asked for. The small sections (modules, external IDs, names) are decoded at once.
Anything unexpected falls back to decoding the whole text: the same answers, only slower.
"""

from __future__ import annotations

import json
from typing import Any

_DECODER = json.JSONDecoder()
# section -> the first key of every object it holds (sorted keys: the alphabetically first one), in
# the order the sections come in the file
LAZY = {"models": '{"abstract":', "views": '{"arch":'}


class PackText:
    """The decoded top level of a pack, with its lazy sections' objects decoded on demand."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offsets: dict[str, dict[str, int]] = {name: {} for name in LAZY}
        self.top: dict[str, Any] = {}
        self._decoded: dict[str, dict[str, Any]] = {name: {} for name in LAZY}
        try:
            self._index()
        except (ValueError, IndexError):
            self._decode_all()
        for section in LAZY:  # a section whose objects were not found apart: decoded already
            if section in self.top:
                self._keep_decoded(section, self.top.pop(section))

    def item(self, section: str, key: str) -> Any:
        """One object of a lazy section (``"models"``, ``"views"``), None when it has none."""
        decoded = self._decoded[section]
        if key not in decoded:
            offset = self.offsets[section].get(key)
            decoded[key] = _DECODER.raw_decode(self.text, offset)[0] if offset is not None else None
        return decoded[key]

    def keys(self, section: str) -> list[str]:
        return list(self.offsets[section])

    def _decode_all(self) -> None:
        raw = json.loads(self.text)
        if not isinstance(raw, dict):
            raise ValueError("a pack is a JSON object")
        self.top = dict(raw)

    def _keep_decoded(self, section: str, items: Any) -> None:
        items = items if isinstance(items, dict) else {}
        self._decoded[section] = dict(items)
        self.offsets[section] = {name: -1 for name in items}  # decoded already: never read again

    def _index(self) -> None:
        # Sections come in key order (models < ... < views): each one's objects are looked for
        # after the previous section (a model whose first field is named "arch" is not a view).
        spans: dict[str, tuple[int, int] | None] = {}
        after = 0
        for section, marker in LAZY.items():
            span = spans[section] = self._items(section, marker, after)
            after = span[1] if span else after
        text, pos = self.text, 0
        if text[pos] != "{":
            raise ValueError("a pack is a JSON object")
        pos += 1
        while text[pos] != "}":
            key, pos = _DECODER.raw_decode(text, pos)
            if text[pos] != ":":
                raise ValueError("expected ':'")
            pos += 1
            span = spans.get(key)
            if span is not None and span[0] == pos:
                pos = span[1]  # its objects are decoded on demand
            else:
                if key in LAZY and span is not None:
                    raise ValueError(f"{key} not where its objects are")
                self.top[key], pos = _DECODER.raw_decode(text, pos)
            if text[pos] == ",":
                pos += 1

    def _items(self, section: str, marker: str, after: int) -> tuple[int, int] | None:
        """(where the section's value starts, where it ends) and the offset of each of its objects;
        None when it holds none (then it is decoded like any small section)."""
        text, found = self.text, self.offsets[section]
        start = text.find(marker, after)
        first_key = -1
        last = -1
        while start >= 0:
            colon = start - 1
            quote = text.rfind('"', 0, colon - 1)  # the opening quote of the object's key
            if text[colon] != ":" or text[colon - 1] != '"' or quote < 0:
                raise ValueError("unexpected text before an object")
            found[text[quote + 1 : colon - 1]] = start
            first_key = quote if first_key < 0 else first_key
            last = start
            start = text.find(marker, start + 1)
        if last < 0:
            return None
        end = _DECODER.raw_decode(text, last)[1]
        if text[first_key - 1] != "{" or text[end] != "}":
            raise ValueError(f"{section}: not one object of objects")
        return first_key - 1, end + 1
