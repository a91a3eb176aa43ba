"""``memvault doctor``: read the context size a local server really runs with, and compare it with the config.

A request longer than the server's context fails with HTTP 400, but only at
the first long conversation; the server can say its size up front:

- llama-server: ``GET /props`` → ``default_generation_settings.n_ctx``;
- vLLM: ``GET /v1/models`` → ``max_model_len``;
- LM Studio: ``GET /api/v0/models`` → ``loaded_context_length`` (else ``max_context_length``);
- Ollama: ``POST /api/show`` → ``num_ctx`` in its parameters (else the model's ``*.context_length``).

Only the configured endpoint's host is asked (invariant 7), with the standard
library and a short timeout; a server that exposes none of these is fine.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from daemon.config import AGENT_KEY
from daemon.llm.settings import Settings, load_settings

__all__ = ["ServerContext", "check_context", "server_context"]

PROBE_TIMEOUT = 5.0
OLLAMA_DEFAULT = "http://127.0.0.1:11434"


@dataclass(frozen=True)
class ServerContext:
    """The server's context size in tokens and where it was read."""

    tokens: int
    source: str


def _get(url: str, headers: Mapping[str, str], body: dict[str, Any] | None = None) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers={**headers, "Content-Type": "application/json"},
                                     method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT) as response:  # noqa: S310 (http only)
            return json.loads(response.read(1_000_000) or b"null")
    except (urllib.error.URLError, OSError, ValueError):
        return None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _pick(data: Any, model: str) -> dict[str, Any] | None:
    """The entry of a ``{"data": [...]}`` model list for ``model`` (or the only one)."""
    items = [m for m in (data.get("data") if isinstance(data, dict) else None) or [] if isinstance(m, dict)]
    chosen = [m for m in items if m.get("id") == model] or (items if len(items) == 1 else [])
    return chosen[0] if chosen else None


def _llama_server(root: str, s: Settings, headers: Mapping[str, str]) -> ServerContext | None:
    props = _get(f"{root}/props", headers)
    settings = props.get("default_generation_settings") if isinstance(props, dict) else None
    n_ctx = _int(settings.get("n_ctx")) if isinstance(settings, dict) else None
    return ServerContext(n_ctx, "llama-server /props") if n_ctx else None


def _openai_models(root: str, s: Settings, headers: Mapping[str, str]) -> ServerContext | None:
    entry = _pick(_get(f"{root}/v1/models", headers), s.model)
    n_ctx = _int(entry.get("max_model_len")) if entry else None
    return ServerContext(n_ctx, "vLLM /v1/models max_model_len") if n_ctx else None


def _lmstudio(root: str, s: Settings, headers: Mapping[str, str]) -> ServerContext | None:
    entry = _pick(_get(f"{root}/api/v0/models", headers), s.model)
    for key in ("loaded_context_length", "max_context_length"):
        n_ctx = _int(entry.get(key)) if entry else None
        if n_ctx:
            return ServerContext(n_ctx, f"LM Studio /api/v0/models {key}")
    return None


def _ollama(root: str, s: Settings, headers: Mapping[str, str]) -> ServerContext | None:
    shown = _get(f"{root}/api/show", headers, {"model": s.model})
    if not isinstance(shown, dict):
        return None
    found = re.search(r"^num_ctx\s+(\d+)", str(shown.get("parameters") or ""), re.M)
    if found:
        return ServerContext(int(found.group(1)), "Ollama /api/show num_ctx")
    info = shown.get("model_info") if isinstance(shown.get("model_info"), dict) else {}
    lengths = [_int(v) for k, v in info.items() if k.endswith(".context_length")]
    n_ctx = next((n for n in lengths if n), None)
    return ServerContext(n_ctx, "Ollama /api/show context_length (num_ctx may be smaller)") if n_ctx else None


PROBES: tuple[Callable[[str, Settings, Mapping[str, str]], ServerContext | None], ...] = (
    _llama_server, _openai_models, _lmstudio, _ollama)


def server_context(s: Settings) -> ServerContext | None:
    """The context size the configured server reports, or None (a hosted API, or a server that does not say)."""
    if s.provider == "ollama":
        root = (s.base_url or OLLAMA_DEFAULT).rstrip("/")
    elif s.provider == "openai" and s.base_url:
        root = re.sub(r"/v1/?$", "", s.base_url.rstrip("/"))
    else:
        return None
    headers = {"Authorization": f"Bearer {s.api_key}"} if s.api_key else {}
    for probe in PROBES:
        found = probe(root, s, headers)
        if found is not None:
            return found
    return None


def check_context(agent_config: Mapping[str, Any], environ: Mapping[str, str] | None = None
                  ) -> tuple[bool, str] | None:
    """``doctor``'s line about the context size: (fine, text), or None when the server does not say."""
    s = load_settings(agent_config, environ)
    found = server_context(s)
    if found is None:
        return None
    key = f"{AGENT_KEY}.model.context_tokens"
    if s.context_tokens > found.tokens:
        return False, (f"model context: the server runs {found.tokens} tokens ({found.source}) but {key}="
                       f"{s.context_tokens}; set {key}={found.tokens}, or long conversations fail with HTTP 400")
    return True, f"model context: {key}={s.context_tokens} fits the server's {found.tokens} ({found.source})"
