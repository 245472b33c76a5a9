"""Before the first model call: does LiteLLM know the provider, and is its API key set?

A missing key is not a transient failure: without this check LiteLLM's OpenAI route answers
"Missing credentials" as a 500 and the agent retried it for half a minute. Servers behind
``--api-base`` (Ollama, vLLM, LM Studio) need no key, but LiteLLM's OpenAI route insists on one:
they get a placeholder.
"""

from __future__ import annotations

import contextlib
import io
import os

from assista_mcp.agent.model.provider import load_litellm
from odoo_tools.errors import ConfigError

PLACEHOLDER_KEY = "assista-odoo-no-key"
EXAMPLE_PREFIXES = (
    "openai/",
    "anthropic/",
    "gemini/",
    "ollama_chat/",
    "hosted_vllm/",
    "lm_studio/",
    "openrouter/",
    "azure/",
    "bedrock/",
    "vertex_ai/",
    "mistral/",
    "groq/",
    "deepseek/",
)
PROVIDERS_URL = "https://docs.litellm.ai/docs/providers"
# The API key variables of common providers, known without importing LiteLLM (seconds): a missing
# key is said at once. Any of a provider's names will do; LiteLLM checks the rest before the call.
KEY_VARIABLES = {
    "openai": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "mistral": ("MISTRAL_API_KEY",),
    "groq": ("GROQ_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",),
    "openrouter": ("OPENROUTER_API_KEY", "OR_API_KEY"),
}


def require_model(model: str | None) -> str:
    """The model id, or ConfigError when none is configured."""
    if not model or not model.strip():
        raise ConfigError(
            "No model was given.",
            "Pass --model with a LiteLLM id (e.g. openai/gpt-4o, anthropic/claude-sonnet-4-5, "
            "ollama/qwen2.5-coder) or set ASSISTA_MODEL; the provider's API key comes from its "
            "usual environment variable.",
        )
    return model.strip()


def quick_check(model: str | None, api_base: str | None) -> None:
    """Before anything heavy is imported: a model is configured, and a common provider's key is
    set (behind --api-base none is needed)."""
    name = require_model(model)
    provider = name.split("/", 1)[0] if "/" in name else ""
    names = KEY_VARIABLES.get(provider, ())
    if names and not api_base and not any(os.environ.get(n) for n in names):
        raise _missing_key(name, list(names))


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
    raise _missing_key(model, sorted(keys))


def _missing_key(model: str, keys: list[str]) -> ConfigError:
    return ConfigError(
        f"No API key for {model}: {' or '.join(keys)} is not set.",
        f"Set {keys[0]} in the environment (a CI secret, or `export` in your shell), "
        "or pass --api-base to use a local server that needs no key.",
    )
