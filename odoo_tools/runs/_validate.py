"""Install, upgrade or test modules in a real Odoo, in a disposable database, and say why not.

Find odoo-bin; check what Odoo would refuse up front; clone the template that holds the dependency
closure (built on first use, see ``_dbcache``) or start empty; run odoo-bin; read module states from
the database and findings/tests from the log; drop the database. Cancellation kills odoo-bin's
process group and still drops it: the cleanup is synchronous, so it cannot be interrupted.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence

from odoo_tools.addons import AddonSet, discover_addons
from odoo_tools.findings import Finding
from odoo_tools.odoo_log import OdooLogReport, ProgressTracker, parse_odoo_log
from odoo_tools.runs._chores import Chores, ProgressFn, RunState
from odoo_tools.runs._dbcache import RUN_LOCK_PREFIX, TemplateCache, TemplateInfo, template_key
from odoo_tools.runs._externals import interpreter_of
from odoo_tools.runs._odoo_bin import (
    OdooBin,
    OdooRun,
    RunSpec,
    build_argv,
    child_env,
    find_odoo_bin,
    free_port,
    inspect_odoo,
    run_odoo,
)
from odoo_tools.runs._pg import Pg, new_db_name
from odoo_tools.runs._plan import (
    RunnerConfig,
    auto_install_offers,
    check_modules,
    dependencies,
    held_record,
    template_mismatch,
)
from odoo_tools.runs._preflight import preflight
from odoo_tools.runs._result import (
    Action,
    TemplateUse,
    ValidationResult,
    answer,
    dependency_failure,
    not_run,
)
from odoo_tools.runs._warm_runs import WarmCrashed, WarmRuns
from odoo_tools.signals import terminate_like_interrupt

__all__ = ["OdooRunner", "RunnerConfig"]


class OdooRunner:
    """Validations against one Odoo and one PostgreSQL, sharing one template cache."""

    def __init__(self, config: RunnerConfig) -> None:
        self.config = config
        self.pg = Pg(config.pg, prefix=config.db_prefix)
        self.cache = TemplateCache(
            self.pg,
            config.cache_dir,
            max_count=config.template_max_count,
            max_age_days=config.template_max_age_days,
            layered=config.layered_templates,
        )
        self.log_dir = config.cache_dir / "logs"
        self._odoo: OdooBin | None = None
        self._core: AddonSet | None = None
        self._chores = Chores()
        self._warm = WarmRuns(self.log_dir) if config.warm else None

    def close(self) -> None:  # the warm worker, if any (it also ends when our process does)
        if self._warm is not None:
            self._warm.close()

    async def odoo(self) -> OdooBin:
        if self._odoo is None:
            path = find_odoo_bin(self.config.odoo_bin, conf_addons_paths=self.config.addons_paths)
            self._odoo = await inspect_odoo(path, self.config.odoo_python)
        return self._odoo

    def validate_sync(self, action: Action, modules: Sequence[str], **options: object) -> ValidationResult:
        """Blocking form: returns once the run's database is gone too (a spare clone may still
        be in the making). Loops over many modules overlap better with ``validate`` + ``wait_idle``.
        SIGTERM/SIGHUP clean up like Ctrl-C meanwhile: no odoo-bin and no database is left behind."""
        with terminate_like_interrupt():
            result = asyncio.run(self.validate(action, modules, **options))  # type: ignore[arg-type]
            self.wait_idle(only="drop-")
        return result

    async def validate(
        self,
        action: Action,
        modules: Sequence[str],
        *,
        demo: bool = False,
        use_cache: bool | None = None,
        keep_db: bool | None = None,
        on_progress: ProgressFn | None = None,
    ) -> ValidationResult:
        started = time.monotonic()
        targets = check_modules(modules, action)
        odoo = await self.odoo()
        addons = self._addons(odoo)
        run = RunState(action, targets, new_db_name(action, self.pg.prefix), demo, on_progress)
        use_cache = self.config.use_cache if use_cache is None else use_cache
        keep = self.config.keep_db if keep_db is None else keep_db
        async with self.pg.async_advisory_lock(RUN_LOCK_PREFIX + run.database):  # "in use" for prune
            finished = False
            try:
                try:
                    result = await self._validate(run, odoo, addons, use_cache)
                except WarmCrashed as crash:  # said, then the whole validation again, cold
                    self.cache.drop_database(run.database)
                    run.fall_back(f"{crash}; validated again with a cold odoo-bin")
                    result = await self._validate(run, odoo, addons, use_cache)
                finished = True
            finally:
                cleanup = time.monotonic()
                if finished and not keep and self.config.background_drop:
                    self._chores.start(f"drop-{run.database}", lambda: self.cache.drop_database(run.database))
                elif not (finished and keep):  # failed or cancelled: drop now, before anything else
                    self.cache.drop_database(run.database)
                log_path = run.write_log(self.log_dir)
                run.spent("cleanup", cleanup)
        result.duration_seconds = round(time.monotonic() - started, 3)
        result.timings = run.timings
        result.log_path = str(log_path)
        result.warm = run.warm
        kept = keep and result.template.status != "build_failed"  # no clone was ever made
        result.database = run.database if kept else ""
        return result

    def _addons(self, odoo: OdooBin) -> AddonSet:
        """The project's addons (read on every call: they change) over Odoo's own (read once)."""
        if self._core is None:
            self._core = discover_addons([], readonly_roots=odoo.core_addons)
        core_roots = {os.path.realpath(p) for p in odoo.core_addons}
        roots = [p for p in self.config.addons_paths if os.path.realpath(p) not in core_roots]
        project = discover_addons(roots, linked_roots=self.config.linked_roots)
        return AddonSet(addons={**self._core.addons, **project.addons})

    async def _validate(
        self, run: RunState, odoo: OdooBin, addons: AddonSet, use_cache: bool
    ) -> ValidationResult:
        refused = await self._preflight(run, odoo, addons)
        if refused:
            return self._refused(run, odoo, addons, refused)
        template = await self._prepare_database(run, odoo, addons, use_cache)
        if template.status == "build_failed":
            return self._dependency_failure(run, odoo, template)
        if self._warm is not None and run.warm.status == "off" and template.name:
            self._pick_worker(run, odoo, addons, template.name)
        if run.action == "upgrade":
            first = await self._odoo_run(run, odoo, RunSpec(run.database, install=run.modules, demo=run.demo))
            if not all(s == "installed" for s in self._states(run).values()):
                return self._result(run, odoo, template, first, upgraded=())
        spec = self._target_spec(run)
        last = await self._odoo_run(run, odoo, spec)
        if spec.test_modules and last[1].port_busy:  # another process took the port meanwhile
            last = await self._odoo_run(run, odoo, self._target_spec(run))
        return self._result(run, odoo, template, last, upgraded=last[1].loaded_modules)

    def _pick_worker(self, run: RunState, odoo: OdooBin, addons: AddonSet, template: str) -> None:
        assert self._warm is not None and self._core is not None
        argv, env, record = self._argv(odoo, RunSpec(run.database)), self._env(), self.cache.record(template)
        run.worker, run.warm = self._warm.worker_for(odoo, argv, env, record, addons, self._core.addons)

    def _target_spec(self, run: RunState) -> RunSpec:
        if run.action == "upgrade":
            return RunSpec(run.database, update=run.modules, demo=run.demo)
        tests = run.modules if run.action == "test" else ()
        port = free_port() if tests else None
        return RunSpec(run.database, install=run.modules, test_modules=tests, demo=run.demo, http_port=port)

    # -- the database to work in -----------------------------------------------------------------
    async def _prepare_database(
        self, run: RunState, odoo: OdooBin, addons: AddonSet, use_cache: bool
    ) -> TemplateUse:
        since = time.monotonic()
        if not use_cache:
            self.pg.create(run.database)
            run.spent("database", since)
            return TemplateUse(status="disabled")
        explicit, closure = dependencies(addons, run.modules)
        folders = [(name, addons.addons[name].path) for name in closure if name in addons]
        key = template_key(odoo.version, run.demo, self.cache.data_dir, folders, auto_install_offers(addons))
        run.spent("key", since)
        info = TemplateInfo(name="", key=key, odoo_version=odoo.version, demo=run.demo, modules=closure)
        run.progress(0, 0, "preparing the dependencies template")

        async def build(scratch: str) -> TemplateInfo | bool:
            spec = RunSpec(scratch, install=explicit, demo=run.demo)
            await self._odoo_run(run, odoo, spec, phase="template")
            held = self.pg.held_modules(scratch)
            if not all(held.get(name) == "installed" for name in explicit):
                return False
            return held_record(info, held, addons)

        since = time.monotonic()
        outcome = await self.cache.clone(
            key, run.database, build, info, accept=lambda record: template_mismatch(record, addons)
        )
        run.spent("database", since)
        if self.config.spare_clone and outcome.status != "build_failed":
            self._chores.start(f"spare-{key[:8]}", lambda: self.cache.refill_spare(key))
        if outcome.rebuilt_because:  # said in the answer and the run's log, never silent
            run.log_parts.append(
                f"# assista-odoo: template {outcome.template} rebuilt: {outcome.rebuilt_because}\n"
            )
        return TemplateUse(
            status=outcome.status,
            name=outcome.template,
            build_seconds=outcome.build_seconds,
            spare=outcome.spare,
            rebuilt_because=outcome.rebuilt_because,
        )

    def wait_idle(self, only: str = "") -> None:
        """Wait for background chores (``only`` those whose name starts so: "drop-", "spare-")."""
        self._chores.wait(only)

    # -- running odoo-bin --------------------------------------------------------------------------
    async def _odoo_run(
        self, run: RunState, odoo: OdooBin, spec: RunSpec, phase: str = ""
    ) -> tuple[OdooRun, OdooLogReport]:
        phase = phase or ("test" if spec.test_modules else "upgrade" if spec.update else "install")
        argv = self._argv(odoo, spec)
        tracker = ProgressTracker()

        def on_line(line: str) -> None:
            moved = tracker.feed(line)
            if moved is not None:
                k, n = moved
                doing = f"module {tracker.module} ({k}/{n})" if k else f"{n} modules"
                run.progress(k, n, f"{phase}: loading {doing}")

        run.log_parts.append(f"# assista-odoo {phase}: {' '.join(argv)}\n")
        since = time.monotonic()
        odoo_run = None
        if run.worker is not None and self._warm is not None and phase != "template":
            command = len(odoo.command())
            odoo_run = await self._warm.run(run.worker, run.warm, argv, command, self.config.timeout, on_line)
        if odoo_run is None:
            odoo_run = await run_odoo(argv, env=self._env(), timeout=self.config.timeout, on_line=on_line)
        run.spent("odoo_template" if phase == "template" else "odoo", since)
        run.log_parts.append(odoo_run.log)
        run.log_parts.append(f"# exit_code={odoo_run.returncode} seconds={odoo_run.seconds:.2f}\n")
        report = parse_odoo_log(odoo_run.log, roots=self.config.addons_paths, modules=run.modules)
        return odoo_run, report

    def _argv(self, odoo: OdooBin, spec: RunSpec) -> list[str]:
        cfg = self.config
        return build_argv(odoo, spec, addons_paths=cfg.addons_paths, data_dir=self.cache.data_dir, pg=cfg.pg)

    def _env(self) -> dict[str, str]:
        env = child_env(self.config.pg, self.config.base_env or os.environ, self.cache.data_dir)
        env.update(self.config.extra_env)
        return env

    def _states(self, run: RunState) -> dict[str, str]:
        return self.pg.module_states(run.database, run.modules)

    # -- answers ---------------------------------------------------------------------------------
    def _result(
        self, run: RunState, odoo: OdooBin, template: TemplateUse, last: tuple[OdooRun, OdooLogReport],
        upgraded: Sequence[str],
    ) -> ValidationResult:  # fmt: skip
        states = self._states(run)
        return answer(run.action, run.modules, states, last, odoo.version, template, upgraded)

    def _dependency_failure(self, run: RunState, odoo: OdooBin, template: TemplateUse) -> ValidationResult:
        log = "".join(run.log_parts)
        report = parse_odoo_log(log, roots=self.config.addons_paths, modules=run.modules)
        findings = dependency_failure(log, report, template.name)
        return not_run(run.action, run.modules, findings, odoo.version, template, state="absent")

    async def _preflight(self, run: RunState, odoo: OdooBin, addons: AddonSet) -> list[Finding]:
        since = time.monotonic()
        env = child_env(self.config.pg, self.config.base_env or os.environ)
        python = interpreter_of(odoo.path, odoo.python)
        roots = [*self.config.addons_paths, *odoo.core_addons]
        findings = await preflight(addons, run.modules, python=python, roots=roots, env=env, facts=odoo.facts)
        run.spent("preflight", since)
        return findings

    def _refused(
        self, run: RunState, odoo: OdooBin, addons: AddonSet, findings: list[Finding]
    ) -> ValidationResult:
        """Odoo would refuse before installing anything: say so without running it."""
        run.log_parts.append("# assista-odoo: not run, the manifests say Odoo would refuse:\n")
        run.log_parts += [f"#   {f.location()}: {f.message}\n" for f in findings]
        skipped = TemplateUse(status="skipped")
        return not_run(run.action, run.modules, findings, odoo.version, skipped, known=addons.addons)
