"""AppContext.service: one instance per key, and a slow build never blocks another key."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from assista_mcp.context import AppContext
from assista_mcp.settings import Settings


def test_one_instance_per_key_even_when_asked_concurrently(
    make_settings: Callable[..., Settings], addons: Path
) -> None:
    ctx = AppContext(make_settings(addons))
    built: list[object] = []

    def factory() -> object:
        built.append(object())
        return built[-1]

    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(ctx.service("x", factory))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1 and results == built * 8


def test_a_slow_build_does_not_hold_up_another_service(
    make_settings: Callable[..., Settings], addons: Path
) -> None:
    ctx = AppContext(make_settings(addons))
    slow_started, release = threading.Event(), threading.Event()

    def slow() -> str:
        slow_started.set()
        assert release.wait(timeout=120), "never released"
        return "slow"

    worker = threading.Thread(target=ctx.service, args=("index", slow))
    worker.start()
    try:
        assert slow_started.wait(timeout=120)
        # Built while "index" is still being built in the other thread (it used to wait for the
        # slow build: the join below then gives up and the assertion fails instead of hanging).
        quick: list[str] = []
        other = threading.Thread(target=lambda: quick.append(ctx.service("digests", lambda: "quick")))
        other.start()
        other.join(timeout=120)
        assert quick == ["quick"] and not release.is_set()
    finally:
        release.set()
        worker.join()
    assert ctx.service("index", lambda: "rebuilt") == "slow"
