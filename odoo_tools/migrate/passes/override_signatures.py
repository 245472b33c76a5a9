"""How an override's signature follows core's: the parameters the step took away go (the code
reads the default Odoo always passed instead), the renamed ones take their new names, the added
ones join with core's default. Each change is a finding at the override's line."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import libcst as cst

from odoo_tools.migrate.engine.python_params import EQUAL, followed_by, is_docstring, without
from odoo_tools.migrate.engine.report import StepReport

RULE = "removed-method-parameter"
ADDED = "added-method-parameter"
RENAMED = "renamed-method-parameter"


@dataclass
class Override:
    method: str
    gone: dict[str, str | None]  # parameter -> the default the override reads instead (None: unknown)
    positions: tuple[int, ...]  # of the gone parameters in the core signature (super() arguments)
    added: dict[str, str] = field(default_factory=dict)  # parameter -> core's default
    domain: bool = False  # core now returns a Domain: so must the override
    wrapped: int = 0  # return statements given Domain(...)
    renamed: dict[str, str] = field(default_factory=dict)  # parameter -> its new name
    kept_names: bool = False  # the body has a name of its own a new name would hide: it keeps the old
    patched: str = ""  # a function patched in: its own name (it calls the replaced method as .origin)
    passed_on: int = 0  # super()/.origin calls of the method its body makes (their arguments follow)

    @property
    def and_super(self) -> str:
        """How the messages name the calls that were changed with the signature, if any."""
        return " and its super() call" if self.passed_on else ""


def without_gone(
    updated: cst.FunctionDef, override: Override, line: int, report: StepReport, path: str
) -> cst.FunctionDef | None:
    """The override without the parameters core no longer takes; None when the value it read
    instead is unknown (then it stays as written, with an error)."""
    names = ", ".join(override.gone)
    if any(default is None for default in override.gone.values()):
        report.find(
            RULE, path, line,
            f"{override.method}() no longer takes {names} in {report.target_series}: Odoo "
            "calls this override without it and super() refuses it.",
            f"Remove {names} from the signature and the super() call, and decide what the code "
            "reading it should do.",
            severity="error",
        )  # fmt: skip
        return None
    report.count(RULE)
    report.find(
        RULE, path, line,
        f"{override.method}() no longer takes {names} in {report.target_series}: removed from "
        f"this override{override.and_super}; the code reads the value Odoo always passed before ("
        + ", ".join(f"{n}={d}" for n, d in override.gone.items()) + ").",
        f"Check in the {report.target_series} source what replaced {names}.",
    )  # fmt: skip
    params = updated.params
    return updated.with_changes(
        params=params.with_changes(
            params=without(params.params, override.gone),
            kwonly_params=without(params.kwonly_params, override.gone),
        )
    )


def with_renamed(
    updated: cst.FunctionDef, override: Override, line: int, report: StepReport, path: str
) -> cst.FunctionDef:
    """The parameters renamed; the body reads the new names, or, when it has a name of its own
    that a new name would hide, binds its old names to them first."""
    pairs = ", ".join(f"{old} -> {new}" for old, new in override.renamed.items())
    report.count(RENAMED)
    report.find(
        RENAMED, path, line,
        f"{override.method}() names its parameters differently in {report.target_series} and "
        f"Odoo passes them by name: renamed in this function ({pairs})"
        + (", its body keeps the old names, bound first." if override.kept_names else "."),
        "Check that the function reads the renamed parameters as before.",
    )  # fmt: skip

    def renamed(params: Sequence[cst.Param]) -> list[cst.Param]:
        return [
            p.with_changes(name=cst.Name(override.renamed[p.name.value]))
            if p.name.value in override.renamed
            else p
            for p in params
        ]

    params = updated.params
    updated = updated.with_changes(
        params=params.with_changes(params=renamed(params.params), kwonly_params=renamed(params.kwonly_params))
    )
    if not override.kept_names or not isinstance(updated.body, cst.IndentedBlock):
        return updated
    body = list(updated.body.body)
    at = 1 if body and is_docstring(body[0]) else 0
    bindings = [cst.parse_statement(f"{old} = {new}") for old, new in override.renamed.items()]
    return updated.with_changes(body=updated.body.with_changes(body=[*body[:at], *bindings, *body[at:]]))


def with_added(
    updated: cst.FunctionDef, override: Override, line: int, report: StepReport, path: str
) -> cst.FunctionDef:
    names = ", ".join(override.added)
    report.count(ADDED)
    report.find(
        ADDED, path, line,
        f"{override.method}() takes {names} in {report.target_series} and Odoo passes it: "
        "added to this override with core's default ("
        + ", ".join(f"{n}={d}" for n, d in override.added.items()) + ")"
        + (" and passed on to super()." if override.passed_on else "."),
        f"Check whether this override should use {names}.",
    )  # fmt: skip
    params = updated.params
    new = [
        cst.Param(cst.Name(name), default=cst.parse_expression(default), equal=EQUAL)
        for name, default in override.added.items()
    ]
    opening = updated.whitespace_before_params
    if params.kwonly_params:
        kwonly = followed_by(params.kwonly_params, new, opening)
        return updated.with_changes(params=params.with_changes(kwonly_params=kwonly))
    positional = followed_by(params.params, new, opening)
    return updated.with_changes(params=params.with_changes(params=positional))
