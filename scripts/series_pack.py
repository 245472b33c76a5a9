"""Make the series pack of one Odoo: every LGPL Community module installed (no demo), then dumped.

    .venv/bin/python scripts/series_pack.py --python LAB/venv/bin/python --odoo-bin LAB/src/odoo-bin \
        -c LAB/odoo.conf --db pack_18               # -> odoo_tools/series/packs/<series>.json.xz

Regenerating the bundled packs is one command per lab (/work/labs/README.txt), e.g. for 18.0:

    nice -n 5 .venv/bin/python scripts/series_pack.py --python /work/labs/odoo18/venv/bin/python \
        --odoo-bin /work/labs/odoo18/src/odoo-bin -c /work/labs/odoo18/odoo.conf --db pack_18

Steps: ask that Odoo which modules are on its addons path (``pack_maker/dump.py modules``); choose
the ones to install (``pack_maker.choose_modules``: no test_*/hw_*, LGPL only, external dependencies
met); install them into ``--db`` with odoo-bin (Odoo commits after each module: when one fails, it is
left out with the last error line as the reason and the run goes on with the rest); dump the database's
registry (``dump.py pack``) and write the pack, with what was left out and why in ``made_by.skipped``.
A database that already holds the install is reused (the install step then only adds what is missing).
``--load-only`` skips the install: the registry is built in memory from every chosen module on top of
``--db`` (which must have base): models, fields and methods only, a quick stand-in for a full pack.
"""

from __future__ import annotations

import argparse
import configparser
import datetime
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg2

from odoo_tools.series.pack_maker import PACKS, ask_odoo, choose_modules, write_pack

LOADING = re.compile(r"odoo\.modules\.loading: Loading module (\w+) \(\d+/\d+\)")
LOG_ERROR = re.compile(r" (?:ERROR|CRITICAL) \S+ (\S+): (.*)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="the Odoo's own interpreter")
    parser.add_argument("--odoo-bin", required=True, type=Path)
    parser.add_argument("-c", "--config", required=True, type=Path, help="its odoo.conf")
    parser.add_argument("--db", required=True, help="the database to install into (created when missing)")
    parser.add_argument("--load-only", action="store_true", help="no install: models/fields/methods only")
    parser.add_argument("--out", type=Path, help="default: odoo_tools/series/packs/<series>.json.xz")
    parser.add_argument("--logs", type=Path, default=Path(tempfile.gettempdir()) / "series_pack")
    args = parser.parse_args()
    args.logs.mkdir(parents=True, exist_ok=True)
    available = _dump(args, ["modules"])["modules"]
    chosen, skipped = choose_modules(available)
    print(f"{len(available)} modules on the addons path, {len(chosen)} to install, {len(skipped)} left out")
    started = time.monotonic()
    if args.load_only:
        data = _dump(args, ["pack", "-d", args.db, "--load-all", ",".join(chosen)])
    else:
        _install(args, chosen, skipped)
        data = _dump(args, ["pack", "-d", args.db])
    made_by = data["made_by"]
    made_by["date"] = datetime.date.today().isoformat()
    made_by["skipped"] = dict(sorted({**skipped, **made_by.pop("load_failed", {})}.items()))
    target = args.out or PACKS / f"{data['series']}.json.xz"
    size = write_pack(data, target)
    print(
        f"{target}: {size / 1e6:.2f} MB, {len(data['modules'])} modules, {len(data['models'])} models,"
        f" {len(data.get('views', {}))} views; {time.monotonic() - started:.0f} s"
    )
    return 0


def _dump(args: argparse.Namespace, what: list[str]) -> dict[str, Any]:
    try:
        return ask_odoo(args.python, args.odoo_bin, args.config, what)
    except RuntimeError as error:
        raise SystemExit(f"{error} (its error is above)") from None


def _connect(config: Path, database: str) -> psycopg2.extensions.connection:
    conf = configparser.ConfigParser()
    conf.read(config)
    options = conf["options"]
    return psycopg2.connect(
        dbname=database,
        host=options.get("db_host", "127.0.0.1"),
        port=options.get("db_port", "5432"),
        user=options.get("db_user", "odoo"),
        password=options.get("db_password", ""),
    )


def _states(args: argparse.Namespace) -> dict[str, str]:
    try:
        with _connect(args.config, args.db) as conn, conn.cursor() as cr:
            cr.execute("SELECT name, state FROM ir_module_module")
            return dict(cr.fetchall())
    except psycopg2.Error:
        return {}  # no database yet, or base not installed


def _install(args: argparse.Namespace, chosen: list[str], skipped: dict[str, str]) -> None:
    help_text = subprocess.run(
        [args.python, str(args.odoo_bin), "--help"], capture_output=True, text=True
    ).stdout
    demo = [] if "--with-demo" in help_text else ["--without-demo=all"]  # 19.0: demo is opt-in
    for attempt in range(1, 60):
        states = _states(args)
        todo = [m for m in chosen if m not in skipped and states.get(m) != "installed"]
        if not todo:
            return
        log = args.logs / f"{args.db}-install-{attempt}.log"
        print(f"install attempt {attempt}: {len(todo)} modules, log {log}", flush=True)
        command = [
            args.python,
            str(args.odoo_bin),
            "-c",
            str(args.config),
            "-d",
            args.db,
            "-i",
            ",".join(["base", *todo] if not states else todo),
            "--stop-after-init",
            *demo,
        ]
        with log.open("w") as out:
            code = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode
        text = log.read_text(encoding="utf-8", errors="replace")
        states = _states(args)
        if code == 0:
            for module in todo:
                if states.get(module) != "installed":
                    skipped[module] = f"not installed by odoo-bin -i (state {states.get(module, 'unknown')})"
            return
        loading = LOADING.findall(text)
        culprit = next((m for m in reversed(loading) if states.get(m) != "installed"), None)
        if culprit is None:
            raise SystemExit(f"odoo-bin failed (exit {code}) before installing a module: see {log}")
        errors = [f"{logger}: {message}" for logger, message in LOG_ERROR.findall(text)]
        reason = errors[0][:300] if errors else f"odoo-bin exit {code}"
        skipped[culprit] = f"install failed: {reason}"
        print(f"  {culprit} failed: {reason}", flush=True)
        for module in chosen:  # its dependants cannot install either
            if module not in skipped and _needs(module, culprit, chosen, args):
                skipped[module] = f"depends on {culprit} (install failed)"
    raise SystemExit("too many failed install attempts")


_DEPENDS: dict[str, list[str]] = {}


def _needs(module: str, culprit: str, chosen: list[str], args: argparse.Namespace) -> bool:
    if not _DEPENDS:
        _DEPENDS.update({n: list(i["depends"]) for n, i in _dump(args, ["modules"])["modules"].items()})
    todo, seen = list(_DEPENDS.get(module, ())), set()
    while todo:
        name = todo.pop()
        if name == culprit:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(_DEPENDS.get(name, ()))
    return False


if __name__ == "__main__":
    sys.exit(main())
