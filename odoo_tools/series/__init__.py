"""Every fact about Odoo that differs by series, in one place.

The face of the package (callers import from here; the ``_modules`` are private):
- ``SUPPORTED_SERIES``: ``("16.0", ...)``, oldest first;
- ``normalize_series(text)``: the supported series a text names, else ``InvalidInput`` naming the
  supported ones (the one way to accept a series from a user, a setting, a tool argument);
- ``series_facts(series)`` (raises like ``normalize_series``) / ``known_facts(series)`` (``None``
  for an unsupported or unknown series) -> ``SeriesFacts``: Python and PostgreSQL ranges, how
  access is declared (``AccessFacts``), odoo-bin's demo flags, what Odoo checks in manifests,
  OCA's template tools and pins, whether real runs were verified;
- ``api_changes(series)`` -> the ``ApiChange`` entries in effect there (removed and renamed
  attributes, tags, methods...), ``api_change(id)``, ``API_CHANGES`` (all, oldest first): the
  static checks find uses of ``old``, ``odoo_tools.migrate`` keys its rewrites by ``id``;
- ``framework_names(series)`` -> ``FrameworkNames`` (the public names of ``odoo.tools``,
  ``odoo.osv``, ``odoo.fields``, ``odoo.models``, ``odoo.api``, ``odoo.http`` and their submodules:
  ``python_names/<series>.json``, ``scripts/core_python_names.py``), ``removed_framework_names(old,
  new)`` -> ``RemovedNames`` (what an import from them finds no more on ``new``), ``gone_by(series)``
  (what any older bundled series gave that ``series`` does not);
- ``pack(series)`` -> ``SeriesPack`` or ``None`` (none bundled: never another series'): what a real
  registry of the series knows of its core (``PackModel``, ``PackField``, ``PackMethod``, ``PackModule``;
  ``SeriesPack.closure(names)``, ``PackModel.seen_from(closure)``: what a module sees), ``load_pack(path)``;
  ``pack_ref(series)`` -> ``PackRef`` (a pack where a reader takes an Odoo source), ``pack_diff(old, new)``
  -> ``PackDiff`` (what a step removed or changed, from the two packs alone), ``field_renames(old,
  new)`` -> the relational fields a step made plural and the flags it turned into ``active``;
- ``core_graph(series)`` -> ``CoreList`` (core modules' depends, each model's module, auto-install
  triggers: ``core_modules/<series>.json``, ``scripts/core_modules.py``), ``stable_core_models()``;
- ``record_values(series, model)``: names a data record may set that are no field of its model (its
  create/write take them: 16.0/17.0 ``ir.property``'s ``value``);
- ``MAGIC_FIELDS``, ``magic_fields(facts)``: what BaseModel gives every model; ``CORE_FIELDS_DIR``: the
  core fields lists read from each series' source (``scripts/core_fields.py``; migrate diffs them);
- reading names: ``series_major``, ``series_family``, ``series_of_version``, ``is_supported``,
  ``series_key`` (sort key), ``is_before``, ``nearest_series``, ``next_series``/``previous_series`` (the
  migration steps);
- ``Series``: one series as a value (ordered, written ``"18.0"``; ``Series.named(text)`` reads it like
  ``normalize_series``), ``supported_between(first, last)``: what code stepping through series carries.

Adding a series: one ``SeriesFacts`` in ``_facts.SERIES``, its entries in ``api_changes.toml``, its
series pack (``packs/<series>.json.xz``), its core module list (``scripts/core_modules.py
--odoo-path``), its core fields list (``core_fields/``, ``scripts/core_fields.py``, for migrate), its
framework names (``scripts/core_python_names.py``) and its guidelines file.
"""

from odoo_tools.series._api_changes import API_CHANGES, ApiChange, Kind
from odoo_tools.series._core_modules import CORE_FIELDS_DIR, CoreList, core_graph, stable_core_models
from odoo_tools.series._facts import AccessFacts, SeriesFacts
from odoo_tools.series._field_renames import FieldRename, field_renames
from odoo_tools.series._framework_names import (
    FrameworkNames,
    RemovedNames,
    framework_names,
    gone_by,
    removed_framework_names,
)
from odoo_tools.series._magic import MAGIC_FIELDS, MAGIC_FIELDS_BEFORE_17, magic_fields
from odoo_tools.series._names import (
    SUPPORTED_SERIES,
    api_change,
    api_changes,
    is_before,
    is_supported,
    known_facts,
    nearest_series,
    next_series,
    normalize_series,
    previous_series,
    series_facts,
    series_family,
    series_key,
    series_major,
    series_of_version,
)
from odoo_tools.series._pack import PackField, PackMethod, PackModel, PackModule, SeriesPack
from odoo_tools.series._pack_diff import PackDiff, PackRef, pack_diff, pack_ref
from odoo_tools.series._pack_files import (
    PACK_SUFFIXES,
    PACKS_ENV,
    PackHeader,
    load_pack,
    pack,
    pack_folders,
    pack_header,
)
from odoo_tools.series._record_values import record_values
from odoo_tools.series._value import Series, supported_between
from odoo_tools.series._view_names import VIEW_CONTEXT_NAMES, view_context_names

__all__ = [
    "API_CHANGES",
    "CORE_FIELDS_DIR",
    "MAGIC_FIELDS",
    "MAGIC_FIELDS_BEFORE_17",
    "PACKS_ENV",
    "PACK_SUFFIXES",
    "SUPPORTED_SERIES",
    "VIEW_CONTEXT_NAMES",
    "AccessFacts",
    "ApiChange",
    "CoreList",
    "FieldRename",
    "FrameworkNames",
    "Kind",
    "PackDiff",
    "PackField",
    "PackHeader",
    "PackMethod",
    "PackModel",
    "PackModule",
    "PackRef",
    "RemovedNames",
    "Series",
    "SeriesFacts",
    "SeriesPack",
    "api_change",
    "api_changes",
    "core_graph",
    "field_renames",
    "framework_names",
    "gone_by",
    "is_before",
    "is_supported",
    "known_facts",
    "load_pack",
    "magic_fields",
    "nearest_series",
    "next_series",
    "normalize_series",
    "pack",
    "pack_diff",
    "pack_folders",
    "pack_header",
    "pack_ref",
    "previous_series",
    "record_values",
    "removed_framework_names",
    "series_facts",
    "series_family",
    "series_key",
    "series_major",
    "series_of_version",
    "stable_core_models",
    "supported_between",
    "view_context_names",
]
