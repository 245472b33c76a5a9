"""The passes of a step declare the knowledge they need (``passes.table``): a pass runs when it is
at hand, and the report says, in the same words as before the table existed, what was not checked."""

from __future__ import annotations

import shutil
from pathlib import Path

from odoo_tools.migrate import migrate
from odoo_tools.migrate.engine.python_rules import rewrite_python
from odoo_tools.migrate.engine.report import Site, StepReport
from odoo_tools.migrate.engine.step_knowledge import step_knowledge
from odoo_tools.migrate.passes.protocol import BOTH_SOURCES, Known
from odoo_tools.migrate.passes.renamed_fields import FieldRenames, renamed_fields_rule
from odoo_tools.migrate.passes.table import AFTER_RULES, BEFORE_RULES, unchecked
from odoo_tools.series import Series, supported_between

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "migrate"
NEEDS_BOTH = (
    "group and unit categories, safe_eval calls, tests' registry test mode, transient-only class "
    "attributes, imports of core addon names the step removed"
)
NEEDS_NEW = "Odoo 18.0's own upgrade_code scripts (needs the 18.0 source)"
PACKS = (
    "(needs the 17.0 and 18.0 sources, or both series' packs, made from installed databases for external "
    "IDs and views)"
)


def _known(old: Path | None, new: Path | None) -> Known:
    return Known(old, new, step_knowledge(Series(17), Series(18), old, new))


def test_a_dry_run_without_sources_says_what_it_left_unchecked(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "v17", tmp_path / "v17")
    report = migrate([tmp_path / "v17"], "18.0")
    for module in report.modules:  # the bundled 17.0 and 18.0 packs stand in for the rest
        assert module.steps[0].unchecked == [
            NEEDS_NEW,
            f"{NEEDS_BOTH} (needs the 17.0 and 18.0 sources: 17.0 and 18.0 not given)",
        ]


def test_the_sentence_names_only_the_source_missing() -> None:
    # the target's source alone: its views are read there, the old views nowhere (never one source
    # and one pack for a comparison)
    assert unchecked(Series(17), Series(18), _known(None, Path("/src/18"))) == [
        f"{NEEDS_BOTH} (needs the 17.0 and 18.0 sources: 17.0 not given)",
        f"gone view anchors' successors {PACKS}",
    ]
    assert unchecked(Series(17), Series(18), _known(Path("/src/17"), None)) == [
        NEEDS_NEW,
        f"{NEEDS_BOTH} (needs the 17.0 and 18.0 sources: 18.0 not given)",
    ]
    assert unchecked(Series(17), Series(18), _known(Path("/src/17"), Path("/src/18"))) == []
    # neither a source nor a pack
    assert unchecked(Series(17), Series(18), Known()) == [
        NEEDS_NEW,
        f"{NEEDS_BOTH} (needs the 17.0 and 18.0 sources: 17.0 and 18.0 not given)",
        "renamed core methods, changed method signatures, overrides of core methods the step removed, "
        "references to core external IDs the step removed, the anchors of inherited core views, gone view "
        f"anchors' successors {PACKS}",
    ]


def test_a_pass_runs_only_with_the_knowledge_it_declares() -> None:
    ran: list[str] = []
    nothing = Known()
    for step_pass in (*BEFORE_RULES, *AFTER_RULES):
        if nothing.has(step_pass.needs):
            ran.append(step_pass.what)
    assert "renamed core methods" not in ran
    assert "the manifest's version" in ran
    assert Known(Path("/a"), Path("/b")).has(BOTH_SOURCES)
    assert not Known(new_source=Path("/b")).has(BOTH_SOURCES)


def test_a_step_renames_fields_from_its_data_alone() -> None:
    # A step's field renames are data (registry ids); the one rule renames reads, keys and paths.
    renames = FieldRenames(ids=("renamed-groups-users",))
    site = Site("m/models/x.py", StepReport("m", Series(18), Series(19)))
    text = 'users = group.users\nvalues = {"users": ids}\npath = "group_id.users"\n'
    after = rewrite_python(text, (renamed_fields_rule(renames),), site)
    assert after == 'users = group.user_ids\nvalues = {"user_ids": ids}\npath = "group_id.user_ids"\n'
    assert site.report.applied["renamed-groups-users"] == 3


def test_a_series_is_one_value_written_as_odoo_writes_it() -> None:
    assert str(Series.named("18")) == "18.0" == str(Series.named("18.0.1.0.0"))
    assert Series(17) < Series(18) and Series.named("saas~17.2") == Series(17)
    assert [str(s) for s in supported_between(Series(17), Series(19))] == ["17.0", "18.0", "19.0"]
