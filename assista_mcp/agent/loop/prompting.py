"""The agent's system prompt: base rules, the project's roots and series, project instructions
(AGENTS.md)."""

from __future__ import annotations

from pathlib import Path

from assista_mcp.config.settings import Settings
from odoo_tools.errors import AssistaError
from odoo_tools.project import Project
from odoo_tools.workspace import Workspace

INSTRUCTION_FILES = ("AGENTS.md", "ASSISTA.md")
MAX_INSTRUCTIONS_CHARS = 16_000  # per project: instructions must not crowd out the conversation

BASE_PROMPT = """\
You are assista-odoo, an engineer who builds and fixes Odoo addons.
Work through the tools; never invent file contents or tool results.
- Explore first: list_directory, project_map, list_modules, module_info, find_model, find_field,
  read_file and grep show how the project is built. Paths are relative to an addons root.
- Change files with edit_file (exact old_text -> new_text) or apply_patch; write_file for new files.
- After every change, validate: check_module or lint_module, then install_module / upgrade_module /
  test_module when a real Odoo is configured. Fix what the findings report and check again.
- Several independent read-only calls may go in one answer; they run concurrently.
- If a call is denied, do not repeat it: adapt, or explain what you would change.
- Finish with a short summary of what changed and how it was validated."""


def system_prompt(settings: Settings, server_instructions: dict[str, str] | None = None) -> str:
    """The system message for a run: base rules, the project's roots and series, the servers' own
    instructions."""
    parts = [BASE_PROMPT]
    if settings.addons_paths:
        roots = "\n".join(f"- {p}" for p in settings.addons_paths)
        parts.append(f"Addons roots:\n{roots}")
    # the series the server's tools and prompts read too (source > manifests > setting)
    project = Project.open(
        settings.addons_paths, odoo_path=settings.odoo_source(), series=settings.odoo_series
    )
    if (series := project.series().series) is not None:
        parts.append(f"Odoo series: {series}")
    parts += project_instructions(settings.addons_paths)
    for name, text in (server_instructions or {}).items():
        parts.append(f"Instructions from MCP server {name}:\n{text.strip()}")
    return "\n\n".join(parts)


def project_instructions(roots: list[Path], limit: int = MAX_INSTRUCTIONS_CHARS) -> list[str]:
    """``AGENTS.md`` / ``ASSISTA.md`` found at the top of each addons root, within ``limit`` chars."""
    sections: list[str] = []
    left = limit
    for root in roots:
        for name in INSTRUCTION_FILES:
            path = Path(root) / name
            real = _inside_root(root, name)
            if left <= 0 or real is None or not real.is_file():
                continue
            with real.open("rb") as handle:
                text = handle.read(left * 4 + 4).decode("utf-8", errors="replace").strip()
            if len(text) > left:
                text = text[:left] + f"\n[... cut: {name} is longer than the {limit}-character cap]"
            left -= len(text)
            sections.append(f"Project instructions from {path}:\n{text}")
    return sections


def _inside_root(root: Path, name: str) -> Path | None:
    """The real file, only when it stays inside the root (the sandbox's own check): a link out of
    the root must not feed the model secrets."""
    try:
        return Workspace([root]).resolve(name).path
    except AssistaError:  # absent, a link out of the root, or no such root
        return None
