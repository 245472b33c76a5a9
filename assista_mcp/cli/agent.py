"""``assista-odoo run``, ``chat`` and ``sessions``: the bundled agent on the command line.

Exit codes of ``run``: 0 final answer, 1 stopped at --max-steps, the model failed, or the task's own
edits still fail validation after the fix rounds (the session is kept), 2 usage/environment error,
130 interrupted.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from assista_mcp.agent.loop.approvals import MODES
from assista_mcp.cli.common import (
    add_migrate_flags,
    add_odoo_flags,
    add_project_flags,
    positive_int,
    settings_from_args,
)
from assista_mcp.cli.output import add_format_flag, add_output_flag, emit
from assista_mcp.config.loading import load_settings
from assista_mcp.config.settings import Settings
from odoo_tools.errors import InvalidInput

if TYPE_CHECKING:
    from assista_mcp.agent.loop.sessions import SessionStore
    from assista_mcp.agent.terminal.runner import AgentOptions

EXIT_CODES = {"final": 0, "max_steps": 1, "error": 1, "interrupted": 130}


def add_parsers(subparsers: Any) -> None:
    run = subparsers.add_parser(
        "run", help="run the agent on one task", description="Run the bundled agent on one task."
    )
    run.add_argument("task", help="what to do, in plain words")
    _add_agent_flags(run)
    run.set_defaults(func=_run)

    chat = subparsers.add_parser(
        "chat", help="interactive agent session", description="Chat with the bundled agent (/help)."
    )
    _add_agent_flags(chat)
    chat.set_defaults(func=_chat)

    sessions = subparsers.add_parser("sessions", help="list, show, export or delete agent sessions")
    actions = sessions.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="recent sessions")
    listing.add_argument("--limit", type=int, default=20, help="at most this many (default: %(default)s)")
    add_format_flag(listing, "the list")
    for name, text in (("show", "a session's conversation"), ("delete", "delete a session")):
        action = actions.add_parser(name, help=text)
        action.add_argument("session_id", metavar="ID", help="id or unique prefix")
    export = actions.add_parser("export", help="a session as JSON or markdown")
    export.add_argument("session_id", metavar="ID", help="id or unique prefix")
    add_format_flag(export, "the session", choices=("json", "markdown"), default="json")
    add_output_flag(export)
    sessions.set_defaults(func=_sessions)


def _add_agent_flags(parser: argparse.ArgumentParser) -> None:
    add_project_flags(parser)
    add_odoo_flags(parser)
    add_migrate_flags(parser)
    group = parser.add_argument_group("agent")
    group.add_argument("--model", metavar="ID", help="LiteLLM model id (default: ASSISTA_MODEL)")
    group.add_argument("--fallback-model", metavar="ID", help="tried when the model keeps failing")
    group.add_argument("--api-base", metavar="URL", help="an OpenAI-compatible endpoint")
    group.add_argument("--mode", choices=MODES, help="approvals: read-only, ask (default), auto-edit, yolo")
    group.add_argument(
        "--max-steps", type=positive_int, metavar="N", help="model calls per turn (default 30)"
    )
    resume = group.add_mutually_exclusive_group()
    resume.add_argument("--session", metavar="ID", help="continue this session")
    resume.add_argument("--continue", dest="resume_latest", action="store_true", help="continue the latest")
    group.add_argument("--events", choices=("jsonl",), help="print the event stream as JSON lines")
    group.add_argument("--mcp-server", action="append", default=[], metavar="[NAME=]CMD", help="stdio server")
    group.add_argument("--mcp-url", action="append", default=[], metavar="[NAME=]URL", help="HTTP server")
    group.add_argument(
        "--auth-token-file",
        type=Path,
        metavar="FILE",
        help="bearer token for --mcp-url servers (default: ASSISTA_AUTH_TOKEN, else for a loopback "
        "URL the token file `serve --transport http` made in the data folder)",
    )
    group.add_argument(
        "--read-only-tool",
        action="append",
        default=[],
        metavar="NAME",
        help="treat this --mcp-server/--mcp-url tool as read-only (glob on server__tool; repeatable)",
    )
    safety = parser.add_argument_group("safety net")
    safety.add_argument(
        "--plugin", action="append", default=[], metavar="MODULE[:ATTR]", help="hooks plugin (repeatable)"
    )
    safety.add_argument(
        "--auto-commit", action="store_true", help="commit each turn's changes on your branch (opt-in)"
    )
    safety.add_argument(
        "--no-validate",
        dest="validate",
        action="store_false",
        help="do not check touched modules after a turn",
    )
    safety.add_argument(
        "--max-fix-rounds",
        type=_non_negative,
        default=3,
        metavar="N",
        help="fix rounds after checks (default 3)",
    )


def _non_negative(text: str) -> int:
    if text.isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 0")


def _options(args: argparse.Namespace) -> AgentOptions:
    settings = settings_from_args(args)
    _fail_fast(args, settings)
    from assista_mcp.agent.safety.safety_net import SafetyOptions
    from assista_mcp.agent.terminal.runner import AgentOptions

    return AgentOptions(
        settings=settings,
        session=args.session,
        resume_latest=args.resume_latest,
        events_jsonl=args.events == "jsonl",
        mcp_servers=args.mcp_server,
        mcp_urls=args.mcp_url,
        auth_token_file=args.auth_token_file,
        read_only_tools=args.read_only_tool,
        safety=SafetyOptions(
            plugins=args.plugin,
            auto_commit=args.auto_commit,
            validate=args.validate,
            max_fix_rounds=args.max_fix_rounds,
        ),
    )


def _fail_fast(args: argparse.Namespace, settings: Settings) -> None:
    """What can be refused in milliseconds is, before the agent's imports (LiteLLM alone takes
    seconds): no model, a common provider's key unset, a malformed token for --mcp-url."""
    from assista_mcp.agent.model.credentials import quick_check
    from assista_mcp.config.auth_token import resolve_token

    quick_check(settings.model, settings.api_base)
    env_token = settings.auth_token.get_secret_value() if settings.auth_token else None
    if args.mcp_url and (args.auth_token_file or env_token):
        resolve_token(settings.home, args.auth_token_file, env_token)


def _run(args: argparse.Namespace) -> int:
    if not args.task.strip():
        raise InvalidInput("The task is empty.", 'Say what to do: assista-odoo run "add a field ..."')
    options = _options(args)
    from assista_mcp.agent.terminal.runner import open_agent, run_turn_interruptible

    async def main() -> int:
        async with open_agent(options) as agent:
            result = await run_turn_interruptible(agent.loop, args.task)
            validation = agent.safety.validation
            if result.status == "final" and validation and not all(r.passed for r in validation.reports):
                return 1  # answered, but what the task changed still fails its checks
            return EXIT_CODES[result.status]

    return anyio.run(main)


def _chat(args: argparse.Namespace) -> int:
    options = _options(args)
    from assista_mcp.agent.terminal.chat import chat
    from assista_mcp.agent.terminal.runner import open_agent

    async def main() -> int:
        async with open_agent(options) as agent:
            return await chat(agent)

    return anyio.run(main)


def _sessions(args: argparse.Namespace) -> int:
    from assista_mcp.agent.loop.sessions import SessionStore

    store = SessionStore.in_home(load_settings().home)
    try:
        if args.action == "list":
            infos = store.list_sessions(args.limit)
            if args.format == "json":
                print(json.dumps([info.model_dump() for info in infos], indent=2))
                return 0
            if not infos:
                print("No sessions yet: start one with `assista-odoo run` or `assista-odoo chat`.")
            for info in infos:
                when = datetime.fromtimestamp(info.updated).strftime("%Y-%m-%d %H:%M")
                print(f"{info.id}  {when}  {info.status:<11} {info.model:<28} {info.title[:60]}")
        elif args.action == "show":
            print(store.export_markdown(args.session_id))
        elif args.action == "delete":
            print(f"deleted session {store.delete(args.session_id).id}")
        else:
            _export(store, args)
    finally:
        store.close()
    return 0


def _export(store: SessionStore, args: argparse.Namespace) -> None:
    if args.format == "json":
        text = json.dumps(store.export_json(args.session_id), indent=2, ensure_ascii=False)
    else:
        text = store.export_markdown(args.session_id)
    emit(text, args.output)
