"""Card gallery: the embedded distiller's card for every conversation in the corpus, beside its source.

    python scripts/card_gallery.py [--corpus ../shared/corpus] [--fixtures tests/fixtures/conversations]
                                   [--out docs/cards.md]

Each entry shows a short excerpt of the conversation and the card as it is written to the vault
(frontmatter with the extractive tags, then the body). LoCoMo and LongMemEval contribute their
first sessions; LoCoMo only conversations 1-5 (6-10 stay held out from tuning). The test
conversations written for review (``tests/fixtures/conversations``) are shown too. Read it as a
user would: would you want this note?
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from daemon.conversations.exports import read_export  # noqa: E402
from daemon.distill.extractive import ExtractiveDistiller  # noqa: E402
from daemon.distill.tagging import ExtractiveTagger, normalize_tags  # noqa: E402
from daemon.models import Card, Conversation, DistillRequest  # noqa: E402
from daemon.vault import cards  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus"
FIXTURES = REPO / "tests" / "fixtures" / "conversations"
SKIPPED_FILES = ("memories", "projects", "users", "acompact")
EXCERPT_MESSAGES = 6
EXCERPT_CHARS = 220


def corpus_conversations(corpus: Path) -> Iterator[tuple[str, Conversation]]:
    """(label, conversation) for every corpus conversation the gallery shows."""
    for path in sorted(p for p in corpus.rglob("*") if p.suffix in (".json", ".jsonl")):
        if any(word in path.name for word in SKIPPED_FILES):
            continue
        items = [c for c in read_export(path) if isinstance(c, Conversation)]
        if path.parent.name == "locomo":
            firsts = [c for c in items if c.session_id.endswith(("-s1", "session-1", "session_1"))]
            items = (firsts or items)[:5]
        elif path.parent.name == "longmemeval":
            items = items[:3]
        for conversation in items:
            yield f"{path.parent.name}/{path.name} · {conversation.session_id}", conversation


def fixture_conversations(folder: Path) -> Iterator[tuple[str, Conversation]]:
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith(".expect.json"):
            continue
        for item in read_export(path):
            if isinstance(item, Conversation):
                yield f"fixtures/{path.name}", item


def card_for(conversation: Conversation) -> Card | str:
    times = [m.time for m in conversation.messages if m.time is not None]
    day = times[0].date() if times else date(2026, 11, 30)
    result = ExtractiveDistiller().distill(DistillRequest(conversation.session_id, day, conversation.messages,
                                                          title=conversation.title))
    return result if isinstance(result, Card) else f"(no card: {result.reason})"


def rendered(card: Card, session_id: str) -> str:
    text = cards.render(card, session_id, f"[[session/dialog/{session_id}.jsonl]]")
    tags = normalize_tags(ExtractiveTagger().tag(text, 3), 3)
    head, _, body = text.partition("\n---\n")
    return f"{head}\nmemory_tags: [{', '.join(tags)}]\n---\n{body}"


def excerpt(conversation: Conversation) -> str:
    lines = []
    for message in conversation.messages[:EXCERPT_MESSAGES]:
        text = " ".join(message.text.split())
        text = text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS - 1] + "…"
        lines.append(f"> **{message.name or message.role}:** {text}")
    more = len(conversation.messages) - EXCERPT_MESSAGES
    if more > 0:
        lines.append(f"> … {more} more message(s)")
    return "\n>\n".join(lines)


def gallery(entries: list[tuple[str, Conversation]]) -> str:
    out = ["# Card gallery", "",
           "Written by `scripts/card_gallery.py`: the embedded distiller's card for each corpus conversation",
           "(LoCoMo conversations 1-5 and LongMemEval: first sessions) and each test conversation, beside an",
           "excerpt of its source. Regenerate it after any change to the distiller and read every card.", ""]
    for label, conversation in entries:
        card = card_for(conversation)
        out += [f"## {label}", "", f"{len(conversation.messages)} message(s).", "", excerpt(conversation), ""]
        if isinstance(card, Card):
            out += ["````markdown", rendered(card, conversation.session_id).rstrip(), "````", ""]
        else:
            out += [card, ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "cards.md")
    args = parser.parse_args(argv)
    entries = list(fixture_conversations(args.fixtures)) if args.fixtures.is_dir() else []
    if args.corpus.is_dir():
        entries += list(corpus_conversations(args.corpus))
    else:
        print(f"no corpus at {args.corpus}: showing the test conversations only", file=sys.stderr)
    args.out.write_text(gallery(entries), encoding="utf-8")
    print(f"wrote {len(entries)} cards to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
