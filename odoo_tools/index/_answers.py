"""The answers the index gives, as pydantic models (MCP tools return them as they are).

Each answer has ``render()``: a compact text form for a model's context. MCP tools send it as the
text content and the model itself as structured content; resources send the same text.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from odoo_tools.index._records import ModelClass
from odoo_tools.index._tables import Located

MAX_LISTED = 20  # core modules named in a rendering (the structured answer has them all)


class Location(BaseModel):
    module: str
    path: str = Field(description="File relative to its addons root")
    line: int

    def where(self) -> str:
        # Odoo's core known from the series pack (no Odoo source read): no file to point at.
        return f"{self.path}:{self.line}" if self.path else "Odoo core"


class FieldInfo(Location):
    model: str
    name: str
    type: str
    comodel: str = ""
    inverse_name: str = ""
    related: str = ""
    compute: str = ""
    inverse: str = ""
    store: bool | None = None
    required: bool = False
    readonly: bool = False
    string: str = ""
    selection: list[str] = Field(default_factory=list)
    via: str = Field(default="", description="Parent model (_inherit) the field comes from, if not the model")
    overridden_in: list[str] = Field(
        default_factory=list, description="Later modules that redefine the field (last one wins)"
    )

    def summary(self) -> str:
        parts = [self.type + (f"({self.comodel})" if self.comodel else "")]
        for flag in ("required", "readonly"):
            if getattr(self, flag):
                parts.append(flag)
        if self.compute:
            parts.append(f"compute={self.compute}" + (" stored" if self.store else ""))
        if self.related:
            parts.append(f"related={self.related}")
        if self.selection:
            parts.append("[" + "|".join(self.selection) + "]")
        origin = self.module + (f" via {self.via}" if self.via else "")
        if self.overridden_in:
            origin += ", changed in " + ", ".join(self.overridden_in)
        return f"{self.name}: {' '.join(parts)} ({origin}, {self.where()})"


class MethodInfo(Location):
    name: str
    decorators: list[str] = Field(default_factory=list)
    params: str = Field(default="", description="Its signature, for a core method (from the series pack)")


class ModelPart(Location):
    """One class that defines or extends the model."""

    class_name: str
    defines: bool
    kind: str
    inherit: list[str] = Field(default_factory=list)
    fields_added: list[str] = Field(default_factory=list)
    methods_added: list[str] = Field(default_factory=list)


def model_part(located: Located[ModelClass]) -> ModelPart:
    """The answer's view of one class read from a module's file."""
    cls = located.item
    return ModelPart(
        module=located.module,
        path=located.path,
        line=cls.line,
        class_name=cls.class_name,
        defines=cls.defines,
        kind=cls.kind,
        inherit=list(cls.inherit),
        fields_added=[f.name for f in cls.fields],
        methods_added=[m.name for m in cls.methods],
    )


class ViewSummary(Location):
    xml_id: str
    model: str = ""
    type: str = ""
    inherit_id: str = ""
    mode: str = ""
    priority: int | None = None


class AccessInfo(Location):
    xml_id: str
    group: str = Field(default="", description="Group xml id; empty means every user")
    perms: str = Field(description="r, w, c, u letters for read, write, create, unlink")


class ModelInfo(BaseModel):
    name: str
    description: str = ""
    kind: str = "model"
    order: str = ""
    rec_name: str = ""
    defined_in: list[ModelPart] = Field(default_factory=list)
    extended_by: list[ModelPart] = Field(default_factory=list)
    inherits_from: list[str] = Field(default_factory=list, description="_inherit parents (mixins)")
    delegates_to: dict[str, str] = Field(default_factory=dict, description="_inherits: model -> link field")
    fields: list[FieldInfo] = Field(default_factory=list)
    methods: list[MethodInfo] = Field(default_factory=list)
    views: list[ViewSummary] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)
    access: list[AccessInfo] = Field(default_factory=list)
    record_rules: list[str] = Field(default_factory=list)
    known_from: str = Field(default="", description="The series pack the core's facts come from, if any")
    core_extended_by: list[str] = Field(
        default_factory=list, description="Odoo core modules that extend it (from the series pack)"
    )
    known_only_by_extension: bool = Field(
        default=False, description="No definition found (defined outside the indexed roots)"
    )

    def render(self) -> str:
        lines = [f"# Model {self.name}" + (f" ({self.description})" if self.description else "")]
        lines.append(f"kind: {self.kind}" + (f"; order: {self.order}" if self.order else ""))
        if self.rec_name:
            lines.append(f"rec_name: {self.rec_name}")
        if self.known_from:
            lines.append(f"core facts from {self.known_from}")
        for part in self.defined_in:
            named = f", class {part.class_name}" if part.class_name else ""
            lines.append(f"defined in {part.module} ({part.where()}{named})")
        if self.known_only_by_extension:
            lines.append("definition not in the indexed roots (only extensions found)")
        for part in self.extended_by:
            added = ", ".join(part.fields_added + [f"{m}()" for m in part.methods_added]) or "nothing new"
            lines.append(f"extended by {part.module} ({part.where()}): {added}")
        if self.core_extended_by:
            shown = ", ".join(self.core_extended_by[:MAX_LISTED])
            more = len(self.core_extended_by) - MAX_LISTED
            lines.append(f"extended in Odoo's core by {shown}" + (f" and {more} more" if more > 0 else ""))
        if self.inherits_from:
            lines.append("inherits from: " + ", ".join(self.inherits_from))
        if self.delegates_to:
            lines.append("delegates to: " + ", ".join(f"{m} via {f}" for m, f in self.delegates_to.items()))
        lines.append(f"## Fields ({len(self.fields)})")
        lines.extend("- " + f.summary() for f in self.fields)
        lines.append(f"## Methods ({len(self.methods)})")
        for m in self.methods:
            deco = " ".join("@" + d for d in m.decorators)
            lines.append(f"- {m.name}{m.params} ({m.module}, {m.where()})" + (f" {deco}" if deco else ""))
        _section(lines, "Views", [f"{v.xml_id} [{v.type or '?'}] ({v.where()})" for v in self.views])
        _section(lines, "Actions", self.actions)
        _section(
            lines, "Access rules", [f"{a.xml_id}: {a.group or 'everyone'} {a.perms}" for a in self.access]
        )
        _section(lines, "Record rules", self.record_rules)
        return "\n".join(lines) + "\n"


class FieldMatches(BaseModel):
    field: str
    model: str = ""
    matches: list[FieldInfo] = Field(default_factory=list, description="Every definition, in load order")

    def render(self) -> str:
        head = (
            f"# Field {self.model + '.' if self.model else ''}{self.field}: {len(self.matches)} definition(s)"
        )
        return "\n".join([head, *("- " + f.model + "." + f.summary() for f in self.matches)]) + "\n"


class XmlRecordInfo(Location):
    xml_id: str
    model: str
    tag: str = "record"
    loaded: bool = Field(description="True when the file is listed in the manifest's data or demo")


class XmlIdInfo(BaseModel):
    xml_id: str
    records: list[XmlRecordInfo] = Field(description="Every definition (more than one is a duplicate)")
    view: ViewSummary | None = None
    inheritance_chain: list[ViewSummary] = Field(
        default_factory=list, description="The view's ancestors, root first, ending with the view itself"
    )
    inherited_by: list[ViewSummary] = Field(
        default_factory=list, description="Views that extend it (all levels)"
    )

    def render(self) -> str:
        lines = [f"# {self.xml_id}"]
        for r in self.records:
            loaded = "" if r.loaded else " (file not listed in the manifest)"
            lines.append(f"- {r.tag} model={r.model} in {r.module} ({r.where()}){loaded}")
        if self.inheritance_chain:
            lines.append("## Inheritance chain (root first)")
            lines.extend(
                f"- {v.xml_id} [{v.type or '?'}, {v.mode}] ({v.where()})" for v in self.inheritance_chain
            )
        _section(lines, "Inherited by", [f"{v.xml_id} ({v.module}, {v.where()})" for v in self.inherited_by])
        return "\n".join(lines) + "\n"


class Reference(Location):
    kind: str = Field(description="python, xml or csv")
    text: str = Field(description="The line, trimmed")


class References(BaseModel):
    target: str
    target_kind: str = Field(description="model, field or xml_id")
    references: list[Reference] = Field(default_factory=list)
    truncated: bool = False

    def render(self) -> str:
        more = " (truncated)" if self.truncated else ""
        head = f"# References to {self.target_kind} {self.target}: {len(self.references)}{more}"
        return "\n".join([head, *(f"- {r.where()}: {r.text}" for r in self.references)]) + "\n"


def _section(lines: list[str], title: str, items: list[str]) -> None:
    if items:
        lines.append(f"## {title}")
        lines.extend("- " + item for item in items)
