"""Core fields and models a series step removed that the module still uses
(``odoo_tools.lint.core_difference`` of the two series' bundled lists).

A removed field the module uses on a core model is declared by the module itself, with its old
type (and comodel), in the module's class for that model or in a new ``models/<model>.py``: the
module installs and runs as on the old series, and each use is a warning saying so (the core
field's data is not carried over). A field that cannot be declared from the list alone (a One2many
needs its inverse, a Selection its values...) and every use of a removed model are findings."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from odoo_tools.lint import RemovedField, core_difference, core_fields, core_model_fields
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.report import StepReport
from odoo_tools.migrate.passes.core_uses import Use, python_uses, read_models, xml_uses
from odoo_tools.migrate.passes.declare_fields import declare
from odoo_tools.migrate.passes.removed_selection import complete_selections
from odoo_tools.series import known_facts, pack

RULE_FIELD = "removed-core-field"
RULE_MODEL = "removed-core-model"
# Declared from the list alone: the type, and the comodel for Many2one / Many2many.
_DECLARABLE = frozenset(
    {"Boolean", "Char", "Text", "Html", "Integer", "Float", "Date", "Datetime", "Binary", "Image", "Json"}
    | {"Many2one", "Many2many"}
)
# A use of a removed model: Odoo refuses these at install; env["x"] only fails when reached, a comodel
# where the series says so (SeriesFacts.unknown_comodel_refused).
_REFUSED_AT_INSTALL = frozenset({"inherit", "view-model", "record-model"})


def redeclare_removed(files: ModuleFiles, report: StepReport, old_source: Path | None = None) -> None:
    """``old_source``, the source series' Odoo source, gives the values of removed Selection
    fields the module extends."""
    old, new = f"{report.source}", f"{report.target}"
    diff = core_difference(old, new)
    if not diff.removed_models and not diff.removed_fields:
        return
    models = read_models(files.texts, files.name, old)
    uses = python_uses(files.texts, models)
    for rel, text in sorted(files.texts.items()):
        if rel.endswith(".xml"):
            uses += xml_uses(rel, text, models)
    reachable = _reachable_models(report)
    wanted: dict[str, dict[str, RemovedField]] = defaultdict(dict)
    field_uses: list[tuple[Use, RemovedField]] = []
    model_uses: list[Use] = []
    for use in uses:
        if not use.name:
            if use.model in diff.removed_models and not models.defines(use.model) and use not in model_uses:
                model_uses.append(use)
            continue
        removed = diff.removed_field(use.model, use.name)
        if removed is None or use.name in models.declared(use.model):
            continue
        field_uses.append((use, removed))
        if _declarable(removed, diff.removed_models, new) and reachable(removed.comodel):
            wanted[use.model][use.name] = removed
    shifts: dict[str, list[tuple[int, int]]] = defaultdict(list)
    complete_selections(files, models, diff, report, old_source, shifts)
    placed = {
        model: declare(files, models, model, list(fields.values()), shifts, report.target_series)
        for model, fields in wanted.items()
    }
    if wanted:
        report.count(RULE_FIELD, sum(len(fields) for fields in wanted.values()))

    def line_now(path: str, line: int) -> int:  # a declaration inserted above moved it down
        return line + sum(count for after, count in shifts[path] if after < line)

    _shift_findings(files, report, line_now)
    for use in model_uses:
        said = any(
            f.path == files.site_path(use.path)
            and f.line == line_now(use.path, use.line)
            and use.model in f.message
            for f in report.findings
        )  # a rule of the step's table already tells what replaced this model
        if not said:
            _model_finding(files, report, use, line_now(use.path, use.line))
    seen: set[Use] = set()
    for use, removed in field_uses:
        if use not in seen:
            seen.add(use)
            where = placed.get(use.model) if use.name in wanted.get(use.model, {}) else None
            _field_finding(files, report, use, line_now(use.path, use.line), removed, where)


def _shift_findings(files: ModuleFiles, report: StepReport, line_now: Callable[[str, int], int]) -> None:
    """The step's earlier findings, at their lines in the files as the declarations left them."""
    by_site = {files.site_path(rel): rel for rel in files.texts}
    for i, finding in enumerate(report.findings):
        rel = by_site.get(finding.path)
        if rel is not None and finding.line is not None:
            report.findings[i] = finding.model_copy(update={"line": line_now(rel, finding.line)})


def _declarable(removed: RemovedField, removed_models: frozenset[str], new: str) -> bool:
    if removed.type not in _DECLARABLE:
        return False
    if removed.type in ("Many2one", "Many2many") and (
        not removed.comodel or removed.comodel in removed_models or removed.comodel not in core_fields(new)
    ):
        return False
    # Two Many2many of one model to one comodel without an explicit table share the default one:
    # Odoo refuses that ("use the same table and columns"), so the list alone cannot declare it.
    return removed.type != "Many2many" or not any(
        f.type == "Many2many" and f.comodel == removed.comodel
        for f in core_model_fields(new, removed.model).values()
    )


def _reachable_models(report: StepReport) -> Callable[[str], bool]:
    """Whether a comodel is a model of the module's dependency closure on the target series (the
    step's ``core_closure``, from the target pack); True when that cannot be told (no pack, a
    dependency outside the core, an unreadable manifest): a Many2one to a model outside the closure
    points nowhere and a view using it fails."""
    target = pack(str(report.target))
    closure = report.core_closure
    if target is None or closure is None:
        return lambda comodel: True

    def reachable(comodel: str) -> bool:
        model = target.model(comodel) if comodel else None
        return model is None or model.modules[0] in closure

    return reachable


def _field_finding(
    files: ModuleFiles, report: StepReport, use: Use, line: int, removed: RemovedField, placed: str | None
) -> None:
    what = removed.type + (f"({removed.comodel})" if removed.comodel else "")
    series = report.target_series
    renamed = _same_kind_added(removed, f"{report.source}", series)
    maybe = (
        f" If it was renamed, {series} gave {removed.model} {renamed} of the same type." if renamed else ""
    )
    if placed is not None:
        report.find(
            RULE_FIELD,
            files.site_path(use.path),
            line,
            f"Field {removed.name} of model {removed.model} was removed from Odoo in {series}; the module "
            f"now declares it ({what}) in {files.site_path(placed)}: the data of the core field is not "
            "carried over.",
            "Check whether the module still needs the field; if not, remove its uses and the declaration."
            + maybe,
        )
        return
    report.find(
        RULE_FIELD,
        files.site_path(use.path),
        line,
        f"Field {removed.name} ({what}) of model {removed.model} was removed from Odoo in {series} and "
        "the module uses it here: Odoo refuses it (a view, a depends, a related) or the code fails.",
        "Declare the field in the module with what the list cannot give (a One2many its inverse field, "
        "a Selection its values, a Monetary its currency, a relational field a comodel among the "
        "dependencies), or stop using it." + maybe,
        severity="error",
    )


def _same_kind_added(removed: RemovedField, old: str, new: str) -> str:
    """Fields of the same type (and comodel) the model gained in ``new``: a rename's candidates."""
    before, after = core_model_fields(old, removed.model), core_model_fields(new, removed.model)
    names = sorted(
        name
        for name, fdef in after.items()
        if name not in before and fdef.type == removed.type and fdef.comodel == removed.comodel
    )
    return ", ".join(names[:3]) + (" ..." if len(names) > 3 else "")


def _model_finding(files: ModuleFiles, report: StepReport, use: Use, line: int) -> None:
    report.find(
        RULE_MODEL,
        files.site_path(use.path),
        line,
        f"Model {use.model} was removed from Odoo in {report.target_series} and the module uses it here "
        f"({use.how}).",
        "Find what replaced it in the target series' source, or drop this use.",
        severity="error" if _refused_at_install(use, report.target_series) else "warning",
    )


def _refused_at_install(use: Use, series: str) -> bool:
    facts = known_facts(series)
    return use.how in _REFUSED_AT_INSTALL or (
        use.how == "comodel" and facts is not None and facts.unknown_comodel_refused
    )
