"""What benchmarks/migrate_corpus.py prints and counts for a module is what its proof says (its report
module, migrate_corpus_report)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def _bench(name: str = "migrate_corpus_report") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _result(verdict: str, installed: bool, run: int, failed: int, first: str = "") -> dict[str, Any]:
    proof = {"verdict": verdict, "installed": installed, "tests_run": run, "tests_failed": failed}
    return {"proof": {**proof, "first_failure": first, "seconds": 1.0}, "migrate_seconds": 0.1}


def test_a_module_whose_tests_fail_to_load_is_neither_shown_nor_counted_green() -> None:
    """auditlog's 18.0 tests import a name 19.0 removed: installed, no test ran, tests failed."""
    bench = _bench()
    broken = _result("tests-failed", True, 0, 0, "auditlog/tests/test_auditlog.py:7: ImportError: x")
    assert bench.cell(broken) == "ok, tests fail"
    assert bench.cell(_result("passed", True, 0, 0)) == "ok (no tests)"
    assert bench.cell(_result("tests-failed", True, 4, 1)) == "ok 3/4"
    assert bench.cell(_result("install-failed", False, 0, 0)) == "install-fail"
    entries = {
        "a": {"has_tests": True, "ours": broken},
        "b": {"has_tests": True, "ours": _result("passed", True, 2, 0)},
        "c": {"has_tests": True, "ours": _result("blocked", False, 0, 0, "No module named 'phonenumbers'")},
    }
    counted = bench.totals(entries, [Path(name) for name in entries], "ours", ["ours"])
    kept = ("measured", "installed", "with_tests", "green")
    assert [counted[key] for key in kept] == [2, 2, 2, 1]


def test_a_way_found_blocked_spares_the_other_ways_their_odoo_run() -> None:
    """extendable 18.0 lacks its Python library on the 19.0 lab: one blocked proof serves every way."""
    bench = _bench()
    gap = _result("install-failed", False, 0, 0, "x: No module named 'extendable'")
    entry = {"path": "p", "has_tests": True, "nosource": gap, "unchanged": _result("passed", True, 2, 0)}
    assert bench.blocked_proof(entry, ["nosource", "unchanged"]) == gap["proof"]
    assert bench.blocked_proof({"unchanged": entry["unchanged"]}, ["nosource", "unchanged"]) is None
    blocked = {"omm": _result("blocked", False, 0, 0)}
    assert bench.blocked_proof(blocked, ["omm"]) == blocked["omm"]["proof"]


def test_the_first_migration_pays_for_the_packs_and_is_said_apart() -> None:
    bench = _bench()
    said = bench.time_summary([30.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0])
    assert said == "first 30.00 s; warm median 6.00 s, p90 10.00 s, max 10.00 s"
    assert bench.time_summary([]) == "no module"


def test_the_baseline_reads_the_module_and_the_ratio_is_said_with_its_unit(tmp_path: Path) -> None:
    """--migrate-only prints migration time beside a baseline run in the same process (read the
    module, parse each Python file once): the baseline is time spent, and a ratio has no seconds."""
    bench = _bench()
    module = tmp_path / "mod"
    module.mkdir()
    (module / "__manifest__.py").write_text("{'name': 'm', 'version': '17.0.1.0.0'}\n")
    (module / "models.py").write_text("".join(f"def f{i}(a, b):\n    return a + b\n" for i in range(3000)))
    (module / "broken.py").write_text("def (:\n")
    assert _bench("migrate_corpus_ways").parse_baseline(module) > 0.0
    assert (
        bench.time_summary([4.0, 2.0, 3.0], unit="x")
        == "first 4.00x; warm median 3.00x, p90 3.00x, max 3.00x"
    )
