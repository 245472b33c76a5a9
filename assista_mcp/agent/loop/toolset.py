"""The agent's tools, reached over MCP exactly as an external host reaches them.

By default one server: our own, in-process (``Client(build_server(settings))``). ``--mcp-server CMD``
(stdio) and ``--mcp-url URL`` (streamable HTTP) add more; with several servers connected, tool names
become ``<server>__<tool>``. Arguments are checked against each tool's input schema before the call,
so the model gets a precise complaint instead of a server-side stack of validation errors.

What a tool does comes from the effects registry for our own server's tools. A foreign server's
tool is ``other`` (it asks, and is hidden in read-only mode) unless the user marked it read-only
with ``--read-only-tool NAME`` (a glob on the name offered to the model): its own ``readOnlyHint``
is not trusted.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any
from urllib.parse import urlsplit

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

import httpx2
import jsonschema
from mcp import Client
from mcp.client import Transport
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent, Tool

from assista_mcp.agent.loop.url_auth import own_listener_transport, refusal
from assista_mcp.config.auth_token import AuthToken
from assista_mcp.config.settings import Settings
from assista_mcp.safety.effects import Effect
from assista_mcp.server.mcp_server import EFFECTS, build_server
from odoo_tools.errors import ConfigError, InvalidInput

OWN_SERVER = "assista"
NAMESPACE_SEP = "__"
MAX_RESULT_CHARS = 60_000
_NAMED = re.compile(r"^([A-Za-z][A-Za-z0-9_-]{0,30})=(.+)$", re.DOTALL)
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")

ServerTarget = MCPServer | StdioServerParameters | str
HTTP_TIMEOUT, HTTP_READ_TIMEOUT = 30.0, 300.0  # the SDK's own defaults for streamable HTTP


@dataclass(frozen=True)
class ServerSpec:
    name: str
    target: ServerTarget
    own: bool = False
    # Sent with every HTTP request (the bearer token): kept out of repr, so out of any message.
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    own_listener_only: bool = False  # every connection checked: our account owns the other end


@dataclass(frozen=True)
class ToolInfo:
    """One tool as offered to the model."""

    name: str
    server: str
    remote_name: str
    description: str
    input_schema: dict[str, Any]
    effect: Effect
    registered: str | None = None  # our server's tool name in the effects registry

    def openai_spec(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.input_schema},
        }


@dataclass
class ToolOutcome:
    """What a tool call produced, ready to go back to the model."""

    text: str
    is_error: bool = False
    data: dict[str, Any] | None = None


def own_spec(settings: Settings) -> ServerSpec:
    """Our own server, in-process."""
    return ServerSpec(OWN_SERVER, build_server(settings), own=True)


def stdio_spec(raw: str, taken: set[str]) -> ServerSpec:
    """``[NAME=]COMMAND ARGS...`` -> a stdio server spec."""
    name, command = _split_name(raw)
    argv = shlex.split(command)
    if not argv:
        raise InvalidInput(f"--mcp-server {raw!r} has no command.", "Example: --mcp-server 'fs=npx server'.")
    base = name or _UNSAFE.sub("_", argv[0].rsplit("/", 1)[-1]) or "server"
    return ServerSpec(_unique(base, taken), StdioServerParameters(command=argv[0], args=argv[1:]))


def url_spec(
    raw: str, taken: set[str], token_for: Callable[[str], AuthToken | None] | None = None
) -> ServerSpec:
    """``[NAME=]URL`` -> a streamable HTTP server spec, sending ``token_for(URL)`` as a bearer token."""
    name, url = _split_name(raw)
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInput(f"--mcp-url {url!r} is not an http(s) URL.", "Example: http://127.0.0.1:8765/mcp")
    base = name or _UNSAFE.sub("_", parts.hostname)
    token = token_for(url) if token_for else None
    headers = {"Authorization": f"Bearer {token.value}"} if token else {}
    own_only = token is not None and token.own_listener_only
    return ServerSpec(_unique(base, taken), url, headers=headers, own_listener_only=own_only)


def _split_name(raw: str) -> tuple[str, str]:
    match = _NAMED.match(raw.strip())
    if match:
        return match.group(1), match.group(2)
    return "", raw.strip()


def _unique(base: str, taken: set[str]) -> str:
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}{n}"
    taken.add(name)
    return name


@dataclass
class Toolset:
    """Connected MCP clients and the tools they offer. Use as ``async with Toolset(specs) as ts``."""

    specs: list[ServerSpec]
    read_only_tools: Sequence[str] = ()  # globs: foreign tools the user marked read-only
    tools: dict[str, ToolInfo] = field(default_factory=dict)
    instructions: dict[str, str] = field(default_factory=dict)
    _clients: dict[str, Client] = field(default_factory=dict)
    _validators: dict[str, jsonschema.protocols.Validator | None] = field(default_factory=dict)
    _stack: AsyncExitStack = field(default_factory=AsyncExitStack)

    async def __aenter__(self) -> Toolset:
        namespaced = len(self.specs) > 1
        try:
            for spec in self.specs:
                await self._connect(spec, namespaced)
        except BaseException:
            await self._stack.aclose()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._stack.aclose()

    async def _target(self, spec: ServerSpec) -> ServerTarget | Transport:
        """A URL with headers gets its own HTTP client (the SDK's timeouts) carrying them."""
        if not isinstance(spec.target, str) or not spec.headers:
            return spec.target
        timeout = httpx2.Timeout(HTTP_TIMEOUT, read=HTTP_READ_TIMEOUT)
        transport = own_listener_transport() if spec.own_listener_only else None
        http = await self._stack.enter_async_context(
            httpx2.AsyncClient(headers=dict(spec.headers), timeout=timeout, transport=transport)
        )
        return streamable_http_client(spec.target, http_client=http)

    async def _connect(self, spec: ServerSpec, namespaced: bool) -> None:
        try:
            client = await self._stack.enter_async_context(Client(await self._target(spec)))
            listed = await _list_all_tools(client)
        except Exception as exc:
            target, own_only = spec.target, spec.own_listener_only
            refused = await refusal(target, spec.headers, own_only) if isinstance(target, str) else None
            if refused is not None:
                raise refused from exc
            cause = _innermost(exc)
            raise ConfigError(
                f"Could not connect to MCP server {spec.name!r}: {type(cause).__name__}: {cause}.",
                "Check the command or URL given with --mcp-server / --mcp-url. An assista-odoo HTTP "
                "server wants its bearer token: --auth-token-file FILE or ASSISTA_AUTH_TOKEN (for a "
                "loopback URL, the token file in the data folder is read by itself).",
            ) from exc
        self._clients[spec.name] = client
        if client.instructions:
            self.instructions[spec.name] = client.instructions
        for tool in listed:
            info = _tool_info(spec, tool, namespaced, self.read_only_tools)
            self.tools[info.name] = info
            self._validators[info.name] = _validator(info.input_schema)

    def openai_specs(self, offered: set[Effect] | None = None) -> list[dict[str, Any]]:
        return [t.openai_spec() for t in self.tools.values() if offered is None or t.effect in offered]

    def parse_arguments(self, tool: ToolInfo, raw: str) -> dict[str, Any]:
        """The call's arguments, or InvalidInput saying exactly what is wrong with them."""
        try:
            arguments = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as exc:
            raise InvalidInput(
                f"The arguments for {tool.name} are not valid JSON ({exc.msg} at position {exc.pos}).",
                "Send one JSON object matching the tool's parameters.",
            ) from exc
        if not isinstance(arguments, dict):
            raise InvalidInput(
                f"The arguments for {tool.name} must be a JSON object, not {type(arguments).__name__}."
            )
        validator = self._validators.get(tool.name)
        error = jsonschema.exceptions.best_match(validator.iter_errors(arguments)) if validator else None
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "arguments"
            raise InvalidInput(
                f"The arguments for {tool.name} do not match its schema: {where}: {error.message}.",
                f"Expected parameters: {json.dumps(tool.input_schema.get('properties', {}))[:1500]}",
            )
        return arguments

    async def call(self, tool: ToolInfo, arguments: dict[str, Any]) -> ToolOutcome:
        """Call the tool; a task cancel cancels the MCP request (and the work behind it)."""
        try:
            result = await self._clients[tool.server].call_tool(tool.remote_name, arguments)
        except Exception as exc:
            return ToolOutcome(
                text=f"The call to {tool.name} failed: {type(exc).__name__}: {exc}", is_error=True
            )
        return _outcome(result)


async def _list_all_tools(client: Client) -> list[Tool]:
    tools: list[Tool] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            return tools


def _innermost(exc: BaseException) -> BaseException:
    """The first leaf of task-group wrapping (the SDK's transports fail inside task groups)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _tool_info(spec: ServerSpec, tool: Tool, namespaced: bool, read_only_tools: Sequence[str]) -> ToolInfo:
    name = _model_safe(f"{spec.name}{NAMESPACE_SEP}{tool.name}" if namespaced else tool.name)
    registered = tool.name if spec.own and tool.name in EFFECTS else None
    if registered:
        effect = EFFECTS[registered].effect
    elif spec.own:  # our server's own hints are trusted (a test or a tool not yet registered)
        effect = Effect.READ if tool.annotations and tool.annotations.read_only_hint else Effect.OTHER
    else:
        effect = Effect.READ if any(fnmatchcase(name, glob) for glob in read_only_tools) else Effect.OTHER
    return ToolInfo(
        name=name,
        server=spec.name,
        remote_name=tool.name,
        description=tool.description or tool.title or tool.name,
        input_schema=dict(tool.input_schema or {"type": "object", "properties": {}}),
        effect=effect,
        registered=registered,
    )


def _model_safe(name: str) -> str:
    """A name every provider takes: OpenAI and Anthropic want [A-Za-z0-9_-]{1,64}; Gemini also
    wants a letter or underscore first (a tool named "3d_view" made it refuse the whole request)."""
    safe = _UNSAFE.sub("_", name)
    if not (safe[:1].isalpha() or safe.startswith("_")):
        safe = "_" + safe
    return safe[:64]


def _validator(schema: dict[str, Any]) -> jsonschema.protocols.Validator | None:
    try:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        return cls(schema)
    except jsonschema.exceptions.SchemaError:
        return None  # a foreign server's broken schema: let the server judge the arguments


def _outcome(result: CallToolResult) -> ToolOutcome:
    parts = [c.text if isinstance(c, TextContent) else f"[{c.type} content]" for c in result.content]
    text = "\n".join(parts)
    if not text and result.structured_content is not None:
        text = json.dumps(result.structured_content)
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + f"\n[... {len(text) - MAX_RESULT_CHARS} more characters cut]"
    return ToolOutcome(text=text, is_error=bool(result.is_error), data=result.structured_content)
