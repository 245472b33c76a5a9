"""The code index of an Odoo project: AST for Python, lxml for XML, csv for CSV; no Odoo import.

Public API (stable): ``ProjectIndex`` (see ``project.py``) and the answer models in
``answers.py`` / ``modules.py``; ``build_project_map`` (``project_map.py``).
"""

from __future__ import annotations

from odoo_tools.index._project import ProjectIndex

__all__ = ["ProjectIndex"]
