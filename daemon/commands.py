"""The command table: each command's help texts and arguments. ``cli`` runs what this parses."""

from __future__ import annotations

import argparse
from pathlib import Path

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
               "or failed/ as usual; files elsewhere are left where they are.",
               "memvault ingest ~/Downloads/chatgpt-export.zip"),
    "mv": ("move or rename a note or folder and retarget every link to it",
           "Move a note or folder inside the vault and rewrite the links whose target would change (only the "
           "target text of each link changes).", "memvault mv notes/Draft.md projects/Plan.md"),
    "backlinks": ("list the links pointing at a note", "List the links pointing at a note, with file and line.",
                  "memvault backlinks daily/2023-01-19/topic.md"),
    "links": ("list a note's outgoing links and where they resolve",
              "List a note's outgoing links and the file each resolves to, with line.",
              "memvault links notes/Plan.md"),
    "broken": ("list unresolved links with file and line", "List unresolved links with file and line.",
               "memvault broken"),
    "reindex": ("rebuild the link index from the vault's files",
                "Rebuild the link index from the vault's files (renames made while nothing was watching are "
                "repaired first).", "memvault reindex"),
    "status": ("show the index, the daemon, the watcher, the queue and recent imports",
               "Show notes, links and broken links, the daemon and watcher state, the queue, recent imports and "
               "failures, and the re-tag schedule.", "memvault status"),
    "tags": ("list tags with counts, or the notes carrying one tag",
             "List the vault's tags (from the tag property and inline #tags) with how many notes carry each, or "
             "with TAG the notes carrying it.", "memvault tags jwt"),
    "retag": ("re-tag cards now (changed ones, --all, or the PATHs given)",
              "Re-tag memory cards now: by default those whose content changed since they were last tagged; "
              "--all for every card; or the cards named.", "memvault retag --all"),
    "service": ("run memvault at login (systemd user unit, launchd agent)",
                "Install or remove a login service that runs `memvault start`: a systemd user unit on Linux, a "
                "launchd agent on macOS; on Windows it prints the command to create a logon task.",
                "memvault service install"),
    "doctor": ("check the setup: vault, state folder, and that the model endpoint answers",
               "Check the configuration, the vault and the state folder, and — with the agentscope backend — "
               "that the model endpoint answers a tiny request.",
               "memvault doctor components.agent_wrapper.default.backend=agentscope"),
    "config": ("print the effective configuration",
               "Print the effective configuration as JSON, with the file it came from.",
               "memvault config timezone=Asia/Shanghai"),
}
SETTINGS = {"metavar": "key=value", "nargs": "*"}


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="memvault", epilog=EPILOG,
                                  description="Turn exported conversations into memory cards in an Obsidian vault.",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--config", type=Path, help="read this TOML config file instead of the user one")
    top.add_argument("--version", action="version", version=f"memvault {__version__}")
    commands = top.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
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
    for name, command in sub.items():
        if name not in ("ingest", "retag"):
            command.add_argument("settings", **SETTINGS)  # type: ignore[arg-type]
    return top
