"""Module-level answers: the list of modules, and everything about one module."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import BaseModel, Field

from odoo_tools.addons import Addon, AddonSet, module_series
from odoo_tools.findings import Finding
from odoo_tools.index._core_names import core_dependencies
from odoo_tools.index._tables import Tables


class ModuleSummary(BaseModel):
    name: str = Field(description="Technical name (the folder name)")
    title: str = Field(default="", description="The manifest's name")
    version: str = ""
    summary: str = ""
    root: str = Field(description="The addons root it was found in")
    readonly: bool = Field(description="True for Odoo source modules (knowledge only, never written)")
    installable: bool = True
    application: bool = False
    auto_install: bool = False
    depends: list[str] = Field(default_factory=list)

    def line(self) -> str:
        flags = [f for f, on in (("app", self.application), ("auto", self.auto_install)) if on]
        flags += ["not installable"] if not self.installable else []
        flags += ["read-only"] if self.readonly else []
        extra = f" [{', '.join(flags)}]" if flags else ""
        return f"{self.name} {self.version}{extra}: depends {', '.join(self.depends) or '-'}"


class DataFile(BaseModel):
    path: str = Field(description="Relative to the module folder, as in the manifest")
    exists: bool


class ModuleInfo(ModuleSummary):
    path: str = Field(description="The module folder, relative to its root")
    license: str = ""
    author: str = ""
    category: str = ""
    dependencies: list[str] = Field(
        default_factory=list, description="Full dependency closure, install order"
    )
    missing_dependencies: list[str] = Field(
        default_factory=list,
        description="Dependencies found neither in the addons roots nor among Odoo's core modules",
    )
    core_dependencies: list[str] = Field(
        default_factory=list,
        description="Dependencies that are Odoo core modules, known from the bundled list (no Odoo source)",
    )
    dependents: list[str] = Field(default_factory=list, description="Modules that depend on it directly")
    data: list[DataFile] = Field(default_factory=list, description="Manifest data files, in load order")
    demo: list[DataFile] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list, description="Indexed Python, XML and CSV files")
    models_defined: list[str] = Field(default_factory=list)
    models_extended: list[str] = Field(default_factory=list)
    views: list[str] = Field(default_factory=list)
    menus: list[str] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)
    groups: list[str] = Field(default_factory=list, description="Security groups (res.groups) it defines")
    findings: list[Finding] = Field(default_factory=list, description="Manifest and parse problems")

    def render(self) -> str:
        lines = [f"# Module {self.name}: {self.title}" + (f" ({self.version})" if self.version else "")]
        if self.summary:
            lines.append(self.summary)
        lines.append(f"folder: {self.path} in {self.root}" + (" (read-only)" if self.readonly else ""))
        lines.append(f"license: {self.license or '-'}; installable: {self.installable}")
        lines.append(f"depends: {', '.join(self.depends) or '-'}")
        lines.append(f"dependency closure: {', '.join(self.dependencies) or '-'}")
        if self.core_dependencies:
            lines.append(
                f"Odoo core dependencies: {', '.join(self.core_dependencies)} (known from the bundled "
                "core module list; no Odoo source configured, so their content is not indexed)"
            )
        if self.missing_dependencies:
            lines.append(f"MISSING dependencies: {', '.join(self.missing_dependencies)}")
        lines.append(f"depended on by: {', '.join(self.dependents) or '-'}")
        for title, items in (
            ("Data files", [d.path + ("" if d.exists else " (MISSING)") for d in self.data]),
            ("Demo files", [d.path + ("" if d.exists else " (MISSING)") for d in self.demo]),
            ("Models defined", self.models_defined),
            ("Models extended", self.models_extended),
            ("Views", self.views),
            ("Menus", self.menus),
            ("Actions", self.actions),
            ("Groups", self.groups),
            ("Findings", [f"{f.location()}: {f.message}" for f in self.findings]),
            ("Files", self.files),
        ):
            if items:
                lines.append(f"## {title}")
                lines.extend("- " + item for item in items)
        return "\n".join(lines) + "\n"


def summary_of(addon: Addon) -> ModuleSummary:
    m = addon.manifest
    return ModuleSummary(
        name=addon.name,
        title=m.title,
        version=m.version,
        summary=m.summary,
        root=str(addon.root),
        readonly=addon.readonly,
        installable=m.installable,
        application=m.application,
        auto_install=m.auto_install,
        depends=list(m.depends),
    )


def list_modules(
    addons: AddonSet, root: str | None, installable: bool | None, depends_on: str | None
) -> list[ModuleSummary]:
    """Modules sorted by name; ``depends_on`` keeps those that need it, directly or not."""
    users: set[str] = set()
    if depends_on is not None:
        addons.get(depends_on)  # an unknown name is an error, not an empty list
        users = addons.reverse_dependencies(depends_on)
    selected = []
    for name in addons.names():
        addon = addons.addons[name]
        if root is not None and not _root_matches(addon, root):
            continue
        if installable is not None and addon.installable != installable:
            continue
        if depends_on is not None and name not in users:
            continue
        selected.append(summary_of(addon))
    return selected


def module_info(addons: AddonSet, tables: Tables, name: str, series: str | None = None) -> ModuleInfo:
    addon = addons.get(name.strip())
    core = core_dependencies(addons, addon, module_series(addon.manifest, series))
    files = tables.files_by_module.get(addon.name, [])
    m = addon.manifest
    defined = sorted({c.model for f in files for c in f.models if c.defines})
    extended = sorted({c.model for f in files for c in f.models if not c.defines} - set(defined))
    closure = addons.install_order([addon.name])
    return ModuleInfo(
        **summary_of(addon).model_dump(),
        path=addon.rel(addon.path),
        license=m.license,
        author=m.author,
        category=m.category,
        dependencies=[d for d in closure if d != addon.name],
        missing_dependencies=[
            d for d in addons.missing_dependencies([addon.name]).get(addon.name, []) if d not in core
        ],
        core_dependencies=core,
        dependents=sorted(addons.reverse_dependencies(addon.name, transitive=False)),
        data=[DataFile(path=p, exists=(addon.path / p).is_file()) for p in m.data],
        demo=[DataFile(path=p, exists=(addon.path / p).is_file()) for p in m.demo],
        files=[f.path for f in files],
        models_defined=defined,
        models_extended=extended,
        views=[f"{v.xml_id} ({v.model or '-'}, {v.type or '?'})" for f in files for v in f.views],
        menus=[f"{mn.xml_id}: {mn.name or '-'}" for f in files for mn in f.menus],
        actions=[f"{a.xml_id} -> {a.res_model or '-'}" for f in files for a in f.actions],
        groups=[r.xml_id for f in files for r in f.records if r.model == "res.groups"],
        findings=[x for x in addons.findings if x.module == addon.name]
        + [x for f in files for x in f.findings],
    )


def _root_matches(addon: Addon, root: str) -> bool:
    """A path names one root; a bare folder name matches every root of that name."""
    if "/" not in root:
        return root == addon.root.name
    return Path(os.path.realpath(Path(root).expanduser())) == addon.root
