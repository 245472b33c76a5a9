"""Project instructions: AGENTS.md / ASSISTA.md at the top of an addons root join the system prompt."""

from __future__ import annotations

from pathlib import Path

from assista_mcp.agent.loop.prompting import project_instructions, system_prompt
from assista_mcp.config.settings import Settings
from tests.safety.conftest import RunAgent, StartServer

RULE = "Always write field labels in British English."


def test_agents_md_reaches_the_model_in_the_system_message(
    run_agent: RunAgent, model_server: StartServer, addons: Path
) -> None:
    (addons / "AGENTS.md").write_text(f"# House rules\n{RULE}\n", encoding="utf-8")
    server = model_server([{"text": "Noted."}])
    assert run_agent(server, addons, "hello", "--no-validate")[0] == 0
    system = server.requests[0]["messages"][0]
    assert system["role"] == "system" and RULE in system["content"]
    assert f"Project instructions from {addons / 'AGENTS.md'}" in system["content"]


def test_both_files_of_every_root_in_order(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    (first / "AGENTS.md").write_text("one", encoding="utf-8")
    (first / "ASSISTA.md").write_text("two", encoding="utf-8")
    (second / "ASSISTA.md").write_text("three", encoding="utf-8")
    sections = project_instructions([first, second])
    assert [s.rsplit("\n", 1)[-1] for s in sections] == ["one", "two", "three"]
    prompt = system_prompt(Settings(addons_paths=[first, second]))
    assert prompt.index("one") < prompt.index("two") < prompt.index("three")


def test_instructions_are_capped(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_text("x" * 50_000, encoding="utf-8")
    (tmp_path / "ASSISTA.md").write_text("never reached", encoding="utf-8")
    sections = project_instructions([tmp_path], limit=1000)
    assert len(sections) == 1
    assert sections[0].count("x") == 1000 and "longer than the 1000-character cap" in sections[0]


def test_no_file_no_section_and_links_out_of_the_root_are_ignored(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "secret.txt"
    root.mkdir()
    assert project_instructions([root]) == []
    outside.write_text("API_KEY=do-not-send", encoding="utf-8")
    (root / "AGENTS.md").symlink_to(outside)
    assert project_instructions([root]) == []
    assert "do-not-send" not in system_prompt(Settings(addons_paths=[root]))


def test_the_prompt_names_the_series_the_manifests_say_as_the_server_does(tmp_path: Path) -> None:
    module = tmp_path / "shop"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'name': 'Shop', 'version': '17.0.1.0.0'}", encoding="utf-8")
    assert "Odoo series: 17.0" in system_prompt(Settings(addons_paths=[tmp_path]))
    assert "Odoo series: 17.0" in system_prompt(Settings(addons_paths=[tmp_path], odoo_series="18.0"))
    assert "Odoo series" not in system_prompt(Settings(addons_paths=[tmp_path / "shop" / "empty"]))
