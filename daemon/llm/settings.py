"""The agentscope adapter's settings: the ``components.agent_wrapper.default`` tree, the key, the extras.

Reading the tree fails with a ConfigError naming the key to fix. The API key
itself lives only in the environment; the configuration holds the NAME of
the variable, looked up here (``config.py`` reads the ``MEMVAULT_*``
settings; this is the one other read, of that one variable).
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import Any, Mapping
from urllib.parse import urlsplit

from daemon.config import AGENT_KEY, DEFAULTS, PROVIDERS
from daemon.errors import ConfigError

__all__ = ["LOCAL_TIMEOUT", "REMOTE_TIMEOUT", "Settings", "check_installed", "is_local", "load_settings"]

LOCAL_TIMEOUT = 300.0        # a CPU model on this machine may take minutes for one card
REMOTE_TIMEOUT = 120.0       # a hosted API answers in seconds, or is stuck
ANSWER_MIN, ANSWER_MAX = 256, 4096


@dataclass(frozen=True)
class Settings:
    """One configured chat model; ``api_key`` is None for a local server without a key."""

    provider: str
    model: str
    base_url: str
    api_key: str | None = field(repr=False)
    vision: bool
    temperature: float
    timeout: float
    retries: int
    context_tokens: int
    max_images: int
    max_tokens: int = 0      # 0: automatic (``answer_tokens``)

    @property
    def where(self) -> str:
        return self.base_url or f"the {self.provider} default endpoint"

    @property
    def answer_tokens(self) -> int:
        """The answer budget of a card step: ``model.max_tokens`` (at most half the context), else a quarter
        of the context, between 256 and 4096 tokens."""
        if self.max_tokens:
            return max(1, min(self.max_tokens, self.context_tokens // 2))
        return max(ANSWER_MIN, min(ANSWER_MAX, self.context_tokens // 4))


def is_local(provider: str, base_url: str) -> bool:
    """A server on this machine or the local network: loopback, a private address, ``*.local``, Ollama's default."""
    if not base_url:
        return provider == "ollama"
    host = (urlsplit(base_url if "//" in base_url else f"http://{base_url}").hostname or "").lower()
    if host == "localhost" or host.endswith((".localhost", ".local")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_link_local


def load_settings(agent_config: Mapping[str, Any], environ: Mapping[str, str] | None) -> Settings:
    """Read the ``components.agent_wrapper.default`` tree.

    Raises:
        ConfigError: an unknown provider, no model name, a bad number or a missing key variable; names the key.
    """
    defaults = DEFAULTS["components"]["agent_wrapper"]["default"]
    model = {**defaults["model"], **dict(agent_config.get("model") or {})}
    context = {**defaults["context_config"], **dict(agent_config.get("context_config") or {})}
    provider = str(model["provider"])
    if provider not in PROVIDERS:
        raise ConfigError(f"{AGENT_KEY}.model.provider: must be one of {', '.join(PROVIDERS)}, got {provider!r}")
    name = str(model["name"] or "").strip()
    if not name:
        raise ConfigError(f"{AGENT_KEY}.model.name: set the model to call (for example model.name=qwen3:8b)")
    try:
        numbers = (float(model["temperature"]), float(model["timeout"]), int(model["retries"]),
                   int(model["context_tokens"]), int(context["max_image_num"]), int(model["max_tokens"]))
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{AGENT_KEY}.model: temperature, timeout, retries, context_tokens and max_tokens must "
                          "be numbers") from exc
    temperature, timeout, retries, context_tokens, max_images, max_tokens = numbers
    if timeout < 0 or retries < 0 or context_tokens <= 0 or max_images < 0 or max_tokens < 0:
        raise ConfigError(f"{AGENT_KEY}.model: context_tokens must be > 0; timeout, max_tokens and retries >= 0")
    base_url = str(model["base_url"] or "").strip()
    key = _api_key(provider, base_url, str(model["api_key_env"] or "").strip(), environ)
    if not timeout:  # automatic: a local CPU model needs minutes for a card, a hosted API does not
        timeout = LOCAL_TIMEOUT if is_local(provider, base_url) else REMOTE_TIMEOUT
    return Settings(provider, name, base_url, key, bool(model["vision"]), temperature, timeout, retries,
                    context_tokens, max_images, max_tokens)


def _api_key(provider: str, base_url: str, variable: str, environ: Mapping[str, str] | None) -> str | None:
    """The key from the variable named by ``api_key_env``; None for a local server that needs none."""
    if variable:
        value = (os.environ if environ is None else environ).get(variable, "").strip()
        if not value:
            raise ConfigError(f"{AGENT_KEY}.model.api_key_env names the environment variable {variable}, "
                              "which is not set (or empty); export it with the API key")
        return value
    if provider == "ollama" or (provider == "openai" and base_url):
        return None  # a local server: no key
    raise ConfigError(f"{AGENT_KEY}.model.api_key_env: set it to the NAME of the environment variable that "
                      f"holds the {provider} API key (for example api_key_env=OPENAI_API_KEY)")


def check_installed(provider: str) -> None:
    """Fail early, before any request, when agentscope or the provider's extra is missing.

    Raises:
        ConfigError: with the ``pip install`` that fixes it.
    """
    if find_spec("agentscope") is None:
        raise ConfigError(f"{AGENT_KEY}.backend=agentscope needs the llm extra: pip install 'memvault[llm]'")
    extra = {"gemini": ("google.genai", "agentscope[gemini]"), "ollama": ("ollama", "agentscope[ollama]")}
    if provider in extra:
        module, package = extra[provider]
        try:
            found = find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            raise ConfigError(f"{AGENT_KEY}.model.provider={provider} needs pip install '{package}'"
                              + (" (or provider=openai with base_url=http://HOST:11434/v1)" if provider == "ollama"
                                 else ""))
