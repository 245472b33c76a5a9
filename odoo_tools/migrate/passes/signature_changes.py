"""What an override written for one series' signature of a core method must change to take the
next series' signature: parameters removed, added with a literal default, renamed (the registry
says which), and a return that became a ``Domain``. The signatures themselves are read in
``signatures``."""

from __future__ import annotations

from dataclasses import dataclass

from odoo_tools.migrate.passes.signatures import Signature, is_literal
from odoo_tools.series import api_changes


def removed_parameters(old: Signature, new: Signature) -> tuple[str, ...]:
    """Parameters ``old`` had that ``new`` does not take, when ``new`` is exactly the others in
    the same order (so the positional arguments after them still line up once they are dropped).
    A renamed parameter (``write(self, values)`` -> ``write(self, vals)``) is no removal: its
    position still receives the argument."""
    if new.open_ended:
        return ()
    gone = tuple(p for p in old.params if p not in new.params)
    kept = tuple(p for p in old.params if p not in gone)
    return gone if gone and new.params == kept else ()


def added_parameters(old: Signature, new: Signature) -> dict[str, str]:
    """Parameters ``new`` takes after all of ``old``'s, each with a literal default, and their
    defaults: Odoo's callers on the new series may pass them, so an override written for ``old``
    must accept them (19.0's ``_notify_get_reply_to(default=None, author_id=False)``, 18.0
    without ``author_id``: "got an unexpected keyword argument 'author_id'")."""
    extra = new.params[len(old.params) :]
    if old.open_ended or not extra or new.params[: len(old.params)] != old.params:
        return {}
    defaults = {name: new.default(name) for name in extra}
    literal = {name: d for name, d in defaults.items() if d is not None and is_literal(d)}
    return literal if len(literal) == len(extra) else {}


def returns_domain(old: Signature, new: Signature) -> bool:
    """The new series' method returns a ``Domain`` where the old one returned a list: callers on
    the new series use it as one (19.0's ir.rule ``_compute_domain(...) -> Domain``, its caller's
    ``.optimize_full()``: "'list' object has no attribute 'optimize_full'")."""
    return new.returns.rsplit(".", 1)[-1] == "Domain" and "Domain" not in old.returns


@dataclass(frozen=True)
class ParameterChange:
    renamed: dict[str, str]  # old name -> new name, at the same position
    gone: tuple[str, ...]  # old parameters the new signature no longer takes
    added: dict[str, str]  # new parameters after the others -> their literal defaults


def renamed_parameters(series: str) -> dict[str, dict[str, str]]:
    """method -> {old parameter: new name} that the step to ``series`` renamed: the registry's
    python-method entries whose ``old`` says "method parameter" (two signatures alone do not tell
    a renamed parameter from one removed and another added in its place)."""
    renamed: dict[str, dict[str, str]] = {}
    for change in api_changes(series):
        parts = change.old.split()
        names = len(parts) == 2 and all(p.isidentifier() for p in (*parts, change.new))
        if change.kind == "python-method" and change.since == series and names:
            renamed.setdefault(parts[0], {})[parts[1]] = change.new
    return renamed


def changed_parameters(old: Signature, new: Signature, renamed: dict[str, str]) -> ParameterChange | None:
    """How an override written for ``old`` takes ``new``'s parameters, given the parameters the step
    renamed: ``old``'s names renamed, those ``new`` lacks removed, and what is left exactly ``new``'s
    first parameters, the others added with a literal default. None when there is no renamed one
    (``removed_parameters``/``added_parameters`` say the rest) or the signatures do not line up so."""
    renamed = {p: n for p, n in renamed.items() if p in old.params and n in new.params}
    if not renamed or old.open_ended or new.open_ended:
        return None
    gone = tuple(p for p in old.params if renamed.get(p, p) not in new.params)
    kept = [renamed.get(p, p) for p in old.params if p not in gone]
    if list(new.params[: len(kept)]) != kept:
        return None
    extra = new.params[len(kept) :]
    defaults = {name: new.default(name) for name in extra}
    added = {name: d for name, d in defaults.items() if d is not None and is_literal(d)}
    return ParameterChange(renamed, gone, added) if len(added) == len(extra) else None
