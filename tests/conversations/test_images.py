"""Image inputs: collecting, checking, naming attachments, merging ``source_images`` (no vault, no model)."""

from __future__ import annotations

import base64
from pathlib import PurePosixPath
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from daemon.conversations import images
from daemon.errors import InputError
from daemon.conversations.formats import parse_messages
from daemon.conversations.images import Attachment, Image

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 8
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 8
B64 = base64.b64encode(PNG).decode()
LIMIT_KEY = "components.agent_wrapper.default.context_config.max_image_num"


def message(*blocks: Any, id: str = "m1") -> Any:
    (parsed,) = parse_messages([{"id": id, "role": "user", "content": list(blocks)}])
    return parsed


def data_block(source: dict[str, Any]) -> dict[str, Any]:
    return {"type": "data", "source": source}


# ---- collect -------------------------------------------------------------------

def test_collect_reads_every_shape_with_the_index_among_all_blocks() -> None:
    msg = message(
        {"type": "text", "text": "look"},
        data_block({"type": "base64", "media_type": "image/png", "data": B64}),
        data_block({"type": "url", "media_type": "image/jpeg", "url": "https://x.test/a"}),
        data_block({"type": "base64", "media_type": "audio/wav", "data": B64}),  # not an image
        {"type": "image", "source": {"type": "base64", "data": base64.b64encode(JPEG).decode()}},
        {"type": "image", "source": {"type": "url", "url": "https://x.test/b.webp"}},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{B64}"}},
        {"type": "image_url", "image_url": {"url": "https://x.test/c"}},
        {"type": "input_image", "image_url": "https://x.test/d.GIF"},
        data_block({"type": "url", "media_type": "image/png", "url": f"data:image/png;base64,{B64}"}),
    )
    found = images.collect([msg])
    assert [(i.block_index, i.media_type, i.url, i.data) for i in found] == [
        (1, "image/png", None, PNG),
        (2, "image/jpeg", "https://x.test/a", None),
        (4, "image/jpeg", None, JPEG),  # sniffed
        (5, "image/webp", "https://x.test/b.webp", None),  # from the suffix
        (6, "image/png", None, PNG),
        (7, images.UNKNOWN_URL_TYPE, "https://x.test/c", None),
        (8, "image/gif", "https://x.test/d.GIF", None),
        (9, "image/png", None, PNG),  # a data: URL is inline Base64, saved like any other
    ]
    assert all(i.message_id == "m1" and i.key == ("m1", i.block_index) for i in found)


def test_no_images_in_text_messages() -> None:
    assert images.collect(parse_messages([{"role": "user", "content": "hi"}])) == []


@pytest.mark.parametrize(("data", "error"), [
    ("not base64!", "Image source contains invalid Base64"),
    ("aGVsbG8", "Image source contains invalid Base64"),  # bad padding
    ("aGVs-G8=", "Image source contains invalid Base64"),  # URL-safe alphabet
    (12, "Image source contains invalid Base64"),
    ("", "Image source contains empty Base64 data"),
    ("  \n", "Image source contains empty Base64 data"),
])
def test_base64_is_decoded_strictly(data: Any, error: str) -> None:
    with pytest.raises(InputError, match=error) as caught:
        images.collect([message(data_block({"type": "base64", "media_type": "image/png", "data": data}))])
    assert "message 'm1' content[0]" in str(caught.value)


def test_wrapped_base64_lines_are_fine() -> None:
    wrapped = "\n".join(B64[i:i + 8] for i in range(0, len(B64), 8))
    assert images.decode_base64(wrapped) == PNG


@pytest.mark.parametrize(("block", "error"), [
    ({"type": "image"}, "needs a 'source' object"),
    ({"type": "image", "source": {"type": "file", "path": "/x.png"}}, "must be 'base64' or 'url'"),
    ({"type": "image_url", "image_url": {"url": ""}}, "non-empty string"),
    ({"type": "image_url", "image_url": {"url": "data:image/png,rawbytes"}}, "must be Base64-encoded"),
    ({"type": "image", "source": {"type": "base64", "data": base64.b64encode(b"????").decode()}},
     "cannot tell the image type"),
])
def test_malformed_image_blocks(block: dict[str, Any], error: str) -> None:
    with pytest.raises(InputError, match=error):
        images.collect([message(block)])


def test_an_image_over_the_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(images, "MAX_IMAGE_BYTES", 10)
    with pytest.raises(InputError, match="over the 0 MB limit"):
        images.collect([message(data_block({"type": "base64", "media_type": "image/png", "data": B64 * 4}))])
    big = Image("m1", 0, "image/png", None, PNG)
    with pytest.raises(InputError, match="limit per image"):
        images.validate([big], "agentscope", True, 5)


# ---- validate ------------------------------------------------------------------

def url_image(url: str, index: int = 0) -> Image:
    return Image("m1", index, "image/png", url, None)


def b64_image(index: int = 0, data: bytes = PNG) -> Image:
    return Image("m1", index, "image/png", None, data)


def test_nothing_to_check_without_images() -> None:
    images.validate([], "extractive", False, 0)


def test_the_extractive_backend_cannot_take_images() -> None:
    with pytest.raises(InputError) as caught:
        images.validate([b64_image()], "extractive", False, 5)
    text = str(caught.value)
    assert "components.agent_wrapper.default.backend=agentscope" in text
    assert "components.agent_wrapper.default.model.vision=true" in text and "include_images=false" in text


def test_a_text_model_cannot_take_images() -> None:
    with pytest.raises(InputError, match=r"model\.vision=true"):
        images.validate([b64_image()], "agentscope", False, 5)


@pytest.mark.parametrize("url", ["file:///home/me/a.png", "ftp://x.test/a.png", "C:\\pics\\a.png", "https://",
                                 "javascript:alert(1)"])
def test_only_http_urls(url: str) -> None:
    with pytest.raises(InputError, match="Image URLs must use HTTP\\(S\\); send local files as Base64"):
        images.validate([url_image(url)], "agentscope", True, 5)


def test_http_and_https_urls_pass() -> None:
    images.validate([url_image("http://x.test/a.png"), url_image("HTTPS://x.test/b", 1)], "agentscope", True, 5)


def test_providers_that_would_download_urls_need_base64() -> None:
    images.validate([url_image("https://x.test/a.png")], "agentscope", True, 5, provider="dashscope")
    images.validate([b64_image()], "agentscope", True, 5, provider="anthropic")
    with pytest.raises(InputError, match="anthropic provider would download"):
        images.validate([url_image("https://x.test/a.png")], "agentscope", True, 5, provider="anthropic")


def test_more_images_than_the_limit_names_the_limit_and_how_to_raise_it() -> None:
    six = [b64_image(i) for i in range(6)]
    images.validate(six, "agentscope", True, 6)
    with pytest.raises(InputError) as caught:
        images.validate(six, "agentscope", True, 5)
    assert "Session has 6 images, exceeding context_config.max_image_num=5" in str(caught.value)
    assert f"{LIMIT_KEY}=6" in str(caught.value)


# ---- naming attachments -----------------------------------------------------------

def test_attachment_path_uses_the_hex_of_the_message_id() -> None:
    path = images.attachment_path("session", "s1", "Msg/1", 2, "image/PNG")
    assert path == f"session/images/s1/msg-{'Msg/1'.encode().hex()}-image-2.png"
    assert images.attachment_path("session", "s1", "a", 0, "image/png") != images.attachment_path(
        "session", "s1", "A", 0, "image/png")  # case-insensitive file systems keep them apart


@pytest.mark.parametrize(("media", "ext"), [
    ("image/png", ".png"), ("image/jpeg", ".jpg"), ("image/webp", ".webp"), ("image/gif", ".gif"),
    ("image/bmp", ".bmp"), ("image/tiff", ".tiff"), ("image/heic", ".heic"), ("image/heif", ".heif"),
    ("image/avif", ".avif"), ("image/svg+xml", ".svg"), ("image/x-icon", ".bin"), ("image/*", ".bin"),
    ("IMAGE/JPEG; q=1", ".jpg"), ("application/pdf", ".bin"),
])
def test_extensions(media: str, ext: str) -> None:
    assert images.extension(media) == ext


def test_a_message_id_too_long_for_a_file_name() -> None:
    images.attachment_path("session", "s1", "x" * 110, 0, "image/png")
    with pytest.raises(InputError, match="Message ID is too long for an image attachment filename"):
        images.attachment_path("session", "s1", "x" * 120, 0, "image/png")


@pytest.mark.parametrize(("session_dir", "session_id", "error"), [
    ("[sessions]", "s1", "Image attachment path cannot be linked: \\[sessions\\]/images"),
    ("session", "chat#1", "session_id contains a character"),
    ("/abs", "s1", "relative folder"),
    ("../out", "s1", "relative folder"),
    ("", "s1", "relative folder"),
])
def test_attachment_paths_that_cannot_be_used(session_dir: str, session_id: str, error: str) -> None:
    with pytest.raises(InputError, match=error):
        images.attachment_path(session_dir, session_id, "m1", 0, "image/png")


@given(st.text(min_size=1, max_size=40), st.integers(min_value=0, max_value=999))
def test_any_message_id_stays_inside_the_session_folder(message_id: str, index: int) -> None:
    path = images.attachment_path("notes/session", "s1", message_id, index, "image/png")
    pure = PurePosixPath(path)
    assert pure.parent == PurePosixPath("notes/session/images/s1")
    assert pure.name == f"msg-{message_id.encode('utf-8').hex()}-image-{index}.png"


# ---- planning, reuse and source_images -----------------------------------------------

def test_plan_saves_base64_and_cites_urls_in_order() -> None:
    found = [b64_image(0), url_image("https://x.test/a.png", 1), b64_image(2, JPEG),
             Image("m2", 0, "image/png", "https://x.test/a.png", None)]
    plan = images.plan(found, "session", "s1")
    hexed = "m1".encode().hex()
    assert [f.path for f in plan.files] == [f"session/images/s1/msg-{hexed}-image-0.png",
                                            f"session/images/s1/msg-{hexed}-image-2.png"]
    assert plan.files[1].data == JPEG
    assert plan.sources == {("m1", 0): f"[[session/images/s1/msg-{hexed}-image-0.png]]",
                            ("m1", 1): "https://x.test/a.png",
                            ("m1", 2): f"[[session/images/s1/msg-{hexed}-image-2.png]]",
                            ("m2", 0): "https://x.test/a.png"}
    assert plan.links == (f"[[session/images/s1/msg-{hexed}-image-0.png]]", "https://x.test/a.png",
                          f"[[session/images/s1/msg-{hexed}-image-2.png]]")


def test_plan_accepts_the_same_image_twice_but_not_two_images_in_one_place() -> None:
    assert len(images.plan([b64_image(0), b64_image(0)], "session", "s1").files) == 1
    with pytest.raises(InputError, match="Conflicting images share the same message ID and block position"):
        images.plan([b64_image(0), b64_image(0, JPEG)], "session", "s1")


def test_an_existing_file_is_reused_only_with_the_same_bytes() -> None:
    attachment = Attachment("session/images/s1/msg-6d31-image-0.png", PNG)
    assert images.needs_write(attachment, None) is True
    assert images.needs_write(attachment, PNG) is False
    with pytest.raises(InputError, match="Image attachment already exists with different content: msg-6d31-image-0"):
        images.needs_write(attachment, JPEG)


def test_merge_sources_keeps_existing_entries_first() -> None:
    assert images.merge_sources(None, ["[[a]]", "u"]) == ["[[a]]", "u"]
    assert images.merge_sources(["[[b]]", "[[a]]"], ["[[a]]", "u", "u"]) == ["[[b]]", "[[a]]", "u"]
    assert images.merge_sources(["[[b]]"], []) == ["[[b]]"]


@pytest.mark.parametrize("existing", ["[[a]]", [1], {"a": 1}, [["x"]]])
def test_merge_sources_rejects_a_value_that_is_not_a_list_of_strings(existing: object) -> None:
    with pytest.raises(InputError, match="source_images must be a list of strings"):
        images.merge_sources(existing, ["[[a]]"])
