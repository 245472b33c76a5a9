"""Loading plugins: the entry-point group ``assista_odoo.hooks`` and ``--plugin module[:attr]``.

The hooks a plugin may implement are declared once, in ``assista_mcp/agent/loop/hooks.py`` (read
it first); the names a plugin author needs are re-exported here too::

    from assista_mcp.agent.safety.plugins import Denial, hookimpl
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Sequence
from typing import cast

import pluggy

from assista_mcp.agent.loop.hooks import Denial, Hooks, PendingCall, hookimpl, new_manager
from odoo_tools.errors import ConfigError

__all__ = ["Denial", "Hooks", "PendingCall", "hookimpl", "load_plugin", "plugin_manager"]

ENTRY_POINT_GROUP = "assista_odoo.hooks"
Report = Callable[[str], None]


def plugin_manager(
    specs: Sequence[str] = (), *, entry_points: bool = True, report: Report | None = None
) -> pluggy.PluginManager:
    """Plugins from the entry-point group and from ``module:attr`` specs (``--plugin``).

    An installed plugin that fails to load is reported and skipped (it must not stop every run);
    one named with ``--plugin`` is a usage error (ConfigError).
    """
    manager = new_manager()
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP) if entry_points else ():
        try:
            manager.register(entry.load(), name=entry.name)
        except Exception as exc:
            (report or _ignore)(
                f"plugin {entry.name} ({entry.value}) not loaded: {type(exc).__name__}: {exc}"
            )
    for spec in specs:
        manager.register(load_plugin(spec), name=spec)
    return manager


def load_plugin(spec: str) -> object:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise ConfigError(
            f"Could not import plugin {spec!r}: {type(exc).__name__}: {exc}.",
            "Give --plugin as module or module:attr, importable from this Python environment.",
        ) from exc
    if not attr:
        return module
    try:
        return cast(object, getattr(module, attr))
    except AttributeError:
        raise ConfigError(f"Plugin {spec!r}: module {module_name} has no {attr!r}.") from None


def _ignore(text: str) -> None:
    return None
