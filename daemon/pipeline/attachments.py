"""Images in the memory flow (``include_images``): checked before anything is saved, attachments
saved before the record, their sources merged into the card's ``source_images`` after it.

Base64 images become files under ``session/images/<session_id>/``; URL images
are passed to the model as URLs and never downloaded. Attachments stay when
the model fails or skips.
"""

from __future__ import annotations


from daemon.conversations import images

from daemon.vault import props
from daemon.errors import ConflictError, InputError, VaultError
from daemon.conversations.images import AttachmentPlan
from daemon.models import Message
from daemon.vault.files import ABSENT
from daemon.pipeline.context import Context

SOURCE_KEY = "source_images"


def prepare(ctx: "Context", session_id: str, messages: tuple[Message, ...]) -> AttachmentPlan | None:
    """Every check, before any write: the backend, URL schemes, the image limit, sizes, existing files.

    Returns None when the messages hold no image.
    """
    found = images.collect(messages)
    if not found:
        return None
    agent = ctx.config.agent
    images.validate(found, agent["backend"], agent["model"]["vision"], agent["context_config"]["max_image_num"],
                    agent["model"]["provider"])
    plan = images.plan(found, ctx.config.session_dir, session_id)
    for attachment in plan.files:
        images.needs_write(attachment, _current(ctx, attachment.path))
    return plan


def _current(ctx: "Context", path: str) -> bytes | None:
    target = ctx.vault.abspath(path)
    if target.is_dir():
        return b""  # a folder in the way: needs_write reports it as different content
    try:
        return target.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"cannot read the existing attachment {path}: {exc.strerror}") from exc


def save(ctx: "Context", plan: AttachmentPlan | None) -> list[str]:
    """Write the attachments that are not there yet (an identical file is reused, mtime unchanged)."""
    written = []
    for attachment in plan.files if plan else ():
        if images.needs_write(attachment, _current(ctx, attachment.path)):
            ctx.vault.write_bytes(attachment.path, attachment.data, ABSENT)
            written.append(attachment.path)
    return written


def link_sources(ctx: "Context", path: str, plan: AttachmentPlan | None, before: object) -> bool:
    """Merge the images' sources into the card's ``source_images`` (existing first, no duplicates).

    ``before`` is the value read before the model ran, so a model that dropped the
    property cannot lose it. Returns True when the card changed.
    """
    if plan is None or not plan.links:
        return False
    for _ in range(3):
        snapshot = ctx.vault.read(path)
        if snapshot is None:
            return False
        current = props.read(snapshot.text).get(SOURCE_KEY)
        existing = images.merge_sources(before, current if current is not None else [])
        merged = images.merge_sources(existing, list(plan.links))
        if current == merged:
            return False
        try:
            ctx.vault.write(path, props.set_props(snapshot.text, {SOURCE_KEY: merged}), snapshot.digest)
            return True
        except ConflictError:
            continue
    raise VaultError(f"{path}: kept changing while its source_images were being merged")
