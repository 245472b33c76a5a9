"""LiteLLM, imported on first use and set up for a command-line tool.

Importing LiteLLM takes seconds, so nothing imports it at module level: ``load_litellm()`` does it
on the first model call. It is configured once: no remote cost-map fetch, no retries of its own
(ours honour Retry-After and report each attempt), no debug banners or log lines of its own.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

LITELLM_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy")
SECRET_ENV_NAME = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
SECRET_PATTERNS = (
    re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=\-]{8,}"),
)
MIN_SECRET_LEN = 6
REDACTED = "[redacted]"

_litellm: Any = None


def load_litellm() -> Any:
    """The configured ``litellm`` module (imported on the first call)."""
    global _litellm
    if _litellm is None:
        # Before the import: LiteLLM reads it at import time. A user who set it keeps their choice.
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        import litellm

        litellm.suppress_debug_info = True
        litellm.drop_params = True  # "any model": params a provider lacks are dropped, not fatal
        litellm.turn_off_message_logging = True
        if not os.environ.get("LITELLM_LOG"):  # LiteLLM's own debug switch wins when set
            for name in LITELLM_LOGGERS:
                logging.getLogger(name).setLevel(logging.CRITICAL)
        _litellm = litellm
    return _litellm


def secret_values(env: Mapping[str, str] | None = None) -> list[str]:
    """Values of secret-looking environment variables, longest first (no partial leaks when one
    secret contains another)."""
    source = os.environ if env is None else env
    values = {v for k, v in source.items() if SECRET_ENV_NAME.search(k) and len(v) >= MIN_SECRET_LEN}
    return sorted(values, key=len, reverse=True)


def redact(text: str, env: Mapping[str, str] | None = None, *, values: Sequence[str] | None = None) -> str:
    """``text`` with secret-looking environment values and API-key/bearer patterns replaced.

    ``values``: secrets looked up once by the caller (``secret_values``), for hot paths."""
    for value in secret_values(env) if values is None else values:
        text = text.replace(value, REDACTED)
    for pattern in SECRET_PATTERNS:
        text = pattern.sub(REDACTED, text)
    return text
