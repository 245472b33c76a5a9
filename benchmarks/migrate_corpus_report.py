"""What benchmarks/migrate_corpus.py prints and counts: one cell per module and way, the totals per way
(install clean %, tests green % of those with tests), the modules blocked by a gap of the target
series, and every module our way leaves failing with its first failure."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any


def cell(result: dict[str, Any]) -> str:
    proof = result["proof"]
    verdict = proof["verdict"]
    if verdict == "blocked":
        return "blocked"
    if not proof["installed"]:
        return "install-fail"
    failed = proof["tests_failed"]
    run = max(proof["tests_run"], failed)
    if run:
        return f"ok {run - failed}/{run}"
    # installed, no test ran: none to run, or tests that failed before running (an import error)
    return "ok, tests fail" if verdict == "tests-failed" else "ok (no tests)"


_ENVIRONMENT_GAP = re.compile(r"No module named '(?!odoo['.])|external dependency is not met")


def blocked(entry: dict[str, Any], ways: list[str]) -> bool:
    """Blocked in any way (a dependency or a Python library the target lacks): left out of every
    way's percentages, so all ways are compared on the same modules. Results recorded before the
    proof named a missing library as blocked are judged again from their first failure."""
    for way in ways:
        proof = entry.get(way, {}).get("proof", {})
        if proof.get("verdict") == "blocked" or _ENVIRONMENT_GAP.search(proof.get("first_failure", "")):
            return True
    return False


def blocked_proof(entry: dict[str, Any], ways: list[str]) -> dict[str, Any] | None:
    """A proof of another way that found the module blocked: the module is left out of every way's
    percentages (see ``blocked``), so proving its other copies only spends Odoo time."""
    for way in ways:
        if way in entry and blocked({way: entry[way]}, [way]):
            return dict(entry[way]["proof"])
    return None


def green(result: dict[str, Any]) -> bool:
    proof = result["proof"]
    return bool(proof["installed"] and proof["tests_failed"] == 0 and proof["tests_run"] > 0)


def totals(
    results: dict[str, dict[str, Any]], modules: list[Path], way: str, ways: list[str]
) -> dict[str, Any]:
    entries = [results[m.name] for m in modules if way in results.get(m.name, {})]
    kept = [e for e in entries if not blocked(e, ways)]
    with_tests = [e for e in kept if e["has_tests"]]
    return {
        "measured": len(kept),
        "installed": len([e for e in kept if e[way]["proof"]["installed"]]),
        "with_tests": len(with_tests),
        "green": len([e for e in with_tests if green(e[way])]),
        "migrate_seconds": round(sum(e[way]["migrate_seconds"] for e in entries), 1),
        "prove_seconds": round(sum(e[way]["proof"]["seconds"] for e in entries), 1),
    }


def time_summary(seconds: list[float], unit: str = " s") -> str:
    if not seconds:
        return "no module"
    warm = sorted(seconds[1:]) or seconds
    p90 = warm[min(len(warm) - 1, int(0.9 * len(warm)))]
    return (
        f"first {seconds[0]:.2f}{unit}; warm median {warm[len(warm) // 2]:.2f}{unit}, p90 {p90:.2f}{unit}, "
        f"max {warm[-1]:.2f}{unit}"
    )


def report(
    results: dict[str, dict[str, Any]], modules: list[Path], ways: list[str], source: str, target: str
) -> None:
    """Only modules measured every way are compared."""
    modules = [m for m in modules if all(w in results.get(m.name, {}) for w in ways)]
    if not modules:
        print("no module measured every way yet")
        return
    width = max(len(m.name) for m in modules)
    print(f"{'module':<{width}}  " + "  ".join(f"{w:<14}" for w in ways))
    for folder in modules:
        entry = results[folder.name]
        row = "  ".join(f"{'blocked' if blocked(entry, ways) else cell(entry[w]):<14}" for w in ways)
        print(f"{folder.name:<{width}}  {row}")
    print(f"\ntotals, {source} -> {target}, {len(modules)} modules:")
    for way in ways:
        t = totals(results, modules, way, ways)
        clean = 100 * t["installed"] / t["measured"] if t["measured"] else 0.0
        tests = 100 * t["green"] / t["with_tests"] if t["with_tests"] else 0.0
        print(
            f"  {way:<10} install clean {t['installed']}/{t['measured']} = {clean:.1f} %   tests green "
            f"{t['green']}/{t['with_tests']} = {tests:.1f} % (of those with tests)   migrate "
            f"{t['migrate_seconds']} s, install+tests {t['prove_seconds']} s"
        )
    gaps = [m.name for m in modules if blocked(results[m.name], ways)]
    if gaps:
        print(f"blocked (a dependency or Python library missing in {target}): {', '.join(gaps)}")

    def still_failing(entry: dict[str, Any], way: str) -> bool:
        ours = entry[way]
        return not ours["proof"]["installed"] or (entry["has_tests"] and not green(ours))

    for ours in [w for w in ("ours", "nosource") if w in ways]:
        failing = [m for m in modules if not blocked(results[m.name], ways)]
        failing = [m for m in failing if still_failing(results[m.name], ours)]
        if failing:
            print(f"{ours}, still failing, first failure:")
            for folder in failing:
                print(f"  {folder.name}: {results[folder.name][ours]['proof']['first_failure'][:300]}")
