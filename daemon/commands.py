"""The command table: each command's help texts and arguments. ``cli`` runs what this parses."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Sequence

from daemon import __version__

EPILOG = """Every command also takes key=value configuration overrides, e.g.
  vault=~/Notes  timezone=Europe/Berlin
  components.agent_wrapper.default.context_config.max_image_num=20
Configuration is read from the user config file (see `memvault config`),
--config FILE, MEMVAULT_* environment variables (MEMVAULT_VAULT,
MEMVAULT_COMPONENTS__AGENT_WRAPPER__DEFAULT__BACKEND, ...) and overrides."""


# name: (one-line help, description, example). The description and example are the command's --help.
HELP: dict[str, tuple[str, str, str]] = {
    "init": ("create a vault from the template and point the config at it",
             "Create a vault from the template (never overwriting a file) and write the user config so that "
             "later commands use it.", "memvault init ~/Notes/Memory"),
    "auto_memory": ("distill messages into the session's memory card for a day",
                    "Distill messages into one memory card per session per day, keep the source conversation, "
                    "and refresh the daily page. Prints a JSON result.\n\nJob keys: session_id=ID (required), "
                    "messages='[...]' | messages=@file.json | messages=- (stdin),\ndate=YYYY-MM-DD, "
                    "memory_hint=TEXT, include_images=true|false.",
                    "memvault auto_memory session_id=session-a messages='[{\"role\":\"user\",\"content\":\"hi\"}]'"),
    "start": ("run the daemon in the foreground (Ctrl+C stops it)",
              "Import what lands in the inbox, and watch the vault: keep the link index current and repair "
              "links when notes are renamed or moved — by Obsidian, a file manager, git, a sync tool, or while "
              "memvault was stopped.",
              "memvault start components.agent_wrapper.default.context_config.max_image_num=20"),
    "ingest": ("import exported chats now (files or folders), with a closing table",
               "Import exported chats once: ChatGPT, Claude, Claude Code, LoCoMo, ShareGPT, OpenAI message lists "
               "or {session_id, messages} JSON (.json, .jsonl, .zip). Files inside the inbox move to processed/ "
               "or failed/ as usual; files elsewhere are left where they are. In a folder only .json, .jsonl "
               "and .zip files are tried (others are listed as skipped). The closing table shows per file the "
               "conversations imported, updated, unchanged and failed, the cards written (listed below it) and "
               "the result, e.g. \"skipped: Claude account file, no conversations\".",
               "memvault ingest ~/Downloads/chatgpt-export.zip"),
    "mv": ("move or rename a note or folder and retarget every link to it",
           "Move a note or folder inside the vault and rewrite the links whose target would change (only the "
           "target text of each link changes). SRC and DST are paths, never link names: tried relative to the "
           "vault first, then to the working directory. A destination outside the vault, or one Obsidian would "
           "hide (a dot file or folder, a name ending in a space or a dot), is refused.",
           "memvault mv notes/Draft.md projects/Plan.md --dry-run"),
    "backlinks": ("list the links pointing at a note", "List the links pointing at a note, with file and line.",
                  "memvault backlinks daily/2023-01-19/topic.md"),
    "links": ("list a note's outgoing links and where they resolve",
              "List a note's outgoing links and the file each resolves to, with line.",
              "memvault links notes/Plan.md"),
    "broken": ("list unresolved links with file and line", "List unresolved links with file and line.",
               "memvault broken"),
    "reindex": ("repair renames made while stopped (rewrites links in notes), then rebuild the index",
                "Rebuild the link index from the vault's files. This WRITES NOTES: renames made while nothing was "
                "watching are repaired first, as `memvault start` does, and the files whose links were rewritten "
                "are listed. A link in a note edited since it was indexed is left as written unless the rename "
                "broke it.", "memvault reindex"),
    "status": ("show the index, the daemon, the watcher, the queue and recent imports",
               "Show notes, links and broken links, the daemon and watcher state, the queue, recent imports and "
               "failures, and the re-tag schedule.", "memvault status"),
    "tags": ("list tags with counts, or the notes carrying one tag",
             "List the vault's tags (from the tag property and inline #tags) with how many notes carry each, and "
             "the cards per project (project:NAME, from the card's project property); with TAG the notes "
             "carrying it (project:NAME: that project's cards).", "memvault tags jwt"),
    "retag": ("re-tag cards now (changed ones, --all, or the PATHs given)",
              "Re-tag memory cards now: by default those whose content changed since they were last tagged; "
              "--all for every card; or the cards named.", "memvault retag --all"),
    "service": ("run memvault at login (systemd user unit, launchd agent)",
                "Install or remove a login service that runs `memvault start`: a systemd user unit on Linux, a "
                "launchd agent on macOS; on Windows it prints the command to create a logon task. uninstall "
                "removes the file it wrote even where systemctl or launchctl is missing, and says what it "
                "could not do.",
                "memvault service install"),
    "doctor": ("check the setup: vault, state folder, and that the model endpoint answers",
               "Check the configuration, the vault and the state folder, and — with the agentscope backend — "
               "that the model endpoint answers a tiny request.",
               "memvault doctor components.agent_wrapper.default.backend=agentscope"),
    "model": ("use a preset model server (llamacpp, ollama, lmstudio, vllm, openai, dashscope, anthropic)",
              "Write a working model section for that server into the config file (provider, default port, "
              "context_tokens, the key's variable name, vision) and switch to the agentscope backend, then run "
              "the doctor checks. Plain keys change the preset (name=qwen3:8b, base_url=URL, context_tokens=N). "
              "`memvault model list` prints the presets.",
              "memvault model use ollama name=qwen3:8b"),
    "config": ("print the effective configuration",
               "Print the effective configuration as JSON, with the file it came from.",
               "memvault config timezone=Asia/Shanghai"),
    "search": ("search the memory cards (full text, any language), best match first",
               "Search the memory cards' names, descriptions, tags, projects and bodies (every note with "
               "search.scope=vault), ranked by BM25 with name and description above the body. Words in any "
               "language; no query syntax to learn (quotes, NEAR, * are plain text). With no words: the newest "
               "cards. --tag matches any of the tags given, ANDed with --project and the dates.",
               "memvault search jwt refresh token --tag auth --since 2024-03-01"),
    "mcp": ("serve the memories to AI agents over MCP (stdio)",
            "Run a Model Context Protocol server on standard input/output with the tools search_memories, "
            "read_memory, recent_memories, list_tags and remember. Needs the mcp extra "
            "(pip install 'memvault[mcp]'). Register it with: claude mcp add memvault -- memvault mcp",
            "memvault mcp vault=~/Notes/Memory"),
    "hook": ("the Claude Code hook (run by Claude Code, not by hand)",
             "Read a Claude Code hook's JSON on standard input (Stop, SessionEnd, PreCompact: record the "
             "session; SessionStart: print the project's recent cards as context). Never blocks the agent: "
             "it queues the work for the daemon or a background worker, prints nothing, exits 0; problems go "
             "to the log and `memvault claude-code status`.",
             "echo '{\"session_id\": \"…\", \"hook_event_name\": \"Stop\"}' | memvault hook claude-code"),
    "claude-code": ("install memvault's Claude Code hooks; their status; import past sessions",
                    "install: add the hooks (Stop, SessionEnd, PreCompact save; SessionStart loads context) to "
                    "~/.claude/settings.json ($CLAUDE_CONFIG_DIR) or, with --project DIR, DIR/.claude/settings.json,"
                    " keeping everything else and writing settings.json.bak first. uninstall: remove exactly "
                    "those. status: installed?, last hook, sessions recorded, errors. import [--since DATE]: every "
                    "session already on disk (again: a no-op). drain: process queued hook jobs now.",
                    "memvault claude-code install"),
}
SETTINGS = {"metavar": "key=value", "nargs": "*"}


class WordsAndOptions(argparse.ArgumentParser):
    """A command whose words and options mix in any order (``search jwt --tag auth token vault=~/N``).

    argparse fills a ``*`` positional from the first run of words only; its intermixed parse
    (which calls ``parse_known_args`` itself, hence the guard) collects them all.
    """

    mixing = False

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def, override]
        if self.mixing:
            return super().parse_known_args(args, namespace)
        self.mixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self.mixing = False


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="memvault", epilog=EPILOG,
                                  description="Turn exported conversations into memory cards in an Obsidian vault.",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--config", type=Path, help="read this TOML config file instead of the user one")
    top.add_argument("--version", action="version", version=f"memvault {__version__}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = False  # no command: cli.main prints this list
    sub = {name: commands.add_parser(name, help=summary, description=f"{text}\n\nExample: {example}",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
           for name, (summary, text, example) in HELP.items()}
    sub["init"].add_argument("vault_path", nargs="?", metavar="VAULT", help="the vault folder")
    sub["start"].add_argument("--polling", action="store_true", help="poll instead of native events "
                              "(network and cloud drives)")
    sub["ingest"].add_argument("paths", nargs="+", metavar="FILE|DIR [key=value]")
    sub["mv"].add_argument("src", metavar="SRC")
    sub["mv"].add_argument("dst", metavar="DST")
    sub["mv"].add_argument("--dry-run", action="store_true", help="show the plan without changing anything")
    for name in ("backlinks", "links"):
        sub[name].add_argument("path", metavar="PATH", help="vault-relative path, a file path, or a link target")
    sub["tags"].add_argument("tag", nargs="?", metavar="TAG")
    sub["retag"].add_argument("--all", action="store_true", dest="everything", help="re-tag every card")
    sub["retag"].add_argument("paths", nargs="*", metavar="PATH [key=value]")
    sub["service"].add_argument("action", choices=("install", "uninstall"))
    sub["model"].add_argument("action", choices=("use", "list"))
    sub["model"].add_argument("preset", nargs="?", metavar="NAME", help="the server: see `memvault model list`")
    sub["hook"].add_argument("tool", choices=("claude-code",))
    sub["claude-code"].__class__ = WordsAndOptions  # --project DIR may come before or after key=value
    sub["claude-code"].add_argument("action", choices=("install", "uninstall", "status", "import", "drain"))
    sub["claude-code"].add_argument("--project", type=Path, metavar="DIR",
                                    help="the project's .claude/settings.json instead of the user's")
    sub["claude-code"].add_argument("--since", metavar="YYYY-MM-DD", help="import: sessions active on or after it")
    sub["search"].__class__ = WordsAndOptions
    sub["search"].add_argument("words", nargs="*", metavar="QUERY [key=value]")
    sub["search"].add_argument("--tag", action="append", metavar="TAG", help="only cards with this tag (repeatable: any)")
    sub["search"].add_argument("--project", metavar="P", help="only cards of this project")
    sub["search"].add_argument("--since", metavar="YYYY-MM-DD", help="only cards of this day or later")
    sub["search"].add_argument("--until", metavar="YYYY-MM-DD", help="only cards of this day or earlier")
    sub["search"].add_argument("--limit", type=int, default=10, metavar="N", help="at most N results (1-100)")
    sub["search"].add_argument("--json", action="store_true", help="print the results as JSON")
    for name, command in sub.items():
        if name not in ("ingest", "retag", "search"):
            command.add_argument("settings", **SETTINGS)  # type: ignore[arg-type]
    return top


_ASSIGNMENT = re.compile(r"^[A-Za-z_][\w.]*=")


def parse(top: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Parse ``argv`` with options and ``key=value`` overrides in any order.

    argparse matches positionals in runs between options, so ``mv A B --dry-run vault=V``
    would leave ``vault=V`` over; such leftovers join the command's settings.
    """
    args, extra = top.parse_known_args(argv)
    if extra:
        into = next((getattr(args, name) for name in ("settings", "paths", "words")
                     if isinstance(getattr(args, name, None), list)), None)
        stray = [a for a in extra if into is None or not _ASSIGNMENT.match(a)]
        if stray:
            top.error(f"unrecognized arguments: {' '.join(stray)}")
        into.extend(extra)  # type: ignore[union-attr]
    return args
