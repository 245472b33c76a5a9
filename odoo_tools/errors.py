"""The one error hierarchy. Every message says what was wrong and what to do next.

Bad news that is an answer (lint findings, a failed install, failing tests) is returned as data,
never raised: these exceptions are for calls that could not be carried out at all.
"""

from __future__ import annotations


class AssistaError(Exception):
    """Base of every error we raise on purpose. ``hint`` says what to do next."""

    def __init__(self, message: str, hint: str = "") -> None:
        self.message = message
        self.hint = hint
        # Two sentences: a message without its full stop would run into the hint.
        ends = message.rstrip()[-1:] in (".", "!", "?", ":")
        super().__init__(f"{message}{'' if ends or not message else '.'} {hint}".strip() if hint else message)


class InvalidInput(AssistaError):
    """Arguments that are malformed or contradict each other."""


class SandboxViolation(AssistaError):
    """A path that resolves outside every addons root, or names something we never touch."""


class NotFound(AssistaError):
    """A file, module, model or record that does not exist."""


class AlreadyExists(AssistaError):
    """A target that exists where the call refuses to overwrite."""


class EditConflict(AssistaError):
    """An edit or patch that does not apply to the current content; nothing was written."""


class ConfigError(AssistaError):
    """Settings that are missing or inconsistent (addons path, odoo.conf, project file)."""


class ToolMissing(AssistaError):
    """An external program we need (pylint, flake8, odoo-bin, psql...) is not installed."""


class ProcessFailed(AssistaError):
    """A child process could not be started, timed out or was cancelled."""


class DatabaseError(AssistaError):
    """PostgreSQL unreachable, or an operation on a database we created failed."""
