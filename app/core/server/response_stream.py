"""The Responses API's streamed events (response.created … response.completed), numbered by
sequence_number, from Hearth's generation events: reasoning, text and function-call items."""

from __future__ import annotations

import json
import time

from app.core.server import shapes
from backends.events import Done, ToolCall


class ResponseStream:
    """One streamed response: each method returns the SSE events for what just happened.

    Consecutive deltas of one kind go to one open item (reasoning or message); anything else
    closes it first, so items arrive whole and in the order the model wrote them."""

    def __init__(self, request_id: str, model: str, tools: list[dict[str, object]]) -> None:
        self._id, self._model, self._tools = request_id, model, tools
        self._created = int(time.time())
        self._sequence = 0
        self.output: list[dict[str, object]] = []  # finished items, as response.completed lists
        self._open: dict[str, object] | None = None  # the item text is streaming into
        self._pieces: list[str] = []

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> list[bytes]:
        snapshot = self._response("in_progress", None)
        return [self._event("response.created", response=snapshot),
                self._event("response.in_progress", response=snapshot)]

    def finish(self, done: Done) -> list[bytes]:
        """Close what is open and say how the response ended (completed, or incomplete when
        it ran out of max_output_tokens)."""
        status = shapes.response_status(done)
        kind = "response.completed" if status == "completed" else "response.incomplete"
        return [*self._close(), self._event(kind, response=self._response(status, done))]

    def fail(self, code: str, message: str, done: Done | None = None) -> list[bytes]:
        """An `error` event with Hearth's code, then response.failed with what had been
        written (its error code is one of the API's own: server_error)."""
        events = self._close("incomplete")
        error: dict[str, object] = {"code": "server_error", "message": message}
        events.append(self._event("error", code=code, message=message, param=None))
        events.append(self._event("response.failed", response=self._response(
            "failed", done, error)))
        return events

    # -- content ----------------------------------------------------------------------------
    def reasoning(self, text: str) -> list[bytes]:
        events = self._opened("reasoning")
        self._pieces.append(text)
        return [*events, self._event("response.reasoning_text.delta", **self._where(),
                                     delta=text)]

    def text(self, text: str) -> list[bytes]:
        events = self._opened("message")
        self._pieces.append(text)
        return [*events, self._event("response.output_text.delta", **self._where(), delta=text,
                                     logprobs=[])]

    def tool_call(self, call: ToolCall) -> list[bytes]:
        """A function_call item: the engine parses a call whole, so its arguments come as one
        delta (a JSON string, the OpenAI convention)."""
        events = self._close()
        shaped = shapes.tool_call(call)
        arguments = shaped["function"]["arguments"]
        item_id, index = shapes.item_id("fc"), len(self.output)
        events.append(self._event("response.output_item.added", output_index=index,
                                  item=shapes.function_call_item(item_id, call, shaped["id"], "",
                                                                 "in_progress")))
        where = {"item_id": item_id, "output_index": index}
        events.append(self._event("response.function_call_arguments.delta", **where,
                                  delta=arguments))
        events.append(self._event("response.function_call_arguments.done", **where,
                                  name=call.name, arguments=arguments))
        item = shapes.function_call_item(item_id, call, shaped["id"], arguments)
        self.output.append(item)
        events.append(self._event("response.output_item.done", output_index=index, item=item))
        return events

    # -- items ------------------------------------------------------------------------------
    def _opened(self, kind: str) -> list[bytes]:
        if self._open is not None and self._open["type"] == kind:
            return []
        events = self._close()
        index = len(self.output)
        if kind == "reasoning":
            self._open = shapes.reasoning_item(shapes.item_id("rs"), "", "in_progress")
            part: dict[str, object] = {"type": "reasoning_text", "text": ""}
        else:
            self._open = shapes.message_item(shapes.item_id("msg"), None, "in_progress")
            part = shapes.output_text("")
        events.append(self._event("response.output_item.added", output_index=index,
                                  item=self._open))
        events.append(self._event("response.content_part.added", **self._where(), part=part))
        return events

    def _close(self, status: str = "completed") -> list[bytes]:
        item, self._open = self._open, None
        if item is None:
            return []
        text, self._pieces = "".join(self._pieces), []
        where = {"item_id": item["id"], "output_index": len(self.output), "content_index": 0}
        if item["type"] == "reasoning":
            part: dict[str, object] = {"type": "reasoning_text", "text": text}
            done = self._event("response.reasoning_text.done", **where, text=text)
            finished = shapes.reasoning_item(str(item["id"]), text, status)
        else:
            part = shapes.output_text(text)
            done = self._event("response.output_text.done", **where, text=text, logprobs=[])
            finished = shapes.message_item(str(item["id"]), text, status)
        self.output.append(finished)
        return [done, self._event("response.content_part.done", **where, part=part),
                self._event("response.output_item.done", output_index=where["output_index"],
                            item=finished)]

    def _where(self) -> dict[str, object]:
        assert self._open is not None
        return {"item_id": self._open["id"], "output_index": len(self.output),
                "content_index": 0}

    def _response(self, status: str, done: Done | None,
                  error: dict[str, object] | None = None) -> dict[str, object]:
        return shapes.response_body(self._id, self._model, self._created, status,
                                    list(self.output), done, self._tools, error)

    def _event(self, kind: str, **fields: object) -> bytes:
        data = {"type": kind, "sequence_number": self._sequence, **fields}
        self._sequence += 1
        return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
