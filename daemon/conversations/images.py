"""Image inputs (``include_images``): find, check and name a conversation's images.

Pure helpers for the memory flow; nothing here touches the vault. The pipeline
calls them in this order, all checks before the first write:

1. ``collect(messages)``: every image block, Base64 decoded strictly;
2. ``validate(images, backend, vision, max_images, provider=…)``: the
   backend can see images, URLs are http(s), the count fits the limit;
3. ``plan(images, session_dir, session_id)``: where each Base64 image is saved
   (``attachment_path``) and the source each image is cited by; the pipeline
   writes ``plan.files`` through the vault writer (``needs_write`` says
   whether a file already there can be reused), saves the source record,
   passes ``plan.sources`` to the distiller as ``DistillRequest.image_sources``;
4. after the card is written: ``merge_sources(card["source_images"], plan.links)``.

URL images are never downloaded: the URL itself is the reference. Base64 bytes
go to ``<session_dir>/images/<session_id>/`` and never into the JSONL record.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any, Iterable, Mapping, Sequence, TypeGuard
from urllib.parse import urlsplit

from daemon.config import AGENT_KEY
from daemon.errors import InputError
from daemon.models import Message
from daemon.vault.names import validate_component

__all__ = [
    "Attachment", "AttachmentPlan", "Image", "MAX_IMAGE_BYTES", "URL_PASSTHROUGH_PROVIDERS",
    "attachment_path", "collect", "decode_base64", "extension", "merge_sources", "needs_write", "plan",
    "source_link", "validate",
]

MAX_IMAGE_BYTES = 20 * 1024 * 1024
MAX_FILENAME = 255
# The providers whose agentscope formatter sends an image URL as-is; the others
# (anthropic, gemini, ollama) download it inside the formatter.
URL_PASSTHROUGH_PROVIDERS = ("openai", "dashscope")
_EXTENSIONS = {
    "png": ".png", "jpeg": ".jpg", "jpg": ".jpg", "webp": ".webp", "gif": ".gif", "bmp": ".bmp",
    "tiff": ".tiff", "heic": ".heic", "heif": ".heif", "avif": ".avif", "svg+xml": ".svg",
}
_SUFFIX_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp",
                 ".gif": "image/gif", ".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff",
                 ".heic": "image/heic", ".heif": "image/heif", ".avif": "image/avif", ".svg": "image/svg+xml"}
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF87a", "image/gif"),
          (b"GIF89a", "image/gif"), (b"BM", "image/bmp"), (b"II*\x00", "image/tiff"), (b"MM\x00*", "image/tiff"))
_DATA_URL = re.compile(r"data:([^;,]*)((?:;[^;,]*)*),(.*)", re.S)
_UNLINKABLE = set("[]#|^\n\r")
# A URL image whose type neither the block nor the URL tells: the OpenAI wire format does not need it.
UNKNOWN_URL_TYPE = "image/*"


@dataclass(frozen=True)
class Image:
    """One image block of a message: Base64 ``data`` (decoded) or an http(s) ``url``, never both.

    ``block_index`` is the block's position among ALL blocks of the message.
    """

    message_id: str
    block_index: int
    media_type: str
    url: str | None
    data: bytes | None = field(default=None, repr=False)

    @property
    def key(self) -> tuple[str, int]:
        """The key of ``DistillRequest.image_sources``."""
        return (self.message_id, self.block_index)


@dataclass(frozen=True)
class Attachment:
    """A Base64 image to save at the vault-relative ``path``."""

    path: str
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class AttachmentPlan:
    """What saving a request's images means: files to write and the source of every image.

    ``sources`` maps (message id, block index) to ``[[path]]`` or the URL;
    ``links`` are those sources in conversation order without duplicates,
    the new entries of the card's ``source_images``.
    """

    files: tuple[Attachment, ...]
    sources: Mapping[tuple[str, int], str]
    links: tuple[str, ...]


# ---- finding images ---------------------------------------------------------

def collect(messages: Sequence[Message]) -> list[Image]:
    """Every image block of ``messages``, in conversation order.

    Accepts AgentScope ``{"type":"data","source":{…}}`` blocks with an
    ``image/`` media type, 1.x ``{"type":"image","source":{…}}`` blocks, and
    OpenAI ``image_url`` / ``input_image`` blocks (``data:`` or http(s) URLs).

    Raises:
        InputError: a malformed image block, invalid or empty Base64, or an image over the size limit.
    """
    found = []
    for message in messages:
        for index, block in enumerate(message.blocks):
            image = _image_of(message.id, index, block)
            if image is not None:
                found.append(image)
    return found


def _image_of(message_id: str, index: int, block: Any) -> Image | None:
    if not isinstance(block, Mapping):
        return None
    label = f"message {message_id!r} content[{index}]"
    kind = block.get("type")
    if kind in ("data", "image"):
        source = block.get("source")
        media = _media(source.get("media_type") if isinstance(source, Mapping) else None) or _media(
            block.get("media_type"))
        if kind == "data" and not media.startswith("image/"):
            return None  # audio, PDF, …: not an image
        if not isinstance(source, Mapping):
            raise InputError(f"{label}: an image block needs a 'source' object")
        if source.get("type") == "base64":
            data = decode_base64(source.get("data"), label)
            return Image(message_id, index, media or _sniff(data, label), None, data)
        if source.get("type") == "url":
            url = _url(source.get("url"), label)
            if url[:5].lower() == "data:":  # inline data after all: treat it as Base64
                media_from_url, data = _data_url(url, label)
                return Image(message_id, index, media or media_from_url, None, data)
            return Image(message_id, index, media or _guess(url), url, None)
        raise InputError(f"{label}: image source.type must be 'base64' or 'url', got {source.get('type')!r}")
    if kind in ("image_url", "input_image"):
        ref = block.get("image_url")
        ref = ref.get("url") if isinstance(ref, Mapping) else ref
        ref = _url(ref, label)
        if ref[:5].lower() == "data:":
            media, data = _data_url(ref, label)
            return Image(message_id, index, media, None, data)
        return Image(message_id, index, _guess(ref), ref, None)
    return None


def _media(value: Any) -> str:
    return value.split(";")[0].strip().lower() if isinstance(value, str) else ""


def _url(value: Any, label: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{label}: the image URL must be a non-empty string")
    return value.strip()


def _data_url(url: str, label: str) -> tuple[str, bytes]:
    match = _DATA_URL.fullmatch(url)
    if not match or ";base64" not in match.group(2).lower():
        raise InputError(f"{label}: a data: URL image must be Base64-encoded (data:image/png;base64,…)")
    media = _media(match.group(1))
    data = decode_base64(match.group(3), label)
    if not media.startswith("image/"):
        media = _sniff(data, label)
    return media, data


def decode_base64(text: Any, label: str = "image") -> bytes:
    """Decode strictly: only the Base64 alphabet with correct padding (line breaks are allowed).

    Raises:
        InputError: ``Image source contains invalid Base64``, ``… empty Base64 data`` or an image over the limit.
    """
    if not isinstance(text, str):
        raise InputError(f"{label}: Image source contains invalid Base64")
    compact = re.sub(r"[ \t\r\n]+", "", text)
    if not compact:
        raise InputError(f"{label}: Image source contains empty Base64 data")
    if len(compact) > (MAX_IMAGE_BYTES + 2) // 3 * 4:
        raise InputError(f"{label}: {_too_large(len(compact) * 3 // 4)}")
    try:
        data = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise InputError(f"{label}: Image source contains invalid Base64") from exc
    if not data:
        raise InputError(f"{label}: Image source contains empty Base64 data")
    return data


def _too_large(size: int) -> str:
    return (f"the image has {size / 1048576:.1f} MB, over the {MAX_IMAGE_BYTES // 1048576} MB limit "
            "per image; send a smaller image")


def _sniff(data: bytes, label: str) -> str:
    for magic, media in _MAGIC:
        if data.startswith(magic):
            return media
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    raise InputError(f"{label}: cannot tell the image type; give source.media_type (for example image/png)")


def _guess(url: str) -> str:
    suffix = PurePosixPath(urlsplit(url).path).suffix.lower()
    return _SUFFIX_TYPES.get(suffix, UNKNOWN_URL_TYPE)


# ---- checking ---------------------------------------------------------------

def validate(
    images: Sequence[Image], backend: str, vision: bool, max_images: int, provider: str | None = None
) -> None:
    """Check that ``images`` can be sent to the configured model. No images: nothing to check.

    ``provider`` (``model.provider``), when given, must pass URLs through
    unchanged (openai, dashscope): the others would download them.

    Raises:
        InputError: the message names the config key to set or what to send instead.
    """
    if not images:
        return
    if backend != "agentscope":
        raise InputError(
            f"include_images=true with {len(images)} image(s) needs the agentscope backend with a vision model: "
            f"set {AGENT_KEY}.backend=agentscope and {AGENT_KEY}.model.vision=true "
            "(or send include_images=false to keep only the text)"
        )
    if not vision:
        raise InputError(
            f"include_images=true needs a model that reads images: set {AGENT_KEY}.model.vision=true "
            "for a vision model (or send include_images=false to keep only the text)"
        )
    for image in images:
        label = f"message {image.message_id!r} content[{image.block_index}]"
        if image.url is not None:
            _check_url(image.url, label, provider)
        elif image.data is None:
            raise InputError(f"{label}: the image has neither data nor a URL")
        elif len(image.data) > MAX_IMAGE_BYTES:
            raise InputError(f"{label}: {_too_large(len(image.data))}")
    if len(images) > max_images:
        raise InputError(
            f"Session has {len(images)} images, exceeding context_config.max_image_num={max_images}; "
            f"raise the limit with {AGENT_KEY}.context_config.max_image_num={len(images)} "
            "(a key=value argument to memvault, or in config.toml)"
        )


def _check_url(url: str, label: str, provider: str | None) -> None:
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        shown = url if len(url) <= 80 else url[:77] + "..."
        raise InputError(
            "Image URLs must use HTTP(S); send local files as Base64 instead "
            f"(a base64 source or a data:image/…;base64 URL): {label} is {shown}"
        )
    if provider is not None and provider not in URL_PASSTHROUGH_PROVIDERS:
        raise InputError(
            f"{label}: the {provider} provider would download image URLs itself; memvault passes URLs "
            f"through only with {AGENT_KEY}.model.provider=openai or dashscope, so send this image as Base64"
        )


# ---- naming and saving --------------------------------------------------------

def extension(media_type: str) -> str:
    """The file extension for a media type (``.bin`` when unknown)."""
    media = _media(media_type)
    return _EXTENSIONS.get(media.partition("/")[2], ".bin") if media.startswith("image/") else ".bin"


def attachment_path(session_dir: str, session_id: str, message_id: str, block_index: int, media_type: str) -> str:
    """``<session_dir>/images/<session_id>/msg-<hex of utf-8 id>-image-<block index><ext>``.

    The hex keeps ids that differ only in case apart on case-insensitive file
    systems and turns ``../`` into harmless digits.

    Raises:
        InputError: a bad folder or session id, a file name over 255 characters, or a path a wikilink cannot hold.
    """
    folder = PurePosixPath(session_dir)
    if (not session_dir or folder.is_absolute() or ".." in folder.parts or "\\" in session_dir
            or not folder.parts or folder.parts == (".",)):
        raise InputError(f"session_dir must be a relative folder inside the vault, got {session_dir!r}")
    validate_component(session_id, "session_id")
    if isinstance(block_index, bool) or not isinstance(block_index, int) or block_index < 0:
        raise InputError(f"block index must be a non-negative integer, got {block_index!r}")
    name = f"msg-{str(message_id).encode('utf-8').hex()}-image-{block_index}{extension(media_type)}"
    if len(name) > MAX_FILENAME:
        raise InputError("Message ID is too long for an image attachment filename")
    path = f"{folder.as_posix()}/images/{session_id}/{name}"
    if any(ch in _UNLINKABLE for ch in path):
        raise InputError(f"Image attachment path cannot be linked: {path}")
    return path


def source_link(path: str) -> str:
    """The wikilink that cites a saved attachment."""
    return f"[[{path}]]"


def plan(images: Iterable[Image], session_dir: str, session_id: str) -> AttachmentPlan:
    """The files to save and the source of every image (URL images: the URL itself, nothing saved).

    Raises:
        InputError: an attachment path problem, or two images that would share one file with different bytes.
    """
    files: dict[str, bytes] = {}
    sources: dict[tuple[str, int], str] = {}
    for image in images:
        if image.data is None:
            sources[image.key] = str(image.url)
            continue
        path = attachment_path(session_dir, session_id, image.message_id, image.block_index, image.media_type)
        if files.setdefault(path, image.data) != image.data:
            raise InputError("Conflicting images share the same message ID and block position")
        sources[image.key] = source_link(path)
    links = tuple(dict.fromkeys(sources.values()))
    return AttachmentPlan(tuple(Attachment(p, d) for p, d in files.items()), sources, links)


def needs_write(attachment: Attachment, current: bytes | None) -> bool:
    """Whether to write ``attachment`` given the bytes already at its path (None: no file).

    Raises:
        InputError: a different file (or a folder, passed as ``b""`` by the caller) is already there.
    """
    if current is None:
        return True
    if current == attachment.data:
        return False  # the same image sent again: reuse the file, mtime unchanged
    name = PurePosixPath(attachment.path).name
    raise InputError(f"Image attachment already exists with different content: {name}")


def merge_sources(existing: object, new: Sequence[str]) -> list[str]:
    """The card's ``source_images``: existing entries first, then the new ones, in order, no duplicates.

    Raises:
        InputError: either value is not a list of strings (``source_images`` is named).
    """
    old = [] if existing is None else existing
    if not _strings(old):
        raise InputError(f"the card's source_images must be a list of strings, got {old!r:.80}")
    if not _strings(new):
        raise InputError(f"the new source_images must be a list of strings, got {new!r:.80}")
    return list(dict.fromkeys([*old, *new]))


def _strings(value: object) -> TypeGuard[Sequence[str]]:
    return isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
