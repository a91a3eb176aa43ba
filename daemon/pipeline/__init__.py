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

from daemon.pipeline.context import Context
from daemon.pipeline.memory import Outcome, auto_memory, card_for_day, refresh_daily

__all__ = ["Context", "Outcome", "auto_memory", "card_for_day", "refresh_daily"]
