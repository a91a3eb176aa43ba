"""A loopback OpenAI-compatible server for the agentscope adapter's tests (``test_llm*.py``).

The real agentscope client (and the openai SDK under it) talks HTTP to a
``ThreadingHTTPServer`` on 127.0.0.1 that answers from a script and records
every request, so the tests assert the request bodies the model would see.
No network beyond 127.0.0.1.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator

KEY = "sk-test-0123456789"
ENVIRON = {"TEST_LLM_KEY": KEY}


@dataclass(frozen=True)
class Reply:
    """One scripted answer: a JSON body with a status, or a stall of ``delay`` seconds."""

    status: int = 200
    body: dict[str, Any] = field(default_factory=dict)
    delay: float = 0.0


def completion(text: str | None = None, fields: dict[str, Any] | None = None,
               tool: str = "write_memory_card") -> Reply:
    """A chat completion: ``text``, and a call of ``tool`` with ``fields`` as its arguments when given."""
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if fields is not None:
        message["tool_calls"] = [{"id": "call_1", "type": "function",
                                  "function": {"name": tool, "arguments": json.dumps(fields)}}]
    return Reply(body={"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "fake-model",
                       "choices": [{"index": 0, "finish_reason": "tool_calls" if fields else "stop",
                                    "message": message}],
                       "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})


def error(status: int, message: str) -> Reply:
    """An OpenAI-style error body."""
    return Reply(status=status, body={"error": {"message": message, "type": "test", "code": None}})


Script = list["Reply | Callable[[dict[str, Any]], Reply]"]


@dataclass
class Request:
    """One recorded request: its path, its headers (lower-cased names) and its JSON body."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def user_content(self) -> list[dict[str, Any]]:
        content: list[dict[str, Any]] = self.body["messages"][-1]["content"]
        return content

    @property
    def user_text(self) -> str:
        return "".join(part.get("text", "") for part in self.user_content)

    @property
    def system_text(self) -> str:
        content = self.body["messages"][0]["content"]
        return content if isinstance(content, str) else "".join(p["text"] for p in content)


class FakeOpenAI:
    """Answers POST /v1/chat/completions from ``script`` (the last entry repeats) and records requests."""

    def __init__(self, script: Script) -> None:
        self.script = list(script)
        self.requests: list[Request] = []
        self.release = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # http.server's name
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                body = json.loads(raw)
                fake.requests.append(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                entry = fake.script[min(len(fake.requests), len(fake.script)) - 1]
                reply = entry(body) if callable(entry) else entry
                if reply.delay:
                    fake.release.wait(reply.delay)  # a stalled server; teardown releases it at once
                data = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = False  # server_close() joins the request threads
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05})
        self.thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def servers() -> Iterator[Callable[..., FakeOpenAI]]:
    """The body of a ``serve`` fixture: start servers from scripts, close them all at teardown."""
    started: list[FakeOpenAI] = []

    def start(*script: Reply | Callable[[dict[str, Any]], Reply]) -> FakeOpenAI:
        started.append(FakeOpenAI(list(script)))
        return started[-1]

    yield start
    for fake in started:
        fake.close()


def agent(fake: FakeOpenAI | None = None, **model: Any) -> dict[str, Any]:
    """A ``components.agent_wrapper.default`` tree for the fake server; ``model`` overrides settings."""
    settings = {"provider": "openai", "name": "fake-model", "base_url": fake.base_url if fake else "",
                "api_key_env": "TEST_LLM_KEY", "vision": False, "temperature": 0.3, "timeout": 10.0,
                "retries": 2, "context_tokens": 32768}
    settings.update(model)
    return {"backend": "agentscope", "model": settings, "context_config": {"max_image_num": 5}}
