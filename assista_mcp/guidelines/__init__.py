"""Guidelines we write ourselves, per Odoo series, on what a model gets wrong most."""

from __future__ import annotations

from importlib import resources

from odoo_tools.addons import SUPPORTED_SERIES
from odoo_tools.errors import InvalidInput

SERIES = SUPPORTED_SERIES

DEFAULT_SERIES = "18.0"


def normalize_series(value: str | None) -> str:
    """'18', '18.0', 'saas~18.2' and '18.0.1.0.0' all mean 18.0; unknown or missing -> default."""
    if not value:
        return DEFAULT_SERIES
    digits = value.replace("saas~", "").split(".")[0].strip()
    candidate = f"{digits}.0"
    return candidate if candidate in SERIES else DEFAULT_SERIES


def supported_series(value: str) -> str:
    """The series ``value`` names ('17', '17.0', 'saas~17.2', '17.0.1.0.0' -> '17.0'), when we have
    guidelines for it; anything else is bad input that names the supported series."""
    candidate = f"{value.replace('saas~', '').split('.')[0].strip()}.0"
    if candidate not in SERIES:
        raise InvalidInput(
            f"No guidelines for Odoo series {value!r}: supported are {', '.join(SERIES)}.",
            f"Pass one of {', '.join(SERIES)}, or leave the series out to use the project's.",
        )
    return candidate


def guidelines_for(series: str | None) -> str:
    """The guidelines for one series: what is specific to it first, then what holds for all."""
    chosen = normalize_series(series)
    folder = resources.files(__name__)
    specific = (folder / f"{chosen}.md").read_text(encoding="utf-8")
    common = (folder / "common.md").read_text(encoding="utf-8")
    return f"# Odoo {chosen} development guidelines\n\n{specific}\n{common}"
