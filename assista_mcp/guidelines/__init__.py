"""Guidelines we write ourselves, per Odoo series, on what a model gets wrong most.

One file per supported series (``<series>.md``, a test holds every series of the registry to
it) plus ``common.md``. A series is accepted only through ``odoo_tools.series.normalize_series``:
an unsupported one is an error naming the supported ones, never another series' text.
"""

from __future__ import annotations

from importlib import resources

from odoo_tools.series import SUPPORTED_SERIES, normalize_series

SERIES = SUPPORTED_SERIES


def guidelines_for(series: str) -> str:
    """The guidelines for one series: what is specific to it first, then what holds for all."""
    chosen = normalize_series(series)
    folder = resources.files(__name__)
    specific = (folder / f"{chosen}.md").read_text(encoding="utf-8")
    common = (folder / "common.md").read_text(encoding="utf-8")
    return f"# Odoo {chosen} development guidelines\n\n{specific}\n{common}"
