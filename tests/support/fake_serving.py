"""A fake serving engine that behaves like vLLM or SGLang with their Nanbeige parsers.

It renders each chat request with a real chat template (honouring `chat_template_kwargs` and
`continue_final_message`, turning tool-call argument strings into mappings as vLLM does),
records the prompt, "generates" the next queued raw model output, and streams it back split
the way the servers' reasoning and tool-call parsers do: `delta.reasoning_content`,
`delta.content` and `delta.tool_calls` with JSON-string arguments."""

from __future__ import annotations

import json
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from backends.base import GenerateOptions
from backends.chat_format import ChatTemplate
from backends.events import ReasoningDelta, TextDelta, ToolCall
from backends.nanbeige import opens_reasoning
from backends.parser import OutputParser


class FakeServing(ThreadingHTTPServer):
    """flavor "vllm" answers /version, "sglang" answers /get_model_info."""

    daemon_threads = True

    def __init__(self, template: str, flavor: str = "vllm", context: int = 8192) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.template = ChatTemplate(template)
        self.flavor = flavor
        self.context = context
        self.outputs: deque[str] = deque()
        self.prompts: list[str] = []
        self.bodies: list[dict[str, Any]] = []
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self) -> FakeServing:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        self._thread.join(5)

    def render(self, body: dict[str, Any]) -> str:
        kwargs = body.get("chat_template_kwargs") or {}
        messages = [_with_mapping_arguments(m) for m in body["messages"]]
        continuing = bool(body.get("continue_final_message"))
        prefix = ""
        if continuing and messages and messages[-1]["role"] == "assistant":
            prefix = str(messages.pop()["content"])
        options = GenerateOptions(
            enable_thinking=kwargs.get("enable_thinking", True),
            preserve_thinking=kwargs.get("preserve_thinking", False),
            tool_call_format=kwargs.get("tool_call_format", "xml"),
            tools=body.get("tools") or [], assistant_prefix=prefix)
        return self.template.render(messages, options)


def _with_mapping_arguments(message: dict[str, Any]) -> dict[str, Any]:
    calls = message.get("tool_calls")
    if not calls:
        return message
    fixed = []
    for call in calls:
        function = dict(call["function"])
        if isinstance(function.get("arguments"), str):
            function["arguments"] = json.loads(function["arguments"] or "{}")
        fixed.append({**call, "function": function})
    return {**message, "tool_calls": fixed}


class _Handler(BaseHTTPRequestHandler):
    server: FakeServing

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.endswith("/v1/models"):
            self._json(200, {"object": "list", "data": [
                {"id": "nanbeige", "object": "model", "owned_by": self.server.flavor,
                 "max_model_len": self.server.context}]})
        elif self.path == "/version" and self.server.flavor == "vllm":
            self._json(200, {"version": "0.11.0"})
        elif self.path == "/get_model_info" and self.server.flavor == "sglang":
            self._json(200, {"model_path": "nanbeige", "is_generation": True})
        else:
            self._json(404, {"detail": "Not Found"})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        if not self.path.endswith("/v1/chat/completions"):
            self._json(404, {"detail": "Not Found"})
            return
        try:
            prompt = self.server.render(body)
        except (ValueError, KeyError, TypeError) as exc:
            self._json(400, {"object": "error", "message": f"chat template: {exc}",
                             "type": "BadRequestError", "code": 400})
            return
        self.server.prompts.append(prompt)
        self.server.bodies.append(body)
        output = self.server.outputs.popleft() if self.server.outputs else "</think>\n\nok"
        self._stream(prompt, output, body)

    def _stream(self, prompt: str, output: str, body: dict[str, Any]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        parser = OutputParser(tools=body.get("tools"), starts_in_reasoning=opens_reasoning(prompt))
        events = []
        for piece in output.split(" "):
            events += parser.feed(piece + " ")
        events += parser.finish()
        calls = 0
        for event in events:
            if isinstance(event, ReasoningDelta):
                delta: dict[str, Any] = {"reasoning_content": event.text}
            elif isinstance(event, TextDelta):
                delta = {"content": event.text}
            elif isinstance(event, ToolCall):
                delta = {"tool_calls": [{"index": calls, "id": f"call_{calls}", "type": "function",
                                         "function": {"name": event.name, "arguments":
                                                      json.dumps(event.arguments)}}]}
                calls += 1
            else:
                continue
            self._event({"choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
        self._event({"choices": [{"index": 0, "delta": {},
                                  "finish_reason": "tool_calls" if calls else "stop"}],
                     "usage": {"prompt_tokens": len(prompt) // 3,
                               "completion_tokens": max(1, len(output) // 3)}})
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _event(self, data: Any) -> None:
        self.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()

    def _json(self, status: int, data: Any) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)
