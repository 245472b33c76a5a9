"""Wiring one agent run: settings -> session, MCP toolset, model client, renderer, loop.

Shared by ``assista-odoo run`` and ``chat``. Ctrl-C cancels the current turn (the model request, or
the tool call through MCP cancellation) and keeps the session; a second Ctrl-C exits at once.
SIGTERM and SIGHUP cancel the turn the same way and then exit (as Ctrl-C), so what the tool
started (odoo-bin, the run's database) is cleaned up as for ``serve``, ``check`` and ``odoo``.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

import anyio
from rich.console import Console

from assista_mcp.agent.loop.agent_loop import AgentLoop, TurnResult
from assista_mcp.agent.loop.approvals import Approvals, Prompter, check_mode
from assista_mcp.agent.loop.prompting import system_prompt
from assista_mcp.agent.loop.protected import ProtectedPaths
from assista_mcp.agent.loop.sessions import SessionInfo, SessionStore
from assista_mcp.agent.loop.stdin_lines import StdinLines
from assista_mcp.agent.loop.toolset import OWN_SERVER, ServerSpec, Toolset, own_spec, stdio_spec, url_spec
from assista_mcp.agent.loop.url_auth import bearer_token
from assista_mcp.agent.model.client import ModelClient
from assista_mcp.agent.safety.safety_net import SafetyNet, SafetyOptions, report_printer
from assista_mcp.agent.terminal.approval_prompt import terminal_prompter
from assista_mcp.agent.terminal.render import ConsoleRenderer, JsonlRenderer
from assista_mcp.config.auth_token import AuthToken
from assista_mcp.config.settings import Settings
from odoo_tools.errors import ConfigError, NotFound
from odoo_tools.signals import TERMINATING


@dataclass
class AgentOptions:
    settings: Settings
    session: str | None = None
    resume_latest: bool = False
    events_jsonl: bool = False
    mcp_servers: list[str] = field(default_factory=list)
    mcp_urls: list[str] = field(default_factory=list)
    auth_token_file: Path | None = None  # bearer token for --mcp-url servers (as serve's own flag)
    read_only_tools: list[str] = field(default_factory=list)  # foreign tools the user marked read-only
    interactive: bool | None = None  # None: a terminal on stdin decides
    hooks: object | None = None  # one more plugin object (see safety/plugins.py)
    safety: SafetyOptions = field(default_factory=SafetyOptions)  # plugins, checkpoints, validation


@dataclass
class Agent:
    loop: AgentLoop
    session: SessionInfo
    console: Console
    renderer: ConsoleRenderer | JsonlRenderer
    lines: StdinLines
    safety: SafetyNet


def server_specs(options: AgentOptions) -> list[ServerSpec]:
    taken = {OWN_SERVER}
    with contextlib.redirect_stdout(sys.stderr):  # stdout may carry --events jsonl only
        specs = [own_spec(options.settings)]
    specs += [stdio_spec(raw, taken) for raw in options.mcp_servers]
    settings = options.settings
    env_token = settings.auth_token.get_secret_value() if settings.auth_token else None

    def token_for(url: str) -> AuthToken | None:
        return bearer_token(url, settings.home, options.auth_token_file, env_token)

    specs += [url_spec(raw, taken, token_for) for raw in options.mcp_urls]
    return specs


def model_client(settings: Settings) -> ModelClient:
    """Raises ConfigError (exit 2) when no model is configured."""
    return ModelClient(
        settings.model or "", api_base=settings.api_base, fallback_model=settings.fallback_model
    )


def open_session(store: SessionStore, options: AgentOptions) -> SessionInfo:
    settings = options.settings
    if options.session:
        return store.get(options.session)
    if options.resume_latest:
        latest = store.latest()
        if latest is None:
            raise NotFound("There is no session to continue.", "Start one without --continue.")
        return latest
    return store.create(model=settings.model or "", mode=settings.mode)


@asynccontextmanager
async def open_agent(options: AgentOptions) -> AsyncIterator[Agent]:
    settings = options.settings
    check_mode(settings.mode)
    if not settings.addons_paths:
        raise ConfigError(
            "No addons path is configured.",
            "Pass --addons-path DIR, set ASSISTA_ADDONS_PATH, or add addons_path to assista-odoo.toml.",
        )
    model = model_client(settings)
    # The MCP servers first: one that refuses us (--mcp-url with a wrong token) is said before
    # LiteLLM is imported to check the model's provider (seconds); no session is made before both.
    async with Toolset(server_specs(options), options.read_only_tools) as toolset:
        await model.check_ready()
        store = SessionStore.in_home(settings.home)
        try:
            session = open_session(store, options)
            store.update(session.id, model=model.model, mode=settings.mode)
            console = Console(stderr=options.events_jsonl)
            lines = StdinLines()
            renderer: ConsoleRenderer | JsonlRenderer = (
                JsonlRenderer() if options.events_jsonl else ConsoleRenderer(console)
            )
            safety = SafetyNet(settings, options.safety, [options.hooks] if options.hooks else [])
            loop = AgentLoop(
                model=model,
                toolset=toolset,
                approvals=Approvals(
                    settings.mode,
                    _prompter(options, console, lines),
                    ProtectedPaths(settings.workspace()),
                ),
                store=store,
                session_id=session.id,
                system=_system(settings, toolset),
                max_steps=settings.max_steps,
                hooks=safety,
                sinks=[renderer] if options.events_jsonl else [renderer, report_printer(console)],
            )
            safety.bind(loop)
            try:
                yield Agent(
                    loop=loop, session=session, console=console, renderer=renderer, lines=lines, safety=safety
                )
            finally:
                loop.close()
                renderer.close()
        finally:
            store.close()


def _system(settings: Settings, toolset: Toolset) -> str:
    prompt = system_prompt(settings, toolset.instructions)
    if len(toolset.specs) > 1:
        prompt += (
            "\n\nSeveral MCP servers are connected: tool names carry their server as a prefix, "
            f"e.g. {OWN_SERVER}__read_file for the tools named above."
        )
    return prompt


def _prompter(options: AgentOptions, console: Console, lines: StdinLines) -> Prompter | None:
    interactive = sys.stdin.isatty() if options.interactive is None else options.interactive
    return terminal_prompter(console, lines) if interactive else None


async def run_turn_interruptible(loop: AgentLoop, task: str) -> TurnResult:
    """Run one turn; the first Ctrl-C cancels it (session kept), a second one exits."""
    outcome: list[TurnResult] = []
    terminated: list[int] = []
    try:
        with anyio.CancelScope() as turn_scope:
            async with anyio.create_task_group() as tasks:

                async def turn() -> None:
                    outcome.append(await loop.run_turn(task))
                    tasks.cancel_scope.cancel()

                tasks.start_soon(_watch_interrupts, turn_scope, terminated)
                tasks.start_soon(turn)
    except BaseExceptionGroup as group:  # one failing task: raise its own error, not a group
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise
    if terminated:
        raise KeyboardInterrupt  # the turn is cancelled and cleaned up: now leave, as Ctrl-C does
    if outcome:
        return outcome[0]
    return TurnResult(status="interrupted", text="Interrupted.", steps=0)


async def _watch_interrupts(turn_scope: anyio.CancelScope, terminated: list[int]) -> None:
    with anyio.open_signal_receiver(signal.SIGINT, *TERMINATING) as signals:
        async for signum in signals:
            if signum != signal.SIGINT:
                terminated.append(signum)
            if turn_scope.cancel_called:
                raise KeyboardInterrupt
            turn_scope.cancel()
