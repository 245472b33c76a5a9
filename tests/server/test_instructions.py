"""The server's INSTRUCTIONS (and the bundled agent's base prompt) name tools a host can call:
every tool name in the text is one of the registered tools (a renamed or removed tool left in the
text would send a model to nothing)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from assista_mcp.agent.loop.prompting import BASE_PROMPT
from assista_mcp.server.mcp_server import INSTRUCTIONS, TOOLS
from assista_mcp.server.tools._base import ToolSpec

# What a tool's name looks like in prose: snake_case words, and the one-word tools by name.
_ONE_WORD_TOOLS = {spec.name for spec in TOOLS if "_" not in spec.name}
_NAME = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\b(?:" + "|".join(sorted(_ONE_WORD_TOOLS)) + r")\b")


def _properties(schema: Any) -> Iterator[str]:
    """Every property name of a JSON schema, nested ones included (``edits[].old_text``)."""
    if isinstance(schema, dict):
        yield from schema.get("properties", {})
        for value in schema.values():
            yield from _properties(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _properties(value)


def names_not_registered(text: str, tools: Sequence[ToolSpec]) -> set[str]:
    """The tool-like names of ``text`` that are neither a registered tool nor a parameter in the
    schema of a tool the text names (``edit_file (exact old_text -> new_text)``)."""
    by_name = {spec.name: spec for spec in tools}
    named = set(_NAME.findall(text))
    schemas = [by_name[name].build().parameters for name in named & by_name.keys()]
    parameters = {name for schema in schemas for name in _properties(schema)}
    return named - by_name.keys() - parameters


def test_every_tool_the_instructions_name_is_registered() -> None:
    assert {"grep"} == _ONE_WORD_TOOLS  # a new one-word tool is looked for too
    assert names_not_registered(INSTRUCTIONS, TOOLS) == set()
    assert {"read_file", "grep", "test_module"} <= set(_NAME.findall(INSTRUCTIONS))


def test_every_tool_the_agents_own_prompt_names_is_registered() -> None:
    assert names_not_registered(BASE_PROMPT, TOOLS) == set()
    assert {"list_directory", "apply_patch", "install_module"} <= set(_NAME.findall(BASE_PROMPT))


def test_a_name_that_is_no_tool_is_caught() -> None:
    made_up = INSTRUCTIONS + "- Remove a module with delete_module; edit_file takes old_text, not old_path.\n"
    assert names_not_registered(made_up, TOOLS) == {"delete_module", "old_path"}
