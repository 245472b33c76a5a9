"""Package faces import their names on first use, once, and refuse names they do not have."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_a_face_loads_a_name_on_first_use_and_keeps_it() -> None:
    code = (
        "import sys, odoo_tools.files as face\n"
        "print('odoo_tools.files._patching' in sys.modules)\n"
        "first = face.apply_patch\n"
        "print('odoo_tools.files._patching' in sys.modules, vars(face)['apply_patch'] is first)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.split() == ["False", "True", "True"]


def test_a_name_the_face_does_not_have_is_an_attribute_error() -> None:
    import odoo_tools.runs

    with pytest.raises(AttributeError, match=r"'odoo_tools\.runs' has no attribute 'no_such_name'"):
        _ = odoo_tools.runs.no_such_name
    assert odoo_tools.runs.run_odoo.__module__.startswith("odoo_tools.runs.")
