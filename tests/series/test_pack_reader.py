"""The series pack reader on a tiny hand-made pack of format 1 (``fixtures/series_packs``): what a
module sees of the core from its dependency closure, and no pack borrowed from another series."""

from __future__ import annotations

import gzip
import json
import lzma
from pathlib import Path
from typing import Any

import pytest

from odoo_tools.index import PackClasses
from odoo_tools.series import PACKS_ENV, SUPPORTED_SERIES, load_pack, pack, pack_header
from odoo_tools.series._pack_files import PACKS
from odoo_tools.series._pack_shape import BadPack

TINY = Path(__file__).resolve().parents[2] / "fixtures" / "series_packs" / "tiny_18.0.json"


def _as_made(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def _compressed(data: bytes, suffix: str) -> bytes:
    return lzma.compress(data) if suffix == ".json.xz" else gzip.compress(data)


# Every reading is checked on both files a pack may be: xz (what the maker writes) and gzip (older packs).
@pytest.fixture(params=[".json.xz", ".json.gz"])
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Path:
    folder = tmp_path / "packs"
    folder.mkdir()
    compact = json.dumps(json.loads(TINY.read_text()), sort_keys=True, separators=(",", ":"))  # as made
    (folder / f"18.0{request.param}").write_bytes(_compressed(compact.encode(), request.param))
    monkeypatch.setenv(PACKS_ENV, str(folder))
    return folder


def test_a_module_sees_the_fields_of_its_closure_only(tiny: Path) -> None:
    found = pack("18.0")
    assert found is not None and found.series == "18.0" and found.odoo_version == "18.0-tiny"
    assert pack("saas~18.2") is found  # a saas release reads its stable series' pack
    assert found.closure(["mail", "not_core"]) == {"mail", "base"}
    partner = found.model("res.partner")
    assert partner is not None and partner.modules == ("base", "mail")
    from_base = partner.seen_from(found.closure(["base"]))
    assert from_base is not None and "message_ids" not in from_base.fields and "email" in from_base.fields
    composer = found.model("mail.compose.message")
    assert composer is not None and composer.seen_from(found.closure(["base"])) is None
    assert found.owners["res.partner"] == "base" and found.owners["mail.compose.message"] == "mail"
    assert found.xmlid_model("base.group_user") == "res.groups"


def test_a_note_reads_only_the_header(tiny: Path) -> None:
    header = pack_header("18.0")
    assert header is not None and (header.series, header.odoo_version, header.modules) == (
        "18.0",
        "18.0-tiny",
        2,
    )
    assert pack_header("20.0") is None


def test_delegated_and_setattr_fields_are_the_registry_s(tiny: Path) -> None:
    found = pack("18.0")
    assert found is not None
    classes = PackClasses(found, found.closure(["base"]))
    cron = classes["ir.cron"]
    assert cron.inherits == (("ir.actions.server", "ir_actions_server_id"),)
    assert {"name", "model_id", "state", "code"} <= {f.name for f in cron.fields}
    assert "global" in {f.name for f in classes["ir.rule"].fields}
    assert next(f for f in cron.fields if f.name == "user_id").type == "Many2one"
    assert "mail.compose.message" in classes and "nope.model" not in classes


def test_no_pack_is_borrowed_from_another_series(tiny: Path) -> None:
    assert pack("20.0") is None  # no 20.0 tree could be had: its pack is missing, 19.0's is not used
    assert pack(None) is None and pack("nonsense") is None


def test_a_pack_laid_out_otherwise_reads_the_same(tmp_path: Path, tiny: Path) -> None:
    """Indented JSON (its objects not found by their first key) is decoded whole: same answers."""
    indented = tmp_path / "indented.json.gz"
    indented.write_bytes(gzip.compress(TINY.read_bytes()))
    slow, fast = load_pack(indented), pack("18.0")
    assert slow is not None and fast is not None
    assert sorted(slow.model_names) == sorted(fast.model_names) and len(list(fast.model_names)) > 10
    for name in fast.model_names:
        assert slow.model(name) == fast.model(name), name
    assert slow.views == fast.views and slow.xmlids == fast.xmlids and slow.modules == fast.modules


@pytest.mark.parametrize("suffix", [".json.xz", ".json.gz"])
def test_an_unreadable_pack_is_refused_and_another_format_is_no_pack(tmp_path: Path, suffix: str) -> None:
    """A file that is not of its compression (or holds the other one) is a broken pack, said so (it
    read as "no pack": every check the pack feeds silently off); a pack of another format is one
    this reader does not know."""
    kind = "xz" if suffix == ".json.xz" else "gzip"
    bad = tmp_path / f"18.0{suffix}"
    bad.write_bytes(b"not compressed")
    with pytest.raises(BadPack, match=f"is not readable: it is not a whole {kind} file"):
        load_pack(bad)
    other = tmp_path / f"other{suffix}"
    other.write_bytes(_compressed(b'{"format": 2}', suffix))
    assert load_pack(other) is None
    swapped = tmp_path / f"swapped{suffix}"  # named for one compression, holding the other
    swapped.write_bytes(_compressed(TINY.read_bytes(), ".json.gz" if suffix == ".json.xz" else ".json.xz"))
    with pytest.raises(BadPack, match=f"is not readable: it is not a whole {kind} file"):
        load_pack(swapped)


def test_an_xz_pack_is_found_before_a_gzip_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder holding both files of a series (an xz pack made beside an older gzip one) gives
    the xz one, for the whole pack and for its header."""
    folder = tmp_path / "packs"
    folder.mkdir()
    data = json.loads(TINY.read_text())
    (folder / "18.0.json.gz").write_bytes(gzip.compress(_as_made(data)))
    data["made_by"] = {**data["made_by"], "odoo_version": "18.0-xz"}
    (folder / "18.0.json.xz").write_bytes(lzma.compress(_as_made(data)))
    monkeypatch.setenv(PACKS_ENV, str(folder))
    found, header = pack("18.0"), pack_header("18.0")
    assert found is not None and found.path == folder / "18.0.json.xz" and found.odoo_version == "18.0-xz"
    assert header is not None and header.odoo_version == "18.0-xz"


# The bundled packs together, after the 16.0 pack: at most this many bytes (issue 30: aim <= 5 MB).
BUNDLED_BUDGET = 5_000_000


def test_the_bundled_packs_are_xz_and_within_their_budget() -> None:
    files = sorted(PACKS.iterdir())
    assert files and all(f.name.endswith(".json.xz") for f in files), files
    assert sum(f.stat().st_size for f in files) <= BUNDLED_BUDGET


# Supported series without a pack, and why (check says the pack is missing and what that silences).
PACKLESS = {
    "20.0": "no Odoo 20.0 tree can be had here",
}


def test_every_supported_series_has_its_data() -> None:
    """A supported series lacks no data: its facts, framework names, core module list, and its
    series pack unless PACKLESS says why not."""
    from odoo_tools.series import core_graph, framework_names, series_facts

    bundled = {p.name.split(".json")[0] for p in PACKS.glob("*.json.*")}
    for series in SUPPORTED_SERIES:
        assert series_facts(series).series == series
        assert (series in bundled) != (series in PACKLESS), series
        if series == "20.0":
            continue
        assert framework_names(series) is not None, series
        assert core_graph(series).series == series, series
    assert bundled <= set(SUPPORTED_SERIES)


@pytest.mark.parametrize("path", sorted(PACKS.glob("*.json.xz")), ids=lambda p: p.name)
def test_a_bundled_pack_reads_lazily_as_it_reads_whole(path: Path) -> None:
    """Models found by offset and decoded on demand are exactly the file's (no model missed, none
    made up by a field or method named like the first key of a model)."""
    lazy = load_pack(path)
    whole = json.loads(lzma.decompress(path.read_bytes()))
    assert lazy is not None and set(lazy.model_names) == set(whole["models"])
    assert all(lazy._text.item("models", name) == raw for name, raw in whole["models"].items())
    assert lazy.xmlids == whole.get("xmlids", {}) and lazy.views == whole.get("views", {})
    assert lazy.modules.keys() == whole["modules"].keys()


def test_the_check_cache_sees_a_user_pack_of_either_kind(tiny: Path) -> None:
    """A pack put in the ASSISTA_SERIES_PACKS folder, xz or gzip, re-checks what the cache holds."""
    from odoo_tools.lint._cache import extra_packs_stamp

    (pack_file,) = tiny.iterdir()
    assert str(pack_file) in extra_packs_stamp()
