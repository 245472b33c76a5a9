"""Template databases: dependencies installed once, cloned in a fraction of a second per run.

A template holds the dependency closure of the modules under validation (auto_install modules
included), never those modules themselves, so editing them keeps the template valid. Its key is
the sha1 of the Odoo version, the demo flag, our data dir, the sorted module names and the path and
bytes of every file of those modules: any edit to a dependency builds a new template.

Concurrency: everything about one template (build, clone, evict) happens under a PostgreSQL
advisory lock on its name, so two validations never build the same template twice and never clone a
half-built one. A build happens in a scratch database that is renamed to the template's name
only once it succeeded. Templates refuse connections, so nothing can sit on them and block a
clone. Odoo's filestore (``<data_dir>/filestore/<db>``) is copied alongside each clone.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import time
from pathlib import Path

from odoo_tools.runs._pg import Pg, new_db_name
from odoo_tools.runs._template_info import AcceptFn, BuildFn, CloneOutcome, TemplateInfo, layer_base
from odoo_tools.runs._template_key import template_key
from odoo_tools.storage import atomic_write_json

KEY_CHARS = 20
SECONDS_PER_DAY = 86400.0
LOCK_PREFIX = "assista-template:"
RUN_LOCK_PREFIX = "assista-run:"  # held on a run's database while it is in use (see prune_runs)


__all__ = ["CloneOutcome", "TemplateCache", "TemplateInfo", "layer_base", "template_key"]


class TemplateCache:
    """Templates of one cache dir on one PostgreSQL server, under one database prefix."""

    def __init__(
        self,
        pg: Pg,
        cache_dir: Path,
        *,
        max_count: int = 5,
        max_age_days: float = 14.0,
        layered: bool = False,
    ) -> None:
        self.pg = pg
        # Build a new template from a copy of the largest recorded one it contains (see
        # ``layer_base``): only where the dependencies' files never change between builds
        self.layered = layered
        self.cache_dir = cache_dir
        self.meta_dir = cache_dir / "templates"
        self.data_dir = cache_dir / "odoo-data"  # odoo-bin --data-dir: filestores are ours to copy
        self.max_count = max_count
        self.max_age_days = max_age_days

    @property
    def template_prefix(self) -> str:
        """Ours AND this cache dir's: another cache on the same server (another project, user or
        CI job) has its own filestores and records, so its templates are never ours to evict."""
        tag = hashlib.sha1(str(self.cache_dir.resolve()).encode()).hexdigest()[:6]
        return f"{self.pg.prefix}tpl{tag}_"

    def template_name(self, key: str) -> str:
        return f"{self.template_prefix}{key[:KEY_CHARS]}"

    def filestore(self, database: str) -> Path:
        return self.data_dir / "filestore" / database

    # -- the one entry point of a validation ----------------------------------------------------
    async def clone(
        self, key: str, clone_name: str, build: BuildFn, info: TemplateInfo, accept: AcceptFn | None = None
    ) -> CloneOutcome:
        """Make ``clone_name`` a copy of the template for ``key``, building it first if needed.

        ``build(scratch_db)`` must install the dependencies into the (existing, empty) scratch
        database and say whether that worked; it runs under the key's lock. ``accept(record)``
        may refuse an existing template (it says why): it is rebuilt, never used as it is.
        """
        template = self.template_name(key)
        async with self.pg.async_advisory_lock(LOCK_PREFIX + template):
            outcome = CloneOutcome("hit", template)
            refused = self._refused(template, accept) if self._usable(template) else ""
            if refused or not self._usable(template):
                outcome = await self._build(template, build, info, accept)
                if outcome.status == "build_failed":
                    return outcome
                outcome = CloneOutcome("built", template, outcome.build_seconds, rebuilt_because=refused)
            spare = self.spare_name(template)
            if outcome.status == "hit" and self.pg.exists(spare):
                self._take_spare(spare, clone_name)
                outcome = CloneOutcome("hit", template, spare=True)
            else:
                self._clone_into(template, clone_name)
            self._touch(template)
        self.evict()
        return outcome

    def refill_spare(self, key: str) -> bool:
        """Prepare the next clone of ``key``'s template ahead of time (a spare taken by a rename),
        so a validation's critical path holds no copy. True if a spare was made."""
        template = self.template_name(key)
        with self.pg.advisory_lock(LOCK_PREFIX + template):
            spare = self.spare_name(template)
            if not self._usable(template) or self.pg.exists(spare):
                return False
            self._clone_into(template, spare)
            return True

    def spare_name(self, template: str) -> str:
        return f"{template}_s"

    def _clone_into(self, template: str, target: str) -> None:
        self._copy_filestore(template, target)
        try:
            self.pg.create(target, template=template)
        except BaseException:
            self._remove_filestore(target)
            raise

    def _take_spare(self, spare: str, clone_name: str) -> None:
        self.pg.rename(spare, clone_name)
        self._move_filestore(spare, clone_name)

    def _usable(self, template: str) -> bool:
        return self._meta_path(template).is_file() and self.pg.exists(template)

    def _refused(self, template: str, accept: AcceptFn | None) -> str:
        recorded = self._read_meta(template)
        if recorded is None:
            return "its record is unreadable"
        return accept(recorded) if accept is not None else ""

    async def _build(
        self, template: str, build: BuildFn, info: TemplateInfo, accept: AcceptFn | None = None
    ) -> CloneOutcome:
        scratch = new_db_name("build", self.pg.prefix)
        self.drop_database(template)  # a leftover without a record: rebuild from scratch
        self.drop_database(self.spare_name(template))
        self._meta_path(template).unlink(missing_ok=True)
        started = time.time()
        base = ""
        async with self.pg.async_advisory_lock(RUN_LOCK_PREFIX + scratch):
            base = self._layer_into(scratch, info, accept) if self.layered else ""
            if not base:
                self.pg.create(scratch)
            try:
                built = await build(scratch)
            except BaseException:
                self.drop_database(scratch)
                raise
        seconds = time.time() - started
        if built is False:
            self.drop_database(scratch)
            return CloneOutcome("build_failed", template, seconds, scratch)
        self.pg.rename(scratch, template)
        self.pg.allow_connections(template, False)
        self._move_filestore(scratch, template)
        now = time.time()
        record = (built if isinstance(built, TemplateInfo) else info).model_copy(
            update={
                "name": template,
                "created": now,
                "last_used": now,
                "build_seconds": seconds,
                "built_on": base,
            }
        )
        self._write_meta(record)
        return CloneOutcome("built", template, seconds)

    def _layer_into(self, scratch: str, info: TemplateInfo, accept: AcceptFn | None) -> str:
        """Make ``scratch`` a copy of the largest usable template the new one contains; its name,
        or "" (nothing to layer on, or that template is busy: the build starts from empty)."""
        usable = [t for t in self.templates() if not (accept and accept(t))]
        base = layer_base(usable, info)
        if base is None:
            return ""
        with self.pg.try_advisory_lock(LOCK_PREFIX + base.name) as free:
            if not free or not self._usable(base.name):
                return ""
            self._clone_into(base.name, scratch)
        return base.name

    # -- databases and their filestores ---------------------------------------------------------
    def drop_database(self, name: str) -> bool:
        """Drop one of our databases and its filestore. Safe to call twice."""
        dropped = self.pg.drop(name)
        self._remove_filestore(name)
        return dropped

    def _copy_filestore(self, source: str, target: str) -> None:
        src = self.filestore(source)
        self._remove_filestore(target)
        if src.is_dir():
            shutil.copytree(src, self.filestore(target))

    def _move_filestore(self, source: str, target: str) -> None:
        src = self.filestore(source)
        self._remove_filestore(target)
        if src.is_dir():
            os.replace(src, self.filestore(target))

    def _remove_filestore(self, name: str) -> None:
        path = self.filestore(name)
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)

    # -- records -------------------------------------------------------------------------------
    def _meta_path(self, template: str) -> Path:
        return self.meta_dir / f"{template}.json"

    def _write_meta(self, info: TemplateInfo) -> None:
        self.meta_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_json(self._meta_path(info.name), info, indent=2)

    def _read_meta(self, template: str) -> TemplateInfo | None:
        try:
            return TemplateInfo.model_validate_json(self._meta_path(template).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def record(self, template: str) -> TemplateInfo | None:  # None: absent or unreadable
        return self._read_meta(template)

    def _touch(self, template: str) -> None:
        info = self._read_meta(template)
        if info is not None:
            self._write_meta(info.model_copy(update={"last_used": time.time()}))

    # -- list / evict / clear -------------------------------------------------------------------
    def templates(self) -> list[TemplateInfo]:
        """Every template: in the database and recorded, or either alone (``orphan``)."""
        width = len(self.template_prefix) + KEY_CHARS  # spares are "<template>_s"
        in_db = {n for n in self.pg.list_ours(self.template_prefix, created_only=True) if len(n) == width}
        recorded = {p.name.removesuffix(".json") for p in self._meta_files()}
        result: list[TemplateInfo] = []
        for name in sorted(in_db | recorded):
            info = self._read_meta(name) if name in recorded else None
            orphan = info is None or name not in in_db
            info = info or TemplateInfo(name=name, key=name.removeprefix(self.template_prefix))
            result.append(info.model_copy(update={"name": name, "orphan": orphan}))
        return sorted(result, key=lambda i: i.last_used, reverse=True)

    def evict(self, now: float | None = None) -> list[str]:
        """Drop templates beyond ``max_count`` (least recently used first) or older than the age
        limit, and orphans. A template whose lock is held (in use) is skipped."""
        now = time.time() if now is None else now
        max_age = self.max_age_days * SECONDS_PER_DAY
        doomed = [
            info
            for rank, info in enumerate(self.templates())
            if info.orphan or rank >= self.max_count or now - info.last_used > max_age
        ]
        return [info.name for info in doomed if self._remove_template(info, wait=False)]

    def prune_runs(self) -> list[str]:
        """Drop our databases that no live run holds: leftovers of a killed process, and
        databases kept for inspection. Only names of our form that carry our creation mark (a
        database someone else made under a similar name is never touched); templates and spares
        (of any cache dir) are left alone."""
        dropped = []
        ours = re.compile(rf"^{re.escape(self.pg.prefix)}[a-z0-9_]*_[0-9a-f]{{8}}$")  # new_db_name's form
        for name in self.pg.list_ours(created_only=True):
            if name.startswith(f"{self.pg.prefix}tpl") or not ours.match(name):
                continue
            with self.pg.try_advisory_lock(RUN_LOCK_PREFIX + name) as free:
                if free and self.drop_database(name):
                    dropped.append(name)
        return dropped

    def clear(self) -> list[str]:
        """Drop every template of this cache (waiting for ones in use)."""
        return [info.name for info in self.templates() if self._remove_template(info, wait=True)]

    def _remove_template(self, info: TemplateInfo, *, wait: bool) -> bool:
        lock = LOCK_PREFIX + info.name  # the same lock clone() holds while building or cloning
        manager = self.pg.advisory_lock(lock) if wait else self.pg.try_advisory_lock(lock)
        with manager as held:
            if not held:
                return False
            self.drop_database(self.spare_name(info.name))
            self.drop_database(info.name)
            with contextlib.suppress(OSError):
                self._meta_path(info.name).unlink()
        return True

    def _meta_files(self) -> list[Path]:
        if not self.meta_dir.is_dir():
            return []
        return sorted(p for p in self.meta_dir.glob(f"{self.template_prefix}*.json"))
