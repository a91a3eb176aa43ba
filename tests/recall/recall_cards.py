"""Writing memory cards straight into a vault, for the recall tests."""

from __future__ import annotations

from pathlib import Path


def card(root: Path, rel: str, name: str, description: str, body: str, session: str,
         tags: list[str] | None = None, project: str | None = None) -> None:
    lines = ["---", f"name: {name}", f"description: {description}", f"session_id: {session}"]
    if tags:
        lines.append(f"memory_tags: [{', '.join(tags)}]")
    if project:
        lines.append(f"project: {project}")
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines + ["---", body, ""]), encoding="utf-8")
