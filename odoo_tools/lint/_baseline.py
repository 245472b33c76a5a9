"""Adopting the gate on a large repository: a baseline of known findings, and new-only mode.

A finding's fingerprint is its source and code, its file and the normalized text of its line
(whitespace collapsed), never the line number: adding lines above it does not make it new. The
baseline counts each fingerprint, so a second copy of a known problem is new. With a baseline or
``--new-only``, old code never fails on rules added by a newer linter version.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from odoo_tools.errors import InvalidInput
from odoo_tools.findings import Finding
from odoo_tools.storage import MAX_SOURCE_BYTES, atomic_write_json, capped_lines, read_capped

BASELINE_VERSION = 1
LineText = Callable[[Finding], str]  # the text of a finding's line ("" when it has none)


@dataclass
class Filtered:
    findings: list[Finding]
    hidden: int


def fingerprint(finding: Finding, line_text: str) -> str:
    text = " ".join(line_text.split()) if finding.line is not None else finding.message
    raw = "\x1f".join((finding.source, finding.code, finding.path, text))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:24]


def count_fingerprints(findings: Sequence[Finding], line_text: LineText) -> Counter[str]:
    """How many times each fingerprint occurs: what ``without_known`` takes as known."""
    return Counter(fingerprint(f, line_text(f)) for f in findings)


def write_baseline(path: Path, findings: Sequence[Finding], line_text: LineText) -> int:
    counts = count_fingerprints(findings, line_text)
    payload = {
        "version": BASELINE_VERSION,
        "note": "assista-odoo check baseline: known findings; regenerate with --update-baseline",
        "fingerprints": dict(sorted(counts.items())),
    }
    atomic_write_json(path, payload, durable=True, indent=1)  # never a half-written baseline
    return len(findings)


def read_baseline(path: Path) -> Counter[str]:
    try:
        data = read_capped(path)  # a FIFO raises instead of blocking; a huge file is not loaded
        if data is None:
            raise ValueError(f"it is larger than {MAX_SOURCE_BYTES} bytes")
        payload = json.loads(data)
        counts = payload["fingerprints"]
        if payload.get("version") != BASELINE_VERSION or not isinstance(counts, dict):
            raise ValueError("unknown baseline format")
        return Counter({str(k): int(v) for k, v in counts.items()})
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(
            f"Cannot read the baseline {path}: {exc}.",
            "Regenerate it with --baseline FILE --update-baseline.",
        ) from exc


def without_known(findings: Sequence[Finding], known: Counter[str], line_text: LineText) -> Filtered:
    left = Counter(known)
    kept: list[Finding] = []
    for finding in findings:
        key = fingerprint(finding, line_text(finding))
        if left[key] > 0:
            left[key] -= 1
        else:
            kept.append(finding)
    return Filtered(kept, len(findings) - len(kept))


def on_changed_lines(
    findings: Sequence[Finding], changed: dict[Path, set[int] | None], where: Callable[[Finding], Path]
) -> Filtered:
    """Findings on lines added or changed (a whole new file counts; a finding without a line
    counts when its file changed)."""
    kept = []
    for finding in findings:
        lines = changed.get(where(finding), set())
        if lines is None or (finding.line is None and where(finding) in changed) or finding.line in lines:
            kept.append(finding)
    return Filtered(kept, len(findings) - len(kept))


class LineReader:
    """The text of a finding's line, each file read once."""

    def __init__(self, where: Callable[[Finding], Path]) -> None:
        self.where = where
        self._files: dict[Path, list[str]] = {}

    def __call__(self, finding: Finding) -> str:
        if finding.line is None or not finding.path:
            return ""
        path = self.where(finding)
        if path not in self._files:
            self._files[path] = capped_lines(path)
        lines = self._files[path]
        return lines[finding.line - 1] if 0 < finding.line <= len(lines) else ""
