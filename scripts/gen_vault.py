"""Generate a synthetic Obsidian vault for benchmarks (a dev script, not a test).

    python scripts/gen_vault.py OUT_DIR [--notes 10000] [--seed 1]

The same ``--notes`` and ``--seed`` always give byte-identical files (one seeded
``random.Random``, sorted iteration, explicit UTF-8 and ``\\n``). The vault has:

- notes of 1.5-3 KB in nested folders (depth 0-3, about one folder per 33 notes),
  with YAML frontmatter (title, tags, sometimes a quoted ``up: "[[Note]]"`` link),
  headings, lists, paragraphs, a table, block ids (``^block1``);
- 5-15 real links per note in every form Obsidian accepts: ``[[Name]]``,
  ``[[Name|alias]]``, ``[[Name#Heading]]``, ``[[Name#^block1]]``, ``![[Name]]``,
  ``![[image.png|100]]``, ``[[folder/Name]]``, ``[t](Some%20Name.md)``,
  ``[t](<Some Name.md>)``, and ``[[Name\\|alias]]`` in table rows; about 1 in 50
  names a note that does not exist (a broken link, as in real vaults);
- fake links that a scanner must skip: in fenced code blocks and in inline code;
- about 2 % of basenames duplicated in another folder; names with spaces and
  non-ASCII letters (é, ü, 中文); a few small PNG attachments;
- ``HUB`` (``hub/Hub Note.md``), which receives exactly ``HUB_LINKERS`` inbound
  links, one from each of that many different notes, and no other link.
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

HUB = "hub/Hub Note.md"
HUB_LINKERS = 100
ATTACHMENT_DIR = "attachments"
HEADINGS = ("Overview", "Details", "Open questions", "Références", "Next steps")
BROKEN_SHARE = 0.02
DUPLICATE_SHARE = 0.02

WORDS = """
alpha amber anchor apple arc atlas aurora autumn badge bamboo basin beacon birch blossom breeze
bridge brook canyon cargo cedar chalk channel cipher citadel clover cobalt comet copper coral
cotton crane crystal dawn delta desert dune echo ember falcon fern field flint forest fossil
frost garden garnet glacier granite grove harbor harvest hazel heron horizon island ivory jade
jasmine juniper kernel kestrel lagoon lantern lattice ledger lemon linen lotus lumen maple
marble meadow mercury mesa meteor mint mirror monsoon mosaic nectar nickel north oasis ocean
olive onyx orbit orchid pebble pepper pine planet plaza prairie prism quartz quill rain raven
reef ridge river robin saffron sage salt sapphire scarlet shadow shore signal silver slate
solstice sparrow spruce stone summit sunset tango thistle thunder tide timber topaz tundra
valley velvet vertex violet willow winter zephyr zinc
""".split()
ACCENTED = ["café", "über", "résumé", "naïve", "zürich", "élan", "müller", "crème", "façade",
            "señor", "中文", "笔记", "東京", "知识"]
FILLER = """the of and to in that is was for on with as by at from this be or are an which have
not it has but had were its also been more one all their when would they there can into
than other some these may only new time most first about could after two many over such
where later each how because through while still around every system note idea draft
review plan result source method example question answer project meeting""".split()
PNG_1X1 = None  # built lazily by png_bytes()


@dataclass(frozen=True)
class Note:
    path: str  # vault-relative, with .md

    @property
    def name(self) -> str:
        return self.path.rpartition("/")[2][:-3]

    @property
    def stem_path(self) -> str:
        return self.path[:-3]


# ------------------------------------------------------------------ names and folders
def word(rng: random.Random) -> str:
    return rng.choice(ACCENTED) if rng.random() < 0.06 else rng.choice(WORDS)


def title_case(text: str) -> str:
    return text[:1].upper() + text[1:]


def make_folders(rng: random.Random, count: int) -> list[str]:
    """``count`` folders (plus the root ""), each at depth 1-3 below a random parent."""
    folders = [""]
    depth = {"": 0}
    taken = {"", "hub", ATTACHMENT_DIR}
    while len(folders) < count + 1:
        parent = rng.choice([f for f in folders if depth[f] < 3])
        name = title_case(word(rng)) + (f" {word(rng)}" if rng.random() < 0.3 else "")
        path = f"{parent}/{name}" if parent else name
        if path.lower() in taken:
            continue
        taken.add(path.lower())
        folders.append(path)
        depth[path] = depth[parent] + 1
    return folders


def make_notes(rng: random.Random, n: int, folders: list[str]) -> list[Note]:
    """``n - 1`` notes with case-insensitively unique names except ~2 % duplicates, plus the hub."""
    notes: list[Note] = []
    used: set[str] = {"hub note", "hub renamed"}
    paths: set[str] = {HUB.lower()}
    duplicates = int((n - 1) * DUPLICATE_SHARE)
    while len(notes) < n - 1 - duplicates:
        name = " ".join(title_case(word(rng)) if i == 0 else word(rng) for i in range(rng.randint(1, 3)))
        if rng.random() < 0.25:
            name += f" {rng.randint(1, 999)}"
        if name.lower() in used:
            continue
        used.add(name.lower())
        path = f"{rng.choice(folders)}/{name}.md".lstrip("/")
        paths.add(path.lower())
        notes.append(Note(path))
    originals = list(notes)
    while len(notes) < n - 1:  # the same basename again, in another folder
        name = rng.choice(originals).name
        path = f"{rng.choice(folders)}/{name}.md".lstrip("/")
        if path.lower() in paths:
            continue
        paths.add(path.lower())
        notes.append(Note(path))
    notes.append(Note(HUB))
    return sorted(notes, key=lambda note: note.path)


# -------------------------------------------------------------------------- links
def link_text(rng: random.Random, target: Note, images: list[str], form: str) -> str:
    """One link to ``target`` (or an image) written in ``form``."""
    name = target.name
    alias = " ".join(rng.choice(FILLER) for _ in range(2))
    if form == "wiki":
        return f"[[{name}]]"
    if form == "alias":
        return f"[[{name}|{alias}]]"
    if form == "heading":
        return f"[[{name}#{rng.choice(HEADINGS)}]]"
    if form == "block":
        return f"[[{name}#^block1]]"
    if form == "embed":
        return f"![[{name}]]"
    if form == "image":
        return f"![[{rng.choice(images)}|{rng.choice((100, 200, 320))}]]"
    if form == "folder":
        return f"[[{target.stem_path}]]"
    if form == "md_percent":
        spelled = target.path if rng.random() < 0.3 else f"{name}.md"
        return f"[{alias}]({quote(spelled)})"
    if form == "md_angle":
        spelled = target.path if rng.random() < 0.3 else f"{name}.md"
        return f"[{alias}](<{spelled}>)"
    if form == "table":
        return f"[[{name}\\|{alias}]]"
    raise ValueError(form)


BODY_FORMS = ("wiki", "wiki", "wiki", "alias", "heading", "block", "embed", "image", "folder",
              "md_percent", "md_angle")
HUB_FORMS = ("wiki", "alias", "heading", "block", "embed", "folder", "md_percent", "md_angle",
             "table", "up")


def sentence(rng: random.Random, words: int) -> str:
    text = " ".join(rng.choice(FILLER) if rng.random() > 0.1 else word(rng) for _ in range(words))
    return title_case(text) + "."


def paragraph(rng: random.Random, links: list[str]) -> str:
    parts = [sentence(rng, rng.randint(6, 14)) for _ in range(rng.randint(2, 4))]
    for link in links:
        i = rng.randrange(len(parts) + 1)
        parts.insert(i, f"See {link}.")
    return " ".join(parts)


# ------------------------------------------------------------------------- a note
def render_note(rng: random.Random, note: Note, pool: list[Note], images: list[str],
                hub_form: str | None, missing: list[str]) -> str:
    """The text of one note: frontmatter, then blocks holding its links, padded to 1.5-3 KB."""
    target_size = rng.randint(1500, 2900)
    count = rng.randint(5, 15) - (1 if hub_form else 0)
    up: str | None = None
    if hub_form == "up":
        up = f'"[[{Note(HUB).name}]]"'
    elif rng.random() < 0.3:
        up = f'"[[{rng.choice(pool).name}]]"'
        count -= 1
    links: list[str] = []
    table_links: list[str] = []
    for _ in range(count):
        if rng.random() < BROKEN_SHARE:
            links.append(f"[[{rng.choice(missing)}]]")
        elif rng.random() < 0.08:
            table_links.append(link_text(rng, rng.choice(pool), images, "table"))
        else:
            links.append(link_text(rng, rng.choice(pool), images, rng.choice(BODY_FORMS)))
    if hub_form == "table":
        table_links.append(link_text(rng, Note(HUB), images, "table"))
    elif hub_form not in (None, "up"):
        links.insert(rng.randrange(len(links) + 1), link_text(rng, Note(HUB), images, hub_form))

    tags = sorted({rng.choice(WORDS) for _ in range(rng.randint(1, 4))})
    head = ["---", f"title: {json.dumps(note.name, ensure_ascii=False)}", "tags:"]
    head += [f"  - {t}" for t in tags]
    if up:
        head.append(f"up: {up}")
    head += ["---", "", f"# {note.name}", ""]

    blocks: list[str] = []
    chunks = [links[i:i + 3] for i in range(0, len(links), 3)]
    for i, chunk in enumerate(chunks):
        heading = HEADINGS[i % len(HEADINGS)]
        blocks.append(f"## {heading}")
        if i % 2 == 1 and chunk:
            blocks.append("\n".join(f"- {sentence(rng, 5)} {link}" for link in chunk))
        else:
            blocks.append(paragraph(rng, chunk) + (" ^block1" if i == 0 else ""))
    if table_links:
        rows = "\n".join(f"| {link} | {rng.randint(1, 99)} |" for link in table_links)
        blocks.append(f"| note | score |\n| --- | --- |\n{rows}")
    fake = rng.choice(pool).name
    blocks.append(f"```python\n# [[{fake}]] is not a link here\nrefs = ['[[{fake}|x]]', '![[{fake}]]']\n```")
    blocks.append(f"Inline code such as `[[{rng.choice(pool).name}]]` is not a link. #{rng.choice(WORDS)}")
    if not blocks[0].startswith("## "):
        blocks.insert(0, "## Overview")
    if "^block1" not in "\n".join(blocks):
        blocks.append(paragraph(rng, []) + " ^block1")

    text = "\n".join(head) + "\n" + "\n\n".join(blocks) + "\n"
    size = len(text.encode("utf-8"))
    sentences = 0
    while size < target_size:  # pad sentence by sentence, so a note stays under 3 KB
        extra = ("\n" if sentences % 4 == 0 else " ") + sentence(rng, rng.randint(5, 10))
        text += extra
        size += len(extra.encode("utf-8"))
        sentences += 1
    return text + ("\n" if sentences else "")


def png_bytes(seed: int) -> bytes:
    """A tiny valid PNG (4x4, one colour from ``seed``)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    r, g, b = (seed * 53) % 256, (seed * 97) % 256, (seed * 193) % 256
    raw = b"".join(b"\x00" + bytes((r, g, b)) * 4 for _ in range(4))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


# ---------------------------------------------------------------------- the vault
def generate(out: Path, notes: int = 10000, seed: int = 1) -> dict[str, object]:
    """Write the vault into ``out`` (created; must be empty or missing). Returns a summary."""
    if notes < HUB_LINKERS + 2:
        raise ValueError(f"--notes must be at least {HUB_LINKERS + 2}")
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty")
    rng = random.Random(seed)
    folders = make_folders(rng, max(10, notes // 33))
    all_notes = make_notes(rng, notes, folders)
    pool = [n for n in all_notes if n.path != HUB]
    images = [f"image-{i}.png" for i in range(max(3, notes // 500))]
    missing = [f"Missing {w} {i}" for i, w in enumerate(rng.sample(WORDS, 20))]
    linkers = set(rng.sample([n.path for n in pool], HUB_LINKERS))
    forms = {path: HUB_FORMS[i % len(HUB_FORMS)] for i, path in enumerate(sorted(linkers))}

    out.mkdir(parents=True, exist_ok=True)
    total = 0
    for note in all_notes:
        text = render_note(rng, note, pool, images, forms.get(note.path), missing)
        if note.path == HUB:
            text = text.replace("## Overview", "## Overview\nThe note the rename benchmark moves.", 1)
        path = out / note.path
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        total += len(data)
    (out / ATTACHMENT_DIR).mkdir(exist_ok=True)
    for i, image in enumerate(images):
        (out / ATTACHMENT_DIR / image).write_bytes(png_bytes(i))
    return {
        "root": str(out),
        "notes": len(all_notes),
        "folders": len(folders) + 2,  # + hub/ and attachments/
        "attachments": len(images),
        "bytes": total,
        "hub": HUB,
        "hub_linkers": sorted(linkers),
        "duplicate_basenames": len(all_notes) - len({n.name.lower() for n in all_notes}),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to create (must be empty or missing)")
    parser.add_argument("--notes", type=int, default=10000, help="number of notes (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args(argv)
    try:
        summary = generate(args.out, args.notes, args.seed)
    except (ValueError, FileExistsError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    summary.pop("hub_linkers")
    print(json.dumps(summary, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
