"""A series pack from an ASSISTA_SERIES_PACKS folder is anyone's JSON: valid JSON with values of
the wrong types (a list where the modules belong, a number for a field, a made_by that is a list,
nesting deeper than the decoder goes, a gzip bomb) is refused with one sentence naming the file
and the place: exit 2 from check, a clean error from the MCP server; never a TypeError traceback
(which exited 1, as if findings had been found, with no report) and never half-believed."""

from __future__ import annotations

import gzip
import json
import lzma
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from odoo_tools.series import PACKS_ENV
from tests.lint.conftest import FIXTURE_ADDONS, run_cli

pytestmark = pytest.mark.anyio

BUNDLED = Path(__file__).resolve().parents[2] / "odoo_tools" / "series" / "packs" / "18.0.json.xz"


def _good() -> dict[str, Any]:
    return dict(json.loads(lzma.decompress(BUNDLED.read_bytes())))


def _partner_field(name: str, value: object) -> dict[str, Any]:
    pack = _good()
    models = dict(pack["models"])
    partner = dict(models["res.partner"])
    partner["fields"] = {**partner["fields"], name: value}
    models["res.partner"] = partner
    return {**pack, "models": models}


VARIANTS: dict[str, Callable[[], Any]] = {
    "modules is a list": lambda: {**_good(), "modules": [1, 2]},
    "a module is a number": lambda: {**_good(), "modules": {"base": 5}},
    "a module's order is text": lambda: {**_good(), "modules": {"base": {"depends": [], "order": "x"}}},
    "made_by is a list": lambda: {**_good(), "made_by": [1]},
    "framework_methods is a list": lambda: {**_good(), "framework_methods": [1]},
    "a field is a number": lambda: _partner_field("email", 7),
    "a field's selection is a number": lambda: _partner_field("name", {"type": "char", "selection": 5}),
    "xmlids of a module is a list": lambda: {**_good(), "xmlids": {"base": [1]}},
}


def _pack_folder(folder: Path, data: bytes) -> Path:
    folder.mkdir()
    (folder / "18.0.json.gz").write_bytes(gzip.compress(data))
    return folder


def _addons(tmp_path: Path) -> Path:
    for name in ("library_base", "library_loan"):
        shutil.copytree(FIXTURE_ADDONS / name, tmp_path / "addons" / name)
    return tmp_path / "addons"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_check_says_which_pack_is_malformed_and_where(tmp_path: Path, variant: str) -> None:
    data = json.dumps(VARIANTS[variant](), sort_keys=True, separators=(",", ":")).encode()
    packs = _pack_folder(tmp_path / "packs", data)
    _addons(tmp_path)
    done = run_cli(
        ["check", "addons", "--checks", "static"], cwd=tmp_path, cache=tmp_path / "cache",
        extra_env={PACKS_ENV: str(packs)},
    )  # fmt: skip
    assert done.returncode == 2, (variant, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    assert f"The series pack {packs / '18.0.json.gz'} is malformed" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "data",
    [b'{"format":1,"modules":' + b"[" * 100_000 + b"]" * 100_000 + b"}", b" " * (600 << 20)],
    ids=["nested too deep", "a gzip bomb"],
)
def test_a_pack_nested_too_deep_or_inflating_past_any_real_one_is_refused(
    tmp_path: Path, data: bytes
) -> None:
    packs = _pack_folder(tmp_path / "packs", data)
    _addons(tmp_path)
    done = run_cli(
        ["check", "addons", "--checks", "static"], cwd=tmp_path, cache=tmp_path / "cache",
        extra_env={PACKS_ENV: str(packs)},
    )  # fmt: skip
    assert done.returncode == 2 and "is malformed" in done.stderr, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr


async def test_the_mcp_server_answers_a_malformed_pack_with_a_clear_error(
    tmp_path: Path, server_for: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.dumps(VARIANTS["a field is a number"](), sort_keys=True, separators=(",", ":")).encode()
    packs = _pack_folder(tmp_path / "packs", data)
    monkeypatch.setenv(PACKS_ENV, str(packs))
    async with Client(server_for(_addons(tmp_path))) as client:
        result = await client.call_tool("check_module", {"module": "library_loan"})
    assert result.is_error
    shown = json.dumps([getattr(part, "text", "") for part in result.content])
    assert "is malformed: models.res.partner.fields.email is a number" in shown, shown
    assert "Traceback" not in shown and "internal" not in shown.lower(), shown


def test_a_relative_packs_folder_is_never_read_from_the_repository(tmp_path: Path) -> None:
    """ASSISTA_SERIES_PACKS=packs (relative, as a CI file might set it) named the folder of the
    repository being checked: its own 'pack' decided what the gate reported. Relative entries are
    ignored, as a relative ASSISTA_CACHE_DIR is: the bundled pack answers."""
    data = json.dumps(
        VARIANTS["xmlids of a module is a list"](), sort_keys=True, separators=(",", ":")
    ).encode()
    _pack_folder(tmp_path / "packs", data)
    _addons(tmp_path)
    done = run_cli(
        ["check", "addons", "--checks", "static"], cwd=tmp_path, cache=tmp_path / "cache",
        extra_env={PACKS_ENV: "packs"},
    )  # fmt: skip
    assert done.returncode in (0, 1), (done.stdout, done.stderr)
    assert "malformed" not in done.stderr and "series pack (18.0" in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("name", "packed", "why"),
    [
        ("18.0.json.xz", b"not xz at all\n", "it is not a whole xz file"),
        ("18.0.json.xz", BUNDLED.read_bytes()[:100], "it is not a whole xz file"),
        ("18.0.json.gz", b"not gzip at all\n", "it is not a whole gzip file"),
        ("18.0.json.xz", lzma.compress(b"x"), "its content is not UTF-8 JSON"),
        ("18.0.json.gz", gzip.compress(b"\xff\xfe{}"), "its content is not UTF-8 JSON"),
    ],
    ids=["not xz", "cut short", "not gzip", "not JSON", "not UTF-8"],
)
def test_a_pack_file_that_cannot_be_read_is_said_so_not_taken_for_no_pack(
    tmp_path: Path, name: str, packed: bytes, why: str
) -> None:
    """A pack that is not of its compression (or is cut short, or holds no JSON) read as "no series
    pack for Odoo 18.0 is bundled": every check the pack feeds turned off, exit 0. It is a usage
    error naming the file, as a malformed pack is."""
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / name).write_bytes(packed)
    _addons(tmp_path)
    done = run_cli(
        ["check", "addons", "--checks", "static"], cwd=tmp_path, cache=tmp_path / "cache",
        extra_env={PACKS_ENV: str(packs)},
    )  # fmt: skip
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert f"The series pack {packs / name} is not readable: {why}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "is bundled" not in done.stdout, done.stderr
