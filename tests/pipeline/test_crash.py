"""Nothing lost, nothing duplicated: a daemon killed with SIGKILL mid-import, then restarted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from conftest import wait_for
from daemon.vault import props
from daemon.app import init_vault

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from gen_chatgpt_export import export  # noqa: E402


def tree(root: Path, pattern: str) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in sorted(root.glob(pattern))}


def run_daemon(vault: Path, state: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "MEMVAULT_VAULT": str(vault), "MEMVAULT_TIMEZONE": "UTC", "XDG_STATE_HOME": str(state),
           "MEMVAULT_WATCH__INBOX_STABLE_SECONDS": "0.2"}
    return subprocess.Popen([sys.executable, "-m", "daemon", "start"], env=env, stderr=subprocess.PIPE, text=True)


def test_sigkill_mid_import_is_recovered_on_restart(tmp_path: Path) -> None:
    data = json.dumps(export(150, seed=7))
    crashed, clean = tmp_path / "crashed", tmp_path / "clean"
    for vault in (crashed, clean):
        init_vault(vault)
        (tmp_path / "staging.json").write_text(data, encoding="utf-8")
        os.rename(tmp_path / "staging.json", vault / "inbox" / "conversations.json")
    dialogs = crashed / "session" / "dialog"

    first = run_daemon(crashed, tmp_path / "state-crashed")
    try:
        assert wait_for(lambda: len(list(dialogs.glob("*.jsonl"))) >= 10, timeout=120)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    assert (crashed / "inbox" / "conversations.json").exists(), "killed too late to test a crash"

    for vault, state in ((crashed, "state-crashed"), (clean, "state-clean")):
        daemon = run_daemon(vault, tmp_path / state)
        try:
            assert wait_for(lambda v=vault: any((v / "inbox" / "processed").rglob("conversations.json")), 180)
        finally:
            daemon.send_signal(signal.SIGTERM)
            _, err = daemon.communicate(timeout=60)
        assert daemon.returncode == 0 and "Traceback" not in err, err

    records = tree(crashed, "session/dialog/*.jsonl")
    assert records == tree(clean, "session/dialog/*.jsonl")
    for text in records.values():
        ids = [json.loads(line)["id"] for line in text.splitlines()]
        assert len(ids) == len(set(ids))
    # The same cards, each for the same session, listed on the same daily pages, all tagged. A card
    # distilled in two steps (before and after the crash) may word its statements differently.
    owners = {path: props.read(text)["session_id"] for path, text in tree(crashed, "daily/*/*.md").items()}
    assert owners == {path: props.read(text)["session_id"] for path, text in tree(clean, "daily/*/*.md").items()}
    assert all("memory_tags" in props.read(text) for text in tree(crashed, "daily/*/*.md").values())
    pages = tree(crashed, "daily/*.md")
    assert set(pages) == set(tree(clean, "daily/*.md"))
    for path in owners:
        assert f"[[{path[:-3]}|" in pages[path.rsplit("/", 1)[0] + ".md"]
    assert not [p for p in crashed.rglob("*") if ".memvault-" in p.name]
