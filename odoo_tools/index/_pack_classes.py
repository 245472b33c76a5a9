"""Odoo's core models from a series pack, as the classes the resolver merges.

Each core model becomes one class holding what the modules of a dependency closure give it in a
real registry: its fields (those reached through ``_inherits`` too, and those Odoo adds at registry
build: magic fields, mixins' fields, ``setattr`` ones), every method, its parents. Unlike a class read
from source, nothing of it is guessed: absence from it is absence from the registry.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from odoo_tools.index._records import FieldDef, MethodDef, ModelClass
from odoo_tools.series import PackField, PackModel, SeriesPack


def field_type(odoo_type: str) -> str:
    """The pack's field type as the index names it: ``many2one`` -> ``Many2one``,
    ``many2one_reference`` -> ``Many2oneReference``."""
    return "".join(part[:1].upper() + part[1:] for part in odoo_type.split("_")) or "Field"


def pack_field(fdef: PackField) -> FieldDef:
    return FieldDef(
        name=fdef.name,
        type=field_type(fdef.type),
        line=0,
        comodel=fdef.comodel,
        inverse_name=fdef.inverse_name,
        related=fdef.related,
        compute=fdef.compute,
        inverse=fdef.inverse,
        search=fdef.search,
        store=None if fdef.store else False,
        required=fdef.required,
        readonly=fdef.readonly,
        selection=fdef.selection,
    )


def pack_class(model: PackModel) -> ModelClass:
    kind = "abstract" if model.abstract else "transient" if model.transient else "model"
    return ModelClass(
        model=model.name,
        class_name="",
        line=0,
        kind=kind,
        defines=True,
        inherit=tuple(p for p in model.inherit if p != model.name),
        inherits=tuple(sorted(model.inherits.items())),
        order=model.order,
        rec_name=model.rec_name,
        fields=tuple(pack_field(f) for f in model.fields.values()),
        methods=tuple(MethodDef(name, 0) for name in model.methods),
        described=True,
    )


class PackClasses(Mapping[str, ModelClass]):
    """Every core model of a pack, each as the modules of ``closure`` see it (a model no module of
    the closure defines: as the full install has it, for the resolver to tell it is not there).
    Built on first use of each model: a check asks for a handful of the pack's thousand."""

    def __init__(self, pack: SeriesPack, closure: frozenset[str]) -> None:
        self.pack = pack
        self.closure = closure
        self._memo: dict[str, ModelClass] = {}

    def __getitem__(self, name: str) -> ModelClass:
        if name not in self._memo:
            model = self.pack.model(name)
            if model is None:
                raise KeyError(name)
            self._memo[name] = pack_class(model.seen_from(self.closure) or model)
        return self._memo[name]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.pack.model(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.pack.model_names)

    def __len__(self) -> int:
        return sum(1 for _ in self.pack.model_names)
