"""A loopback OpenAI-compatible server for the agentscope adapter's tests (``test_llm*.py``).

The real agentscope client (and the openai SDK under it) talks HTTP to a
``ThreadingHTTPServer`` on 127.0.0.1 that answers from a script and records
every request, so the tests assert the request bodies the model would see.
No network beyond 127.0.0.1.

Quirk modes copy what real local servers did (issue 13), applied before the
script answers:

- ``string-content-only``: llama-cpp-python; a message whose content is a
  list gets HTTP 500 with a pydantic validation body.
- ``ignores-tools``: llama-server with a template without tools; a request
  with tools gets prose (no tool call), one without tools gets the script's
  card fields as JSON text.
- ``no-json-schema``: a request with ``response_format`` gets HTTP 400.
- ``rambles``: a model that never stops; without ``max_tokens`` (or
  ``max_completion_tokens``) it stalls until the client hangs up.
- ``small-context``: a request whose estimated prompt plus answer budget
  exceeds ``n_ctx`` gets llama-server's HTTP 400.
- ``skip-with-body``, ``empty-name``: the script's card comes back with
  ``skip: true``, or with an empty ``name``.
- ``exposes-n_ctx``: GET endpoints report ``n_ctx`` the way ``flavour``
  does (``llama-server`` /props, ``vllm`` and ``lmstudio`` /v1/models,
  ``ollama`` POST /api/show).
- ``slow``: every completion stalls until the client hangs up; the hang-ups
  are counted in ``disconnects``.
"""

from __future__ import annotations

import json
import select
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator

KEY = "sk-test-0123456789"
ENVIRON = {"TEST_LLM_KEY": KEY}
QUIRKS = ("string-content-only", "ignores-tools", "no-json-schema", "rambles", "small-context", "skip-with-body",
          "empty-name", "exposes-n_ctx", "slow")
VALIDATION_500 = ("1 validation error for ChatCompletionRequestSystemMessage\ncontent\n  Input should be a valid "
                  "string [type=string_type, input_value=[{'type': 'text', 'text': '...'}], input_type=list]")


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
        """The last message's parts; a string content is one text part."""
        content = self.body["messages"][-1]["content"]
        return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)

    @property
    def user_text(self) -> str:
        return "".join(part.get("text", "") for part in self.user_content)

    @property
    def system_text(self) -> str:
        content = self.body["messages"][0]["content"]
        return content if isinstance(content, str) else "".join(p["text"] for p in content)


def _tokens(body: dict[str, Any]) -> int:
    """The fake's prompt size: 3 bytes a token, like memvault's estimate (the real ratio was 2.9-3.1)."""
    return len(json.dumps(body.get("messages", []), ensure_ascii=False).encode("utf-8")) // 3


def _hung_up(sock: socket.socket, release: threading.Event, limit: float) -> bool:
    """Wait until the client closes the connection (True), the test releases the server, or ``limit`` passes."""
    waited = 0.0
    while waited < limit and not release.is_set():
        readable, _, _ = select.select([sock], [], [], 0.05)
        waited += 0.05
        if readable:
            try:
                if not sock.recv(1, socket.MSG_PEEK):
                    return True
            except OSError:
                return True
    return False


def quirk_reply(fake: "FakeOpenAI", body: dict[str, Any], scripted: Reply) -> Reply | None:
    """What the quirks make of a request before (or instead of) the scripted reply; None: stall."""
    quirks = fake.quirks
    if "string-content-only" in quirks and any(isinstance(m.get("content"), list) for m in body["messages"]):
        return error(500, VALIDATION_500)
    if "no-json-schema" in quirks and "response_format" in body:
        return error(400, "response_format is not supported by this server")
    budget = body.get("max_tokens") or body.get("max_completion_tokens")
    if "small-context" in quirks and _tokens(body) + int(budget or 0) > fake.n_ctx:
        return error(400, f"the request exceeds the available context size ({_tokens(body)} + {budget} tokens > "
                          f"n_ctx {fake.n_ctx}), try increasing it")
    if "slow" in quirks or ("rambles" in quirks and not budget):
        return None
    fields = _tool_fields(scripted)
    if fields is not None and "skip-with-body" in quirks:
        fields = {**fields, "skip": True}
    if fields is not None and "empty-name" in quirks:
        fields = {**fields, "name": ""}
    if "ignores-tools" in quirks:
        if body.get("tools"):
            return completion("Sure! This conversation is about several things. Let me know if you need more.")
        return completion(json.dumps(fields)) if fields is not None else scripted
    return completion(fields=fields) if fields is not None and fields != _tool_fields(scripted) else scripted


def _tool_fields(reply: Reply) -> dict[str, Any] | None:
    try:
        calls = reply.body["choices"][0]["message"].get("tool_calls") or []
    except (KeyError, IndexError, TypeError):
        return None
    return json.loads(calls[0]["function"]["arguments"]) if calls else None


class FakeOpenAI:
    """Answers POST /v1/chat/completions from ``script`` (the last entry repeats) and records requests.

    ``quirks`` (see ``QUIRKS``) copy real servers; ``n_ctx`` is their context size.
    """

    def __init__(self, script: Script, quirks: tuple[str, ...] = (), n_ctx: int = 8192,
                 flavour: str = "llama-server") -> None:
        unknown = set(quirks) - set(QUIRKS)
        assert not unknown, f"unknown quirks {unknown}"
        self.script = list(script)
        self.quirks = tuple(quirks)
        self.n_ctx = n_ctx
        self.flavour = flavour
        self.requests: list[Request] = []
        self.probes: list[str] = []
        self.disconnects = 0
        self.hung_up = threading.Event()
        self.release = threading.Event()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # http.server's name
                fake.probes.append(self.path)
                self._send(fake.metadata("GET", self.path, {}))

            def do_POST(self) -> None:  # http.server's name
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                body = json.loads(raw or b"{}")
                if not self.path.endswith("/chat/completions"):
                    fake.probes.append(self.path)
                    self._send(fake.metadata("POST", self.path, body))
                    return
                fake.requests.append(Request(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                entry = fake.script[min(len(fake.requests), len(fake.script)) - 1]
                scripted = entry(body) if callable(entry) else entry
                reply = quirk_reply(fake, body, scripted) if fake.quirks else scripted
                if reply is None:  # stall until the client gives up (or teardown)
                    if _hung_up(self.connection, fake.release, 60.0):
                        fake.disconnects += 1
                        fake.hung_up.set()
                    return
                if reply.delay:
                    fake.release.wait(reply.delay)  # a stalled server; teardown releases it at once
                self._send(reply)

            def _send(self, reply: Reply) -> None:
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

    def metadata(self, method: str, path: str, body: dict[str, Any]) -> Reply:
        """The GET/POST endpoints other than chat completions: where a server tells its context size."""
        shown = "exposes-n_ctx" in self.quirks
        route = (method, path.rstrip("/"), self.flavour)
        if route == ("GET", "/props", "llama-server") and shown:
            return Reply(body={"default_generation_settings": {"n_ctx": self.n_ctx}, "total_slots": 1})
        if route[:2] == ("GET", "/v1/models"):
            model: dict[str, Any] = {"id": "fake-model", "object": "model", "owned_by": "test"}
            if shown and self.flavour == "vllm":
                model["max_model_len"] = self.n_ctx
            if shown and self.flavour == "llama-server":
                model["meta"] = {"n_ctx_train": self.n_ctx * 4}  # the training size: not what the server runs
            return Reply(body={"object": "list", "data": [model]})
        if route == ("GET", "/api/v0/models", "lmstudio") and shown:
            return Reply(body={"data": [{"id": "fake-model", "max_context_length": self.n_ctx * 4,
                                         "loaded_context_length": self.n_ctx}]})
        if route == ("POST", "/api/show", "ollama") and shown and body.get("model") == "fake-model":
            return Reply(body={"model_info": {"llama.context_length": self.n_ctx * 4},
                               "parameters": f"num_ctx                        {self.n_ctx}\nstop \"<|im_end|>\""})
        return error(404, f"no route {method} {path}")

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


def servers() -> Iterator[Callable[..., FakeOpenAI]]:
    """The body of a ``serve`` fixture: start servers from scripts, close them all at teardown."""
    started: list[FakeOpenAI] = []

    def start(*script: Reply | Callable[[dict[str, Any]], Reply], quirks: tuple[str, ...] = (),
              n_ctx: int = 8192, flavour: str = "llama-server") -> FakeOpenAI:
        started.append(FakeOpenAI(list(script), quirks, n_ctx, flavour))
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
