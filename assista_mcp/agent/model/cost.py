"""Cost and context-window facts from LiteLLM's bundled (local) model map; unknown models cost 0."""

from __future__ import annotations

from assista_mcp.agent.events import Usage
from assista_mcp.agent.model.provider import load_litellm

_unpriced: set[str] = set()  # models LiteLLM could not price: asking again costs ~1 ms per call


def cost_usd(model: str, usage: Usage) -> float:
    """What ``usage`` cost on ``model`` in US dollars (cached prompt tokens at their own rate)."""
    if model in _unpriced:
        return 0.0
    litellm = load_litellm()
    details = {"cached_tokens": usage.cached_tokens} if usage.cached_tokens else None
    priced = litellm.Usage(
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        total_tokens=usage.prompt_tokens + usage.completion_tokens,
        prompt_tokens_details=details,
    )
    try:
        prompt_cost, completion_cost = litellm.cost_per_token(model=model, usage_object=priced)
    except Exception:  # unmapped model or a provider LiteLLM cannot price: unknown, not an error
        _unpriced.add(model)
        return 0.0
    return float(prompt_cost) + float(completion_cost)


def context_window(model: str) -> int | None:
    """The model's maximum input tokens, or None when LiteLLM's map does not know the model."""
    try:
        info = load_litellm().get_model_info(model)
    except Exception:  # unmapped model
        return None
    # Only the input limit: for many models "max_tokens" is the *output* limit, and taking it would
    # condense the conversation far too early. Unknown -> None: the loop condenses on the error.
    value = info.get("max_input_tokens")
    return int(value) if value else None
