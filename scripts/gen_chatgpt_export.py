"""Generate a deterministic ChatGPT data export (``conversations.json``) for benchmarks and tests.

Each conversation has a hidden system node under the root, alternating user and
assistant turns with facts, decisions and plans worth a card, and — by seed —
an edited prompt (a second branch that ``current_node`` does not follow), a
span over several days, and image attachments as asset pointers.

    python scripts/gen_chatgpt_export.py OUT.json --conversations 1000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from pathlib import Path
from typing import Any

PEOPLE = ["Priya", "Marco", "Lena", "Tomasz", "Aiko", "Sam", "Noor", "Diego"]
PROJECTS = ["gateway", "billing service", "mobile app", "data pipeline", "search index", "onboarding flow"]
TOOLS = ["Postgres", "Redis", "Kafka", "Terraform", "Grafana", "FastAPI", "SQLite", "Kubernetes"]
USER_LINES = [
    "We decided to move the {project} to {tool} because the old setup kept timing out.",
    "I prefer {tool} over the alternatives for the {project}; it is simpler to run.",
    "Next step: {person} will review the {project} rollout plan by Friday.",
    "The {project} currently handles about {n} requests per second at peak.",
    "Can you give me the command to back up the {project} database?",
    "We rejected {tool} for the {project} because licensing costs doubled.",
]
ASSISTANT_LINES = [
    "Makes sense. With {tool}, keep the {project} config in version control and add alerts for latency.",
    "Here is a safe procedure:\n\n```bash\npg_dump --format=custom --file={slug}.dump {slug}\n```",
    "Noted: {person} owns the review. I suggest a checklist covering rollback and monitoring.",
    "At {n} requests per second you have headroom; the bottleneck will be connection pooling.",
]


def _text(rng: random.Random, lines: list[str]) -> str:
    project = rng.choice(PROJECTS)
    return rng.choice(lines).format(project=project, tool=rng.choice(TOOLS), person=rng.choice(PEOPLE),
                                    n=rng.randrange(50, 5000), slug=project.replace(" ", "_"))


def _node(node_id: str, parent: str | None, message: dict[str, Any] | None) -> dict[str, Any]:
    return {"id": node_id, "message": message, "parent": parent, "children": []}


def _message(node_id: str, role: str, parts: list[Any], at: float | None, hidden: bool = False) -> dict[str, Any]:
    content_type = "multimodal_text" if any(isinstance(p, dict) for p in parts) else "text"
    return {
        "id": node_id, "author": {"role": role, "name": None, "metadata": {}}, "create_time": at,
        "update_time": None, "content": {"content_type": content_type, "parts": parts},
        "status": "finished_successfully", "end_turn": role == "assistant", "weight": 0.0 if hidden else 1.0,
        "metadata": {"is_visually_hidden_from_conversation": True} if hidden else {}, "recipient": "all",
    }


def conversation(rng: random.Random, start: float) -> dict[str, Any]:
    ids = iter(str(uuid.UUID(int=rng.getrandbits(128))) for _ in range(200))
    root = next(ids)
    mapping = {root: _node(root, None, None)}

    def add(parent: str, message_role: str, parts: list[Any], at: float | None, hidden: bool = False) -> str:
        node_id = next(ids)
        mapping[node_id] = _node(node_id, parent, _message(node_id, message_role, parts, at, hidden))
        mapping[parent]["children"].append(node_id)
        return node_id

    leaf = add(root, "system", [""], None, hidden=True)
    at, turns = start, rng.randrange(2, 10)
    multi_day = rng.random() < 0.2
    for turn in range(turns):
        parts: list[Any] = [_text(rng, USER_LINES)]
        if rng.random() < 0.1:
            parts.append({"content_type": "image_asset_pointer", "asset_pointer": f"file-service://file-{next(ids)}",
                          "size_bytes": 1234, "width": 640, "height": 480})
        if turn == 1 and rng.random() < 0.25:  # an edited prompt: the abandoned branch stays in the tree
            abandoned = add(leaf, "user", ["(abandoned draft) " + _text(rng, USER_LINES)], at)
            add(abandoned, "assistant", ["(abandoned answer)"], at + 5)
        leaf = add(leaf, "user", parts, at)
        leaf = add(leaf, "assistant", [_text(rng, ASSISTANT_LINES)], at + 20)
        at += 86400 * rng.randrange(1, 3) if multi_day and turn % 3 == 2 else rng.randrange(60, 600)
    cid = str(uuid.UUID(int=rng.getrandbits(128)))
    return {"title": f"{rng.choice(PROJECTS).title()} notes", "create_time": start, "update_time": at,
            "mapping": mapping, "current_node": leaf, "id": cid, "conversation_id": cid,
            "moderation_results": [], "is_archived": False}


def export(count: int, seed: int = 1) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    start = 1_735_689_600.0  # 2025-01-01T00:00:00Z
    return [conversation(rng, start + i * 3600 * 7) for i in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--conversations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.out.write_text(json.dumps(export(args.conversations, args.seed)), encoding="utf-8")


if __name__ == "__main__":
    main()
