"""Surgical property edits: only the named keys' lines change."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from daemon.vault import props
def test_split_and_read_with_bom_and_crlf() -> None:
    text = "\ufeff---\r\nname: a\r\nlist:\r\n  - x\r\n---\r\nbody\r\n"
    where = props.split(text)
    assert where is not None and where.newline == "\r\n"
    assert text[where.body_start:] == "body\r\n"
    assert props.read(text) == {"name": "a", "list": ["x"]}


@pytest.mark.parametrize("text", ["no frontmatter\n", "---\nunterminated: yes\n", "", "----\nx: 1\n----\n"])
def test_no_frontmatter(text: str) -> None:
    assert props.split(text) is None and props.read(text) == {}


def test_invalid_yaml_reads_as_empty() -> None:
    assert props.read("---\n: : :\n  - [\n---\nx") == {}


def test_set_props_touches_only_named_keys() -> None:
    text = ("\ufeff---\r\n# a comment\r\ntitle: 'Quoted'\r\ntags:\r\n  - x\r\n  - y\r\n"
            "up: \"[[Note]]\"\r\nname: old\r\n---\r\nbody [[x]]\r\n")
    out = props.set_props(text, {"name": "new", "tags": ["a b", "[[l]]"], "added": "v: w"})
    assert out == ("\ufeff---\r\n# a comment\r\ntitle: 'Quoted'\r\ntags:\r\n  - a b\r\n  - \"[[l]]\"\r\n"
                   "up: \"[[Note]]\"\r\nname: new\r\nadded: \"v: w\"\r\n---\r\nbody [[x]]\r\n")


def test_set_props_deletes_with_none_and_creates_frontmatter() -> None:
    assert props.set_props("---\na: 1\nb: 2\n---\nx", {"a": None}) == "---\nb: 2\n---\nx"
    assert props.set_props("hello\n", {"name": "x"}) == "---\nname: x\n---\nhello\n"


@pytest.mark.parametrize(
    "value",
    ["plain", "with: colon", "#hash", "[[link]]", "yes", "123", "null", "", " lead", "tab\tin", "quote\"s", "it's",
     "multi\nline", "- dash", "中文描述", "a #b", "trailing:"],
)
def test_scalars_round_trip(value: str) -> None:
    assert yaml.safe_load(props.render("k", value)) == {"k": value}


@given(st.dictionaries(st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True),
                       st.one_of(st.text(max_size=40), st.lists(st.text(max_size=10), max_size=3)), max_size=4),
       st.text(max_size=40))
def test_set_props_round_trips_and_keeps_other_keys(updates: dict, value: str) -> None:
    text = "---\nkeep: 'me'  # comment\nother:\n  - 1\n---\nbody\n"
    updates = {k: v for k, v in updates.items() if k not in ("keep", "other")}
    out = props.set_props(text, {**updates, "new_key": value})
    assert props.read(out) == {"keep": "me", "other": [1], **updates, "new_key": value}
    assert out.startswith("---\nkeep: 'me'  # comment\nother:\n  - 1\n") and out.endswith("---\nbody\n")


def test_yes_no_on_off_are_words_as_in_obsidian() -> None:
    out = props.set_props("---\nkeep: true\n---\nb\n", {"no": "x", "on": "off"})
    assert props.read(out) == {"keep": True, "no": "x", "on": "off"}


def test_unicode_line_separators_inside_values_are_not_line_breaks() -> None:
    text = '---\nmemory_tags: ["a\x85b"]\ntitle: "x\u2028y"\n---\nbody\n'
    out = props.set_props(text, {"memory_tags": ["c"]})
    assert out == '---\nmemory_tags:\n  - c\ntitle: "x\u2028y"\n---\nbody\n'
