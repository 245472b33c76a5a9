"""Secrets never printed: one redaction for the console, events, sessions, exports and errors.

Two kinds of secret are replaced by ``[redacted]`` (``[redacted:<kind>]`` for a token format):

- token formats that say what they are (GitHub, Slack, AWS, JWT, ``sk-`` keys, bearer headers,
  private key blocks, passwords in URLs, ``PGPASSWORD=...``), and
- the values of the secret environment variables of this process (the model's API key variables,
  ``PGPASSWORD``, our auth token, anything named like ``*_API_KEY``/``*_TOKEN``/``*PASSWORD``),
  as they are, JSON-escaped, URL-encoded and base64-encoded (also inside a longer base64 text, at
  any byte offset).

A value shorter than ``MIN_SECRET_LENGTH`` is only redacted where a pattern finds it (as in
``PGPASSWORD=odoo``): replacing a short word everywhere would garble every text that contains it.
"""

from __future__ import annotations

import base64
import bisect
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import quote, quote_plus

MIN_SECRET_LENGTH = 6
MIN_ENCODED_LENGTH = 8  # a shorter base64 fragment would match unrelated text
REDACTED = "[redacted]"
SECRET_ENV = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.I)
KNOWN_SECRET_ENV = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "OPENROUTER_API_KEY",
    "AZURE_API_KEY",
    "MISTRAL_API_KEY",
    "GROQ_API_KEY",
    "DEEPSEEK_API_KEY",
    "XAI_API_KEY",
    "COHERE_API_KEY",
    "TOGETHERAI_API_KEY",
    "HF_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "PGPASSWORD",
    "ASSISTA_AUTH_TOKEN",
    "ASSISTA_API_KEY",
)


@dataclass(frozen=True)
class Rule:
    """A token format. ``triggers``: literal texts one of which any match contains (checked in the
    lower-cased text when ``lower``): a text without them skips the regular expression, which keeps
    redaction of a large tool result cheap. A group named ``secret`` redacts only that group."""

    kind: str
    pattern: re.Pattern[str]
    triggers: tuple[str, ...]
    lower: bool = False


def _rule(kind: str, pattern: str, *triggers: str, flags: int = 0, lower: bool = False) -> Rule:
    return Rule(kind, re.compile(pattern, flags), triggers, lower)


# A key block: its BEGIN line, the PEM headers and base64 lines that follow (lines end in a newline,
# a written "\n" as in JSON or .env files, or are run together with spaces), then its END line.
# Without an END line only the key material is taken: the text after it stays visible (a stray
# line holding only a private key's BEGIN marker once blanked the rest of the change shown for approval).
_BREAK = r"(?:(?:[ \t]*(?:\r?\n|\\n))+[ \t]*|[ \t]+)"
PRIVATE_KEY_BLOCK = (
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----"
    rf"(?:{_BREAK}(?:Proc-Type|DEK-Info):[^\r\n\\]*)*"
    rf"(?:{_BREAK}[A-Za-z0-9+/=]{{16,}}(?=\s|\\n|\Z))*"
    rf"(?:(?:{_BREAK}[A-Za-z0-9+/=]{{1,15}})?{_BREAK}-----END [A-Z0-9 ]*PRIVATE KEY-----)?"
)
_KEY_NAMES = ("PASSWORD", "PASSWD", "SECRET", "TOKEN", "API_KEY", "ACCESS_KEY")
RULES: tuple[Rule, ...] = (
    _rule("private-key", PRIVATE_KEY_BLOCK, "PRIVATE KEY-----"),
    _rule("github", r"\bgh[pousr]_[A-Za-z0-9]{30,}", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    _rule("github", r"\bgithub_pat_[A-Za-z0-9_]{30,}", "github_pat_"),
    _rule("gitlab", r"\bglpat-[A-Za-z0-9_-]{20,}", "glpat-"),
    _rule("slack", r"\bxox[abposre]-[A-Za-z0-9-]{10,}", "xox"),
    _rule("slack", r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+", "hooks.slack.com"),
    _rule(
        "aws-key-id",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b",
        *("AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "ANVA", "AIPA"),
    ),
    _rule(
        "aws-secret",
        r"(?i)aws.{0,20}?(?:secret|session).{0,20}?[\"']?\s*[:=]\s*[\"']?(?P<secret>[A-Za-z0-9/+=]{30,})",
        "aws",
        lower=True,
    ),
    _rule("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", "eyJ"),
    _rule("api-key", r"\bsk-[A-Za-z0-9_-]{16,}", "sk-"),
    _rule("stripe", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", "_live_", "_test_"),
    _rule("google", r"\bAIza[0-9A-Za-z_-]{35}", "AIza"),
    _rule("google-oauth", r"\bya29\.[0-9A-Za-z_-]{20,}", "ya29."),
    _rule("huggingface", r"\bhf_[A-Za-z0-9]{30,}", "hf_"),
    _rule("npm", r"\bnpm_[A-Za-z0-9]{36}", "npm_"),
    _rule("pypi", r"\bpypi-[A-Za-z0-9_-]{50,}", "pypi-"),
    _rule("sendgrid", r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", "SG."),
    _rule("digitalocean", r"\bdo[opr]_v1_[a-f0-9]{64}", "_v1_"),
    _rule("telegram", r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b", ":AA"),
    _rule("azure", r"(?i)AccountKey=(?P<secret>[A-Za-z0-9+/=]{20,})", "accountkey=", lower=True),
    _rule("bearer", r"(?i)\bbearer\s+(?P<secret>[A-Za-z0-9._~+/=-]{8,})", "bearer", lower=True),
    _rule(
        "basic-auth",
        r"(?i)\bauthorization\s*[:=]\s*basic\s+(?P<secret>[A-Za-z0-9+/=]{8,})",
        "basic",
        lower=True,
    ),
    _rule("url-password", r"://[^/\s:@]+:(?P<secret>(?!\[redacted)[^@\s/]+)@", "://"),
    _rule(
        "env-secret",
        r"\b[A-Z][A-Z0-9_]*(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|ACCESS_KEY)[A-Z0-9_]*"
        r"[\"']?\s*[=:]\s*[\"']?(?P<secret>(?!\[redacted)[^\s\"',;]{3,})",
        *_KEY_NAMES,
    ),
    _rule(
        "odoo-conf",
        r"(?m)^\s*(?:db_password|admin_passwd)\s*=\s*(?P<secret>(?!\[redacted)\S.*?)\s*$",
        "db_password",
        "admin_passwd",
    ),
)

T = TypeVar("T")


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """The values of this process's secret environment variables (long enough to match safely)."""
    env = os.environ if environ is None else environ
    names = {n for n in env if n in KNOWN_SECRET_ENV or SECRET_ENV.search(n)}
    return sorted({env[n] for n in names if len(env[n].strip()) >= MIN_SECRET_LENGTH}, key=len, reverse=True)


def encoded_forms(value: str) -> list[str]:
    """``value`` as text may carry it: as is, JSON-escaped (once, and twice for JSON inside a JSON
    string; ASCII-only and not), URL-encoded, and in base64 (standard and URL-safe) at each byte
    offset."""
    escaped = {json.dumps(value, ensure_ascii=ascii_only)[1:-1] for ascii_only in (True, False)}
    escaped |= {json.dumps(once, ensure_ascii=False)[1:-1] for once in escaped}
    forms = {value, *escaped, quote(value, safe=""), quote_plus(value, safe="")}
    raw = value.encode("utf-8")
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + raw).decode("ascii")
        # Skip the group shared with the bytes before, and the one shared with those after.
        core = encoded[4 if offset else 0 : ((offset + len(raw)) // 3) * 4]
        if len(core) >= MIN_ENCODED_LENGTH:
            forms |= {core, core.replace("+", "-").replace("/", "_")}
    return sorted(forms, key=len, reverse=True)


class Redactor:
    def __init__(self, values: Iterable[str] = ()) -> None:
        forms = {form for value in values for form in encoded_forms(value)}
        alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
        self._values = re.compile(alternatives) if alternatives else None

    def text(self, text: str) -> str:
        if self._values is not None:
            text = self._values.sub(REDACTED, text)
        lowered = text.lower()
        for rule in RULES:
            haystack = lowered if rule.lower else text
            if any(trigger in haystack for trigger in rule.triggers):
                text = rule.pattern.sub(lambda m, k=rule.kind: _replace(m, k), text)  # type: ignore[misc]
        return text

    def data(self, value: T) -> T:
        """Strings anywhere in dicts, lists and tuples redacted (keys included); the rest as is."""
        return _walk(value, self.text)  # type: ignore[no-any-return]


def _replace(match: re.Match[str], kind: str) -> str:
    label = f"[redacted:{kind}]"
    if "secret" not in match.re.groupindex or match.group("secret") is None:
        return label
    start, end = match.span("secret")
    whole = match.group(0)
    offset = match.start()
    return whole[: start - offset] + label + whole[end - offset :]


def _walk(value: Any, text: Any) -> Any:
    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {_walk(k, text): _walk(v, text) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_walk(v, text) for v in value)
    return value


@lru_cache(maxsize=8)
def _redactor(values: tuple[str, ...]) -> Redactor:
    return Redactor(values)


def redactor() -> Redactor:
    """The redactor for this process's environment now (rebuilt only when the secrets change)."""
    return _redactor(tuple(secret_values()))


def redact(text: str) -> str:
    return redactor().text(text)


def redact_data(value: T) -> T:
    return redactor().data(value)


_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY-----")
_WORD_START = re.compile(r"(?<=\s)\S")
RELEASE_CHARS = 400
# How far before the word still arriving a secret's lead-in may start ("AWS Secret Access Key:",
# "X_PASSWORD =", "Authorization: Basic"): in characters, or in words (a run of spaces is none).
LEAD_IN_CHARS = 120
LEAD_IN_WORDS = 8
_TRIGGERS = re.compile(
    "|".join(sorted({re.escape(t.lower()) for rule in RULES for t in rule.triggers}, key=len, reverse=True))
)
_TO_LINE_END = tuple(t for rule in RULES if "(?m)" in rule.pattern.pattern for t in rule.triggers)


class StreamRedactor:
    """Redaction for text that arrives in pieces (a model's streamed answer).

    A piece is released only once what follows cannot complete a secret begun in it: whole
    lines; on a long line, the text before the word still arriving and before any secret format's
    lead-in near it (found by the rules' own trigger texts, so "AWS Secret Access Key: <value>",
    five words, is held whole); a private key block is held to its end.
    """

    def __init__(self) -> None:
        self.pending = ""

    def feed(self, piece: str) -> str:
        self.pending += piece
        begin = _KEY_BEGIN.search(self.pending)
        if begin and not _KEY_END.search(self.pending, begin.end()):
            return ""
        cut = self.pending.rfind("\n") + 1
        if not cut and len(self.pending) > RELEASE_CHARS:
            cut = _safe_cut(self.pending)
        released, self.pending = self.pending[:cut], self.pending[cut:]
        return redact(released) if released else ""

    def flush(self) -> str:
        released, self.pending = self.pending, ""
        return redact(released) if released else ""


def _safe_cut(line: str) -> int:
    """Where a long line without a newline may be cut: at a word start, before the last word and
    before the lead-in of any secret format that may still be completing."""
    starts = [0] + [m.start() for m in _WORD_START.finditer(line)]
    last = starts[-1]
    cut = last
    for trigger in _TRIGGERS.finditer(line.lower()):
        index = bisect.bisect_right(starts, trigger.start()) - 1  # the word the trigger is in
        word = starts[index]
        near = last - word <= LEAD_IN_CHARS or len(starts) - 1 - index <= LEAD_IN_WORDS
        if near or trigger.group() in _TO_LINE_END:
            cut = min(cut, word)
    return cut
