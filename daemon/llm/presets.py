"""Working model sections for the servers people run: ``memvault model use NAME``.

Each preset is the ``components.agent_wrapper.default.model`` values that
work with that server out of the box: its provider (OpenAI-compatible
servers use ``openai`` with a ``/v1`` base URL, so no extra is needed), its
default port, a context size it runs with by default, the NAME of the key
variable for hosted APIs, and ``vision`` where the default model sees images.
``name`` is a placeholder to replace with the model actually served.
Pure data; ``config.write_settings`` writes it and ``doctor`` checks it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PRESETS", "preset"]

PRESETS: dict[str, dict[str, Any]] = {
    # llama.cpp's llama-server (and llama-cpp-python's server): n_ctx 4096 unless started with -c / --n_ctx.
    "llamacpp": {"provider": "openai", "name": "local-model", "base_url": "http://127.0.0.1:8080/v1",
                 "api_key_env": "", "context_tokens": 4096, "vision": False},
    # Ollama's OpenAI-compatible route: its default num_ctx is 4096 (2048 before 0.6), whatever the model allows.
    "ollama": {"provider": "openai", "name": "qwen3:8b", "base_url": "http://127.0.0.1:11434/v1",
               "api_key_env": "", "context_tokens": 4096, "vision": False},
    # LM Studio's local server: the context length is chosen when the model is loaded (4096 by default).
    "lmstudio": {"provider": "openai", "name": "local-model", "base_url": "http://127.0.0.1:1234/v1",
                 "api_key_env": "", "context_tokens": 4096, "vision": False},
    # vLLM: serves the model's whole context (max_model_len) unless limited; tool calls need
    # --enable-auto-tool-choice --tool-call-parser, else memvault answers in JSON text.
    "vllm": {"provider": "openai", "name": "Qwen/Qwen2.5-7B-Instruct", "base_url": "http://127.0.0.1:8000/v1",
             "api_key_env": "", "context_tokens": 32768, "vision": False},
    "openai": {"provider": "openai", "name": "gpt-4o-mini", "base_url": "", "api_key_env": "OPENAI_API_KEY",
               "context_tokens": 128000, "vision": True},
    "dashscope": {"provider": "dashscope", "name": "qwen-plus", "base_url": "", "api_key_env": "DASHSCOPE_API_KEY",
                  "context_tokens": 131072, "vision": False},
    "anthropic": {"provider": "anthropic", "name": "claude-sonnet-4-5", "base_url": "",
                  "api_key_env": "ANTHROPIC_API_KEY", "context_tokens": 200000, "vision": True},
}


def preset(name: str) -> dict[str, Any]:
    """A copy of the preset's model values.

    Raises:
        KeyError: no such preset (the caller names the choices).
    """
    return dict(PRESETS[name])
