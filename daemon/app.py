"""The composition root: build the pipeline context from configuration, and set up vaults."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from daemon.config import Config
from daemon.errors import VaultError
from daemon.models import Card, DistillRequest, Distiller, Skip
from daemon.links.graph import Graph
from daemon.links.index import Index
from daemon.pipeline import Context
from daemon.pipeline.renames import reconcile
from daemon.vault.state import BaseStore
from daemon.vault.statusnote import NOTE as STATUS_NOTE
from daemon.vault.files import Vault
from daemon.vault.layout import vault_problem

if TYPE_CHECKING:
    from daemon.distill.tagging import Tagger

VAULT_FOLDERS = ("daily", "session/dialog", "inbox")


def make_distiller(config: Config) -> Distiller:
    """The configured distiller backend (the embedded extractive one by default, imported when first used)."""
    if config.agent["backend"] == "agentscope":
        from daemon.llm import AgentscopeDistiller  # agentscope itself loads on the first call

        return AgentscopeDistiller(config.agent)
    return EmbeddedDistiller()


def make_tagger(config: Config) -> Tagger | None:
    """The configured tagger: none when tagging is off, else the embedded one (the LLM one with agentscope)."""
    if not config.data["tagging"]["enabled"]:
        return None
    if config.agent["backend"] == "agentscope":
        from daemon.llm import AgentscopeTagger

        return AgentscopeTagger(config.agent)
    return EmbeddedTagger()


class EmbeddedDistiller:
    """The extractive distiller, imported when it is first asked for a card: most runs of the CLI
    (``status``, a start that catches the index up) never distill, and importing it (its word lists
    and a few hundred patterns, with the tagger's) was a tenth of a second of each run."""

    _made: Distiller | None = None

    def distill(self, request: DistillRequest) -> Card | Skip:
        if self._made is None:
            from daemon.distill.extractive import ExtractiveDistiller

            self._made = ExtractiveDistiller()
        return self._made.distill(request)


class EmbeddedTagger:
    """The extractive tagger, imported when it is first asked for tags (as ``EmbeddedDistiller``)."""

    _made: Tagger | None = None

    def tag(self, text: str, max_tags: int) -> list[str]:
        if self._made is None:
            from daemon.distill.tagging import ExtractiveTagger

            self._made = ExtractiveTagger()
        return self._made.tag(text, max_tags)


def build(
    config: Config,
    distiller: Distiller | None = None,
    clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
    tagger: Tagger | None = None,
) -> Context:
    """A pipeline context for ``config``; the vault must exist."""
    problem = vault_problem(config.vault, config.daily_dir, config.session_dir)
    if problem:  # every command but init refuses it: a mistyped vault= must not become a new vault
        raise VaultError(problem)
    vault = Vault(config.vault)
    vault.remove_stale_temps()  # callers hold the vault lock: no other writer's temp file can be live
    graph = open_graph(config, vault)
    ctx = Context(
        config=config,
        vault=vault,
        distiller=distiller or make_distiller(config),
        bases=BaseStore(graph.index),
        graph=graph,
        tagger=tagger if tagger is not None else make_tagger(config),
        clock=clock,
    )
    ctx.caught_up = reconcile(ctx)  # renames made while nothing watched are repaired: this may write notes
    return ctx


def open_graph(config: Config, vault: Vault) -> Graph:
    """The vault's index (in the state folder) with its in-memory path list."""
    excluded = []
    try:
        excluded.append(config.inbox.resolve().relative_to(config.vault.resolve()).as_posix())
    except ValueError:
        pass  # the inbox lives outside the vault
    # The daemon's status note resolves as a link target, but its own links (to cards, to inbox
    # error files) are not read: no backlinks from it, no broken links of its own.
    opaque = [STATUS_NOTE] if config.get("status_note.enabled") else []
    index = Index(config.state_dir() / "index.sqlite3")
    graph = Graph.open(vault, index, excluded=excluded, tag_key=config.get("tagging.key"),
                       search_scope=config.get("search.scope"), opaque=opaque)
    graph.ensure_search()  # an index from before full-text search, or a changed search.scope
    return graph


def template_dir() -> Path:
    """``vault_template/``: inside the installed wheel, or beside the package in a checkout."""
    packaged = Path(str(resources.files("daemon"))) / "vault_template"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "vault_template"


def init_vault(root: Path, config: Config | None = None) -> list[str]:
    """Create a vault from the template without overwriting anything; returns what was created."""
    created: list[str] = []
    template = template_dir()
    if root.exists() and not root.is_dir():
        raise VaultError(f"{root} exists and is not a folder")
    for source in sorted(template.rglob("*")):
        rel = source.relative_to(template)
        target = root / rel
        if source.is_dir():
            continue
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            created.append(rel.as_posix())
    folders = VAULT_FOLDERS if config is None else (config.daily_dir, f"{config.session_dir}/dialog")
    for folder in folders:
        if not (root / folder).exists():
            (root / folder).mkdir(parents=True)
            created.append(folder + "/")
    if config is not None and config.inbox == root / "inbox" and not config.inbox.exists():
        config.inbox.mkdir(parents=True)
        created.append("inbox/")
    return created
