"""The only place that knows the order of the stages.

- ``context``: ``Context``, what every run needs (built by ``app``).
- ``memory``: messages → source record → distiller → card → daily page (``auto_memory``).
- ``bounded``: the distiller's bounded view of a huge conversation (capped messages, parts).
- ``ingest``: an inbox file → conversations → the memory flow per day → processed/ or failed/.
- ``live``: a live session's increment (Claude Code hooks): the record every time, the card when due.
- ``renames``: a move → backlinks → planned rewrites → vault writes → index update.
- ``cardnames``: after a move, a card the user renamed takes its file name as ``name``.
- ``dailypage``: the daily page's auto block, refreshed from the day's cards.
- ``statusnote``: the daemon's status note (``Memvault.md``): gathered, then written when changed.

May import: the stages (``conversations``, ``distill``, ``llm``), ``vault``, ``links``, the nouns.
"""

from typing import TYPE_CHECKING, Any

from daemon.pipeline.context import Context

if TYPE_CHECKING:  # their types, for checkers; at run time ``__getattr__`` below imports them
    from daemon.pipeline.memory import Outcome, auto_memory, card_for_day, refresh_daily

__all__ = ["Context", "Outcome", "auto_memory", "card_for_day", "refresh_daily"]
_FROM_MEMORY = ("Outcome", "auto_memory", "card_for_day", "refresh_daily")


def __getattr__(name: str) -> Any:
    """The memory flow's names, imported when first asked for: a command that only reads or catches
    the index up (``status``) never runs it, and importing it brings the distiller (0.1 s a run)."""
    if name in _FROM_MEMORY:
        from daemon.pipeline import memory

        return getattr(memory, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
