"""load_settings: one precedence everywhere, CLI > ASSISTA_* env > project file > odoo.conf > defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from assista_mcp.config.loading import load_settings
from assista_mcp.config.odoo_config import runner_config
from assista_mcp.config.project_file import TrustStore
from odoo_tools.errors import ConfigError


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "odoo.conf").write_text(
        "[options]\naddons_path = conf_addons\ndb_host = conf-host\ndb_user = conf-user\n"
        "db_port = 5433\ndb_password = False\n",
        encoding="utf-8",
    )
    (tmp_path / "assista-odoo.toml").write_text(
        f'odoo-config = "{tmp_path / "odoo.conf"}"\n'
        'db-user = "file-user"\nmodel = "file-model"\nmax_steps = 7\n',
        encoding="utf-8",
    )
    return tmp_path


def test_each_layer_wins_over_the_ones_below(project: Path) -> None:
    env = {"ASSISTA_MODEL": "env-model", "ASSISTA_MAX_STEPS": "9", "ASSISTA_HOME": str(project / "h")}
    TrustStore(project / "h").trust(project / "assista-odoo.toml")  # it names an odoo.conf and db-user
    settings = load_settings({"max_steps": 3}, env=env, cwd=project)
    assert settings.max_steps == 3  # CLI over env and file
    assert settings.model == "env-model"  # env over file
    assert settings.db_user == "file-user"  # file over odoo.conf
    assert settings.db_host == "conf-host"  # odoo.conf over the default
    assert settings.db_port == 5433
    assert settings.db_password is None  # Odoo writes False for "unset"
    assert settings.home == project / "h"
    assert settings.addons_paths == [project / "conf_addons"]  # relative to the odoo.conf
    origins = {name: settings.origin(name) for name in ("max_steps", "model", "db_user", "db_host", "mode")}
    assert origins == {
        "max_steps": "cli",
        "model": "env",
        "db_user": "project",
        "db_host": "odoo.conf",
        "mode": "default",
    }


def test_same_value_in_flag_and_odoo_conf_is_still_the_flags(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Origins are recorded, not guessed by comparing values (a flag equal to odoo.conf's value
    used to be taken for odoo.conf's, so PG* variables overrode it)."""
    monkeypatch.setenv("PGHOST", "env-host")  # between flags and odoo.conf
    TrustStore(project / "h").trust(project / "assista-odoo.toml")
    settings = load_settings({"db_host": "conf-host"}, env={"ASSISTA_HOME": str(project / "h")}, cwd=project)
    assert settings.db_host == "conf-host" and settings.origin("db_host") == "cli"
    assert runner_config(settings).pg.host == "conf-host"


def test_addons_path_env_and_project_file_forms(tmp_path: Path) -> None:
    env = {"ASSISTA_ADDONS_PATH": "/a, /b,"}
    assert load_settings(env=env, cwd=tmp_path).addons_paths == [Path("/a"), Path("/b")]
    (tmp_path / "pyproject.toml").write_text(
        '[tool.assista-odoo]\naddons_paths = ["one", "two"]\n', encoding="utf-8"
    )
    assert load_settings(env={}, cwd=tmp_path).addons_paths == [tmp_path / "one", tmp_path / "two"]


def test_empty_env_values_are_ignored(tmp_path: Path) -> None:
    settings = load_settings(env={"ASSISTA_HOME": "", "ASSISTA_MODEL": ""}, cwd=tmp_path)
    assert settings.model is None
    assert settings.home != Path("")


def test_bad_values_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="max_steps"):
        load_settings(env={"ASSISTA_MAX_STEPS": "many"}, cwd=tmp_path)
    (tmp_path / "assista-odoo.toml").write_text("model = [", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(env={}, cwd=tmp_path)


def test_password_never_prints(tmp_path: Path) -> None:
    settings = load_settings(env={"ASSISTA_DB_PASSWORD": "s3cret"}, cwd=tmp_path)
    assert "s3cret" not in repr(settings)
    assert settings.db_password is not None and settings.db_password.get_secret_value() == "s3cret"


def test_flags_env_and_project_keys_derive_from_one_declaration(tmp_path: Path) -> None:
    """Every declared flag exists on the commands that take its group, and every setting is read
    from ``ASSISTA_<NAME>``: nothing is kept in step by hand."""
    from assista_mcp.cli import build_parser
    from assista_mcp.config.settings import SOURCES

    serve_help = build_parser().parse_known_args(["serve"])[0]
    for name, source in SOURCES.items():
        if source.flag_group in ("project", "odoo"):
            assert hasattr(serve_help, source.flag_for(name).lstrip("-").replace("-", "_")), name
    settings = load_settings(
        env={"ASSISTA_ODOO_SERIES": "17.0", "ASSISTA_TEMPLATE_MAX_COUNT": "2"}, cwd=tmp_path
    )
    assert (settings.odoo_series, settings.template_max_count) == ("17.0", 2)
    assert settings.origin("odoo_series") == "env"
