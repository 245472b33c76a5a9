"""AppContext: typed services built once on first use (a slow build never blocks another), and a
lifespan whose last connection closes them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from mcp import Client

from assista_mcp.config.settings import Settings
from assista_mcp.server.context import AppContext, Lazy
from assista_mcp.server.mcp_server import build_server


def test_one_instance_even_when_asked_concurrently() -> None:
    built: list[object] = []

    def factory() -> object:
        built.append(object())
        return built[-1]

    lazy = Lazy(factory)
    results: list[object] = []
    threads = [threading.Thread(target=lambda: results.append(lazy.get())) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(built) == 1 and results == built * 8


def test_a_slow_build_does_not_hold_up_another_service() -> None:
    slow_started, release = threading.Event(), threading.Event()

    def slow() -> str:
        slow_started.set()
        assert release.wait(timeout=120), "never released"
        return "slow"

    index, digests = Lazy(slow), Lazy(lambda: "quick")
    worker = threading.Thread(target=index.get)
    worker.start()
    try:
        assert slow_started.wait(timeout=120)
        # Built while "index" is still being built in the other thread (it used to wait for the
        # slow build: the join below then gives up and the assertion fails instead of hanging).
        quick: list[str] = []
        other = threading.Thread(target=lambda: quick.append(digests.get()))
        other.start()
        other.join(timeout=120)
        assert quick == ["quick"] and not release.is_set()
    finally:
        release.set()
        worker.join()
    assert index.get() == "slow"


def test_services_are_typed_attributes_built_once(
    make_settings: Callable[..., Settings], addons: Path
) -> None:
    context = AppContext(make_settings(addons))
    assert context.index is context.index
    assert context.manifests is context.manifests and context.lint_digests is context.lint_digests


@pytest.mark.anyio
async def test_the_last_connection_closes_the_services(
    make_settings: Callable[..., Settings], addons: Path
) -> None:
    context = AppContext(make_settings(addons))
    server = build_server(context.settings, context)
    async with Client(server) as first:
        await first.call_tool("list_modules", {})
        index = context.index
        async with Client(server) as second:
            await second.call_tool("list_modules", {})
        assert context.index is index  # one connection ended, the other still uses it
        runner = context.runner
    # Closed: a new use builds a new one (the runner's background chores were waited for).
    assert context.index is not index and context.runner is not runner
