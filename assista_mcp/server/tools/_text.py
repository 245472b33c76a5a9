"""What a model reads: plain text renderings of tool answers (the structured content goes alongside).

A JSON dump escapes every newline of a file or a finding; a model reads code better as code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, cast

from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel

from odoo_tools.files import GrepResult, ReadFileResult
from odoo_tools.findings import Finding


class Dumpable(Protocol):
    def model_dump(self, *, mode: str) -> dict[str, Any]: ...


M = TypeVar("M", bound=Dumpable)


def answer(result: M, text: str, notes: Sequence[str] = ()) -> M:
    """Text for the model to read, structured content for programs: the same answer twice.

    The SDK accepts a ``CallToolResult`` from any tool and validates its structured content
    against the declared return model, so the tool keeps its typed signature and output schema.
    """
    blocks = [TextContent(type="text", text=text)]
    blocks += [TextContent(type="text", text=note) for note in notes]
    sent = CallToolResult(content=list(blocks), structured_content=result.model_dump(mode="json"))
    return cast(M, sent)


def readable(result: object) -> object:
    """A model answer that has no text of its own (not already a ``CallToolResult``) gets its
    structured content rendered as plain text, instead of the SDK's JSON dump."""
    if not isinstance(result, BaseModel) or isinstance(result, CallToolResult):
        return result
    data = result.model_dump(mode="json")
    return CallToolResult(content=[TextContent(type="text", text=plain_text(data))], structured_content=data)


def plain_text(data: object, indent: str = "") -> str:
    """Structured content as indented ``key: value`` lines (YAML-like): multi-line text (a diff, a
    tree, a traceback) is shown as it is, under its key, instead of one line of escaped newlines.
    Empty values are left out: the structured content has them all."""
    lines: list[str] = []
    _emit(data, indent, lines)
    return "\n".join(lines) + "\n"


def _emit(data: object, indent: str, lines: list[str]) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            if value is None or value == "" or value == [] or value == {}:
                continue
            if isinstance(value, str) and "\n" in value:
                lines.append(f"{indent}{key}: |")
                lines.extend(f"{indent}  {line}" for line in value.rstrip("\n").split("\n"))
            elif isinstance(value, dict) or (isinstance(value, list) and not _scalars(value)):
                lines.append(f"{indent}{key}:")
                _emit(value, indent + "  ", lines)
            elif isinstance(value, list):
                lines.append(f"{indent}{key}: {', '.join(_scalar(v) for v in value)}")
            else:
                lines.append(f"{indent}{key}: {_scalar(value)}")
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, dict | list):
                nested: list[str] = []
                _emit(item, indent + "  ", nested)
                if nested:
                    nested[0] = f"{indent}- {nested[0][len(indent) + 2 :]}"
                lines.extend(nested or [f"{indent}- {{}}"])
            else:
                lines.append(f"{indent}- {_scalar(item)}")
    else:
        lines.append(f"{indent}{_scalar(data)}")


def _scalars(values: list[object]) -> bool:
    return all(not isinstance(v, dict | list) and not (isinstance(v, str) and "\n" in v) for v in values)


def _scalar(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def read_text(result: ReadFileResult) -> str:
    """Each file under a header line (path, lines shown, size), its text as it is."""
    parts = []
    for item in result.files:
        if item.error is not None:
            parts.append(f"==> {item.path}: not read <==\n{item.error}\n")
            continue
        details = []
        if item.start_line is not None and item.end_line is not None:
            details.append(f"lines {item.start_line}-{item.end_line} of {item.total_lines}")
        if item.size is not None:
            details.append(f"{item.size} bytes")
        if item.encoding == "base64":
            details.append("base64")
        if item.truncated:
            details.append("cut by the output cap")
        header = f"==> {item.path} ({', '.join(details)}) <==" if details else f"==> {item.path} <=="
        content = item.content or ""
        parts.append(f"{header}\n{content}" + ("" if content.endswith("\n") or not content else "\n"))
    if result.note:
        parts.append(f"Note: {result.note}\n")
    return "\n".join(parts) if parts else "No files read.\n"


def grep_text(result: GrepResult) -> str:
    """``path:line:text`` per match (context lines as ``path-line-text``), as grep prints them."""
    lines = [
        f"{len(result.matches)} match(es) for {result.pattern!r} in {result.files_matched} file(s) "
        f"({result.files_searched} searched)" + (", truncated" if result.truncated else "")
    ]
    for match in result.matches:
        first = match.line - len(match.before)
        lines += [f"{match.path}-{first + i}-{text}" for i, text in enumerate(match.before)]
        lines.append(f"{match.path}:{match.line}:{match.text}")
        lines += [f"{match.path}-{match.line + 1 + i}-{text}" for i, text in enumerate(match.after)]
        if match.before or match.after:
            lines.append("--")
    if result.note:
        lines.append(f"Note: {result.note}")
    return "\n".join(lines) + "\n"


def finding_text(finding: Finding) -> str:
    """``path:line: severity [source code symbol] message``, then the hint on its own line."""
    label = f"{finding.source} {finding.rule()}" if finding.source else finding.rule()
    text = f"{finding.location()}: {finding.severity} [{label}] {finding.message}"
    if finding.hint:
        text += f"\n  hint: {finding.hint}"
    return text
