"""What to do after a failed model request: retry (and when), give up, or condense the context.

Pure decisions over exceptions and headers, so they are tested without a network.
"""

from __future__ import annotations

import email.utils
import json
import random
import re
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from assista_mcp.agent.model.provider_errors import provider_message
from assista_mcp.safety.redaction import redact

RETRYABLE_STATUS = frozenset({408, 409, 425, 429})
CONTEXT_WINDOW_MARKERS = ("context_length_exceeded", "maximum context length", "context window")
MAX_REASON_CHARS = 400
# "litellm.RateLimitError: RateLimitError: OpenAIException - <what the provider said>"
ERROR_PREFIX = re.compile(r"^(?:litellm\.)?[A-Z][A-Za-z]*(?::| -)\s+")
FailureKind = Literal["retry", "context_window", "fatal"]
# LiteLLM refuses, before sending, a history where a tool result does not answer a call of the
# assistant message before it; it says so as a 500, which no retry can fix.
UNPAIRED_TOOL_RESULT = "Missing corresponding tool call"


@dataclass(frozen=True)
class Failure:
    kind: FailureKind
    reason: str  # one line for people: what went wrong
    hint: str = ""  # what to do about it, when retries do not help
    retry_after: float | None = None  # seconds the provider asked us to wait


def classify(exc: BaseException) -> Failure:
    """Sort an exception raised while calling or streaming from a model."""
    status = _status_code(exc)
    detail = _describe(exc)
    if UNPAIRED_TOOL_RESULT in str(exc):
        return Failure(
            "fatal",
            "The conversation could not be sent: a tool result does not follow the tool call it "
            "answers (a fault in assista-odoo's history, not in the provider)",
            "Continue in a new session (run without --continue/--session) and report this with "
            "`assista-odoo sessions export`.",
        )
    if _is_context_window(exc):
        return Failure("context_window", f"The conversation no longer fits the model's context: {detail}")
    if _is_timeout(exc) or _is_timeout(getattr(exc, "original_exception", None)):
        said = f" ({detail})" if str(exc).strip() else ""
        return Failure("retry", f"The model did not answer in time{said}")
    if _unreachable(exc):  # nothing listens there, or the name does not resolve: no retry helps
        return Failure(
            "fatal",
            "Cannot reach the model server (connection refused or unknown host)",
            "Check --api-base (is the server running there?) and the network, then run again.",
        )
    if type(exc).__name__ == "MidStreamFallbackError":  # LiteLLM: the stream broke after it began
        original = getattr(exc, "original_exception", None)
        refused_first = getattr(exc, "is_pre_first_chunk", False)
        if isinstance(original, BaseException) and refused_first and _status_code(original):
            return classify(original)  # refused before any answer (Gemini's 429 comes so): judge that
        return Failure("retry", f"The answer stream broke off ({detail})")
    # After the mid-stream case: LiteLLM wraps a malformed chunk or a stream cut after it began in
    # an APIConnectionError too, and that is the stream breaking off, not a connection problem.
    if _is_connection(exc):  # LiteLLM reports a dropped connection as a 500: it is not the provider's
        return Failure("retry", f"Connection problem: {detail}")
    if status == 429:
        return Failure("retry", f"Rate limited (429): {detail}", retry_after=retry_after_of(exc))
    if status is not None and (status >= 500 or status in RETRYABLE_STATUS):
        return Failure("retry", f"Provider error ({status}): {detail}", retry_after=retry_after_of(exc))
    if status is None and _is_transient(exc):
        return Failure("retry", f"Connection or stream problem: {detail}")
    return Failure("fatal", _fatal_reason(status, detail), _fatal_hint(status))


GOOGLE_RETRY_DELAY = re.compile(r'"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"')


def backoff_delay(
    retry: int,
    base_delay: float,
    retry_after: float | None = None,
    *,
    max_delay: float = 60.0,
    jitter: Callable[[], float] = random.random,
) -> float:
    """Seconds to wait before retry number ``retry`` (0-based): exponential with up to 25% jitter,
    never less than the provider's Retry-After, never more than ``max_delay``."""
    delay = base_delay * (2.0**retry) * (1 + 0.25 * jitter())
    if retry_after is not None:
        delay = max(delay, retry_after)
    return min(delay, max_delay)


def retry_after_of(exc: BaseException) -> float | None:
    """The Retry-After (or retry-after-ms) the provider sent with this error, in seconds; Google
    sends none and says it in the body instead (a RetryInfo ``"retryDelay": "37s"``)."""
    for headers in _header_sources(exc):
        value = parse_retry_after(headers)
        if value is not None:
            return value
    match = GOOGLE_RETRY_DELAY.search(str(exc))
    return float(match.group(1)) if match else None


def parse_retry_after(headers: Mapping[str, str], now: Callable[[], float] = time.time) -> float | None:
    lowered = {str(k).lower(): str(v) for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(float(millis) / 1000.0, 0.0)
        except ValueError:
            pass
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    try:
        return max(float(raw), 0.0)
    except ValueError:
        pass
    try:  # an HTTP date
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - now(), 0.0)


def _header_sources(exc: BaseException) -> list[Mapping[str, str]]:
    """LiteLLM keeps the provider's headers in ``litellm_response_headers``; others on the response."""
    response = getattr(exc, "response", None)
    candidates = (
        getattr(exc, "litellm_response_headers", None),
        getattr(exc, "headers", None),
        getattr(response, "headers", None),
    )
    return [value for value in candidates if value is not None and hasattr(value, "items")]


def _status_code(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    try:
        return int(status) if status is not None else None
    except (TypeError, ValueError):
        return None


def _is_context_window(exc: BaseException) -> bool:
    if type(exc).__name__ == "ContextWindowExceededError":
        return True
    code = getattr(exc, "code", None)
    body = getattr(exc, "body", None)
    texts = [str(code or ""), json.dumps(body, default=str) if body else "", str(exc)]
    return _status_code(exc) == 400 and any(m in t.lower() for t in texts for m in CONTEXT_WINDOW_MARKERS)


def _is_timeout(exc: BaseException | None) -> bool:
    names = {cls.__name__ for cls in type(exc).__mro__} if exc is not None else set()
    return bool(names & {"TimeoutError", "Timeout", "APITimeoutError", "TimeoutException"})


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and what it wraps (causes, contexts, LiteLLM's ``original_exception``)."""
    found: list[BaseException] = []
    todo: list[BaseException | None] = [exc]
    while todo and len(found) < 20:
        current = todo.pop()
        if current is None or any(current is seen for seen in found):
            continue
        found.append(current)
        original = getattr(current, "original_exception", None)
        todo += [
            current.__cause__,
            current.__context__,
            original if isinstance(original, BaseException) else None,
        ]
    return found


def _unreachable(exc: BaseException) -> bool:
    return any(isinstance(e, (ConnectionRefusedError, socket.gaierror)) for e in _chain(exc))


def _is_connection(exc: BaseException) -> bool:
    return any(type(e).__name__ in ("APIConnectionError", "ConnectError") for e in _chain(exc))


def _is_transient(exc: BaseException) -> bool:
    names = {cls.__name__ for cls in type(exc).__mro__}
    transient = {"APIConnectionError", "TransportError", "JSONDecodeError", "RemoteProtocolError"}
    return bool(names & transient) or isinstance(exc, (ConnectionError, ValueError))


def _describe(exc: BaseException) -> str:
    """The provider's own words: the message of its JSON error body when there is one, else the
    text with LiteLLM's stacked class-name prefixes, tracebacks and repeats removed."""
    raw = str(exc).split("Traceback (most recent call last)")[0]
    text = provider_message(raw) or " ".join(raw.split()).split(" Original exception:")[0]
    while match := ERROR_PREFIX.match(text):
        text = text[match.end() :]
    text = redact(text or type(exc).__name__)
    return text if len(text) <= MAX_REASON_CHARS else text[: MAX_REASON_CHARS - 1] + "…"


def _fatal_reason(status: int | None, detail: str) -> str:
    return (
        f"The model request failed ({status}): {detail}" if status else f"The model request failed: {detail}"
    )


def _fatal_hint(status: int | None) -> str:
    hints: dict[int | None, str] = {
        401: "Check the provider's API key environment variable (e.g. OPENAI_API_KEY, ANTHROPIC_API_KEY).",
        403: "The API key lacks access to this model; check the provider account or pick another --model.",
        404: "Check the model id (a LiteLLM id such as openai/gpt-4o) and --api-base.",
        400: "The provider rejected the request; check the model id and its supported features.",
    }
    return hints.get(status, "Check --model, --api-base and the provider's API key, then run again.")


def describe_attempt(failure: Failure, delay: float, retry: int, retries: int, partial: bool) -> str:
    """The error-event text for a retry about to happen."""
    wait = f"{delay:.1f}s" if delay >= 0.1 else f"{delay * 1000:.0f}ms"
    text = f"{failure.reason.rstrip('.')}. Retrying in {wait} (retry {retry} of {retries})."
    if partial:
        text += " The partial answer streamed so far is discarded."
    return text
