"""What the index knows about one file: plain frozen dataclasses, cheap to build and to cache.

Paths are relative to the file's addons root (POSIX); lines are 1-based. xml ids are always
module-qualified (``library_base.library_book_view_form``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from odoo_tools.findings import Finding


@dataclass(frozen=True, slots=True)
class FieldDef:
    name: str
    type: str  # Char, Many2one, ...
    line: int
    comodel: str = ""
    inverse_name: str = ""  # One2many inverse field
    related: str = ""
    compute: str = ""
    inverse: str = ""
    search: str = ""
    store: bool | None = None  # None: not given (Odoo's default applies)
    required: bool = False
    readonly: bool = False
    string: str = ""
    selection: tuple[str, ...] = ()  # selection keys when given literally
    selection_add: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MethodDef:
    name: str
    line: int
    decorators: tuple[str, ...] = ()  # e.g. "api.depends('a', 'b.c')", "api.model"
    # ``@api.depends/onchange/constrains`` with literal names: (decorator, its line, the names)
    field_names: tuple[tuple[str, int, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class ModelClass:
    """One Python class that defines or extends an Odoo model."""

    model: str  # the model this class defines or extends
    class_name: str
    line: int
    kind: str  # model | abstract | transient
    defines: bool  # True when it creates ``model`` (``_name`` set and not inherited from itself)
    inherit: tuple[str, ...] = ()  # _inherit names
    inherits: tuple[tuple[str, str], ...] = ()  # _inherits (model, link field) pairs
    description: str = ""
    order: str = ""
    rec_name: str = ""
    fields: tuple[FieldDef, ...] = ()
    methods: tuple[MethodDef, ...] = ()
    described: bool = False  # ``_description`` is set, literally or not (``__doc__``, a call...)
    registered: bool = True  # False for ``_register = False`` (a Python-only base class)
    # Fields or methods may come from elsewhere than the ORM classes: a plain Python base class,
    # an ``_inherit`` element that is not a literal, fields made in a loop...
    opaque: bool = False
    other_names: tuple[str, ...] = ()  # class attributes set to something that is not fields.X(...)
    inherit_line: int = 0  # the line of ``_inherit`` (0: not set)
    inherits_line: int = 0
    order_line: int = 0
    rec_name_line: int = 0

    @property
    def parents(self) -> tuple[str, ...]:
        """Models this class takes fields and methods from (``_inherit`` minus itself)."""
        return tuple(name for name in self.inherit if name != self.model)


@dataclass(frozen=True, slots=True)
class ViewDef:
    xml_id: str
    line: int
    model: str = ""
    type: str = ""  # form, list, kanban, qweb... ("" for an inheriting view until resolved)
    inherit_id: str = ""
    priority: int | None = None
    mode: str = ""  # primary | extension
    name: str = ""


@dataclass(frozen=True, slots=True)
class MenuDef:
    xml_id: str
    line: int
    name: str = ""
    parent: str = ""
    action: str = ""
    sequence: int | None = None
    groups: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionDef:
    xml_id: str
    line: int
    type: str  # ir.actions.act_window, ir.actions.server, ...
    name: str = ""
    res_model: str = ""  # act_window res_model, report/server model (or model xml id ref)
    view_mode: str = ""


@dataclass(frozen=True, slots=True)
class RuleDef:
    """An ``ir.rule`` record rule."""

    xml_id: str
    line: int
    name: str = ""
    model_ref: str = ""  # xml id of the ir.model record, e.g. "library_base.model_library_book"
    domain: str = ""
    groups: tuple[str, ...] = ()
    global_rule: bool = False


@dataclass(frozen=True, slots=True)
class XmlRecord:
    """Any record an XML or CSV data file creates (views, actions, menus, groups... too)."""

    xml_id: str
    model: str
    line: int
    tag: str = "record"  # record, menuitem, template, csv...
    noupdate: bool = False


@dataclass(frozen=True, slots=True)
class AccessRow:
    """One access record: a line of ``ir.model.access.csv`` or ``ir.access.csv`` (Odoo 20.0), or
    an XML record of either model."""

    xml_id: str
    line: int
    name: str = ""
    model_ref: str = ""  # e.g. "model_library_book" or "library_base.model_library_book"
    group: str = ""  # qualified group xml id, "" for none
    perm_read: bool = False
    perm_write: bool = False
    perm_create: bool = False
    perm_unlink: bool = False
    access_model: str = "ir.model.access"  # or "ir.access"
    model_name: str = ""  # ir.access's ``model_id`` column: the model's name ("library.book")
    operation: str = ""  # ir.access: "crud", "r"...
    domain: str = ""  # ir.access: the domain the operations are limited to

    @property
    def model_key(self) -> str:
        """What names the model: its ir.model xml id, else its name."""
        return self.model_ref or self.model_name


def access_row(
    xml_id: str, line: int, *, name: str, model_id: str, group: str, operation: str, domain: str
) -> AccessRow:
    """An ir.access record. ``model_id`` is the model's ir.model xml id (``module.model_x``) or its
    name (``x.y``, as Odoo's converter writes the CSV column ``model_id``); the letters c, r, u, d
    of ``operation`` read as the permissions (odoo/addons/base/models/ir_access.py: IN_SELECTION)."""
    letters = operation.strip()
    model_id = model_id.strip()
    by_xml_id = model_id.rsplit(".", 1)[-1].startswith("model_")
    return AccessRow(
        xml_id=xml_id,
        line=line,
        name=name,
        model_ref=model_id if by_xml_id else "",
        group=group,
        perm_read="r" in letters,
        perm_write="u" in letters,
        perm_create="c" in letters,
        perm_unlink="d" in letters,
        access_model="ir.access",
        model_name="" if by_xml_id else model_id,
        operation=letters,
        domain=domain.strip(),
    )


@dataclass(frozen=True, slots=True)
class FileData:
    """Everything read from one file. ``kind`` is python, xml or csv."""

    path: str  # relative to its root
    module: str
    kind: str
    models: tuple[ModelClass, ...] = ()
    records: tuple[XmlRecord, ...] = ()
    views: tuple[ViewDef, ...] = ()
    menus: tuple[MenuDef, ...] = ()
    actions: tuple[ActionDef, ...] = ()
    rules: tuple[RuleDef, ...] = ()
    access: tuple[AccessRow, ...] = ()
    env_models: tuple[tuple[str, int], ...] = ()  # ``self.env["x.y"]`` literal model names, line
    functions: tuple[int, ...] = ()  # lines of <function> calls (they may create records with ids)
    findings: tuple[Finding, ...] = field(default_factory=tuple)


def qualify(xml_id: str, module: str) -> str:
    """Module-qualify an xml id as Odoo does: ``"x"`` in module m -> ``"m.x"``."""
    xml_id = xml_id.strip()
    return xml_id if "." in xml_id or not xml_id else f"{module}.{xml_id}"
