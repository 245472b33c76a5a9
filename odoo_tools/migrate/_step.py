"""One series step of one module: the passes before the step's rules (Odoo's own upgrade_code
scripts, when the target's source is known), the step's rule table (``steps/``), then the passes
after it (``passes.table``: what the two series' knowledge says was removed, renamed or changed,
the version bump, the old migrations' removal, the core views' anchors), each run when the
knowledge it needs is at hand; what is left to a person is findings."""

from __future__ import annotations

import re
from pathlib import Path

from odoo_tools.migrate.engine.core_closure import core_closure
from odoo_tools.migrate.engine.edits import apply_edits
from odoo_tools.migrate.engine.module_files import ModuleFiles
from odoo_tools.migrate.engine.python_parsing import parse_once
from odoo_tools.migrate.engine.python_rules import rewrite_python
from odoo_tools.migrate.engine.report import Site, StepReport
from odoo_tools.migrate.engine.step_knowledge import step_knowledge
from odoo_tools.migrate.engine.xml_tags import XmlParseError, read_xml
from odoo_tools.migrate.passes.protocol import Known, Pass
from odoo_tools.migrate.passes.table import AFTER_RULES, BEFORE_RULES
from odoo_tools.migrate.steps.table import rules_for
from odoo_tools.series import Series


def migrate_step(
    files: ModuleFiles,
    source: Series,
    target: Series,
    odoo_source: Path | None = None,
    source_odoo_source: Path | None = None,
) -> StepReport:
    """Move ``files`` (in memory) from series ``source`` to ``target`` (= source + 1);
    ``odoo_source`` is the target series' Odoo source, ``source_odoo_source`` the source series'
    (it tells what became of the core view elements the module anchors on)."""
    with parse_once():  # every pass and rule reads each Python text parsed once
        return _step(files, source, target, odoo_source, source_odoo_source)


def _step(
    files: ModuleFiles,
    source: Series,
    target: Series,
    odoo_source: Path | None,
    source_odoo_source: Path | None,
) -> StepReport:
    report = StepReport(files.name, source, target)
    read = step_knowledge(source, target, source_odoo_source, odoo_source)
    known = Known(old_source=source_odoo_source, new_source=odoo_source, read=read)
    _run(BEFORE_RULES, files, report, known)
    rules = rules_for(target)
    python = [text for rel, text in files.texts.items() if rel.endswith(".py")]
    report.own_fields = {m.group(1) for text in python for m in _FIELD_DECLARATION.finditer(text)}
    report.core_closure = core_closure(files, str(target))
    report.extends_view_inheritance = any(_INHERITANCE_OVERRIDE.search(text) for text in python)
    report.mentions_embedded_actions = any("ir.embedded.actions" in text for text in files.texts.values())
    # Python first: a field's definition may move something into the module's views (states=)
    for rel in sorted(files.texts, key=lambda rel: (not rel.endswith(".py"), rel)):
        site = Site(files.site_path(rel), report)
        if rel.endswith(".xml") and rules.xml:
            files.texts[rel] = _rewrite_xml(files.texts[rel], rules.xml, site)
        elif rel.endswith(".py") and rules.python and not rel.startswith(("migrations/", "upgrades/")):
            files.texts[rel] = rewrite_python(files.texts[rel], rules.python, site)
    _run(AFTER_RULES, files, report, known)
    return report


def _run(passes: tuple[Pass, ...], files: ModuleFiles, report: StepReport, known: Known) -> None:
    for step_pass in passes:
        if known.has(step_pass.needs):
            step_pass.run(files, report, known)


# an override of the method that applies inheriting views' specs (it may accept more in them)
_INHERITANCE_OVERRIDE = re.compile(r"^\s+def\s+apply_inheritance_specs\s*\(", re.MULTILINE)
_FIELD_DECLARATION = re.compile(r"^\s+(\w+)\s*=\s*fields\.\w+\(", re.MULTILINE)


def _rewrite_xml(text: str, fixes: tuple, site: Site) -> str:  # type: ignore[type-arg]
    for fix in fixes:
        try:
            document = read_xml(text)
        except XmlParseError as exc:
            site.report.find(
                "xml-syntax",
                site.path,
                None,
                f"not migrated: {exc}",
                "Make the file well-formed XML, then migrate again.",
                severity="error",
            )
            return text
        text, _ = apply_edits(text, fix(document, site))
    return text
