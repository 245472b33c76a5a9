"""MCP prompts (a version-aware system prompt and task prompts) and the per-series guidelines.

Many agents only call tools, so the guidelines are a resource (``odoo://guidelines/{series}``) and
also a tool (``get_guidelines``) returning the same text. A series we have no guidelines for is
bad input naming the supported ones (never another series' text passed off as its own).
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field

from assista_mcp.guidelines import SERIES, guidelines_for
from assista_mcp.safety import effects
from assista_mcp.server.context import AppContext, Ctx, app
from assista_mcp.server.resources import resource_text
from assista_mcp.server.tools._base import ToolSpec
from assista_mcp.server.tools._text import answer
from odoo_tools.errors import InvalidInput
from odoo_tools.series import SUPPORTED_SERIES, normalize_series, series_facts


class Guidelines(BaseModel):
    series: str = Field(description="The Odoo series these guidelines are for")
    text: str = Field(description="The guidelines, as markdown")


def project_series(context: AppContext) -> str:
    """The project's series (source > manifests > setting, ``Project.series``); a project whose
    series is unknown or unsupported is an error saying how to name one."""
    info = context.project.series()
    if info.series is None:
        raise InvalidInput(
            "The project's Odoo series is unknown: no Odoo source, no manifest version like "
            "18.0.1.0.0, no odoo_series setting.",
            f"Pass series (one of {', '.join(SERIES)}), or set odoo_series / --odoo-series.",
        )
    return normalize_series(info.series)


def odoo_developer_text(series: str) -> str:
    return f"""\
You are an expert Odoo {series} developer working on the addons of this project through the
assista-odoo tools. Work like a careful senior developer:
1. Read before you write. Start with `project_map`, then `module_info`, `find_model`, `find_field`,
   `find_xml_id` and `find_references` to learn where things are defined and who extends them;
   `read_file` and `grep` for the code itself. Never guess a field, model or xml id name.
2. Change the smallest thing that does the job, in the module that owns the feature; extend other
   modules with `_inherit` / `inherit_id` and keep `depends` in the manifest complete.
3. Edit with `edit_file` (exact old_text -> new_text) or `apply_patch`; create files with `write_file`
   and list new data files in the manifest. A new model needs an access rule in
   `{series_facts(series).access.csv_file}`.
4. Validate after every edit: `check_module` (static checks) and `lint_module` (pylint-odoo, flake8);
   then `install_module` / `upgrade_module` / `test_module` when an Odoo is configured. Findings come
   back at file:line with a hint: fix them and validate again until clean.
5. Use Odoo {series} syntax only (read `get_guidelines` / odoo://guidelines/{series} once).
When you finish, say what you changed (files), how you validated it, and anything left open."""


SeriesArg = Annotated[
    str | None,
    Field(description=f"Odoo series ({', '.join(SERIES)}); default: the project's series."),
]


def guidelines_resource(series: str) -> str:
    return resource_text(lambda: guidelines_for(series))


def get_guidelines(ctx: Ctx, series: SeriesArg = None) -> Guidelines:
    """Odoo development guidelines for a series: view syntax by version, ORM idioms, security,
    manifests, tests, translations. Read once before writing code for this project.
    Same text as the resource odoo://guidelines/{series}."""
    chosen = normalize_series(series) if series else project_series(app(ctx))
    result = Guidelines(series=chosen, text=guidelines_for(chosen))
    return answer(result, result.text)


ModuleArg = Annotated[str, Field(description="Technical module name (its folder name), e.g. 'library_loan'.")]
ModelArg = Annotated[str, Field(description="Model name, e.g. 'res.partner'.")]

TOOLS = (ToolSpec(get_guidelines, "Odoo guidelines", effects.READ),)


def register(server: MCPServer) -> None:
    """Add the guidelines resource and the prompts (the ``get_guidelines`` tool is in ``TOOLS``)."""
    server.resource(
        "odoo://guidelines/{series}",
        name="guidelines",
        title="Odoo development guidelines",
        description=f"What models get wrong most, per Odoo series ({', '.join(SERIES)}).",
        mime_type="text/markdown",
    )(guidelines_resource)
    for prompt, title, description in PROMPTS:
        server.prompt(title=title, description=description)(prompt)


def odoo_developer(ctx: Ctx, series: SeriesArg = None) -> str:
    return odoo_developer_text(normalize_series(series) if series else project_series(app(ctx)))


def add_field(
    module: ModuleArg,
    model: ModelArg,
    field_name: Annotated[str, Field(description="Technical name of the new field, e.g. 'loan_count'.")],
    field_type: Annotated[str, Field(description="Odoo field type, e.g. Char, Integer, Many2one.")],
    purpose: Annotated[str, Field(description="What the field is for, in a few words.")] = "",
) -> str:
    return (
        f"In module `{module}`, add a `{field_type}` field `{field_name}` to model `{model}`"
        f"{': ' + purpose if purpose else ''}.\n"
        f"Steps: `find_model` {model} to see where it is defined and extended; add the field in "
        f"`{module}` (use `_inherit = '{model}'` if `{module}` does not define the model); show it "
        "in the model's form and list views by inheriting them (`find_xml_id`); keep the manifest "
        f"`depends` complete; then `check_module` {module} and fix every finding."
    )


def new_model(
    module: ModuleArg,
    model_name: Annotated[str, Field(description="Technical name of the new model, e.g. 'library.loan'.")],
    description: Annotated[str, Field(description="What the model stands for, in a few words.")],
) -> str:
    return (
        f"In module `{module}`, create model `{model_name}` ({description}).\n"
        "Add: the Python class (`_name`, `_description`, fields) imported from `models/__init__.py`; "
        f"an access rule per group in {_access_files()}; list and form views, an action "
        "and a menu in `views/`; every new file listed in the manifest `data` in load order "
        f"(security, views, menus). Then `check_module` {module} and `install_module` {module} "
        "if an Odoo is configured, and fix every finding."
    )


def _access_files() -> str:
    """Each series' access file and the series it is for, from the series registry."""
    files: dict[str, list[str]] = {}
    for series in SUPPORTED_SERIES:
        files.setdefault(series_facts(series).access.csv_file, []).append(series)
    return " or ".join(f"`{name}` (Odoo {', '.join(names)})" for name, names in files.items())


def fix_install_error(
    module: ModuleArg,
    error: Annotated[str, Field(description="The error Odoo reported, if you have it.")] = "",
) -> str:
    given = f"\nThe error reported:\n```\n{error}\n```" if error else ""
    return (
        f"Module `{module}` fails to install.{given}\n"
        f"Run `install_module` {module} (or use the error above): each finding names the file and "
        "line and has a hint. Read that file around the line, fix the cause (not the symptom), "
        f"then run `install_module` {module} again until it installs, and `test_module` {module}."
    )


def migrate_module(
    module: ModuleArg,
    to_series: Annotated[str, Field(description=f"The series to port it to ({', '.join(SERIES)}).")],
    from_series: Annotated[
        str, Field(description="The series it is written for, e.g. 17.0 (default: its manifest's version).")
    ] = "",
) -> str:
    target = normalize_series(to_series, "to_series")
    origin = f" from Odoo {from_series}" if from_series else ""
    given = f" from_series={from_series}" if from_series else ""
    return (
        f"Migrate module `{module}`{origin} to Odoo {target}, and prove it works there.\n"
        f"1. Migrate: `migrate_module` module={module} to_series={target}{given} shows the diff and the "
        "findings (a dry run); call it again with write=true. It makes the mechanical changes (Odoo's "
        f"own upgrade_code scripts, then rules per series; version {target}.1.0.0; old migrations/ "
        "removed) and names at file:line what it could not rewrite safely.\n"
        f"2. Prove: `test_module` module={module} demo=true installs it and runs its own tests on the "
        f"configured Odoo (it must be {target}). A dependency that does not exist in {target} blocks the "
        "module: say which, do not work around it.\n"
        "3. Fix the rest, one finding or failing test at a time, first failure first: read the file "
        f"at the line, `get_guidelines` {target} and `find_model`/`find_field` for what changed, edit "
        f"the cause, then `check_module` and `test_module` {module} again until it installs and every "
        "test passes. Change the tests only where the test itself relies on something the series "
        "removed."
    )


PROMPTS = (
    (odoo_developer, "Odoo developer", "System prompt for working on this Odoo project."),
    (add_field, "Add a field", "Add a field to a model, with view and validation."),
    (new_model, "New model", "Create a new model with security, views and menu."),
    (fix_install_error, "Fix install error", "Diagnose and fix a module that fails to install."),
    (migrate_module, "Migrate module", "Migrate a module to a newer series, prove it, fix the rest."),
)
