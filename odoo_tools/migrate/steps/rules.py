"""What a step's rule table is: the XML fixes and the Python rules that move a module into one
target series. A rule's id is the id of the change in the series registry
(``odoo_tools.series.API_CHANGES``: "removed-attrs", "removed-tree", ...) that the static checks
report, so one entry both finds and fixes a construct; the few rules whose change the registry
does not hold yet (19.0, read in no source here) use ids of the same form."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from odoo_tools.migrate.engine.edits import Edit
from odoo_tools.migrate.engine.python_rules import PythonRule
from odoo_tools.migrate.engine.report import Site
from odoo_tools.migrate.engine.xml_tags import XmlDocument
from odoo_tools.series import Series

XmlFix = Callable[[XmlDocument, Site], list[Edit]]


@dataclass(frozen=True)
class StepRules:
    target: Series
    xml: tuple[XmlFix, ...]
    python: tuple[type[PythonRule], ...]
