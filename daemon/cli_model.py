"""The ``model`` command: ``memvault model use NAME`` writes a working model section and checks it.

``model list`` prints the presets. ``model use NAME [key=value ...]`` writes the
preset's ``components.agent_wrapper.default.model`` values (model keys such as
``name=qwen3:8b`` or ``base_url=…`` change the preset; other keys are
configuration overrides as for every command), switches the backend to
``agentscope``, and runs the same checks as ``doctor``.
"""

from __future__ import annotations

import argparse

from daemon.config import AGENT_KEY, DEFAULTS, load_config, write_settings
from daemon.errors import InputError


def cmd_model(args: argparse.Namespace) -> int:
    from daemon import ops
    from daemon.cli import _split
    from daemon.llm.presets import PRESETS, preset

    if args.action == "list":
        for name, values in PRESETS.items():
            where = values["base_url"] or "the provider's endpoint"
            key = f", key in ${values['api_key_env']}" if values["api_key_env"] else ""
            print(f"{name:10s} {values['provider']} at {where}, context_tokens={values['context_tokens']}{key}")
        return 0
    if args.preset not in PRESETS:
        raise InputError(f"model use: name one of {', '.join(PRESETS)} (got {args.preset or 'nothing'!r})")
    model_keys = set(DEFAULTS["components"]["agent_wrapper"]["default"]["model"])
    plain, overrides = _split(args.settings, tuple(model_keys))
    values = {**preset(args.preset), **plain}  # typed and checked by write_settings
    existing = args.config if args.config is None or args.config.exists() else None  # a new file is fine
    config = load_config(existing, overrides)
    written = {f"{AGENT_KEY}.backend": "agentscope", **{f"{AGENT_KEY}.model.{k}": v for k, v in values.items()}}
    path = write_settings(args.config, config, written)
    print(f"Wrote the {args.preset} model section to {path}")
    problems = 0
    for ok, line in ops.doctor(load_config(args.config, overrides)):
        print(f"{'ok ' if ok else 'ERR'} {line}")
        problems += not ok
    return 1 if problems else 0
