"""Settings -> the Odoo runner's configuration. No MCP here: the CLI (check, doctor) uses it too."""

from __future__ import annotations

from pathlib import Path

from assista_mcp.config.settings import Settings
from odoo_tools.errors import AssistaError
from odoo_tools.runs import PgParams, RunnerConfig, find_odoo_bin, read_odoo_conf, split_addons_path


def runner_config(settings: Settings) -> RunnerConfig:
    """The runner configuration from settings; PG* variables sit between flags and odoo.conf."""
    conf = read_odoo_conf(settings.odoo_config) if settings.odoo_config else {}

    def above_conf(name: str) -> str | None:
        """A value given above the PG* variables (flag, ASSISTA_* env, project file), else None."""
        value = getattr(settings, name)
        if value is None or settings.origin(name) in ("odoo.conf", "default"):
            return None
        return value.get_secret_value() if hasattr(value, "get_secret_value") else str(value)

    pg = PgParams.resolve(
        host=above_conf("db_host"),
        port=above_conf("db_port"),
        user=above_conf("db_user"),
        password=above_conf("db_password"),
        conf=conf,
    )
    return RunnerConfig(
        addons_paths=list(settings.addons_paths),
        cache_dir=settings.cache_dir / "odoo",
        pg=pg,
        odoo_bin=settings.odoo_bin or _beside_odoo_conf(settings, conf),
        odoo_python=settings.odoo_python,
        db_prefix=settings.db_prefix,
        timeout=settings.odoo_timeout,
        use_cache=not settings.no_cache,
        keep_db=settings.keep_db,
        template_max_count=settings.template_max_count,
        template_max_age_days=settings.template_max_age_days,
    )


def _beside_odoo_conf(settings: Settings, conf: dict[str, str]) -> Path | None:
    """The odoo-bin of the Odoo whose addons odoo.conf lists, when --addons-path replaced that
    list (it names the modules to work on, not where Odoo is)."""
    if settings.odoo_config is None or settings.origin("addons_paths") == "odoo.conf":
        return None  # the runner looks beside the addons path it is given
    entries = split_addons_path(conf.get("addons_path", ""), settings.odoo_config.parent)
    try:
        return find_odoo_bin(None, conf_addons_paths=entries, search_path="")  # "": not PATH here
    except AssistaError:
        return None
