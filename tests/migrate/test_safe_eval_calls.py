"""Calls of safe_eval, whose parameters 19.0 changed (one context dict, mode and filename by
keyword only), rewritten from the two series' sources: custom 18.0 autovacuum_message_attachment's
``safe_eval(domain, locals_dict={...})`` "got an unexpected keyword argument 'locals_dict'" on 19.0."""

from __future__ import annotations

from pathlib import Path

import pytest

from odoo_tools.migrate import migrate
from odoo_tools.series import Series

OLD = (
    'def safe_eval(expr, globals_dict=None, locals_dict=None, mode="eval", nocopy=False, '
    "locals_builtins=False, filename=None):\n    pass\n"
)
NEW = 'def safe_eval(expr, /, context=None, *, mode="eval", filename=None):\n    pass\n'


def _source(root: Path, major: int, safe_eval: str) -> Path:
    (root / "odoo" / "tools").mkdir(parents=True)
    (root / "odoo" / "release.py").write_text(f"version_info = ({major}, 0, 0, 'final', 0, '')\n")
    (root / "odoo" / "tools" / "safe_eval.py").write_text(safe_eval)
    (root / "addons").mkdir()
    return root


@pytest.fixture
def sources(tmp_path: Path) -> dict[Series, Path]:
    return {
        Series(18): _source(tmp_path / "odoo18", 18, OLD),
        Series(19): _source(tmp_path / "odoo19", 19, NEW),
    }


CODE = """from odoo.tools.safe_eval import safe_eval, datetime


def domain(text):
    return safe_eval(
        text, locals_dict={"datetime": datetime}
    )  # the rule's domain


def run(code, space, flag):
    safe_eval(code, space, mode="exec", nocopy=True)
    safe_eval(code, globals_dict=space, mode="exec")
    safe_eval(code, space, None, "exec", locals_builtins=True)
    safe_eval(code, space)
    safe_eval(code, mode="exec", filename="x.py")
    safe_eval(code, space, {"x": 1})
    safe_eval(code, space, mode="exec", nocopy=flag)
    safe_eval(code, space, {"x": 1}, mode="exec", nocopy=True)
    return space
"""
WRITTEN = """from odoo.tools.safe_eval import safe_eval, datetime


def domain(text):
    return safe_eval(
        text, {"datetime": datetime}
    )  # the rule's domain


def run(code, space, flag):
    safe_eval(code, space, mode="exec")
    safe_eval(code, dict(space), mode="exec")
    safe_eval(code, dict(space), mode="exec")
    safe_eval(code, space)
    safe_eval(code, mode="exec", filename="x.py")
    safe_eval(code, space | {"x": 1})
    safe_eval(code, space, mode="exec", nocopy=flag)
    safe_eval(code, space, {"x": 1}, mode="exec", nocopy=True)
    return space
"""


def _module(root: Path, code: str) -> Path:
    module = root / "mine"
    module.mkdir(parents=True)
    (module / "__manifest__.py").write_text("{'version': '18.0.1.0.0', 'depends': ['base']}\n")
    (module / "rules.py").write_text(code)
    return module


def test_calls_take_one_context_and_keywords(tmp_path: Path, sources: dict[Series, Path]) -> None:
    module = _module(tmp_path, CODE)
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "rules.py").read_text() == WRITTEN
    assert migrated.rules_applied["changed-safe-eval-signature"] == 5
    found = sorted((f.line, f.severity) for f in migrated.findings if f.code == "changed-safe-eval-signature")
    assert found == [(17, "error"), (18, "error")]


def test_a_safe_eval_of_another_origin_or_series_is_left_alone(
    tmp_path: Path, sources: dict[Series, Path]
) -> None:
    mine = CODE.replace(
        "from odoo.tools.safe_eval import safe_eval, datetime", "from .tools import safe_eval"
    )
    module = _module(tmp_path, mine)
    [migrated] = migrate([module], "19.0", odoo_sources=sources, write=True).modules
    assert (module / "rules.py").read_text() == mine
    assert "changed-safe-eval-signature" not in migrated.rules_applied
    unchanged = {
        Series(18): sources[Series(18)],
        Series(19): _source(tmp_path / "other19", 19, OLD),
    }  # a 19.0 with the old signature
    again = _module(tmp_path / "again", CODE)
    migrate([again], "19.0", odoo_sources=unchanged, write=True)
    assert (again / "rules.py").read_text() == CODE
