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
        self._building: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def service(self, key: str, factory: Callable[[], T]) -> T:
        """The one shared instance of a service, built by ``factory`` on first request.

        Each key is built under its own lock: a slow build (the code index of an Odoo source)
        never holds up the first use of another service.
        """
        with self._lock:
            if key in self._services:
                value: T = self._services[key]
                return value
            building = self._building.setdefault(key, threading.Lock())
        with building:  # a second caller of the same key waits here, then finds it built
            if key not in self._services:
                built = factory()
                with self._lock:
                    self._services[key] = built
            value = self._services[key]
            return value
