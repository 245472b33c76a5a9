"""``assista-odoo chat``: an interactive session with slash commands.

Lines are read from stdin (a terminal or a pipe); each one is a turn of the same session. Ctrl-C
during a turn cancels that turn and returns to the prompt; Ctrl-C or Ctrl-D at the prompt exits.
"""

from __future__ import annotations

import sys

from assista_mcp.agent.loop.agent_loop import AgentLoop
from assista_mcp.agent.model.client import ModelClient
from assista_mcp.agent.terminal.render import format_usage
from assista_mcp.agent.terminal.runner import Agent, run_turn_interruptible
from odoo_tools.errors import AssistaError

HELP = """\
/help              this list
/mode [MODE]       show or set the approval mode (read-only, ask, auto-edit, yolo)
/model [ID]        show or switch the model (any LiteLLM id)
/tokens            tokens and cost of this session
/clear             start a new session (the old one stays in `assista-odoo sessions list`)
/sessions          recent sessions
/undo [ID]         restore the files of the last agent turn (or turn ID)
/diff [ID|list]    what the last turn (or turn ID) changed; `list` lists the turns
/exit              leave (also Ctrl-D)"""


async def chat(agent: Agent) -> int:
    console = agent.console
    console.print(f"[dim]session {agent.loop.session_id} · {agent.loop.model.model} · /help for commands[/]")
    while True:
        if sys.stdin.isatty():
            console.print("[bold]›[/] ", end="")
        line = await agent.lines.readline()
        if line is None:
            return 0
        text = line.strip()
        if not text:
            continue
        if text.startswith("/"):
            if not _slash(agent, text):
                return 0
            continue
        await run_turn_interruptible(agent.loop, text)


def _slash(agent: Agent, text: str) -> bool:
    """Run a slash command; False means leave."""
    command, _, argument = text.partition(" ")
    argument = argument.strip()
    loop, console = agent.loop, agent.console
    try:
        if command in ("/exit", "/quit"):
            return False
        if command == "/help":
            console.print(HELP)
        elif command == "/mode":
            if argument:
                loop.approvals.set_mode(argument)
                loop.store.update(loop.session_id, mode=argument)
            console.print(f"mode: {loop.approvals.mode}")
        elif command == "/model":
            if argument:
                _switch_model(loop, argument)
            console.print(f"model: {loop.model.model}")
        elif command == "/tokens":
            info = loop.store.get(loop.session_id)
            console.print(f"session {info.id}: {info.steps} steps, {format_usage(info.usage)}")
        elif command == "/clear":
            _new_session(loop)
            console.print(f"new session {loop.session_id}")
        elif command == "/sessions":
            for info in loop.store.list_sessions(limit=10):
                console.print(f"{info.id}  {info.status:<11} {info.title[:60]}")
        elif command in ("/undo", "/diff"):
            _checkpoint_command(agent, command, argument)
        else:
            console.print(f"Unknown command {command}; /help lists them.")
    except AssistaError as exc:
        console.print(f"[red]{exc}[/]")
    return True


def _checkpoint_command(agent: Agent, command: str, argument: str) -> None:
    from rich.syntax import Syntax

    from assista_mcp.agent.safety.checkpointing import diff_turn, list_turns, undo_turn

    hooks = agent.safety.checkpoints
    if command == "/undo":
        agent.console.print(undo_turn(hooks.store, hooks.workspace, argument or None), markup=False)
    elif argument == "list":
        agent.console.print(list_turns(hooks.store), markup=False)
    else:
        diff = diff_turn(hooks.store, hooks.workspace, argument or None)
        agent.console.print(Syntax(diff.rstrip("\n"), "diff", theme="ansi_dark", word_wrap=True))


def _switch_model(loop: AgentLoop, model_id: str) -> None:
    old = loop.model
    loop.model = ModelClient(
        model_id, api_base=old.api_base, fallback_model=old.fallback_model, timeout=old.timeout
    )
    loop.store.update(loop.session_id, model=model_id)


def _new_session(loop: AgentLoop) -> None:
    info = loop.store.create(model=loop.model.model, mode=loop.approvals.mode)
    loop.reset(info.id)
