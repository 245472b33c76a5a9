"""A stable Odoo series as one value: ordered by its major, written as Odoo writes it ("18.0").
Code that steps from one series to the next carries this instead of a bare major number that each
place turned back into text."""

from __future__ import annotations

from dataclasses import dataclass

from odoo_tools.series._names import SUPPORTED_SERIES, normalize_series, series_major


@dataclass(frozen=True, order=True)
class Series:
    major: int

    def __str__(self) -> str:
        return f"{self.major}.0"

    @classmethod
    def named(cls, text: str | None, given_as: str = "odoo_series / --odoo-series") -> Series:
        """The supported series ``text`` names (``"18"``, ``"18.0"``, ``"18.0.1.0.0"``); anything
        else is bad input naming the supported ones (``normalize_series``)."""
        major = series_major(normalize_series(text, given_as))
        assert major is not None  # a supported series always has one
        return cls(major)

    def is_before(self, other: Series) -> bool:
        return self < other

    def steps_over(self, target: Series, release: tuple[int, ...]) -> bool:
        """Whether an Odoo release (``(17, 2)`` for saas~17.2, ``(18, 0)``) lies on the way from this
        series to ``target``: from this series' own release up to ``target``'s, as ``odoo-bin
        upgrade_code`` picks its scripts."""
        return (self.major,) <= release <= (target.major, 0)


def supported_between(first: Series, last: Series) -> list[Series]:
    """The supported series from ``first`` to ``last``, both included, in order."""
    every = [Series(major) for major in map(series_major, SUPPORTED_SERIES) if major is not None]
    return [series for series in every if first <= series <= last]
