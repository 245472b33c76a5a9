"""What a tool of our server does, and which paths one call of it writes or deletes.

A tool declares its ``ToolEffect`` once, in its ``ToolSpec`` (``assista_mcp/server/tools``); the
server derives the MCP annotations and the ``_meta`` effect marker from it, and the registry by
name (``assista_mcp.server.mcp_server.EFFECTS``, ``tool_effect``) that the agent's approvals, modes,
checkpoints and validation read. This module is the vocabulary: data and pure functions; nothing
here imports a tool (the agent reaches tools over MCP only) or touches the disk.

A tool has one ``Effect``; a call may weigh more than its tool (``call_effect``): an ``apply_patch``
that removes a file, or a ``move_file`` that takes a file away from its old path, is a deletion.
Paths are returned as the caller gave them (relative to an addons root, or absolute inside one).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from odoo_tools.errors import AssistaError
from odoo_tools.files import PatchTargets, patch_targets

META_KEY = "assista-odoo/effect"


class Effect(str, enum.Enum):
    READ = "read"  # reads files or knowledge; changes nothing and runs no project code
    EDIT = "edit"  # creates or changes files
    DELETE = "delete"  # removes files (or replaces one file by another)
    RUN_CODE = "run_code"  # runs project code (odoo-bin install/upgrade/test)
    OTHER = "other"  # unknown: treated like the most dangerous kind by the agent


@dataclass(frozen=True)
class PathEffects:
    """The paths one call changes. ``overwritten`` paths are also in ``written``: their old
    content is replaced by another file's (not edited), so it is lost like a deletion."""

    written: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    overwritten: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()  # folders created (they hold no bytes to snapshot)
    moved: tuple[tuple[str, str], ...] = ()  # (source, destination): source deleted, destination written
    protected: tuple[str, ...] = ()  # written paths that always ask (outside yolo), whatever their name

    @property
    def destroys(self) -> tuple[str, ...]:
        """Paths whose current content the call removes."""
        return _unique([*self.deleted, *self.overwritten])

    @property
    def touched(self) -> tuple[str, ...]:
        """Every path the call names, in order, once."""
        return _unique([*self.deleted, *self.written, *self.folders])


PathsOf = Callable[[Mapping[str, Any]], PathEffects]


def _none(arguments: Mapping[str, Any]) -> PathEffects:
    return PathEffects()


@dataclass(frozen=True)
class ToolEffect:
    effect: Effect
    paths: PathsOf = _none
    idempotent: bool = False
    additive: bool = False  # an edit that only adds (create_folder): never replaces content

    @property
    def read_only(self) -> bool:
        return self.effect is Effect.READ

    @property
    def destructive(self) -> bool:
        """MCP's destructiveHint: the tool may remove or replace existing content. Project code
        that runs (odoo-bin install/upgrade/test) may do anything the server's user may."""
        risky = (Effect.EDIT, Effect.DELETE, Effect.RUN_CODE, Effect.OTHER)
        return self.effect in risky and not self.additive

    @property
    def open_world(self) -> bool:
        """MCP's openWorldHint: running project code reaches beyond the addons (network, database)."""
        return self.effect in (Effect.RUN_CODE, Effect.OTHER)

    def call_effect(self, arguments: Mapping[str, Any]) -> Effect:
        """The effect of one call: a deletion when it removes or replaces any file."""
        if self.effect is Effect.EDIT and self.paths(arguments).destroys:
            return Effect.DELETE
        return self.effect

    def annotation_hints(self) -> dict[str, bool]:
        """Keyword arguments for ``mcp.types.ToolAnnotations``."""
        return {
            "read_only_hint": self.read_only,
            "destructive_hint": self.destructive,
            "idempotent_hint": self.idempotent,
            "open_world_hint": self.open_world,
        }

    def meta(self) -> dict[str, str]:
        """The tool's ``_meta`` entry naming its effect, for hosts that want more than the hints."""
        return {META_KEY: self.effect.value}


# -- how each write tool names its paths (current and upcoming parameter names) -------------------


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str)]
    return []


def _path_args(arguments: Mapping[str, Any]) -> tuple[str, ...]:
    return _unique([*_strings(arguments.get("path")), *_strings(arguments.get("paths"))])


def _first(arguments: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = arguments.get(key)
        if isinstance(value, str):
            return value
    return None


def _written(arguments: Mapping[str, Any]) -> PathEffects:
    return PathEffects(written=_path_args(arguments))


def _baseline_written(arguments: Mapping[str, Any]) -> PathEffects:
    """A baseline hides findings from ``check --baseline``: recording one always asks."""
    baseline = tuple(_strings(arguments.get("baseline")))
    return PathEffects(written=baseline, protected=baseline)


def _migrated(arguments: Mapping[str, Any]) -> PathEffects:
    """migrate_module rewrites files anywhere in the named modules' folders (only with write)."""
    if arguments.get("write") is not True:
        return PathEffects()
    return PathEffects(
        written=_unique([*_strings(arguments.get("module")), *_strings(arguments.get("modules"))])
    )


def _deleted(arguments: Mapping[str, Any]) -> PathEffects:
    return PathEffects(deleted=_path_args(arguments))


def _folders(arguments: Mapping[str, Any]) -> PathEffects:
    return PathEffects(folders=_path_args(arguments))


def _moved(arguments: Mapping[str, Any]) -> PathEffects:
    source = _first(arguments, "source", "path", "old_path", "from_path")
    target = _first(arguments, "destination", "target", "new_path", "to_path")
    overwrite = arguments.get("overwrite") is True
    return PathEffects(
        written=(target,) if target else (),
        deleted=(source,) if source else (),
        overwritten=(target,) if target and overwrite else (),
        moved=((source, target),) if source and target else (),
    )


def _patched(arguments: Mapping[str, Any]) -> PathEffects:
    """From the patch text, by the rule apply_patch itself follows: a malformed patch changes nothing."""
    patch = _first(arguments, "patch", "diff")
    try:
        targets = patch_targets(patch) if patch else PatchTargets()
    except AssistaError:
        return PathEffects()
    return PathEffects(written=targets.written, deleted=targets.deleted, moved=targets.moved)


# -- the effects tools declare (each ToolSpec names one) ----------------------------------------------

READ = ToolEffect(Effect.READ, idempotent=True)
RUN_CODE = ToolEffect(Effect.RUN_CODE, idempotent=True)
WRITES = ToolEffect(Effect.EDIT, _written)  # edits the files named by path/paths
WRITES_WHOLE = ToolEffect(Effect.EDIT, _written, idempotent=True)  # the same content twice: the same file
PATCHES = ToolEffect(Effect.EDIT, _patched)  # the files the patch names (a removal is a deletion)
CREATES_FOLDERS = ToolEffect(Effect.EDIT, _folders, idempotent=True, additive=True)
MOVES = ToolEffect(Effect.DELETE, _moved)
DELETES = ToolEffect(Effect.DELETE, _deleted)
RECORDS_BASELINE = ToolEffect(Effect.EDIT, _baseline_written, idempotent=True)
# migrate_module rewrites whole module folders (old migrations/ scripts go; undo brings them back)
# and runs the configured Odoo source's own upgrade_code scripts in the server: running code, asked
# for as test_module is (the server refuses scripts an addons root it may write holds)
MIGRATES = ToolEffect(Effect.RUN_CODE, _migrated)
UNKNOWN = ToolEffect(Effect.OTHER)  # a tool no spec declares: the agent always asks


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))
