"""Addon manifests (``__manifest__.py``, legacy ``__openerp__.py``), read safely.

A manifest is read with ``ast.literal_eval`` and never executed. A malformed manifest never
raises: ``read_manifest`` returns a ``Manifest`` with ``parsed=False`` (and ``installable=False``,
since Odoo could not load it either) plus ``Finding`` objects naming the file and key.

Public API (stable):
- ``MANIFEST_NAMES``: the file names Odoo looks for, in its order.
- ``find_manifest_file(module_dir) -> Path | None``
- ``read_manifest(module_dir) -> ManifestResult`` (``.manifest``, ``.findings``)
- ``parse_manifest_text(text, module, rel_path) -> ManifestResult`` (no file system)
- ``ManifestCache``: ``read(module_dir, root)`` re-reads a manifest only when its stat changed.
- ``Manifest``: typed manifest. ``auto_install_triggers`` follows Odoo: ``None`` when the module
  is not auto-installed, else the set of dependencies that trigger it (``True`` means all of
  ``depends``; ``[]`` means always).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from odoo_tools.findings import Finding, Severity
from odoo_tools.storage import MAX_SOURCE_BYTES, StatCache, read_capped

MANIFEST_NAMES = ("__manifest__.py", "__openerp__.py")
SOURCE = "manifest"

# Keys we type-check; list keys outside ``Manifest`` (images, countries) are only checked.
_LIST_KEYS = ("depends", "data", "demo", "qweb", "images", "countries")
_TEXT_KEYS = ("name", "version", "summary", "description", "category", "author", "website", "license")
_BOOL_KEYS = ("installable", "application")


@dataclass(frozen=True)
class Manifest:
    """The manifest of one addon, with Odoo's defaults filled in."""

    module: str
    file: str  # manifest path relative to the addons root, e.g. "sale/__manifest__.py"
    parsed: bool = True
    title: str = ""  # the manifest's "name" key (the technical name is ``module``)
    version: str = "1.0"
    summary: str = ""
    description: str = ""
    category: str = "Uncategorized"
    author: str = ""
    website: str = ""
    license: str = ""
    depends: tuple[str, ...] = ()
    data: tuple[str, ...] = ()
    demo: tuple[str, ...] = ()
    qweb: tuple[str, ...] = ()
    assets: dict[str, list[str]] = field(default_factory=dict)
    external_dependencies: dict[str, list[str]] = field(default_factory=dict)
    installable: bool = True
    application: bool = False
    auto_install_triggers: frozenset[str] | None = None
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def auto_install(self) -> bool:
        return self.auto_install_triggers is not None

    @property
    def data_files(self) -> tuple[str, ...]:
        """Every file the manifest loads: data, demo and legacy qweb, in manifest order."""
        return self.data + self.demo + self.qweb


@dataclass(frozen=True)
class ManifestResult:
    manifest: Manifest
    findings: list[Finding]


def find_manifest_file(module_dir: Path) -> Path | None:
    """The manifest file of ``module_dir``, or ``None`` when it is not an addon."""
    for name in MANIFEST_NAMES:
        candidate = module_dir / name
        if candidate.is_file():
            return candidate
    return None


def read_manifest(module_dir: Path, root: Path | None = None) -> ManifestResult:
    """Read the manifest of ``module_dir``. ``root`` (default: its parent) makes paths relative."""
    module = module_dir.name
    root = module_dir.parent if root is None else root
    file = find_manifest_file(module_dir)
    rel = (file or module_dir / MANIFEST_NAMES[0]).relative_to(root).as_posix()
    if file is None:
        return _failed(module, rel, "manifest-missing", f"{module} has no {MANIFEST_NAMES[0]}.", "")
    try:
        raw = read_capped(file)
        if raw is None:  # Odoo might read it; we do not, and say so without claiming it breaks
            cap = f"over the {MAX_SOURCE_BYTES}-byte cap for a source file"
            message = f"{rel} was not read: it is {cap}; the module is left out of the index."
            return _failed(
                module, rel, "file-too-large", message, "A manifest is one small dict.", severity="warning"
            )
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _failed(module, rel, "manifest-unreadable", f"Cannot read {rel}: {exc}.", "")
    return parse_manifest_text(text, module, rel)


class ManifestCache:
    """Manifests kept per (path, root) while their (mtime_ns, size) stay: a refresh re-parses only
    changed manifests. Bounded, as every cache keyed by files (``odoo_tools.storage.StatCache``)."""

    def __init__(self) -> None:
        self._known: StatCache[tuple[str, str], ManifestResult] = StatCache()

    def read(self, module_dir: Path, root: Path | None = None) -> ManifestResult:
        file = find_manifest_file(module_dir)
        if file is None:
            return read_manifest(module_dir, root)
        return self._known.get((str(file), str(root)), file.stat(), lambda: read_manifest(module_dir, root))


def parse_manifest_text(text: str, module: str, rel_path: str) -> ManifestResult:
    """Parse manifest source text without executing it."""
    try:
        tree = ast.parse(text, filename=rel_path, mode="eval")
    except SyntaxError as exc:
        return _failed(
            module,
            rel_path,
            "manifest-syntax",
            f"{rel_path} is not valid Python: {exc.msg}.",
            "Fix the syntax: the manifest must be one dict literal.",
            line=exc.lineno,
        )
    if not isinstance(tree.body, ast.Dict):
        return _failed(
            module,
            rel_path,
            "manifest-not-dict",
            f"{rel_path} is not a dict literal.",
            "A manifest is a single {...} dict of literal values.",
            line=getattr(tree.body, "lineno", None),
        )
    raw, findings = _literal_items(tree.body, module, rel_path)
    return _typed(raw, module, rel_path, findings)


# -- internals ---------------------------------------------------------------------------------


def _literal_items(node: ast.Dict, module: str, rel: str) -> tuple[dict[str, Any], list[Finding]]:
    """Evaluate key by key so one bad value names its key and spares the others."""
    raw: dict[str, Any] = {}
    findings: list[Finding] = []
    for key_node, value_node in zip(node.keys, node.values, strict=True):
        try:
            key = ast.literal_eval(key_node) if key_node is not None else None
        except ValueError:
            key = None
        if not isinstance(key, str):
            findings.append(
                _finding(module, rel, "manifest-bad-key", "A manifest key is not a string.", value_node)
            )
            continue
        try:
            raw[key] = ast.literal_eval(value_node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            findings.append(
                _finding(
                    module,
                    rel,
                    "manifest-bad-value",
                    f"{rel}: the value of {key!r} is not a literal (names and calls are not allowed).",
                    value_node,
                    hint="Use plain strings, numbers, lists, dicts and True/False only.",
                )
            )
    return raw, findings


def _typed(raw: dict[str, Any], module: str, rel: str, findings: list[Finding]) -> ManifestResult:
    values: dict[str, Any] = {}
    for key in _TEXT_KEYS:
        if key in raw:
            values["title" if key == "name" else key] = _expect(raw, key, str, module, rel, findings)
    for key in _LIST_KEYS:
        if key in raw:
            items = _expect(raw, key, list, module, rel, findings) or []
            if not all(isinstance(item, str) for item in items):
                findings.append(_type_finding(module, rel, key, "a list of strings"))
                items = [item for item in items if isinstance(item, str)]
            if key in Manifest.__dataclass_fields__:
                values[key] = tuple(items)
    for key in _BOOL_KEYS:
        if key in raw:
            values[key] = bool(raw[key])
    for key in ("assets", "external_dependencies"):
        if key in raw:
            values[key] = _expect(raw, key, dict, module, rel, findings) or {}
    values["auto_install_triggers"] = _auto_install(raw, values.get("depends", ()), module, rel, findings)
    values = {k: v for k, v in values.items() if v is not None}  # a mistyped key keeps its default
    manifest = Manifest(module=module, file=rel, raw=raw, **values)
    return ManifestResult(manifest, findings)


def _expect(raw: dict[str, Any], key: str, kind: type, module: str, rel: str, findings: list[Finding]) -> Any:
    value = raw[key]
    if isinstance(value, kind):
        return value
    if kind is list and isinstance(value, tuple):
        return list(value)
    names: dict[type, str] = {str: "a string", list: "a list", dict: "a dict"}
    findings.append(_type_finding(module, rel, key, names.get(kind, kind.__name__)))
    return None


def _auto_install(
    raw: dict[str, Any], depends: tuple[str, ...], module: str, rel: str, findings: list[Finding]
) -> frozenset[str] | None:
    value = raw.get("auto_install", False)
    if isinstance(value, (list, tuple, set)):
        triggers = frozenset(str(item) for item in value)
        strangers = sorted(triggers - set(depends))
        if strangers:
            findings.append(
                Finding(
                    source=SOURCE,
                    code="manifest-auto-install",
                    module=module,
                    path=rel,
                    message=f"{rel}: auto_install names {', '.join(strangers)}, not in depends.",
                    hint="Odoo refuses this: every auto_install trigger must also be in depends.",
                )
            )
        return triggers
    return frozenset(depends) if value else None


def _type_finding(module: str, rel: str, key: str, expected: str) -> Finding:
    return Finding(
        source=SOURCE,
        code="manifest-bad-type",
        module=module,
        path=rel,
        message=f"{rel}: {key!r} must be {expected}.",
        hint=f"Fix the value of {key!r}; it was ignored.",
    )


def _finding(module: str, rel: str, code: str, message: str, node: ast.AST, hint: str = "") -> Finding:
    return Finding(
        source=SOURCE,
        code=code,
        module=module,
        path=rel,
        line=getattr(node, "lineno", None),
        message=message,
        hint=hint,
    )


def _failed(
    module: str,
    rel: str,
    code: str,
    message: str,
    hint: str,
    line: int | None = None,
    severity: Severity = "error",
) -> ManifestResult:
    finding = Finding(
        source=SOURCE,
        code=code,
        severity=severity,
        module=module,
        path=rel,
        line=line,
        message=message,
        hint=hint,
    )
    return ManifestResult(Manifest(module=module, file=rel, parsed=False, installable=False), [finding])
