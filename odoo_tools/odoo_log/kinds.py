"""The kinds of Odoo run findings, how to recognise them, and what to do about each."""

from __future__ import annotations

import re
from dataclasses import dataclass

XML_SYNTAX = "xml-syntax"
XML_SCHEMA = "xml-schema"
VIEW_VALIDATION = "view-validation"
VIEW_WARNING = "view-warning"
XML_DATA = "xml-data"
PYTHON_SYNTAX = "python-syntax"
PYTHON_IMPORT = "python-import"
PYTHON_ERROR = "python-error"
MISSING_DEPENDENCY = "missing-dependency"
EXTERNAL_DEPENDENCY = "external-dependency"
MISSING_DATA_FILE = "missing-data-file"
DATA_IMPORT = "data-import"
SQL_CONSTRAINT = "sql-constraint"
ACCESS_RULE = "access-rule"
UNKNOWN_MODULE = "unknown-module"
TEST_FAILURE = "test-failure"
TEST_ERROR = "test-error"
DEPRECATION = "deprecation"
PORT_BUSY = "port-busy"
REGISTRY_FAILURE = "registry-failure"
LOG_ERROR = "log-error"
ODOO_WARNING = "odoo-warning"

HINTS: dict[str, str] = {
    XML_SYNTAX: "Fix the XML so it is well-formed (matching tags, escaped & and <) at the given line.",
    XML_SCHEMA: "The file's structure breaks Odoo's data schema: check the tag and attribute names.",
    VIEW_VALIDATION: "Make the view match the model: fix or remove the element at the given line, "
    "or add the field to the model (and the module that defines it to 'depends').",
    VIEW_WARNING: "Odoo accepted the view but warns about it: fix the element at the given line.",
    XML_DATA: "Fix the record at the given line: check the external ids it references "
    "(prefix ids of other modules with '<module>.' and list that module in 'depends').",
    PYTHON_SYNTAX: "Fix the Python syntax at the given line; `python -m py_compile <file>` shows it too.",
    PYTHON_IMPORT: "Fix the import at the given line: a typo, a missing file, or a package that is not "
    "installed in Odoo's Python (declare it in external_dependencies).",
    PYTHON_ERROR: "The module's Python code raised while loading: fix the code at the given line.",
    MISSING_DEPENDENCY: "Add the missing module to the addons path, or remove it from 'depends' "
    "in __manifest__.py.",
    EXTERNAL_DEPENDENCY: "Install the Python package in Odoo's interpreter (pip install <package>), or "
    "remove it from external_dependencies in __manifest__.py.",
    MISSING_DATA_FILE: "Create the file or remove it from 'data'/'demo' in __manifest__.py.",
    DATA_IMPORT: "Fix the data file: each column must be a field of the model and each "
    "model_id:id an existing model xml id (model_<model_with_underscores>).",
    SQL_CONSTRAINT: "Data breaks a database constraint: fix the record, or the constraint.",
    ACCESS_RULE: "Add a line for each model to security/ir.model.access.csv and list the file in 'data'.",
    UNKNOWN_MODULE: "No module by that name in the addons path: check the spelling and --addons-path.",
    TEST_FAILURE: "The assertion failed: fix the code under test, or the test's expectation.",
    TEST_ERROR: "The test raised before its assertions: fix the error at the given line.",
    DEPRECATION: "Replace the deprecated API before the next Odoo series removes it.",
    PORT_BUSY: "Another process holds the HTTP port: pass a free --http-port (tests bind it).",
    REGISTRY_FAILURE: "Odoo could not load the registry: read the error line and the raw log.",
    LOG_ERROR: "Odoo logged an error while loading: read the message and the raw log.",
    ODOO_WARNING: "Odoo installed the module but warns about it: fix the definition at the given line "
    "(a field's comodel, parameter or label, a model's _description...).",
}

SEVERITY: dict[str, str] = {
    VIEW_WARNING: "warning",
    ACCESS_RULE: "warning",
    DEPRECATION: "warning",
    ODOO_WARNING: "warning",
}


@dataclass(frozen=True)
class Rule:
    kind: str
    exc_types: tuple[str, ...] = ()  # short exception class names
    pattern: re.Pattern[str] | None = None  # searched in the exception message


RULES: tuple[Rule, ...] = (
    Rule(MISSING_DEPENDENCY, pattern=re.compile(r"depends on module .* not available in your system", re.S)),
    Rule(MISSING_DEPENDENCY, pattern=re.compile(r"Some modules are not loaded, some dependencies")),
    Rule(EXTERNAL_DEPENDENCY, pattern=re.compile(r"external dependency is not met|External dependency")),
    Rule(XML_SYNTAX, exc_types=("XMLSyntaxError",)),
    Rule(XML_SCHEMA, exc_types=("DocumentInvalid", "RelaxNGValidateError")),
    Rule(
        VIEW_VALIDATION, pattern=re.compile(r"Error while validating view|View error context:|Invalid view")
    ),
    Rule(DATA_IMPORT, pattern=re.compile(r"Module loading \S+ failed: file .* could not be processed")),
    Rule(SQL_CONSTRAINT, pattern=re.compile(r"violates \S+(?: \S+)? constraint|IntegrityError|Violation\b")),
    # Odoo 19 lists the addons path before any -i and raises on a folder named otherwise than \w+
    Rule(UNKNOWN_MODULE, exc_types=("FileNotFoundError",), pattern=re.compile(r"^Invalid module name: ")),
    Rule(MISSING_DATA_FILE, exc_types=("FileNotFoundError",)),
    Rule(PYTHON_SYNTAX, exc_types=("SyntaxError", "IndentationError", "TabError")),
    Rule(PYTHON_IMPORT, exc_types=("ImportError", "ModuleNotFoundError")),
    Rule(XML_DATA, exc_types=("ParseError",)),
)


def classify(exc_short: str, message: str) -> str:
    """The kind for an exception (short class name) and its message; '' when nothing matches."""
    for rule in RULES:
        if rule.exc_types and exc_short not in rule.exc_types:
            continue
        if rule.pattern is not None and not rule.pattern.search(message):
            continue
        return rule.kind
    return ""
