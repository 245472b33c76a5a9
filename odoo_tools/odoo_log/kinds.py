"""The kinds of Odoo run findings and how to recognise them; what each means and what to do about it
is its entry in the code catalogue (``odoo_tools/catalogue/codes/odoo_run.toml``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from odoo_tools.catalogue import entry

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

KINDS: tuple[str, ...] = (
    XML_SYNTAX,
    XML_SCHEMA,
    VIEW_VALIDATION,
    VIEW_WARNING,
    XML_DATA,
    PYTHON_SYNTAX,
    PYTHON_IMPORT,
    PYTHON_ERROR,
    MISSING_DEPENDENCY,
    EXTERNAL_DEPENDENCY,
    MISSING_DATA_FILE,
    DATA_IMPORT,
    SQL_CONSTRAINT,
    ACCESS_RULE,
    UNKNOWN_MODULE,
    TEST_FAILURE,
    TEST_ERROR,
    DEPRECATION,
    PORT_BUSY,
    REGISTRY_FAILURE,
    LOG_ERROR,
    ODOO_WARNING,
)

# What to do about each kind, and the kinds Odoo goes on after: their entries in the code catalogue.
HINTS: dict[str, str] = {kind: entry(kind).hint for kind in KINDS}
SEVERITY: dict[str, str] = {kind: "warning" for kind in KINDS if entry(kind).severity == "warning"}


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
