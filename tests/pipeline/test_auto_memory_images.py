"""include_images through auto_memory: checks before any write, attachments, source_images."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXED_NOW, FakeDistiller, snapshot_tree

from daemon.vault import props
from daemon.app import build
from daemon.config import load_config
from daemon.errors import DistillError
from daemon.models import Card, DistillRequest, Skip
from daemon.pipeline import Context, auto_memory
from daemon.distill.tagging import ExtractiveTagger

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24
B64 = base64.b64encode(PNG).decode()


def image_message(*blocks: dict[str, Any], mid: str = "m1") -> dict[str, Any]:
    return {"id": mid, "role": "user", "name": "ana", "created_at": "2023-03-01T10:00:00",
            "content": [{"type": "text", "text": "Here is the whiteboard after the design review."}, *blocks]}


def b64_block() -> dict[str, Any]:
    return {"type": "data", "source": {"type": "base64", "media_type": "image/png", "data": B64}}


def url_block(url: str = "https://example.test/board.png") -> dict[str, Any]:
    return {"type": "data", "source": {"type": "url", "media_type": "image/png", "url": url}}


@pytest.fixture
def vision(vault_root: Path) -> Any:
    return load_config(overrides=[f"vault={vault_root}", "timezone=UTC",
                                  "components.agent_wrapper.default.backend=agentscope",
                                  "components.agent_wrapper.default.model.vision=true",
                                  "components.agent_wrapper.default.model.name=test-vision"], environ={})


def context(config: Any, distiller: FakeDistiller) -> Context:
    # The agentscope tagger would need a model; these tests are about images, not tags.
    return build(config, distiller=distiller, clock=lambda: FIXED_NOW, tagger=ExtractiveTagger())


def test_base64_saved_url_passed_and_sources_merged(vision: Any, vault_root: Path) -> None:
    fake = FakeDistiller()
    ctx = context(vision, fake)
    result = auto_memory(ctx, "s", [image_message(b64_block(), url_block())], include_images=True)
    assert result["success"], result
    saved = vault_root / "session/images/s" / f"msg-{b'm1'.hex()}-image-1.png"
    assert saved.read_bytes() == PNG
    request = fake.calls[0]
    assert request.include_images is True
    assert request.image_sources == {("m1", 1): f"[[session/images/s/msg-{b'm1'.hex()}-image-1.png]]",
                                     ("m1", 2): "https://example.test/board.png"}
    card = (vault_root / result["metadata"]["path"]).read_text()
    assert props.read(card)["source_images"] == [f"[[session/images/s/msg-{b'm1'.hex()}-image-1.png]]",
                                                 "https://example.test/board.png"]
    record = (vault_root / "session/dialog/s.jsonl").read_text()
    assert B64 not in record and "https://example.test/board.png" in record
    mtime = saved.stat().st_mtime_ns
    again = auto_memory(ctx, "s", [image_message(b64_block(), url_block())], include_images=True)
    assert again["success"] and saved.stat().st_mtime_ns == mtime and again["metadata"]["modified"] is False


def test_existing_sources_are_kept_first(vision: Any, vault_root: Path) -> None:
    ctx = context(vision, FakeDistiller())
    path = auto_memory(ctx, "s", [{"role": "user", "content": "First.", "created_at": "2023-03-01T09:00:00"}])[
        "metadata"]["path"]
    card = vault_root / path
    card.write_text(props.set_props(card.read_text(), {"source_images": ["[[manual.md]]"]}))
    auto_memory(ctx, "s", [image_message(b64_block())], include_images=True)
    assert props.read(card.read_text())["source_images"] == [
        "[[manual.md]]", f"[[session/images/s/msg-{b'm1'.hex()}-image-1.png]]"]


@pytest.mark.parametrize(
    ("overrides", "blocks", "message"),
    [
        ([], [url_block("file:///etc/passwd")], "Base64"),
        ([], [url_block("ftp://x.test/a.png")], "Base64"),
        (["components.agent_wrapper.default.context_config.max_image_num=1"], [b64_block(), url_block()],
         "components.agent_wrapper.default.context_config.max_image_num=2"),
        (["components.agent_wrapper.default.model.vision=false"], [b64_block()], "model.vision=true"),
        (["components.agent_wrapper.default.backend=extractive"], [b64_block()],
         "components.agent_wrapper.default.backend=agentscope"),
        ([], [{"type": "data", "source": {"type": "base64", "media_type": "image/png", "data": "not base64!"}}],
         "Base64"),
    ],
)
def test_bad_images_are_rejected_before_anything_is_saved(vault_root: Path, overrides: list[str],
                                                           blocks: list[dict[str, Any]], message: str) -> None:
    config = load_config(overrides=[f"vault={vault_root}", "timezone=UTC",
                                    "components.agent_wrapper.default.backend=agentscope",
                                    "components.agent_wrapper.default.model.vision=true", *overrides], environ={})
    fake = FakeDistiller()
    ctx = context(config, fake)
    before = snapshot_tree(vault_root)
    result = auto_memory(ctx, "s", [image_message(*blocks)], include_images=True)
    assert result["success"] is False and message in result["answer"], result["answer"]
    assert snapshot_tree(vault_root) == before and not fake.calls


def test_images_off_by_default_keeps_text_only(vision: Any, vault_root: Path) -> None:
    fake = FakeDistiller()
    result = auto_memory(context(vision, fake), "s", [image_message(b64_block())])
    assert result["success"] and fake.calls[0].include_images is False and not fake.calls[0].image_sources
    assert not (vault_root / "session/images").exists()


def test_attachments_stay_when_the_model_skips_or_fails(vision: Any, vault_root: Path) -> None:
    saved = vault_root / "session/images/s" / f"msg-{b'm1'.hex()}-image-1.png"
    skipping = auto_memory(context(vision, FakeDistiller(make=lambda r: Skip("nothing"))), "s",
                           [image_message(b64_block())], include_images=True)
    assert skipping["success"] and skipping["metadata"]["path"] is None and saved.exists()

    def fail(request: DistillRequest) -> Card:
        raise DistillError("HTTP 500: model overloaded")

    failing = auto_memory(context(vision, FakeDistiller(make=fail)), "t", [image_message(b64_block())],
                          include_images=True)
    assert failing["success"] is False and "model overloaded" in failing["answer"]
    assert (vault_root / "session/images/t" / f"msg-{b'm1'.hex()}-image-1.png").exists()
    assert (vault_root / "session/dialog/t.jsonl").exists()


def test_a_different_file_in_the_way_is_an_error_and_kept(vision: Any, vault_root: Path) -> None:
    target = vault_root / "session/images/s" / f"msg-{b'm1'.hex()}-image-1.png"
    target.parent.mkdir(parents=True)
    target.write_bytes(b"the user's own file")
    result = auto_memory(context(vision, FakeDistiller()), "s", [image_message(b64_block())], include_images=True)
    assert result["success"] is False and "already exists with different content" in result["answer"]
    assert target.read_bytes() == b"the user's own file"
    assert not (vault_root / "session/dialog/s.jsonl").exists()
    assert os.listdir(target.parent) == [target.name]
