"""Odoo's core models as one merged class each, for checks without an Odoo source.

``scripts/core_fields.py`` merges every core class of a model (``merge_classes``) and writes them,
encoded compactly (``encode``), to ``odoo_tools/series/core_fields/<series>.json.gz``; ``decode`` gives
back a ``ModelClass`` that the resolver treats like a class read from disk. A field is
``name:Type`` or ``name:Type:comodel`` (a bare ``name``: a non-field name the class binds, type
unknown). ``load_core_classes`` reads a bundled list.
"""

from __future__ import annotations

import dataclasses
import functools
import gzip
import json
from pathlib import Path

from odoo_tools.index._records import FieldDef, MethodDef, ModelClass

Encoded = list[str]  # [parents, inherits targets, fields, methods, "opaque" or ""]
# Only these methods are listed (what compute=, inverse= and search= name in practice): whether
# a core model has a method of another name is not known from the list.
LISTED_METHODS = ("_compute_", "_inverse_", "_search_")


def merge_classes(classes: list[ModelClass]) -> ModelClass:
    """Every class of one model (in load order) as one class: fields merged, all parents."""
    fields: dict[str, FieldDef] = {}
    parents: list[str] = []
    inherits: dict[str, str] = {}
    methods: set[str] = set()
    loose: set[str] = set()
    for cls in classes:
        parents.extend(p for p in cls.parents if p not in parents)
        inherits.update(dict(cls.inherits))
        methods.update(m.name for m in cls.methods)
        loose.update(cls.other_names)
        for fdef in cls.fields:
            earlier = fields.get(fdef.name)
            fields[fdef.name] = fdef if earlier is None else _merged(earlier, fdef)
    first = classes[0]
    return ModelClass(
        model=first.model,
        class_name="",
        line=0,
        kind=first.kind,
        defines=True,
        inherit=tuple(parents),
        inherits=tuple(sorted(inherits.items())),
        fields=tuple(fields.values()),
        methods=tuple(MethodDef(name, 0) for name in sorted(methods)),
        opaque=any(c.opaque for c in classes),
        other_names=tuple(sorted(loose - set(fields))),
    )


def _merged(earlier: FieldDef, later: FieldDef) -> FieldDef:
    return dataclasses.replace(
        later,
        comodel=later.comodel or earlier.comodel,
        related=later.related or earlier.related,
        type=earlier.type or later.type,
    )


def encode(cls: ModelClass) -> Encoded:
    fields = []
    for fdef in cls.fields:
        # Every type is kept: comparing two series' lists tells a removed field from a changed one.
        kind = fdef.type if fdef.type != "Field" else ""
        fields.append(":".join(filter(None, [fdef.name, kind, fdef.comodel])) if kind else fdef.name)
    fields.extend(cls.other_names)
    return [
        ",".join(cls.inherit),
        ",".join(f"{model}={link}" for model, link in cls.inherits),
        " ".join(fields),
        " ".join(m.name for m in cls.methods if m.name.startswith(LISTED_METHODS)),
        "opaque" if cls.opaque else "",
    ]


def decode(model: str, encoded: Encoded) -> ModelClass:
    parents, inherits, fields, methods, opaque = (encoded + [""] * 5)[:5]
    defs = []
    for item in fields.split():
        name, _, rest = item.partition(":")
        ftype, _, comodel = rest.partition(":")
        defs.append(FieldDef(name=name, type=ftype or "Field", line=0, comodel=comodel))
    pairs = [pair.partition("=") for pair in inherits.split(",") if pair]
    return ModelClass(
        model=model,
        class_name="",
        line=0,
        kind="model",
        defines=True,
        inherit=tuple(p for p in parents.split(",") if p),
        inherits=tuple((m, link) for m, _, link in pairs),
        fields=tuple(defs),
        methods=tuple(MethodDef(name, 0) for name in methods.split()),
        opaque=opaque == "opaque",
    )


@functools.cache
def load_core_classes(path: Path) -> dict[str, ModelClass]:
    """The merged core classes of a bundled list; empty when it is missing or unreadable."""
    try:
        raw = json.loads(gzip.decompress(path.read_bytes()))
        return {model: decode(model, encoded) for model, encoded in raw["models"].items()}
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return {}
