"""A module's ``<xpath expr>`` is evaluated within bounds (issue 35): size, nesting, and a time
budget in a forked worker that is killed. An expression of polynomial degree in the view's size
ran unbounded in lxml (SIGTERM ignored meanwhile) against the core view of --odoo-path."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from lxml import etree

from odoo_tools.view_xpath import MAX_EXPR_CHARS, MAX_NESTING, XPathInvalid, XPathRefused, find

from .hostile_sources import extending_module, migrate_cli, odoo_source

# Degree four: every node, for every node, for every node, for every node.
POLYNOMIAL = "//*[count(//*[count(//*[count(//*) &gt; 0]) &gt; 0]) &gt; 0]"
WIDE_FORM = (
    "<form><sheet>"
    + "".join(
        f'<group name="g{i}">' + "".join(f'<field name="f{i}_{j}"/>' for j in range(20)) + "</group>"
        for i in range(30)
    )
    + '<group name="main"><field name="name"/><field name="ref"/></group></sheet></form>'
)


def test_migrate_bounds_a_polynomial_xpath_and_checks_the_rest(tmp_path: Path) -> None:
    source = odoo_source(tmp_path / "odoo18", 18, WIDE_FORM)
    addons = tmp_path / "addons"
    hostile = extending_module(addons, f'<xpath expr="{POLYNOMIAL}" position="after"><p/></xpath>', "hostile")
    honest = extending_module(addons, '<xpath expr="//field[@name=\'gone\']" position="after"/>', "honest")
    started = time.monotonic()
    result = migrate_cli(
        [str(hostile), str(honest), "--to", "18.0", "--odoo-path", str(source), "--no-diff"], tmp_path, 60
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert time.monotonic() - started < 30
    out = result.stdout
    assert "hostile/views/v.xml:5" in out and "unchecked-view-anchor" in out, out
    assert "did not finish within" in result.stdout
    assert "honest/views/v.xml:5" in result.stdout and "gone-view-anchor" in result.stdout


def test_find_answers_odoo_shaped_expressions_and_bounds_the_others() -> None:
    root = etree.fromstring(WIDE_FORM.encode())
    assert [n.get("name") for n in find(root, "//field[@name='f3_4']")] == ["f3_4"]
    assert [n.get("name") for n in find(root, "(//group[field[@name='ref']])[last()]")] == ["main"]
    # Outside the cheap shapes, answered by the worker, the same nodes of this tree.
    [found] = find(root, "//field[@name='f1_2']/following-sibling::field[1]")
    assert found.get("name") == "f1_3" and found.getroottree().getroot() is root
    assert find(root, "count(//*)") == []  # a number selects nothing
    started = time.monotonic()
    with pytest.raises(XPathRefused, match=r"did not finish within 0\.5 s"):
        find(root, POLYNOMIAL.replace("&gt;", ">"), budget=0.5)
    assert time.monotonic() - started < 5
    with pytest.raises(XPathRefused, match="before"):  # not tried again
        find(root, POLYNOMIAL.replace("&gt;", ">"), budget=0.5)
    with pytest.raises(XPathRefused, match="characters long"):
        find(root, "//field" + "[1]" * MAX_EXPR_CHARS)
    with pytest.raises(XPathRefused, match="nest"):
        find(root, "//*" + "[not(" * (MAX_NESTING + 1) + "1" + ")]" * (MAX_NESTING + 1))
    with pytest.raises(XPathInvalid):
        find(root, "//field[")
