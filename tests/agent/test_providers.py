"""Every provider family over real HTTP: our tools and history as Anthropic and Gemini receive them.

The stand-ins answer 400 where the real APIs do, so a shape one provider refuses fails here; the
agent's own tests run against all three through ``EVERY_PROVIDER`` (test_loop, test_cli_agent).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer

from assista_mcp.agent.loop.toolset import ServerSpec, Toolset, own_spec
from assista_mcp.agent.model.client import ModelClient, ModelError
from assista_mcp.cli import main
from assista_mcp.config.settings import Settings
from fixtures.model_server import (
    API_KEY_VARIABLES,
    SERVERS,
    TEST_API_KEY,
    ScriptedModelServer,
    anthropic_rules,
    gemini_rules,
)
from tests.agent.conftest import EVERY_PROVIDER, StartServer
from tests.agent.loop_support import call, tool_messages

pytestmark = pytest.mark.anyio
BOOK = "library_base/models/library_book.py"
# What LiteLLM's gemini/ route rewrites out of a JSON Schema before sending (build_vertex_schema).
GEMINI_REWRITTEN = ('"$defs"', '"$ref"', '"additionalProperties"')


def _ignore(event: Any) -> None:
    return None


async def _offered(addons: Path) -> list[dict[str, Any]]:
    """Our server's tools, listed over an in-memory MCP client and converted as the agent does."""
    async with Toolset([own_spec(Settings(addons_paths=[addons]))]) as toolset:
        return toolset.openai_specs()


async def _send(server: ScriptedModelServer, tools: list[dict[str, Any]], text: str = "hi") -> None:
    client = ModelClient(server.litellm_model, api_base=server.api_base, max_retries=0, timeout=30)
    await client.check_ready()
    await client.complete([{"role": "user", "content": text}], tools, _ignore)


# -- our tool schemas against each provider's documented restrictions ---------------------------------
@pytest.fixture
def provider_keys(model_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in API_KEY_VARIABLES.values():
        monkeypatch.setenv(variable, TEST_API_KEY)


async def test_our_tool_schemas_are_what_anthropic_accepts(provider_keys: None, addons: Path) -> None:
    offered = await _offered(addons)
    as_sent = [{"name": t["function"]["name"], "input_schema": t["function"]["parameters"]} for t in offered]
    assert anthropic_rules.tool_problems(as_sent) == []
    with SERVERS["anthropic"]([{"text": "ok"}]) as anthropic:
        await _send(anthropic, offered)
    assert anthropic.rejected == []
    # Anthropic takes JSON Schema as it is: LiteLLM passes our schemas through (top-level title aside).
    wire = {t["name"]: t["input_schema"] for t in anthropic.wire_requests[0]["tools"]}
    for tool in offered:
        schema = tool["function"]["parameters"]
        assert {k: v for k, v in wire[tool["function"]["name"]].items() if k != "title"} == {
            k: v for k, v in schema.items() if k != "title"
        }


async def test_our_tool_schemas_reach_gemini_in_the_subset_it_accepts(
    provider_keys: None, addons: Path
) -> None:
    offered = await _offered(addons)
    raw = {
        t["function"]["name"]: gemini_rules.schema_problems(t["function"]["parameters"], "parameters")
        for t in offered
    }
    refused = {name: found for name, found in raw.items() if found}
    # Our schemas as written are not Gemini's subset: pydantic's $defs/$ref (edit_file) would be a 400...
    assert refused and all(any(k in p for k in GEMINI_REWRITTEN) for found in refused.values() for p in found)
    with SERVERS["gemini"]([{"text": "ok"}]) as gemini:
        await _send(gemini, offered)
    # ...and LiteLLM's gemini/ route rewrites them into it: the stand-in accepted every declaration.
    assert gemini.rejected == []
    declarations = {d["name"]: d for d in gemini.wire_requests[0]["tools"][0]["function_declarations"]}
    assert set(declarations) == {t["function"]["name"] for t in offered}
    sent = json.dumps(declarations)
    assert not any(keyword in sent for keyword in GEMINI_REWRITTEN)
    # The rewrite keeps the meaning: the edits' items still say what an edit is.
    edits = declarations["edit_file"]["parameters"]["properties"]["edits"]
    assert set(edits["items"]["required"]) == {"old_text", "new_text"}


async def test_sending_to_gemini_leaves_our_tool_schemas_as_they_were(
    provider_keys: None, addons: Path
) -> None:
    # LiteLLM rewrites the schemas it is given in place; we used to hand it our own, so after the
    # first Gemini request our argument check refused null for every optional parameter.
    async with Toolset([own_spec(Settings(addons_paths=[addons]))]) as toolset:
        before = json.dumps(toolset.openai_specs(), sort_keys=True)
        with SERVERS["gemini"]([{"text": "ok"}]) as gemini:
            await _send(gemini, toolset.openai_specs())
        assert json.dumps(toolset.openai_specs(), sort_keys=True) == before
        toolset.parse_arguments(toolset.tools["read_file"], json.dumps({"paths": BOOK, "limit": None}))


async def test_a_tool_name_gemini_refuses_is_offered_under_one_it_takes(provider_keys: None) -> None:
    foreign = MCPServer("viewer")

    @foreign.tool(name="3d_view")
    def view(item: str) -> str:
        return f"viewed {item}"

    with SERVERS["gemini"]([{"text": "ok"}]) as gemini:
        bad = [{"type": "function", "function": {"name": "3d_view", "parameters": {"type": "object"}}}]
        with pytest.raises(ModelError, match="Invalid function name"):
            await _send(gemini, bad)
        async with Toolset([ServerSpec("viewer", foreign)]) as toolset:
            assert list(toolset.tools) == ["_3d_view"]
            await _send(gemini, toolset.openai_specs())
            outcome = await toolset.call(toolset.tools["_3d_view"], {"item": "cube"})
    assert len(gemini.rejected) == 1 and outcome.text == "viewed cube"


# -- the stand-ins refuse what the real APIs refuse ------------------------------------------------------
ANTHROPIC_TOOL = {"name": "read", "input_schema": {"type": "object", "properties": {}}}


def _anthropic(messages: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"model": "m", "max_tokens": 100, "tools": [ANTHROPIC_TOOL], "messages": messages, **extra}


USE = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "read", "input": {}}]}
RESULT = {"type": "tool_result", "tool_use_id": "t1", "content": "x"}


@pytest.mark.parametrize(
    ("body", "refusal"),
    [
        ({"model": "m", "messages": [{"role": "user", "content": "hi"}]}, "max_tokens: Field required"),
        (
            _anthropic([{"role": "user", "content": "hi"}], tools=[{**ANTHROPIC_TOOL, "name": "a.b"}]),
            "name: String should match",
        ),
        (
            _anthropic(
                [{"role": "user", "content": "hi"}], tools=[{"name": "x", "input_schema": {"type": "string"}}]
            ),
            "Input should be 'object'",
        ),
        (
            _anthropic([{"role": "user", "content": "hi"}, USE]),
            "without `tool_result` blocks immediately after: t1",
        ),
        (
            _anthropic(
                [
                    {"role": "user", "content": "hi"},
                    USE,
                    {"role": "user", "content": [{"type": "text", "text": "and"}, RESULT]},
                ]
            ),
            "must come first",
        ),
        (
            _anthropic(
                [
                    {"role": "user", "content": "hi"},
                    {"role": "user", "content": [{**RESULT, "tool_use_id": "t9"}]},
                ]
            ),
            "unexpected `tool_use_id`",
        ),
        (
            _anthropic(
                [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": [{"type": "text", "text": " "}]},
                ]
            ),
            "non-whitespace text",
        ),
        (_anthropic([{"role": "system", "content": "hi"}]), "messages.0.role"),
        (
            _anthropic(
                [{"role": "user", "content": "hi"}, USE, {"role": "user", "content": [RESULT]}], tools=None
            ),
            "must define tools",
        ),
    ],
)
def test_the_anthropic_stand_in_refuses_what_the_messages_api_refuses(
    body: dict[str, Any], refusal: str
) -> None:
    assert any(refusal in problem for problem in anthropic_rules.problems(body))


def test_the_anthropic_stand_in_takes_a_well_formed_tool_exchange() -> None:
    body = _anthropic([{"role": "user", "content": "hi"}, USE, {"role": "user", "content": [RESULT]}])
    assert anthropic_rules.problems(body) == []


CALL = {"functionCall": {"id": "c1", "name": "read", "args": {}}, "thoughtSignature": "c2ln"}
ANSWER = {"functionResponse": {"id": "c1", "name": "read", "response": {"content": "x"}}}


def _gemini(
    contents: list[dict[str, Any]], parameters: dict[str, Any] | None = None, name: str = "read"
) -> dict[str, Any]:
    declaration: dict[str, Any] = {
        "name": name,
        "parameters": parameters or {"type": "OBJECT", "properties": {"a": {"type": "STRING"}}},
    }
    return {"contents": contents, "tools": [{"function_declarations": [declaration]}]}


HI = {"role": "user", "parts": [{"text": "hi"}]}


@pytest.mark.parametrize(
    ("body", "model", "refusal"),
    [
        (
            _gemini([HI], {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {}}),
            "gemini-3",
            'Unknown name "$defs"',
        ),
        (
            _gemini(
                [HI],
                {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
            ),
            "gemini-3",
            'Unknown name "additionalProperties"',
        ),
        (
            _gemini([HI], {"type": "object", "properties": {"n": {"type": "integer", "enum": [1, 2]}}}),
            "gemini-3",
            "only allowed for STRING",
        ),
        (
            _gemini([HI], {"type": "object", "properties": {"a": {"type": "array"}}}),
            "gemini-3",
            "items: missing field",
        ),
        (
            _gemini([HI], {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}),
            "gemini-3",
            "property is not defined",
        ),
        (_gemini([HI], name="3d_view"), "gemini-3", "Invalid function name"),
        (
            _gemini(
                [
                    HI,
                    {"role": "model", "parts": [{"functionCall": CALL["functionCall"]}]},
                    {"role": "user", "parts": [ANSWER]},
                ]
            ),
            "gemini-3",
            "missing a `thought_signature`",
        ),
        (
            _gemini([HI, {"role": "model", "parts": [CALL]}, {"role": "user", "parts": [ANSWER, ANSWER]}]),
            "gemini-3",
            "number of function response parts",
        ),
        (
            _gemini([HI, {"role": "model", "parts": [CALL]}, {"role": "user", "parts": [ANSWER]}]),
            "gemini-2.5-flash",
            'Unknown name "id"',
        ),
        (_gemini([HI, {"role": "model", "parts": []}]), "gemini-3", "must not be empty"),
    ],
)
def test_the_gemini_stand_in_refuses_what_generate_content_refuses(
    body: dict[str, Any], model: str, refusal: str
) -> None:
    assert any(refusal in problem for problem in gemini_rules.problems(body, model))


def test_the_gemini_stand_in_takes_a_well_formed_function_exchange() -> None:
    body = _gemini([HI, {"role": "model", "parts": [CALL]}, {"role": "user", "parts": [ANSWER]}])
    assert gemini_rules.problems(body, "gemini-3-flash-preview") == []


# -- errors, over each provider's wire -----------------------------------------------------------------
@EVERY_PROVIDER
async def test_an_overloaded_or_rate_limited_provider_is_retried(model_server: StartServer) -> None:
    # Anthropic says "overloaded" with 529; Gemini's 429 carries its wait in a RetryInfo, not a header.
    status = {"openai": 503, "anthropic": 529, "gemini": 429}
    server = model_server([{"status": 503}, {"status": 429, "retry_after": 0.2}, {"text": "fine"}])
    server.script[0]["status"] = status[server.family]  # each family's own "try later"
    client = ModelClient(server.litellm_model, api_base=server.api_base, base_delay=0.001, timeout=30)
    await client.check_ready()
    errors: list[str] = []
    reply = await client.complete(
        [{"role": "user", "content": "hi"}],
        [],
        lambda e: errors.append(e.text) if e.type == "error" else None,
    )
    assert reply.text == "fine" and len(server.requests) == 3
    assert len(errors) == 2 and "Retrying in 0.2s" in errors[1]


@EVERY_PROVIDER
async def test_a_request_the_provider_refuses_is_not_retried(model_server: StartServer) -> None:
    server = model_server([{"status": 401, "error": "invalid x-api-key"}])
    client = ModelClient(server.litellm_model, api_base=server.api_base, base_delay=0.001, timeout=30)
    await client.check_ready()
    with pytest.raises(ModelError, match="401"):
        await client.complete([{"role": "user", "content": "hi"}], [], _ignore)
    assert len(server.requests) == 1


@EVERY_PROVIDER
def test_a_resumed_session_replays_tool_history_each_provider_accepts(
    isolated_env: Path, model_server: StartServer, addons: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The stored history (calls, results, Gemini's thought signatures folded into call ids) goes
    # back to the provider on --continue; a shape it refuses would be a 400 here.
    server = model_server(
        [
            {"tool_calls": [call("r1", "read_file", {"paths": [BOOK], "limit": None})]},
            {"text": "Read it."},
            {"text": "Again."},
        ]
    )
    base = ["--addons-path", str(addons), "--model", server.litellm_model, "--api-base", server.api_base]
    assert main(["run", "read the book model", *base]) == 0
    assert main(["run", "and now?", "--continue", *base]) == 0
    capsys.readouterr()
    assert server.rejected == [] and len(server.requests) == 3
    assert "pages = fields.Integer()" in tool_messages(server.requests[2])["r1"]
