"""The code index of an Odoo project: AST for Python, lxml for XML, csv for CSV; no Odoo import.

Public API (stable): what ``__all__`` lists. ``ProjectIndex`` (``_project.py``) answers the
queries with the models of ``_answers.py`` / ``_modules.py``; ``ProjectIndex.project_map`` builds a
``ProjectMap`` (``_project_map.py``); ``parse_python`` is the one reading of a model class from
Python source (``_python_index.py``), also used to place Odoo's log warnings; ``parse_xml`` and
``parse_csv`` the one reading of the records of a data file.
"""

from __future__ import annotations

from odoo_tools.index._answers import FieldMatches, ModelInfo, References, XmlIdInfo
from odoo_tools.index._core_classes import load_core_classes
from odoo_tools.index._core_names import unknown_modules
from odoo_tools.index._csv_index import parse_csv
from odoo_tools.index._modules import ModuleInfo, ModuleSummary
from odoo_tools.index._pack_classes import PackClasses
from odoo_tools.index._project import ProjectIndex
from odoo_tools.index._project_map import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET, ProjectMap
from odoo_tools.index._python_index import parse_python
from odoo_tools.index._records import FieldDef, FileData, ModelClass, XmlRecord, qualify
from odoo_tools.index._resolve import RELATIONAL, X2MANY, ModelResolver, ResolvedModel, base_model_methods
from odoo_tools.index._tables import Tables
from odoo_tools.index._xml_index import parse_xml
from odoo_tools.index._xml_lines import attribute_line

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "MIN_BUDGET",
    "RELATIONAL",
    "X2MANY",
    "FieldDef",
    "FieldMatches",
    "FileData",
    "ModelClass",
    "ModelInfo",
    "ModelResolver",
    "ModuleInfo",
    "ModuleSummary",
    "PackClasses",
    "ProjectIndex",
    "ProjectMap",
    "References",
    "ResolvedModel",
    "Tables",
    "XmlIdInfo",
    "XmlRecord",
    "attribute_line",
    "base_model_methods",
    "load_core_classes",
    "parse_csv",
    "parse_python",
    "parse_xml",
    "qualify",
    "unknown_modules",
]
