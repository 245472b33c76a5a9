"""State shared by the tools of one server: settings, the sandbox, and lazily built services."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from assista_mcp.settings import Settings
from odoo_tools.workspace import Workspace

T = TypeVar("T")


class AppContext:
    """Built once per server. Services (the code index, caches) are created on first use."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.workspace: Workspace = settings.workspace()
        self._services: dict[str, Any] = {}
        self._lock = threading.Lock()

    def service(self, key: str, factory: Callable[[], T]) -> T:
        """The one shared instance of a service, built by ``factory`` on first request."""
        with self._lock:
            if key not in self._services:
                self._services[key] = factory()
            value: T = self._services[key]
            return value
