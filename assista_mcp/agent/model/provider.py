"""LiteLLM, imported on first use and set up for a command-line tool.

Importing LiteLLM takes seconds, so nothing imports it at module level: ``load_litellm()`` does it
on the first model call. It is configured once: no remote cost-map fetch, no retries of its own
(ours honour Retry-After and report each attempt), no debug banners or log lines of its own.
"""

from __future__ import annotations

import logging
import os
from typing import Any

LITELLM_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy")

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
