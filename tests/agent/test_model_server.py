"""The scripted model server itself, over plain HTTP (no LiteLLM): what it streams is what it says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx

from fixtures.model_server import SCRIPT_PATH, ScriptedModelServer

from .conftest import StartServer


def _sse_payloads(text: str) -> list[str]:
    return [line[len("data: ") :] for line in text.splitlines() if line.startswith("data: ")]


def test_streams_split_text_tool_calls_and_usage(model_server: StartServer) -> None:
    calls = [{"id": "c1", "name": "read_file", "arguments": '{"path": "x.py"}'}]
    server = model_server(
        [{"text": "abcdef", "split": 2, "tool_calls": calls, "usage": {"cached_tokens": 3}}]
    )
    body = {"model": "test-model", "stream": True, "stream_options": {"include_usage": True}, "messages": []}
    response = httpx.post(server.api_base + "/chat/completions", json=body)
    payloads = _sse_payloads(response.text)
    assert payloads[-1] == "[DONE]"
    chunks = [json.loads(p) for p in payloads[:-1]]
    contents = [c["choices"][0]["delta"].get("content") for c in chunks if c["choices"]]
    assert [c for c in contents if c] == ["ab", "cd", "ef"]
    args = "".join(
        call["function"]["arguments"]
        for c in chunks
        if c["choices"]
        for call in c["choices"][0]["delta"].get("tool_calls") or []
    )
    assert args == '{"path": "x.py"}'
    assert chunks[-1]["usage"]["prompt_tokens_details"] == {"cached_tokens": 3}
    assert server.requests == [body]


def test_error_steps_and_exhausted_script(model_server: StartServer) -> None:
    server = model_server([{"status": 429, "retry_after": 2}, {"context_window_error": True}])
    url = server.api_base + "/chat/completions"
    first = httpx.post(url, json={"messages": []})
    assert (first.status_code, first.headers["retry-after"]) == (429, "2")
    second = httpx.post(url, json={"messages": []})
    assert second.status_code == 400
    assert second.json()["error"]["code"] == "context_length_exceeded"
    third = httpx.post(url, json={"messages": []})
    assert third.json()["error"]["code"] == "script_exhausted"


def test_runs_as_a_script_and_logs_requests(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"text": "hello"}]), encoding="utf-8")
    log = tmp_path / "requests.jsonl"
    argv = [sys.executable, str(SCRIPT_PATH), str(script), "--port", "0", "--requests-log", str(log)]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stdout is not None
            base_url = proc.stdout.readline().strip()
            reply = httpx.post(base_url + "/v1/chat/completions", json={"messages": [{"role": "user"}]})
            assert reply.json()["choices"][0]["message"]["content"] == "hello"
        finally:
            proc.terminate()
    assert json.loads(log.read_text(encoding="utf-8")) == {"messages": [{"role": "user"}]}


def test_context_manager_stops_the_server() -> None:
    with ScriptedModelServer([]) as server:
        url = server.base_url
        assert httpx.get(url + "/v1/models").status_code == 200
    try:
        httpx.get(url + "/v1/models", timeout=2)
    except httpx.TransportError:
        return
    raise AssertionError("the server still answers after stop()")
