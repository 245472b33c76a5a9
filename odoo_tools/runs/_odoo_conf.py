"""Read the settings we use from an Odoo configuration file (``odoo.conf``), never writing it."""

from __future__ import annotations

import configparser
from pathlib import Path

from odoo_tools.errors import ConfigError
from odoo_tools.storage import MAX_SOURCE_BYTES, read_capped

# The [options] keys we take, as Odoo spells them.
KNOWN_KEYS = ("addons_path", "db_host", "db_port", "db_user", "db_password", "data_dir", "http_port")


def read_odoo_conf(path: Path) -> dict[str, str]:
    """Return the known ``[options]`` keys that have a real value (Odoo writes ``False`` for unset)."""
    parser = configparser.ConfigParser(interpolation=None)
    try:
        data = read_capped(path)  # a FIFO raises instead of blocking; a huge file is not loaded
        if data is None:
            raise ConfigError(f"Odoo config {str(path)!r} is larger than {MAX_SOURCE_BYTES} bytes.")
        parser.read_string(data.decode("utf-8"), str(path))
    except FileNotFoundError as exc:
        raise ConfigError(f"Odoo config {str(path)!r} does not exist.", "Check --odoo-config.") from exc
    except OSError as exc:
        raise ConfigError(f"Odoo config {str(path)!r} cannot be read: {exc.strerror}.") from exc
    except (configparser.Error, UnicodeDecodeError) as exc:
        raise ConfigError(f"Odoo config {str(path)!r} is not a valid INI file: {exc}.") from exc
    if not parser.has_section("options"):
        return {}
    values: dict[str, str] = {}
    for key in KNOWN_KEYS:
        raw = parser.get("options", key, fallback="").strip()
        if raw and raw.lower() not in ("false", "none"):
            values[key] = raw
    return values


def split_addons_path(value: str, base: Path | None = None) -> list[Path]:
    """Split a comma-separated addons path; relative entries are taken from ``base``."""
    paths: list[Path] = []
    for part in value.split(","):
        part = part.strip()
        if not part:
            continue
        path = Path(part).expanduser()
        if base is not None and not path.is_absolute():
            path = base / path
        paths.append(path)
    return paths
