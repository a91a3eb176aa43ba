"""LoCoMo retention benchmark for the distiller (a dev script, not a test).

For each LoCoMo conversation, one ``auto_memory`` call per session (speakers by
name, the session's date as the time) writes a card into a temporary vault, twice: with
both speakers as ``user``, and with the first as ``user`` and the other as ``assistant``
(a card must not depend on who is called what); then, for
every QA item of categories 1-4 with resolvable evidence, **retention** is the
share of the answer's content tokens found in the cards of the evidence
sessions, and **compression** is card characters / transcript characters. The
full transcript and its first 30 % are measured as baselines in the same run.

    python scripts/bench_locomo.py [--conversations 1-5] [--backend extractive]
                                   [--corpus PATH] [--json OUT]
    python scripts/bench_locomo.py --backend agentscope --set model.base_url=http://127.0.0.1:11434/v1 \
                                   --set model.name=qwen3:8b [--set model.api_key_env=OPENAI_API_KEY]

``--backend agentscope`` distills with the configured model (the user's config
file and ``MEMVAULT_*`` variables, then each ``--set``; keys are relative to
``components.agent_wrapper.default``).

LoCoMo is CC BY-NC 4.0 (Maharana et al., arXiv:2402.17753): it is read from the
shared corpus folder for evaluation only and never copied into the project.
Conversations 1-5 are the development split, 6-10 are held out.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Collection, Iterable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from daemon.distill.extractive import ExtractiveDistiller  # noqa: E402
from daemon.models import Card, Distiller, DistillRequest, Message  # noqa: E402

DEFAULT_CORPUS = REPO / ".." / "shared" / "corpus" / "locomo" / "locomo10.json"
DATE_FORMAT = "%I:%M %p on %d %B, %Y"
SPLITS = {"dev (1-5)": range(1, 6), "held out (6-10)": range(6, 11)}
BACKENDS = ("extractive", "agentscope")
BASELINE_FRACTION = 0.30
STOPWORDS = frozenset("""a an the and or but if of to in on at by for with about as into from up down
over under again further then once here there when where why how all any both each few more most other
some such no nor not only own same so than too very s t can will just don should now is are was were be
been being have has had having do does did doing i me my myself we our ours ourselves you your yours
yourself yourselves he him his himself she her hers herself it its itself they them their theirs
themselves what which who whom this that these those am would could ought""".split())


@dataclass(frozen=True)
class Session:
    """One LoCoMo session: its number, start time and ``(speaker, text)`` turns."""

    sample_id: str
    number: int
    when: datetime
    turns: tuple[tuple[str, str], ...]


Producer = Callable[[Session], str]


# ---- reading the corpus -------------------------------------------------------

def load_sessions(sample: dict[str, Any]) -> dict[int, Session]:
    """Sessions by number, found from the ``session_<N>`` lists (conv-26 has dangling date keys)."""
    conversation = sample["conversation"]
    out: dict[int, Session] = {}
    for key, turns in conversation.items():
        match = re.fullmatch(r"session_(\d+)", key)
        if match and isinstance(turns, list):
            n = int(match.group(1))
            when = datetime.strptime(conversation[f"{key}_date_time"], DATE_FORMAT)
            out[n] = Session(sample["sample_id"], n, when,
                             tuple((t["speaker"], t["text"]) for t in turns))
    return out


def transcript(session: Session) -> str:
    """The reference text: one ``Speaker: text`` line per turn."""
    return "\n".join(f"{speaker}: {text}" for speaker, text in session.turns)


def evidence_sessions(evidence: Iterable[str], known: Iterable[int]) -> set[int]:
    """Session numbers named by evidence ids such as ``D3:5``; malformed or dangling ids are dropped."""
    known = set(known)
    ids = {int(m.group(1)) for item in evidence for part in re.split(r"[;\s]+", str(item))
           if (m := re.fullmatch(r"D(\d+):(\d+)", part))}
    return ids & known


# ---- producing cards (swap this part for the end-to-end path) -------------------

def card_text(card: Card) -> str:
    return "\n".join((card.name, card.description, card.body))


def make_distiller(backend: str, settings: Iterable[str] = ()) -> Distiller:
    """The backend's distiller; ``settings`` are ``key=value`` overrides under the agent config."""
    if backend not in BACKENDS:
        raise SystemExit(f"unknown backend {backend!r}; available: {', '.join(BACKENDS)}")
    if backend == "extractive":
        return ExtractiveDistiller()
    from daemon.config import AGENT_KEY, load_config
    from daemon.errors import MemvaultError
    from daemon.llm import AgentscopeDistiller

    overrides = [f"{AGENT_KEY}.backend=agentscope"] + [
        item if item.startswith("components.") else f"{AGENT_KEY}.{item}" for item in settings]
    try:
        return AgentscopeDistiller(load_config(overrides=overrides).agent)
    except MemvaultError as exc:
        raise SystemExit(f"Error: {exc}") from exc


class AutoMemory:
    """The end-to-end path: one ``auto_memory`` call per session into a temporary vault.

    Tagging is off so the figures measure the distiller; the card text is its
    name, description and body as written to the vault.
    """

    def __init__(self, distiller: Distiller, roles: str = "user") -> None:
        self.roles = roles
        home = Path(tempfile.mkdtemp(prefix="memvault-locomo-"))
        os.environ.update(XDG_STATE_HOME=str(home / "state"), XDG_CONFIG_HOME=str(home / "config"))
        from daemon.app import build, init_vault
        from daemon.config import load_config

        init_vault(home / "vault")
        config = load_config(overrides=[f"vault={home / 'vault'}", "timezone=UTC", "tagging.enabled=false"],
                             environ={})
        self.root = home / "vault"
        self.ctx = build(config, distiller=distiller)

    def __call__(self, session: Session) -> str:
        from daemon.vault import props
        from daemon.pipeline import auto_memory

        messages = [{"id": f"D{session.number}:{i}", "role": role_of(session, speaker, self.roles), "name": speaker,
                     "content": text, "created_at": session.when.isoformat()}
                    for i, (speaker, text) in enumerate(session.turns, 1)]
        result = auto_memory(self.ctx, f"locomo-{session.sample_id}-s{session.number}-{self.roles.replace('/', '-')}", messages,
                             date=session.when.date().isoformat())
        if not result["success"]:
            raise SystemExit(f"auto_memory failed: {result['answer']}")
        path = result["metadata"]["path"]
        if not path:
            return ""
        text = (self.root / path).read_text(encoding="utf-8")
        card = props.read(text)
        return "\n".join((str(card.get("name", "")), str(card.get("description", "")), props.body(text)))


ROLE_MAPPINGS = ("user", "user/assistant")


def role_of(session: Session, speaker: str, roles: str) -> str:
    """Both speakers as ``user``, or the first speaker as ``user`` and the other as ``assistant``."""
    return "assistant" if roles == "user/assistant" and speaker != session.turns[0][0] else "user"


def cards_for_session(session: Session, backend: str = "extractive", distiller: Distiller | None = None,
                      roles: str = "user") -> str:
    """Distill one session into its card(s) and return their text (empty when skipped)."""
    distiller = distiller or make_distiller(backend)
    messages = tuple(Message(id=f"D{session.number}:{i}", role=role_of(session, speaker, roles), name=speaker,
                             text=text,
                             time=session.when)
                     for i, (speaker, text) in enumerate(session.turns, start=1))
    request = DistillRequest(session_id=f"locomo-{session.sample_id}-s{session.number}",
                             day=session.when.date(), messages=messages)
    result = distiller.distill(request)
    return card_text(result) if isinstance(result, Card) else ""


def first_part(session: Session) -> str:
    text = transcript(session)
    return text[: int(len(text) * BASELINE_FRACTION)]


# ---- metrics ---------------------------------------------------------------------

def content_tokens(text: str) -> list[str]:
    """Lower-cased words and numbers minus stopwords."""
    return [t for t in re.findall(r"[a-z0-9]+", text.lower()) if t not in STOPWORDS]


def retention_scores(qa: list[dict[str, Any]], texts: dict[int, str]) -> list[tuple[int, float]]:
    """Per QA item (categories 1-4, with evidence): its category and the share of its answer's
    tokens found in the text of its evidence sessions."""
    vocab = {n: set(content_tokens(t)) for n, t in texts.items()}
    scores: list[tuple[int, float]] = []
    for item in qa:
        answer = item.get("answer")
        if item.get("category") not in (1, 2, 3, 4) or answer is None:
            continue
        sessions = evidence_sessions(item.get("evidence", []), texts)
        wanted = content_tokens(str(answer))
        if not sessions or not wanted:
            continue
        found = set().union(*(vocab[n] for n in sessions))
        scores.append((item["category"], sum(t in found for t in wanted) / len(wanted)))
    return scores


@dataclass
class Tally:
    """Running totals for one producer in one split."""

    scores: list[tuple[int, float]]
    produced: int = 0
    reference: int = 0

    def retention(self, category: int | None = None) -> float:
        picked = [s for c, s in self.scores if category in (None, c)]
        return sum(picked) / len(picked) if picked else 0.0

    def row(self) -> tuple[float, float]:
        return self.retention(), self.produced / self.reference if self.reference else 0.0


def evaluate(samples: list[dict[str, Any]], chosen: list[int],
             producers: dict[str, Producer]) -> dict[str, dict[str, Tally]]:
    """Tallies per split (and for all chosen conversations) and producer; numbers are 1-based."""
    # A split is reported only when all of its conversations ran; "all" covers whatever ran.
    splits: dict[str, Collection[int]] = {name: members for name, members in SPLITS.items()
                                          if set(members) <= set(chosen)}
    splits[f"all ({', '.join(map(str, chosen))})" if len(set(chosen)) < 10 else "all (1-10)"] = chosen
    tallies = {split: {name: Tally([]) for name in producers} for split in splits}
    for number in chosen:
        sample = samples[number - 1]
        sessions = load_sessions(sample)
        for name, produce in producers.items():
            texts = {n: produce(s) for n, s in sessions.items()}
            scores = retention_scores(sample["qa"], texts)
            produced = sum(len(t) for t in texts.values())
            reference = sum(len(transcript(s)) for s in sessions.values())
            for split, members in splits.items():
                if number in members:
                    tally = tallies[split][name]
                    tally.scores += scores
                    tally.produced += produced
                    tally.reference += reference
    return tallies


def table(tallies: dict[str, dict[str, Tally]]) -> str:
    lines = ["| split | text | QA items | retention | compression |", "|---|---|---:|---:|---:|"]
    for split, by_name in tallies.items():
        for name, tally in by_name.items():
            if tally.reference:
                retention, compression = tally.row()
                lines.append(f"| {split} | {name} | {len(tally.scores)} | {retention:.3f} | "
                             f"{compression:.3f} |")
    return "\n".join(lines)


def category_table(tallies: dict[str, dict[str, Tally]]) -> str:
    """Retention per QA category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)."""
    lines = ["| split | text | 1 multi-hop | 2 temporal | 3 open-domain | 4 single-hop |",
             "|---|---|---:|---:|---:|---:|"]
    for split, by_name in tallies.items():
        for name, tally in by_name.items():
            if tally.reference:
                cells = " | ".join(f"{tally.retention(c):.3f}" for c in (1, 2, 3, 4))
                lines.append(f"| {split} | {name} | {cells} |")
    return "\n".join(lines)


def parse_range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out.extend(range(int(low), int(high or low) + 1))
    if not out or min(out) < 1 or max(out) > 10:
        raise SystemExit(f"--conversations must name conversations 1-10, got {text!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", default="1-10", help="e.g. 1-5 or 6-10 or 1,3 (default 1-10)")
    parser.add_argument("--backend", default="extractive", choices=BACKENDS, help="card producer")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="path to locomo10.json")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    parser.add_argument("--direct", action="store_true",
                        help="call the distiller directly instead of the end-to-end auto_memory path")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="agentscope setting, e.g. model.name=qwen3:8b (repeatable)")
    args = parser.parse_args(argv)
    distiller = make_distiller(args.backend, args.set)
    samples = json.loads(args.corpus.read_text(encoding="utf-8"))
    started = time.perf_counter()
    producers: dict[str, Producer] = {
        f"{args.backend} cards, speakers as {roles}": AutoMemory(distiller, roles) if not args.direct else (
            lambda s, roles=roles: cards_for_session(s, args.backend, distiller, roles))
        for roles in ROLE_MAPPINGS}
    producers.update({"full transcript": transcript, "first 30%": first_part})
    tallies = evaluate(samples, parse_range(args.conversations), producers)
    print(table(tallies))
    print("\nRetention by QA category:\n")
    print(category_table(tallies))
    print(f"\n{time.perf_counter() - started:.1f} s")
    if args.json:
        figures = {split: {name: {"retention": t.retention(), "compression": t.row()[1], "items": len(t.scores),
                                  "retention_by_category": {c: t.retention(c) for c in (1, 2, 3, 4)}}
                           for name, t in by_name.items() if t.reference}
                   for split, by_name in tallies.items()}
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
