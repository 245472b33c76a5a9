"""Before the first model call: does LiteLLM know the provider, and is its API key set?

A missing key is not a transient failure: without this check LiteLLM's OpenAI route answers
"Missing credentials" as a 500 and the agent retried it for half a minute. Servers behind
``--api-base`` (Ollama, vLLM, LM Studio) need no key, but LiteLLM's OpenAI route insists on one:
they get a placeholder.
"""

from __future__ import annotations

import contextlib
import io

from assista_mcp.agent.model.provider import load_litellm
from odoo_tools.errors import ConfigError

PLACEHOLDER_KEY = "assista-odoo-no-key"
EXAMPLE_PREFIXES = (
    "openai/", "anthropic/", "gemini/", "ollama_chat/", "hosted_vllm/", "lm_studio/", "openrouter/",
    "azure/", "bedrock/", "vertex_ai/", "mistral/", "groq/", "deepseek/",
)
PROVIDERS_URL = "https://docs.litellm.ai/docs/providers"


def api_key_for(model: str, api_base: str | None) -> str | None:
    """The api_key to pass for ``model``: None (LiteLLM finds it) or a placeholder behind --api-base.

    Raises ConfigError for an unknown provider or an unset API key variable."""
    litellm = load_litellm()
    with contextlib.redirect_stdout(io.StringIO()):  # LiteLLM prints a banner; stdout may be jsonl
        try:
            litellm.get_llm_provider(model=model, api_base=api_base)
        except Exception as exc:
            raise ConfigError(
                f"LiteLLM does not know which provider serves model {model!r}.",
                f"Prefix the model id with its provider, e.g. {', '.join(EXAMPLE_PREFIXES)} "
                f"(openai/<name> with --api-base for any OpenAI-compatible server; all: {PROVIDERS_URL}).",
            ) from exc
        missing = list(litellm.validate_environment(model=model, api_base=api_base)["missing_keys"])
    keys = [name for name in missing if name.endswith("_API_KEY")]
    # Other missing names (AWS_ACCESS_KEY_ID, AZURE_API_VERSION...): credentials may come from a
    # cloud profile or the provider's own config; LiteLLM reports those itself.
    if not keys or any(not name.endswith(("_API_KEY", "_API_BASE")) for name in missing):
        return None
    if api_base:
        return PLACEHOLDER_KEY
    raise ConfigError(
        f"No API key for {model}: {' or '.join(sorted(keys))} is not set.",
        f"Set {sorted(keys)[0]} in the environment (a CI secret, or `export` in your shell), "
        "or pass --api-base to use a local server that needs no key.",
    )
