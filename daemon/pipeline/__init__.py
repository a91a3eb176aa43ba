"""The only place that knows the order of the stages.

- ``context``: ``Context``, what every run needs (built by ``app``).
- ``memory``: messages → source record → distiller → card → daily page (``auto_memory``).
- ``ingest``: an inbox file → conversations → the memory flow per day → processed/ or failed/.
- ``renames``: a move → backlinks → planned rewrites → vault writes → index update.

May import: the stages (``conversations``, ``distill``, ``llm``), ``vault``, ``links``, the nouns.
"""

from daemon.pipeline.context import Context
from daemon.pipeline.memory import Outcome, auto_memory, card_for_day, refresh_daily

__all__ = ["Context", "Outcome", "auto_memory", "card_for_day", "refresh_daily"]
