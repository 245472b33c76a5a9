"""The external IDs one Odoo source gives, read from its files (nothing is imported): the records
of each core addon's data and demo files (the index's reading of a data file), and the ids Odoo
makes when it loads an addon's models (odoo/addons/base/models/ir_model.py: ``<addon>.model_<model>``
for each model the addon has a class of, ``<addon>.field_<model>__<field>`` for each field it
declares). Two sources' readings tell which ids a series step took away; what is unsure counts
as still there (``may_have``)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from odoo_tools.addons import discover_addons, odoo_core_roots
from odoo_tools.index import parse_csv, parse_python, parse_xml
from odoo_tools.migrate.engine.source_cache import cached_reading
from odoo_tools.migrate.engine.step_knowledge import CoreSource
from odoo_tools.series import PackRef
from odoo_tools.sources import UNPARSABLE
from odoo_tools.storage import read_capped

MAX_BYTES = 2_000_000
READING = 1  # how a source is read: part of the cache key, raised when the reading changes
_WORD = re.compile(r"\w+")
_NOT_LOADED = ("tests", "migrations", "upgrades", "static")


@dataclass
class ModelShape:
    """What one source says of a model: the fields its classes declare, the models it takes
    fields from (``_inherit``, ``_inherits``), the addons with a class of it."""

    fields: set[str] = field(default_factory=set)
    parents: set[str] = field(default_factory=set)
    addons: set[str] = field(default_factory=set)
    opaque: bool = False  # fields may come from elsewhere than the declarations read


@dataclass
class CoreIds:
    addons: set[str] = field(default_factory=set)
    loaded: dict[str, str] = field(default_factory=dict)  # id -> "data" | "demo" (manifest files)
    elsewhere: set[str] = field(default_factory=set)  # ids of data files the manifests do not list
    made: dict[str, str] = field(default_factory=dict)  # implicit id -> "model" | "field"
    models: dict[str, ModelShape] = field(default_factory=dict)
    words: set[str] = field(default_factory=set)  # in the Python string literals (ids made by code)

    def had(self, xml_id: str) -> str | None:
        """What surely gave ``xml_id`` on this series: "data", "demo", "model", "field"; None
        when nothing did for sure."""
        return self.loaded.get(xml_id) or self.made.get(xml_id)

    def may_have(self, xml_id: str) -> bool:
        """False only when this source surely lacks ``xml_id``: no data file names it, Odoo makes
        it for no model or field, and no Python of the source writes its name (code may create it)."""
        addon, _, name = xml_id.partition(".")
        if xml_id in self.loaded or xml_id in self.elsewhere or xml_id in self.made:
            return True
        if addon == "base" and name.startswith("module_"):
            return True  # made from the manifests of every addon on the path (odoo/modules/db.py)
        if name in self.words:
            return True
        if name.startswith("field_") and "__" in name:
            return self._may_have_field(addon, name[len("field_") :])
        return False

    def _may_have_field(self, addon: str, rest: str) -> bool:
        """``<addon>.field_<model>__<field>`` exists when the addon has a class of the model and
        the model has the field (ir_model.py _reflect_fields)."""
        model_key, _, name = rest.rpartition("__")
        for model, shape in self.models.items():
            if model.replace(".", "_") == model_key and addon in shape.addons and self.has_field(model, name):
                return True
        return False

    def has_field(self, model: str, name: str) -> bool:
        """``model`` has field ``name`` here, or may have it (a class whose fields are not all
        read)."""
        seen: set[str] = set()
        todo = [model, "base"]
        while todo:
            current = todo.pop()
            shape = self.models.get(current)
            if current in seen or shape is None:
                continue
            seen.add(current)
            if shape.opaque or name in shape.fields:
                return True
            todo += sorted(shape.parents)
        return False


@cache
def core_ids(source: CoreSource) -> CoreIds:
    """Read once per process, and kept in the user's cache folder keyed by the source's files
    (names, sizes, times). A pack is read as it is."""
    if isinstance(source, PackRef):
        return pack_ids(source)
    roots = odoo_core_roots(source)
    files = sorted(p for root in roots for p in root.glob("*/**/*") if p.suffix in (".py", ".xml", ".csv"))
    return cached_reading("xml-ids", READING, source, files, lambda: _read(roots), _encode, _decode)


_KINDS = {"ir.model": "model", "ir.model.fields": "field"}


@cache
def pack_ids(ref: PackRef) -> CoreIds:
    """``CoreIds`` of the pack: every external ID the installed modules have (data only: a pack is
    made without demo data, so a demo record is never said to be gone), the models' fields."""
    pack = ref.pack
    found = CoreIds(addons=set(pack.modules))
    for addon, names in pack.xmlids.items():
        for name, record_model in names.items():
            kind = _KINDS.get(record_model)
            if kind:
                found.made[f"{addon}.{name}"] = kind
            else:
                found.loaded[f"{addon}.{name}"] = "data"
    for model_name in pack.model_names:
        model = pack.model(model_name)
        if model is not None:
            parents = {p for p in (*model.inherit, *model.inherits) if p != model_name}
            found.models[model_name] = ModelShape(set(model.fields), parents, set(model.modules))
    return found


def _read(roots: list[Path]) -> CoreIds:
    found = CoreIds()
    for addon in discover_addons([], roots).addons.values():
        name = addon.name
        found.addons.add(name)
        demo = set(addon.manifest.demo)
        loaded = set(addon.manifest.data) | demo
        for path in sorted(addon.path.rglob("*")):
            rel = path.relative_to(addon.path).as_posix()
            if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_BYTES:
                continue
            if path.suffix in (".xml", ".csv") and not rel.startswith("static/"):
                parse = parse_xml if path.suffix == ".xml" else parse_csv
                for record in parse(_capped(path), rel, name).records:
                    if rel not in loaded:
                        found.elsewhere.add(record.xml_id)
                    elif found.loaded.get(record.xml_id) != "data":
                        found.loaded[record.xml_id] = "demo" if rel in demo else "data"
            elif path.suffix == ".py":
                _read_python(found, _capped(path), rel, name)
    return found


def _capped(path: Path) -> bytes:
    """The file's bytes; nothing for a file turned into a pipe or grown past the cap since it
    was listed (a source tree may be hostile: a plain read of a FIFO blocks for ever)."""
    try:
        return read_capped(path, MAX_BYTES) or b""
    except OSError:
        return b""


def _read_python(found: CoreIds, data: bytes, rel: str, addon: str) -> None:
    try:
        tree = ast.parse(data)
    except UNPARSABLE:  # a 5,000-deep expression: ast's RecursionError
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.words.update(_WORD.findall(node.value))
    if rel.split("/")[0] in _NOT_LOADED:
        return
    for cls in parse_python(data, rel, addon).models:
        shape = found.models.setdefault(cls.model, ModelShape())
        shape.addons.add(addon)
        shape.fields.update(f.name for f in cls.fields)
        shape.parents.update(cls.parents)
        shape.parents.update(parent for parent, _link in cls.inherits)
        shape.opaque = shape.opaque or cls.opaque
        if not cls.registered:
            continue
        key = cls.model.replace(".", "_")
        found.made[f"{addon}.model_{key}"] = "model"
        for declared in cls.fields:
            found.made[f"{addon}.field_{key}__{declared.name}"] = "field"


def _encode(found: CoreIds) -> dict[str, Any]:
    return {
        "addons": sorted(found.addons),
        "loaded": found.loaded,
        "elsewhere": sorted(found.elsewhere),
        "made": found.made,
        "models": {
            model: [sorted(s.fields), sorted(s.parents), sorted(s.addons), s.opaque]
            for model, s in found.models.items()
        },
        "words": sorted(found.words),
    }


def _decode(data: dict[str, Any]) -> CoreIds:
    return CoreIds(
        addons=set(data["addons"]),
        loaded=dict(data["loaded"]),
        elsewhere=set(data["elsewhere"]),
        made=dict(data["made"]),
        models={
            model: ModelShape(set(fields), set(parents), set(addons), bool(opaque))
            for model, (fields, parents, addons, opaque) in data["models"].items()
        },
        words=set(data["words"]),
    )
