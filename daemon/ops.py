"""Operations behind the commands, as plain functions returning JSON-able values.

The CLI calls them in-process (holding the vault lock); while the daemon runs,
its local API calls the same functions on the worker queue.
"""

from __future__ import annotations

import json
import posixpath
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from daemon.conversations import inbox
from daemon.errors import InputError, MemvaultError
from daemon.vault.names import validate_component
from daemon.integrations.claude_code import sessions as claude_sessions

if TYPE_CHECKING:  # the pipeline is imported by the operations that run it: read commands need none of it
    from daemon.pipeline import Context
    from daemon.pipeline.ingest import FileReport


def move(ctx: Context, src: str, dst: str, dry_run: bool = False) -> dict[str, Any]:
    """Move a note or folder and retarget links; with ``dry_run`` only the plan.

    ``src`` is a path, never a link: vault-relative, or absolute inside the vault.
    ``dst`` is vault-relative, or absolute inside the vault.
    """
    from daemon.pipeline.renames import on_moves, plan_for_moves

    src, dst = source_path(ctx, src), destination_path(ctx, dst)
    moves = _move_plan(ctx, src, dst)
    if dry_run:
        planned = [path for plan, *_ in plan_for_moves(ctx, moves) for path in plan]
        return {"dry_run": True, "moves": moves, "rewritten": sorted(planned)}
    expected = {old: ctx.graph.index.note(old).hash for old in moves}  # type: ignore[union-attr]
    report = on_moves(ctx, moves, pending=expected)
    return {"dry_run": False, "moves": report.moves, "rewritten": list(report.rewritten)}


def given_path(given: str, vault: Path, destination: bool = False) -> str:
    """A path as typed for ``mv``, tried relative to the vault first, then to the working directory
    (made absolute here: a running daemon has another one). A destination need not exist yet: its
    folder is what is looked for."""
    expanded = Path(given).expanduser()
    if expanded.is_absolute():
        return str(expanded)
    root = vault.resolve()
    for candidate in ((root / given).resolve(), expanded.resolve()):
        probe = candidate.parent if destination else candidate
        if _within(candidate, root) and probe.exists():
            return given if candidate == (root / given).resolve() else str(candidate)
    return given


def _vault_relative(ctx: Any, given: str, what: str) -> str:
    """``given`` as a normalised vault-relative POSIX path; InputError when it leaves the vault."""
    root = ctx.config.vault.resolve()
    path = Path(given)
    if path.is_absolute():
        try:
            given = path.resolve().relative_to(root).as_posix()
        except ValueError:
            raise InputError(f"{what} {path} is outside the vault {root}") from None
    rel = posixpath.normpath(given.replace("\\", "/")).strip("/")
    if rel in ("", ".") or rel == ".." or rel.startswith("../"):
        raise InputError(f"{what} {given!r} is not a path inside the vault {root}")
    return rel


def source_path(ctx: Any, given: str) -> str:
    """The note or folder ``given`` names as a path (never resolved the way a link is)."""
    rel = _vault_relative(ctx, given, "source")
    if rel in ctx.graph.paths or any(p.startswith(rel + "/") for p in ctx.graph.paths.paths()):
        return rel
    raise InputError(f"no note or folder {given!r} in the vault {ctx.config.vault} (give its path)")


def destination_path(ctx: Any, given: str) -> str:
    """Where a move may go: inside the vault, in a place Obsidian shows.

    Obsidian hides dot files and folders, so a note moved there would lose every
    inbound link; a name ending in a space or a dot is not portable.
    """
    rel = _vault_relative(ctx, given, "destination")
    for part in rel.split("/"):
        if part.startswith("."):
            raise InputError(f"destination {rel!r}: Obsidian hides files and folders whose name starts "
                             f"with '.' ({part!r}); links to the note would stop working")
        validate_component(part, f"destination {rel!r}: the name")
    return rel


def _move_plan(ctx: Context, src: str, dst: str) -> dict[str, str]:
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


NOT_AN_EXPORT = "skipped (not an export)"


def ingest(ctx: Context, paths: list[str], progress: Callable[[str, int], None] | None = None) -> list[dict[str, Any]]:
    """Import files or folders. Files inside the inbox are archived as usual; others stay where they are.

    In a folder only JSON, JSONL and ZIP files are tried; any other file is listed once as skipped.
    A file named explicitly is always tried.
    """
    from daemon.pipeline.ingest import SKIPPED, FileReport, ingest_file

    reports = []
    for given in paths:
        root = Path(given).expanduser().resolve()
        for path in _files(root):
            if root.is_dir() and path.suffix.lower() not in inbox.SUFFIXES:  # a README beside the exports
                reports.append(report_dict(FileReport(path.name, SKIPPED, note=NOT_AN_EXPORT)))
                continue
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
            "moved_to": str(report.moved_to) if report.moved_to else None, "note": report.note,
            "cards": report.cards}


def status(ctx: Any, runtime: Any = None) -> dict[str, Any]:
    index = ctx.graph.index
    shown: dict[str, Any] = {
        "vault": str(ctx.config.vault),
        "inbox": str(ctx.config.inbox),
        "notes": index.count("notes"),
        "links": index.count("links"),
        "broken_links": len(index.broken()),
        "tags": len(index.tag_counts()),
        "daemon": _daemon_state(ctx, runtime),
        "watcher": runtime.watcher.state if runtime is not None else "stopped",
        "queue": runtime.worker.queue.qsize() if runtime is not None else 0,
        "last_event": _when(runtime.worker.last_event) if runtime is not None else None,
        "recent_imports": [{**r, "at": _when(r["at"])} for r in index.recent_imports(10)],
        "failures": [{**r, "at": _when(r["at"])} for r in index.recent_imports(50) if r["state"] == "failed"][:10],
        "index": str(ctx.config.state_dir() / "index.sqlite3"),
        "claude_code": claude_sessions.overview(ctx.config.state_dir()),  # the hooks: sessions, last run, errors
    }
    read_only = json.loads(index.get_meta("read_only") or "[]")
    if read_only:
        shown["read_only"] = read_only  # files the user locked (chmod a-w) that memvault left alone
    inbox_queue = getattr(runtime.worker, "inbox", None) if runtime is not None else None
    if inbox_queue is not None and inbox_queue.refused:
        shown["inbox_skipped"] = dict(inbox_queue.refused)
    if runtime is not None and getattr(runtime, "scheduler", None) is not None:
        shown["jobs"] = {job.id: str(job.next_run_time) for job in runtime.scheduler.get_jobs()}
    last = json.loads(index.get_meta("retag.last") or "null")
    shown["retag"] = {"schedule": ctx.config.data["tagging"]["schedule"],
                      "enabled": ctx.config.data["tagging"]["enabled"],
                      "last_run": _when(last["at"]) if last else None,
                      "next_run": shown.get("jobs", {}).get("retag")}
    return shown


def _daemon_state(ctx: Any, runtime: Any) -> str:
    """"running", "not running", or "stuck: <what> for N s" when one job ran past ``watch.stuck_minutes``."""
    if runtime is None:
        return "not running"
    stuck = runtime.worker.stuck(60 * ctx.config.data["watch"]["stuck_minutes"])
    return f"stuck: {stuck}" if stuck else "running"


def _when(stamp: Any) -> str | None:
    if not stamp:
        return None
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(stamp)))


def retag(ctx: Context, paths: list[str], everything: bool = False) -> dict[str, Any]:
    """Re-tag the named cards, every card, or those changed since they were last tagged."""
    from daemon.pipeline import tags

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
        from daemon.llm import check_context, check_endpoint

        lines.append((True, check_endpoint(agent)))
        context = check_context(agent)
        if context is not None:
            lines.append(context)
    except MemvaultError as exc:
        lines.append((False, f"model endpoint: {exc}"))
    return lines


def run_auto_memory(ctx: Context, params: dict[str, Any]) -> dict[str, Any]:
    allowed = {"session_id", "messages", "date", "memory_hint", "include_images"}
    unknown = set(params) - allowed
    if unknown:
        raise InputError(f"unknown auto_memory parameter(s): {', '.join(sorted(unknown))}")
    from daemon.pipeline import auto_memory

    return auto_memory(ctx, **params)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)
