"""The ``memvault`` entry point: the Claude Code hook takes a fast path, everything else ``cli.main``.

``memvault hook claude-code`` runs after every turn of the agent, so it must
not pay for importing the whole daemon (the pipeline, the index, the
scheduler): it is recognised here, before ``daemon.cli`` is imported.
"""

from __future__ import annotations

import sys
from typing import Sequence


def hook_arguments(argv: Sequence[str]) -> tuple[str | None, list[str]] | None:
    """``(config file, key=value overrides)`` for ``[--config FILE] hook claude-code [key=value…]``, else None."""
    args = list(argv)
    config: str | None = None
    if args[:1] == ["--config"] and len(args) > 1:
        config, args = args[1], args[2:]
    elif args and args[0].startswith("--config="):
        config, args = args[0].partition("=")[2], args[1:]
    if args[:2] != ["hook", "claude-code"] or any(a.startswith("-") for a in args[2:]):
        return None  # --help and mistakes get the full command line's answer
    if not all("=" in a for a in args[2:]):
        return None
    return config, args[2:]


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    fast = hook_arguments(args)
    if fast is not None:
        from daemon.integrations.claude_code.hook import run

        return run(*fast)
    from daemon.cli import main as cli_main

    return cli_main(args)
