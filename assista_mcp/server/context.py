"""The server's typed lifespan context: settings, the sandbox, and the services the tools share.

One ``AppContext`` per built server. The SDK enters ``AppContext.lifespan`` for each connection
(once for stdio and HTTP, once per in-process ``Client``) and tools reach it through their
``ctx: Ctx`` parameter (``app(ctx)``), as the MCP SDK's lifespan examples do. Expensive services
(the project with its code index, the Odoo runner) are built on first use; when the last connection ends they
are closed (background database chores finished) and dropped, to be built again if needed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, Generic, TypeVar

import anyio
import anyio.to_thread
from mcp.server.mcpserver import Context

from assista_mcp.config.odoo_config import runner_config
from assista_mcp.config.settings import Settings
from odoo_tools.addons import ManifestCache
from odoo_tools.files import recover_interrupted_writes
from odoo_tools.index import ProjectIndex
from odoo_tools.lint import FileDigests
from odoo_tools.project import Project
from odoo_tools.runs import OdooRunner
from odoo_tools.workspace import Workspace

T = TypeVar("T")
log = logging.getLogger("assista_mcp")


class Lazy(Generic[T]):
    """One value built on first ``get`` under its own lock: a slow build (the code index of an
    Odoo source) never holds up the first use of another service."""

    def __init__(self, build: Callable[[], T]) -> None:
        self._build = build
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        value = self._value
        if value is not None:
            return value
        with self._lock:  # a second caller waits here, then finds it built
            if self._value is None:
                self._value = self._build()
            return self._value

    def drop(self) -> T | None:
        """Forget the value (the next ``get`` builds a new one); returns what was held."""
        with self._lock:
            value, self._value = self._value, None
        return value


def open_project(settings: Settings, workspace: Workspace) -> Project:
    """The one project every tool of the server reads: the sandbox's roots (the addons path, and
    Odoo's core folders as knowledge), its Odoo source and series setting, the index cache."""
    readonly = [root.path for root in workspace.roots if root.readonly]
    return Project.open(
        workspace.writable_roots,
        readonly,
        odoo_path=settings.odoo_source(),
        series=settings.odoo_series,
        cache_dir=settings.cache_dir,
    )


def _finish_interrupted_writes(workspace: Workspace) -> None:
    """A patch a killed server was applying is completed; its temporary files are removed."""
    done = recover_interrupted_writes(workspace)
    if done.replayed or done.temp_files_removed:
        log.warning(
            "Interrupted writes: %d patch(es) completed, %d temp file(s) removed.",
            len(done.replayed), done.temp_files_removed,
        )  # fmt: skip
    if done.refused:
        log.warning(
            "Journal(s) not replayed: %s. This account did not write them (they may have come with "
            "the repository), or a step could not run safely; they are left as they are.",
            ", ".join(done.refused),
        )


class AppContext:
    """What every tool of one server shares, as typed attributes."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.workspace: Workspace = settings.workspace()
        _finish_interrupted_writes(self.workspace)
        self._project = Lazy(lambda: open_project(settings, self.workspace))
        # long-lived: the warm worker pays off from the second validation of a template on
        self._runner = Lazy(lambda: OdooRunner(replace(runner_config(settings), warm=settings.warm_worker)))
        self._lint_digests = Lazy(FileDigests)
        self._connections = 0

    @property
    def project(self) -> Project:
        """The project: its addons, series and code index, shared by every tool."""
        return self._project.get()

    @property
    def index(self) -> ProjectIndex:
        """The project's code index (built on first use)."""
        return self.project.index()

    @property
    def runner(self) -> OdooRunner:
        """The real-Odoo runner (install/upgrade/test)."""
        return self._runner.get()

    @property
    def lint_digests(self) -> FileDigests:
        """File digests the lint cache keys its answers on."""
        return self._lint_digests.get()

    @property
    def manifests(self) -> ManifestCache:
        """Parsed manifests, so each lint call does not re-read every addon."""
        return self.project.manifests

    @asynccontextmanager
    async def lifespan(self, _server: object) -> AsyncIterator[AppContext]:
        """The server's lifespan: yields this context; the last connection to end closes it."""
        self._connections += 1
        try:
            yield self
        finally:
            self._connections -= 1
            if self._connections == 0:
                with anyio.CancelScope(shield=True):
                    await self.aclose()

    async def aclose(self) -> None:
        """Finish the runner's background chores (dropping run databases) and drop every service."""
        self._project.drop()  # with its index and parsed manifests
        self._lint_digests.drop()
        runner = self._runner.drop()
        if runner is not None:
            await anyio.to_thread.run_sync(runner.wait_idle)
            runner.close()


Ctx = Context[AppContext, Any]
"""The type of a tool's ``ctx`` parameter: the SDK injects it and leaves it out of the schema."""


def app(ctx: Ctx) -> AppContext:
    """The server's context, from a tool's (or a prompt's, or a resource template's) ``ctx``."""
    context: AppContext = ctx.request_context.lifespan_context
    return context
