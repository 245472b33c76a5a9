"""A seeded generator of malformed tool calls, shaped by the tools' own input schemas."""

from __future__ import annotations

import random
from typing import Any

ODD_STRINGS = [
    "",
    " ",
    "../../../../etc/passwd",
    "/etc/passwd",
    "..",
    "\x00",
    "a\x00b",
    "\n\r\t",
    "\x1b[31mred",
    "é\u0301",
    "😀" * 50,
    "\u202e\u2066",
    "\\\\server\\share",
    "C:\\Windows\\win.ini",
    "%s%n%x",
    "${HOME}",
    "$(rm -rf /)",
    "'; DROP TABLE x; --",
    "<script>",
    "x" * 5000,
]


class CallFuzzer:
    """``next_call()`` returns (tool name, arguments) that are wrong in some way."""

    def __init__(self, tools: dict[str, dict[str, Any]], seed: int) -> None:
        self.tools = tools  # name -> input schema
        self.rng = random.Random(seed)

    def next_call(self) -> tuple[str, dict[str, Any]]:
        rng = self.rng
        if not self.tools or rng.random() < 0.15:
            return self._odd_name(), self._random_object(depth=2)
        name = rng.choice(sorted(self.tools))
        return name, self._bad_arguments(self.tools[name])

    def _odd_name(self) -> str:
        rng = self.rng
        choices = [*ODD_STRINGS, "read_file ", "READ_FILE", "tools/call", "x" * 20000]
        return rng.choice(choices) if rng.random() < 0.7 else self._random_text(rng.randint(1, 40))

    def _bad_arguments(self, schema: dict[str, Any]) -> dict[str, Any]:
        """One of: well-typed but extreme values (reaches the tool's own checks), one value of a
        wrong type, or a random subset of wrong values (stops at argument validation)."""
        rng = self.rng
        self.defs = schema.get("$defs", {})
        props: dict[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", []))
        mode = rng.random()
        args: dict[str, Any] = {}
        for prop in sorted(props):
            if prop in required or rng.random() < 0.5:
                args[prop] = self._value_for(props[prop])
        if args and 0.5 <= mode < 0.75:
            args[rng.choice(sorted(args))] = self._random_value(depth=3)
        elif mode >= 0.75:
            for prop in list(args):
                if rng.random() < 0.4:
                    del args[prop]  # sometimes a required one
                elif rng.random() < 0.5:
                    args[prop] = self._random_value(depth=3)
        if rng.random() < 0.2:
            args[self._random_text(rng.randint(1, 12))] = self._random_value(depth=2)  # unknown key
        return args

    def _value_for(self, prop: dict[str, Any]) -> Any:
        """A value of the declared type, but extreme."""
        rng = self.rng
        if "$ref" in prop:
            prop = self.defs.get(prop["$ref"].rsplit("/", 1)[-1], {})
        alternatives = [alt for alt in prop.get("anyOf", []) if alt.get("type") != "null"]
        if alternatives:
            return self._value_for(rng.choice(alternatives))
        if "enum" in prop and rng.random() < 0.7:
            return rng.choice(prop["enum"])
        kind = prop.get("type")
        if kind == "string":
            return rng.choice(ODD_STRINGS)
        if kind in ("integer", "number"):
            return rng.choice(
                [-1, 0, 1, 2**31, -(2**63), 10**30] + ([1.5, 1e308] if kind == "number" else [])
            )
        if kind == "boolean":
            return rng.choice([True, False])
        if kind == "array":
            return [self._value_for(prop.get("items", {})) for _ in range(rng.choice([0, 1, 2, 300]))]
        if kind == "object" and "properties" in prop:
            return {name: self._value_for(sub) for name, sub in prop["properties"].items()}
        return self._random_value(depth=3)

    def _random_value(self, depth: int) -> Any:
        rng = self.rng
        kind = rng.randrange(8 if depth > 0 else 6)
        if kind == 0:
            return None
        if kind == 1:
            return rng.choice([True, False])
        if kind == 2:
            return rng.randint(-(2**40), 2**40)
        if kind == 3:
            return rng.uniform(-1e9, 1e9)
        if kind == 4:
            return rng.choice(ODD_STRINGS)
        if kind == 5:
            return self._random_text(rng.randint(0, 64))
        if kind == 6:
            return [self._random_value(depth - 1) for _ in range(rng.randint(0, 5))]
        return self._random_object(depth - 1)

    def _random_object(self, depth: int) -> dict[str, Any]:
        count = self.rng.randint(0, 4)
        return {self._random_text(self.rng.randint(0, 10)): self._random_value(depth) for _ in range(count)}

    def _random_text(self, length: int) -> str:
        # Any code point except surrogates, which JSON text cannot carry as UTF-8.
        points = [self.rng.randint(1, 0x2FFFF) for _ in range(length)]
        return "".join(chr(p) for p in points if not 0xD800 <= p <= 0xDFFF)
