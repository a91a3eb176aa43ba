"""The only place that knows the order of the stages.

- ``memory``: messages → source record → distiller → card → daily page (``auto_memory``).
- ``ingest``: an inbox file → conversations → the memory flow per day → processed/ or failed/.
- ``renames``: a move → backlinks → planned rewrites → vault writes → index update.
"""

from daemon.pipeline.memory import Context, Outcome, auto_memory, card_for_day, refresh_daily

__all__ = ["Context", "Outcome", "auto_memory", "card_for_day", "refresh_daily"]
