"""Which ``external_dependencies`` Odoo would refuse, asked of Odoo's own interpreter the way Odoo 18
checks them (``odoo/modules/module.py`` check_python_external_dependency / check_manifest_dependencies)
and WITHOUT running anything from the addons roots.

Odoo parses each Python entry as a requirement (markers that do not apply skip it), reads the
installed distribution's version (``importlib.metadata``) and checks the specifier; without a
distribution it falls back to importing the entry as a module name. Importing would run the
project's code when a root is on ``sys.path`` (a dotted name imports its parents), so the probe
asks ``importlib.util.find_spec`` for the top-level name only, with every addons root (and the
current directory, set to a neutral folder) removed from ``sys.path``. Binaries: ``PATH``, as
``odoo.tools.find_in_path`` does.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from odoo_tools.errors import ProcessFailed
from odoo_tools.process import run_process
from odoo_tools.storage import read_capped

# argv[1]: the addons roots (JSON), argv[2]: {"python": [...], "bin": [...]}.
# Prints {entry: why Odoo would refuse it}; binaries as "bin:<name>".
PROBE = r"""
import json, os, sys
roots = [os.path.realpath(r) for r in json.loads(sys.argv[1])]
def outside(entry):
    real = os.path.realpath(entry or os.getcwd())
    return not any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)
sys.path[:] = [p for p in sys.path if outside(p)]
import importlib.metadata, importlib.util, shutil
try:
    from packaging.requirements import Requirement
except ImportError:
    Requirement = None
wanted = json.loads(sys.argv[2])
refused = {}
for entry in wanted["python"]:
    name, specifier = entry, None
    if Requirement is not None:
        try:
            requirement = Requirement(entry)
        except Exception as exc:
            refused[entry] = "%s is an invalid external dependency specification: %s" % (entry, exc)
            continue
        if requirement.marker and not requirement.marker.evaluate():
            continue
        name, specifier = requirement.name, requirement.specifier
    try:
        version = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        try:
            found = importlib.util.find_spec(entry.split(".")[0]) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            refused[entry] = "External dependency %s not installed" % entry
        continue
    if specifier and not specifier.contains(version):
        refused[entry] = "External dependency version mismatch: %s (installed: %s)" % (entry, version)
for binary in wanted["bin"]:
    if shutil.which(binary) is None:
        refused["bin:" + binary] = "Unable to find %r in path" % binary
print(json.dumps(refused))
"""


async def refused_externals(
    python: str,
    roots: Sequence[Path],
    wanted_python: Sequence[str],
    wanted_bin: Sequence[str],
    env: Mapping[str, str],
    timeout: float = 60.0,
) -> dict[str, str]:
    """{entry (binaries as "bin:<name>"): Odoo's reason to refuse it}; {} when all are met."""
    if not wanted_python and not wanted_bin:
        return {}
    wanted = json.dumps({"python": sorted(set(wanted_python)), "bin": sorted(set(wanted_bin))})
    roots_json = json.dumps([str(r) for r in roots])
    with tempfile.TemporaryDirectory(prefix="assista-probe-") as neutral:
        result = await run_process(
            [python, "-c", PROBE, roots_json, wanted], env=env, timeout=timeout, cwd=Path(neutral)
        )
    try:
        refused = json.loads(result.stdout.strip().splitlines()[-1]) if result.returncode == 0 else None
    except (ValueError, IndexError):
        refused = None
    if not isinstance(refused, dict):
        raise ProcessFailed(
            f"{python} could not check the external dependencies: {result.decisive_line()}",
            "Pass --odoo-python with the interpreter of your Odoo environment.",
        )
    return {str(k): str(v) for k, v in refused.items()}


_VERSION_PROBE = "import sys; print('.'.join(map(str, sys.version_info[:3])))"
_VERSIONS: dict[str, tuple[int, ...]] = {}


async def python_version(python: str, env: Mapping[str, str], timeout: float = 60) -> tuple[int, ...] | None:
    """The version of an interpreter (asked once per interpreter); None when it does not say."""
    if python in _VERSIONS:
        return _VERSIONS[python]
    with tempfile.TemporaryDirectory(prefix="assista-probe-") as neutral:
        try:
            result = await run_process(
                [python, "-c", _VERSION_PROBE], env=env, timeout=timeout, cwd=Path(neutral)
            )
        except ProcessFailed:
            return None
    words = result.stdout.strip().split(".") if result.returncode == 0 else []
    if len(words) != 3 or not all(word.isdigit() for word in words):
        return None
    _VERSIONS[python] = tuple(int(word) for word in words)
    return _VERSIONS[python]


def interpreter_of(script: Path, python: str | None) -> str | None:
    """The Python that runs an odoo-bin: --odoo-python, else the script's ``#!`` line."""
    if python:
        return python
    try:  # odoo-bin may sit in a repository: a FIFO there must not block, nor a huge one load whole
        first = (read_capped(script) or b"").split(b"\n", 1)[0].decode("utf-8", "replace").strip()
    except OSError:
        return None
    if not first.startswith("#!"):
        return None
    parts = first[2:].split()
    if not parts:
        return None
    if Path(parts[0]).name == "env" and len(parts) > 1:
        return shutil.which(parts[1]) or parts[1]
    return parts[0]


__all__ = ["PROBE", "interpreter_of", "refused_externals"]
