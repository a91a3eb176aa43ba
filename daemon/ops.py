"""Operations behind the commands, as plain functions returning JSON-able values.

The CLI calls them in-process (holding the vault lock); while the daemon runs,
its local API calls the same functions on the worker queue.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable

from daemon.conversations import inbox
from daemon.errors import InputError, MemvaultError
from daemon.vault.names import validate_component
from daemon.pipeline import Context, auto_memory
from daemon.pipeline.ingest import FileReport, ingest_file
from daemon.pipeline import tags
from daemon.pipeline.renames import on_moves, plan_for_moves


def move(ctx: Context, src: str, dst: str, dry_run: bool = False) -> dict[str, Any]:
    """Move a note or folder and retarget links; with ``dry_run`` only the plan."""
    src, dst = note_path(ctx, src.rstrip("/")), dst.strip("/")
    moves = _move_plan(ctx, src, dst)
    if dry_run:
        plan, _ = plan_for_moves(ctx, moves)
        return {"dry_run": True, "moves": moves, "rewritten": sorted(plan)}
    expected = {old: ctx.graph.index.note(old).hash for old in moves}  # type: ignore[union-attr]
    report = on_moves(ctx, moves, pending=expected)
    return {"dry_run": False, "moves": report.moves, "rewritten": list(report.rewritten)}


def _move_plan(ctx: Context, src: str, dst: str) -> dict[str, str]:
    validate_component(dst.rsplit("/", 1)[-1], "destination name")
    if ctx.vault.abspath(dst).exists() and dst.lower() != src.lower():
        raise InputError(f"{dst} already exists; not overwriting it")
    if src in ctx.graph.paths:
        return {src: dst}
    inside = [p for p in ctx.graph.paths.paths() if p.startswith(src + "/")]
    if not inside:
        raise InputError(f"no note or folder {src!r} in the vault")
    return {p: dst + p[len(src):] for p in inside}


def note_path(ctx: Any, given: str) -> str:
    """A vault-relative path from a vault path, a file-system path or a link target."""
    graph, vault_root = ctx.graph, ctx.config.vault
    if given in graph.paths:
        return given
    candidate = Path(given).expanduser()
    try:
        rel = candidate.resolve().relative_to(vault_root.resolve()).as_posix()
        if rel in graph.paths or candidate.exists():
            return rel
    except ValueError:
        pass
    resolved = graph.paths.resolve_target(given, "")
    if resolved is None:
        raise InputError(f"no note {given!r} in the vault {vault_root}")
    return resolved


def ingest(ctx: Context, paths: list[str], progress: Callable[[str, int], None] | None = None) -> list[dict[str, Any]]:
    """Import files or folders. Files inside the inbox are archived as usual; others stay where they are."""
    reports = []
    for given in paths:
        for path in _files(Path(given).expanduser().resolve()):
            inside = _within(path, ctx.config.inbox.resolve())
            report = ingest_file(ctx, path, ctx.config.inbox.resolve() if inside else None,
                                 progress=(lambda n, name=path.name: progress(name, n)) if progress else None)
            reports.append(report_dict(report))
    return reports


def _files(path: Path) -> list[Path]:
    if path.is_dir():
        return inbox.pending_files(path)
    if not path.exists():
        raise InputError(f"not found: {path}")
    return [path]


def _within(path: Path, folder: Path) -> bool:
    return folder == path or folder in path.parents


def report_dict(report: FileReport) -> dict[str, Any]:
    return {"name": report.name, "state": report.state, **report.counts, "reasons": report.reasons,
            "moved_to": str(report.moved_to) if report.moved_to else None}


def status(ctx: Any, runtime: Any = None) -> dict[str, Any]:
    index = ctx.graph.index
    shown: dict[str, Any] = {
        "vault": str(ctx.config.vault),
        "inbox": str(ctx.config.inbox),
        "notes": index.count("notes"),
        "links": index.count("links"),
        "broken_links": len(index.broken()),
        "tags": len(index.tag_counts()),
        "daemon": "running" if runtime is not None else "not running",
        "watcher": runtime.watcher.state if runtime is not None else "stopped",
        "queue": runtime.worker.queue.qsize() if runtime is not None else 0,
        "last_event": _when(runtime.worker.last_event) if runtime is not None else None,
        "recent_imports": [{**r, "at": _when(r["at"])} for r in index.recent_imports(10)],
        "failures": [{**r, "at": _when(r["at"])} for r in index.recent_imports(50) if r["state"] == "failed"][:10],
        "index": str(ctx.config.state_dir() / "index.sqlite3"),
    }
    if runtime is not None and getattr(runtime, "scheduler", None) is not None:
        shown["jobs"] = {job.id: str(job.next_run_time) for job in runtime.scheduler.get_jobs()}
    last = json.loads(index.get_meta("retag.last") or "null")
    shown["retag"] = {"schedule": ctx.config.data["tagging"]["schedule"],
                      "enabled": ctx.config.data["tagging"]["enabled"],
                      "last_run": _when(last["at"]) if last else None,
                      "next_run": shown.get("jobs", {}).get("retag")}
    return shown


def _when(stamp: Any) -> str | None:
    if not stamp:
        return None
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(stamp)))


def retag(ctx: Context, paths: list[str], everything: bool = False) -> dict[str, Any]:
    """Re-tag the named cards, every card, or those changed since they were last tagged."""
    return tags.retag(ctx, [note_path(ctx, p) for p in paths] or None, everything)


def doctor(config: Any) -> list[tuple[bool, str]]:
    """Checks a user can act on, each (passed, what it says)."""
    lines: list[tuple[bool, str]] = [(True, f"config: {config.source or 'defaults (no config file)'}")]
    vault = config.vault
    lines.append((vault.is_dir(), f"vault: {vault}" + ("" if vault.is_dir() else " does not exist (memvault init)")))
    lines.append(((vault / ".obsidian").is_dir(), "vault has .obsidian/ (open it in Obsidian)"))
    state = config.state_dir()
    try:
        state.mkdir(parents=True, exist_ok=True)
        lines.append((True, f"state folder: {state}"))
    except OSError as exc:
        lines.append((False, f"state folder {state}: {exc.strerror}"))
    lines.append((True, f"inbox: {config.inbox}"))
    agent = config.agent
    if agent["backend"] != "agentscope":
        lines.append((True, "distiller: the embedded extractive one (offline, no key needed)"))
        return lines
    try:
        from daemon.llm import check_endpoint

        lines.append((True, check_endpoint(agent)))
    except MemvaultError as exc:
        lines.append((False, f"model endpoint: {exc}"))
    return lines


def run_auto_memory(ctx: Context, params: dict[str, Any]) -> dict[str, Any]:
    allowed = {"session_id", "messages", "date", "memory_hint", "include_images"}
    unknown = set(params) - allowed
    if unknown:
        raise InputError(f"unknown auto_memory parameter(s): {', '.join(sorted(unknown))}")
    return auto_memory(ctx, **params)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)
