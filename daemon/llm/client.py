"""The model client: agentscope, lazily; the chat model; one HTTP call; retries; errors; event loops.

Why not ``model.generate_structured_output``: its strategy ladder sends up to
three requests per retry. Here every HTTP request is one of ours: the SDK and
agentscope retry nothing, so a model call makes at most ``model.retries + 1``
requests (plus one, once per ``ModelCaller``, when the server rejects tools).

Wire format: text-only messages go to OpenAI-compatible servers as one
string, not a list of parts (llama-cpp-python rejects a list for the system
message and its chat templates cannot concatenate one); every call carries
an answer budget (``max_tokens``), so a rambling model stops instead of
filling the context and holding a one-slot server for minutes.

Event loops: callers are synchronous. The daemon calls them from a plain
worker thread, where ``asyncio.run`` starts a fresh loop per call; the model
and its HTTP client are built inside that loop and closed before it ends (a
client outliving its loop fails with "Event loop is closed"). Called from a
thread that already runs a loop, the call runs in a short-lived helper thread.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, Awaitable, Callable, Mapping, TypeVar

from daemon.config import AGENT_KEY
from daemon.errors import ConfigError, DistillError, RejectedDistillError, TransientDistillError
from daemon.llm.output import InvalidOutput, has_tool_call
from daemon.llm.settings import Settings, check_installed, load_settings

__all__ = ["PING_TOKENS", "ModelCaller", "call", "check_endpoint", "failure"]

T = TypeVar("T")
TIMEOUT_GRACE = 5.0          # the wall-clock guard on top of the SDK's own timeout
MAX_BACKOFF = 30.0
NO_KEY = "memvault-no-key"   # OpenAI-compatible local servers need some key
PING_TOKENS = 16             # ``doctor``'s answer budget: one word is enough
log = logging.getLogger(__name__)


class _NoRetryNoise(logging.Filter):
    """Drops agentscope's own retry warnings: it never retries here, and ours say the same with more detail."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        return not (message.startswith("All %d attempt(s) failed") or message.startswith("Attempt %d failed"))


@cache
def _agentscope() -> None:
    """Import agentscope once, undoing its global side effects (a warnings filter, a stderr logger)."""
    with warnings.catch_warnings():  # restores the filters its import changes
        import agentscope  # noqa: F401
    logger = logging.getLogger("as")  # route agentscope's log into ours, warnings and up
    logger.handlers.clear()
    logger.propagate = True
    logger.setLevel(logging.WARNING)
    logger.addFilter(_NoRetryNoise())


@cache
def _string_formatter() -> Any:
    """An OpenAI formatter that sends a text-only message's content as one string; lists only with media."""
    from agentscope.formatter import OpenAIChatFormatter

    class StringContentFormatter(OpenAIChatFormatter):  # type: ignore[misc]
        async def format(self, msgs: list[Any]) -> list[dict[str, Any]]:
            messages: list[dict[str, Any]] = await super().format(msgs)
            for message in messages:
                parts = message.get("content")
                if isinstance(parts, list) and parts and all(
                        isinstance(p, dict) and p.get("type") == "text" for p in parts):
                    message["content"] = "".join(str(p.get("text") or "") for p in parts)
            return messages

    return StringContentFormatter


def build_model(s: Settings) -> Any:
    """A chat model whose SDK and agentscope layers never retry (our loop does). Call inside the loop."""
    _agentscope()
    from agentscope import credential, model
    from pydantic import SecretStr, ValidationError

    client = {"timeout": s.timeout, "max_retries": 0}
    common: dict[str, Any] = {"model": s.model, "stream": False, "max_retries": 0,
                              "context_size": s.context_tokens}
    key = SecretStr(s.api_key or NO_KEY)
    try:
        if s.provider == "openai":
            return model.OpenAIChatModel(
                credential=credential.OpenAICredential(api_key=key, base_url=s.base_url or None),
                client_kwargs=client, parameters=model.OpenAIChatModel.Parameters(temperature=s.temperature),
                formatter=_string_formatter()(), **common)
        if s.provider == "dashscope":
            where = {"base_url": s.base_url} if s.base_url else {}
            return model.DashScopeChatModel(
                credential=credential.DashScopeCredential.model_validate({"api_key": key, **where}),
                client_kwargs=client, parameters=model.DashScopeChatModel.Parameters(temperature=s.temperature),
                **common)
        if s.provider == "anthropic":  # the current SDK takes no temperature (newer Claude models ignore it)
            return model.AnthropicChatModel(
                credential=credential.AnthropicCredential(api_key=key, base_url=s.base_url or None),
                client_kwargs=client, **common)
        if s.provider == "gemini":
            return model.GeminiChatModel(
                credential=credential.GeminiCredential(api_key=key),
                client_kwargs={"http_options": {"timeout": int(s.timeout * 1000)}},
                parameters=model.GeminiChatModel.Parameters(temperature=s.temperature), **common)
        headers = {"headers": {"Authorization": f"Bearer {s.api_key}"}} if s.api_key else {}
        return model.OllamaChatModel(
            credential=credential.OllamaCredential(host=s.base_url or None),
            client_kwargs={"timeout": s.timeout, **headers},
            parameters=model.OllamaChatModel.Parameters(temperature=s.temperature), **common)
    except ValidationError as exc:
        raise ConfigError(f"{AGENT_KEY}.model: agentscope rejected the settings: {exc.errors()[0]['msg']}") from exc
    except ImportError as exc:
        raise ConfigError(f"{AGENT_KEY}.model.provider={s.provider}: a package is missing: {exc}") from exc


async def _close(model: Any) -> None:
    client = getattr(model, "client", None)
    for name in ("close", "aclose"):
        method = getattr(client, name, None)
        if callable(method):
            try:
                result = method()
                if inspect.isawaitable(result):
                    await result
            except Exception:  # closing is best effort; the loop ends next anyway
                log.debug("closing the %s client failed", type(client).__name__, exc_info=True)
            return


def _budget(model: Any, s: Settings, max_tokens: int) -> dict[str, Any]:
    """The answer budget for this call: a ``max_tokens`` key for OpenAI-compatible servers, else the model's own.

    OpenAI-compatible servers (llama.cpp, Ollama, LM Studio, vLLM) read
    ``max_tokens``; api.openai.com wants ``max_completion_tokens`` (what
    agentscope's parameter sends). Other providers take their parameter.
    """
    if s.provider == "openai" and s.base_url:
        return {"max_tokens": max_tokens}
    parameters = getattr(model, "parameters", None)
    if parameters is not None and hasattr(parameters, "max_tokens"):
        parameters.max_tokens = max_tokens
    return {}


def _json_schema(tool: dict[str, Any]) -> dict[str, Any]:
    """``response_format`` asking for the tool's arguments as the whole answer (constrained decoding where
    the server has it: llama-server, vLLM, LM Studio, Ollama)."""
    function = tool["function"]
    return {"type": "json_schema", "json_schema": {"name": function["name"], "schema": function["parameters"]}}


async def call(model: Any, s: Settings, messages: list[Any], tools: list[dict[str, Any]] | None = None,
               max_tokens: int | None = None, schema: dict[str, Any] | None = None) -> Any:
    """One HTTP request (agentscope and the SDK retry nothing), forcing ``tools[0]`` when given.

    ``max_tokens`` (default: ``s.answer_tokens``) caps the answer; ``schema`` (a tool, for an
    OpenAI-compatible server in text mode) is sent as ``response_format``. Returns agentscope's ChatResponse.
    """
    from agentscope.tool import ToolChoice

    choice = ToolChoice(mode=tools[0]["function"]["name"]) if tools else None
    extra = _budget(model, s, max_tokens or s.answer_tokens)
    if schema is not None and s.provider == "openai" and s.base_url:
        extra["response_format"] = _json_schema(schema)
    # The guard also covers SDKs without a timeout; agentscope turns the
    # cancellation into an "interrupted" response instead of raising. Either
    # way the HTTP connection is closed, and servers that notice (llama-server
    # does) stop generating.
    response = await asyncio.wait_for(model(messages, tools=tools, tool_choice=choice, **extra),
                                      s.timeout + TIMEOUT_GRACE)
    if getattr(response, "finished_reason", None) == "interrupted":
        raise TimeoutError(f"no answer within {s.timeout:g} s")
    return response


def _run(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion from synchronous code, with or without a running loop here."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())  # type: ignore[arg-type]
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="memvault-llm") as pool:
        return pool.submit(lambda: asyncio.run(make())).result()  # type: ignore[arg-type]


# ---- errors -------------------------------------------------------------------------

_TRANSIENT_STATUS = (408, 429)
# A 5xx whose message is a validation error is the server refusing this request (llama-cpp-python answers a
# list-typed system message with HTTP 500 and a pydantic error): the same request fails the same way again.
_VALIDATION = re.compile(r"validation error|validationerror|input should be|field required|type_error|"
                         r"extra inputs are not permitted|literal_error|string_type|can only concatenate", re.I)


def failure(exc: BaseException, s: Settings, attempts: int = 1) -> DistillError:
    """The provider's error as a DistillError.

    Timeouts, 408, 429, other 5xx and connection errors are transient; other
    4xx and a 5xx whose body is a validation error are RejectedDistillError.
    """
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else getattr(exc, "code", None)
    names = " ".join(c.__name__ for c in type(exc).__mro__)
    rejected = False
    if isinstance(status, int) and 100 <= status < 600:
        message = _provider_message(exc)
        transient = status in _TRANSIENT_STATUS or (status >= 500 and not _VALIDATION.search(message))
        rejected = not transient and status >= 400
        detail = f"HTTP {status}: {message}"
    elif isinstance(exc, (TimeoutError, asyncio.TimeoutError)) or "Timeout" in names:
        transient, detail = True, f"timed out after {s.timeout:g} s ({_provider_message(exc)})"
    elif isinstance(exc, ConnectionError) or re.search(r"Connect|Network|Transport|RemoteProtocol", names):
        transient, detail = True, f"cannot reach {s.where}: {_provider_message(exc)}"
    elif isinstance(exc, InvalidOutput):
        transient, detail = False, f"invalid output: {exc}"
    else:
        transient, detail = False, f"{type(exc).__name__}: {_provider_message(exc)}"
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    text = f"{s.provider} model {s.model!r} failed{tries}: {detail}"
    if s.api_key:
        text = text.replace(s.api_key, "***")
    kind = TransientDistillError if transient else RejectedDistillError if rejected else DistillError
    return kind(text)


def _provider_message(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    error = body.get("error", body) if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else error if isinstance(error, str) else None
    text = str(message or getattr(exc, "message", None) or exc or type(exc).__name__)
    return " ".join(text.split())[:500]


def _schema_rejected(exc: BaseException) -> bool:
    """A 400/422 about ``response_format``: the server has no JSON-schema output; plain text mode then."""
    return getattr(exc, "status_code", None) in (400, 422) and re.search(
        r"response_format|json_schema|grammar|schema", _provider_message(exc), re.I) is not None


def _tools_rejected(exc: BaseException) -> bool:
    """A 400/422 about tools: the server cannot do tool calling (vLLM without a parser, some Ollama models)."""
    return getattr(exc, "status_code", None) in (400, 422) and re.search(
        r"tool|function", _provider_message(exc), re.I) is not None


# ---- calls with retries ---------------------------------------------------------------

class ModelCaller:
    """Structured-output calls to one configured model, shared by the distiller and the tagger.

    ``retry_delay`` is the first backoff between attempts (doubling, at most
    30 s). ``text_mode`` turns true, for the caller's lifetime, once the
    server has rejected tool calling or answered a forced tool call in free
    text (llama-server ignores an object ``tool_choice``; a model whose
    template has no tools just talks); prompts then ask for JSON in the text,
    and OpenAI-compatible servers get the tool's schema as ``response_format``
    (constrained decoding) until one rejects it (``schema_mode``).
    """

    def __init__(self, settings: Settings, retry_delay: float) -> None:
        self.settings = settings
        self.retry_delay = retry_delay
        self.text_mode = False
        self.schema_mode = True  # in text mode, ask for the JSON by schema until the server rejects it

    def run(self, work: Callable[[Any], Awaitable[T]]) -> T:
        """``work(model)`` to completion from synchronous code; the model is built and closed in its loop."""
        async def session() -> T:
            model = build_model(self.settings)
            try:
                return await work(model)
            finally:
                await _close(model)

        return _run(session)

    async def ask(self, model: Any, tool: dict[str, Any], build: Callable[[], list[Any]],
                  parse: Callable[[Any], T], max_tokens: int | None = None) -> T:
        """One answer in at most ``retries + 1`` requests; ``parse`` raises InvalidOutput to retry.

        ``build`` makes the messages for each attempt (it may read ``text_mode``).
        The switch to text mode is free, once per caller: an answer without the
        tool call whose text is no valid answer is asked again at once.

        Raises:
            TransientDistillError: a timeout, rate limit, server or connection error (retry later).
            DistillError: any other model failure, or output still invalid after the retries.
        """
        s = self.settings
        attempt = 0
        last: Exception | None = None
        while attempt <= s.retries:
            if attempt:
                await asyncio.sleep(min(MAX_BACKOFF, self.retry_delay * 2 ** (attempt - 1)))
            attempt += 1
            try:
                messages = build()
            except ValueError as exc:  # agentscope refused a block (pydantic), before any request
                raise DistillError(f"cannot build the model input: {exc}") from exc
            switched = False
            try:
                schema = tool if self.text_mode and self.schema_mode else None
                response = await call(model, s, messages, None if self.text_mode else [tool], max_tokens, schema)
                if not self.text_mode and not has_tool_call(response):
                    log.warning("%s answered without the tool call; asking for JSON text from now on", s.where)
                    self.text_mode = switched = True
                return parse(response)
            except InvalidOutput as exc:
                if switched:
                    attempt -= 1  # the switch is free, once per caller
                    continue
                last = exc
                log.warning("%s model %r: invalid output (attempt %d): %s", s.provider, s.model, attempt, exc)
            except Exception as exc:
                if self.text_mode and self.schema_mode and _schema_rejected(exc):
                    log.warning("%s rejected response_format; plain JSON text from now on: %s", s.where, exc)
                    self.schema_mode = False
                    attempt -= 1  # free, once per caller
                    continue
                if not self.text_mode and _tools_rejected(exc):
                    log.warning("%s rejected tool calling; answering in JSON text from now on: %s", s.where, exc)
                    self.text_mode = True
                    attempt -= 1  # the switch is free, once per caller
                    continue
                error = failure(exc, s, attempt)
                if not isinstance(error, TransientDistillError):
                    raise error from exc
                last = exc
                log.warning("%s (attempt %d of %d)", error, attempt, s.retries + 1)
        assert last is not None
        raise failure(last, s, attempt) from last


def check_endpoint(agent_config: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> str:
    """``memvault doctor``: one tiny request to the configured model; returns a one-line OK message.

    Raises:
        ConfigError: the settings are incomplete (no model name, no key variable, missing package).
        DistillError: the endpoint failed, with the provider's error (TransientDistillError when worth retrying).
    """
    s = load_settings(agent_config, environ)
    check_installed(s.provider)

    async def ping(model: Any) -> float:
        from agentscope.message import SystemMsg, UserMsg

        started = time.monotonic()
        await call(model, s, [SystemMsg(name="system", content="Reply with the single word OK."),
                              UserMsg(name="user", content="ping")], max_tokens=PING_TOKENS)
        return time.monotonic() - started

    try:
        elapsed = ModelCaller(s, 0.0).run(ping)
    except (ConfigError, DistillError):
        raise
    except Exception as exc:
        raise failure(exc, s) from exc
    return f"OK: {s.provider} model {s.model!r} at {s.where} answered in {elapsed:.1f} s"


class ModelUser:
    """What the distiller and the tagger share: settings read once, one caller with bounded retries.

    Raises (on construction):
        ConfigError: a missing model name or key variable, an unknown provider, agentscope not installed.
    """

    def __init__(self, agent_config: Mapping[str, Any], environ: Mapping[str, str] | None = None,
                 *, retry_delay: float = 1.0) -> None:
        self._settings = load_settings(agent_config, environ)
        check_installed(self._settings.provider)
        self._caller = ModelCaller(self._settings, retry_delay)

    def __repr__(self) -> str:
        s = self._settings
        return f"{type(self).__name__}(provider={s.provider!r}, model={s.model!r}, base_url={s.base_url!r})"
