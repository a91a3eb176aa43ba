"""``Context``: everything a pipeline run needs, built by ``app`` and passed down each stage."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Callable

from daemon.config import Config
from daemon.links.graph import Changes, Graph
from daemon.models import Distiller
from daemon.vault.files import Vault
from daemon.vault.state import BaseStore

if TYPE_CHECKING:  # only its type: the embedded tagger is imported when first used (``app``)
    from daemon.distill.tagging import Tagger


@dataclass
class Context:
    """Everything a pipeline run needs, built by ``app``."""

    config: Config
    vault: Vault
    distiller: Distiller
    bases: BaseStore
    graph: Graph
    tagger: Tagger | None = None
    clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)
    caught_up: Changes | None = None  # what building this context found changed, and repaired
