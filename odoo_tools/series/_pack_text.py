"""Reading a pack's JSON without decoding all of it: a check asks for a few dozen of its ~900 models.

A pack is compact JSON with sorted keys (the pack maker writes it so): every model object starts
with the same key (``"abstract"``), every view object too (``"active"``), and no object nested in
them starts with it. So the first object of a section tells the key, the offset of each object is
found with ``str.find``, and each is decoded only when asked for. The small sections (modules,
external IDs, names) are decoded at once.
Anything unexpected falls back to decoding the whole text: the same answers, only slower.
"""

from __future__ import annotations

import json
from typing import Any

_DECODER = json.JSONDecoder()
# The sections whose objects are decoded on demand.
LAZY = ("models", "views")
# The dicts of objects inside a model, keyed by any name: a field or method named like the marker
# ("abstract") and sorted first starts one of them with it. No model is named so (only "base" and
# "_unknown" have no dot).
INNER = frozenset({"fields", "methods"})
# The last section (sorted keys): decoded whole on first use, skipped until then.
LAST = "xmlids"


class PackText:
    """The decoded top level of a pack, with its lazy sections' objects decoded on demand."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offsets: dict[str, dict[str, int]] = {name: {} for name in LAZY}
        self.top: dict[str, Any] = {}
        self._decoded: dict[str, dict[str, Any]] = {name: {} for name in LAZY}
        self._last: int | None = None  # where the last section's value starts, until decoded
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

    def section(self, key: str) -> Any:
        """A top-level value; the last section is decoded on first use."""
        if key == LAST and key not in self.top and self._last is not None:
            start, self._last = self._last, None
            self.top[key], end = _DECODER.raw_decode(self.text, start)
            if self.text[end:].strip() != "}":  # keys after it after all: read them too
                self._walk(end + 1 if self.text[end] == "," else end)
        return self.top.get(key)

    def _decode_all(self) -> None:
        raw = json.loads(self.text)
        self._last = None
        if not isinstance(raw, dict):
            raise ValueError("a pack is a JSON object")
        self.top = dict(raw)

    def _keep_decoded(self, section: str, items: Any) -> None:
        items = items if isinstance(items, dict) else {}
        self._decoded[section] = dict(items)
        self.offsets[section] = {name: -1 for name in items}  # decoded already: never read again

    def _index(self) -> None:
        if self.text[0] != "{":
            raise ValueError("a pack is a JSON object")
        self._walk(1)

    def _walk(self, pos: int) -> None:
        text = self.text
        while text[pos] != "}":
            key, pos = _DECODER.raw_decode(text, pos)
            if text[pos] != ":":
                raise ValueError("expected ':'")
            pos += 1
            marker = self._marker(pos) if key in LAZY else None
            if key == LAST:
                self._last, pos = pos, len(text.rstrip()) - 1  # decoded when first asked for
                continue
            if marker is not None:
                span = self._items(key, marker, pos)
                if span is None or span[0] != pos:
                    raise ValueError(f"{key}: its objects are not where it starts")
                pos = span[1]  # its objects are decoded on demand
            else:
                self.top[key], pos = _DECODER.raw_decode(text, pos)
            if text[pos] == ",":
                pos += 1

    def _marker(self, pos: int) -> str | None:
        """``{"<first key>":`` of the first object of the section starting at ``pos`` (sorted keys:
        every object of the section starts with it); None for an empty section or another shape."""
        text = self.text
        if text[pos : pos + 2] != '{"':
            return None
        end = _DECODER.raw_decode(text, pos + 1)[1]
        if text[end : end + 3] != ':{"':
            return None
        inner, _ = _DECODER.raw_decode(text, end + 2)
        return "{" + json.dumps(inner) + ":"

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
            key = text[quote + 1 : colon - 1]
            if key not in INNER:
                found[key] = start
                first_key = quote if first_key < 0 else first_key
                last = start
            start = text.find(marker, start + 1)
        if last < 0:
            return None
        end = _DECODER.raw_decode(text, last)[1]
        if text[first_key - 1] != "{" or text[end] != "}":
            raise ValueError(f"{section}: not one object of objects")
        return first_key - 1, end + 1
