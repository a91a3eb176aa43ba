"""Tags: normalization, the embedded tagger, surgical writes, auto-tag after memory, re-tagging."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from apscheduler.triggers.cron import CronTrigger
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXED_NOW, FakeDistiller
from daemon.vault import props
from daemon.app import build
from daemon.config import Config, load_config
from daemon.links.graph import normalize_tag
from daemon.runtime.jobs import RETAG, make_scheduler, retag_job
from daemon.models import Card, DistillRequest
from daemon.pipeline import Context, auto_memory
from daemon.pipeline.tags import retag, stale
from daemon.distill.tagging import ExtractiveTagger, normalize_tags, tag_file
from daemon.vault.files import ABSENT, Vault


@pytest.mark.parametrize(
    ("raw", "cap", "length", "expected"),
    [
        (["OpenAI", "openai", "Sam   Altman", "++", 100, "宁德时代", "黄金"], 2, 8, ["OpenAI", "宁德时代"]),
        (["OpenAI", "openai", "Sam   Altman", "++", 100, "宁德时代", "黄金"], 9, 64,
         ["OpenAI", "Sam_Altman", "宁德时代", "黄金"]),
        (["GPT-5", "C++", "C#", ".NET"], 9, 64, ["GPT-5", "C++", "C#", ".NET"]),
        ("a scalar string", 3, 64, []),
        (None, 3, 64, []),
        ([" spaced ", "", "   "], 3, 64, ["spaced"]),
    ],
)
def test_normalization_table(raw: Any, cap: int, length: int, expected: list[str]) -> None:
    assert normalize_tags(raw, cap, length) == expected


def test_obsidian_tag_syntax_when_the_key_is_tags() -> None:
    assert normalize_tags(["C++", ".NET", "2024", "Sam Altman", "#proj/alpha", "a:b"], 9, obsidian=True) == \
        ["C", "NET", "Sam_Altman", "proj/alpha", "ab"]


@pytest.mark.parametrize(("tag", "indexed"), [("Python Tag", "python_tag"), ("PYTHON TAG", "python_tag"),
                                              ("C++", "c++"), (".NET", ".net"), ("#Proj", "proj")])
def test_index_normalization(tag: str, indexed: str) -> None:
    assert normalize_tag(tag) == indexed


def test_extractive_tagger_names_entities() -> None:
    text = ("---\nname: gateway-auth-decision\ndescription: Sam and Priya chose JWT for the Kong gateway.\n---\n"
            "## Decisions\n- Sam: We go with JWT on the Kong gateway because Redis sessions were flaky.\n"
            "- Priya: I'll review the JWT revocation list on Friday.\n```bash\nopenssl genpkey NotATag\n```\n")
    tags = normalize_tags(ExtractiveTagger().tag(text, 3), 3)
    assert len(tags) == 3 and "JWT" in tags and ("Kong" in tags or "Sam" in tags)
    assert "NotATag" not in tags and "Friday" not in tags and "Decisions" not in tags


def test_chinese_entities() -> None:
    text = "---\nname: 登录重构\ndescription: 讨论了宁德时代和黄金价格\n---\n- 用户: 宁德时代的财报很好。\n- 用户: 黄金价格上涨，宁德时代也涨了。\n"
    assert "宁德时代" in normalize_tags(ExtractiveTagger().tag(text, 3), 3)


def test_chinese_counts_units_times_and_windows_across_two_terms_are_not_tags() -> None:
    text = ("---\nname: 宽带套餐\ndescription: 用户在比较融合套餐。\n---\n"
            "- 融合套餐每月99元，送两张副卡，联通那边要付违约金。\n- 再加一张副卡，融合套餐也划算。\n"
            "- 周日下午去营业厅办，联通那边说违约金是200元。\n- 我让他问问张医生阿司匹林的事。\n"
            "- 问张医生阿司匹林要不要停。\n- 阿司匹林先不停。\n- 40公里左右就没电了，以前能跑60公里左右。\n"
            "- OK镜听着就头大。\n- OK镜，也要验光。\n- 客厅装，主卧装。\n")
    tags = ExtractiveTagger().tag(text, 6)
    for bad in ("张副卡", "联通那边", "周日下午", "张医生阿司匹", "公里左右", "OK镜听着就头大", "主卧装"):
        assert bad not in tags, (bad, tags)
    for good in ("融合套餐", "违约金", "阿司匹林", "OK镜"):
        assert good in tags, (good, tags)


class FixedTagger:
    def __init__(self, tags: Any = None, fail: bool = False) -> None:
        self.tags = tags if tags is not None else ["Alpha", "Beta"]
        self.fail = fail
        self.calls = 0

    def tag(self, text: str, max_tags: int) -> list[str]:
        self.calls += 1
        if self.fail:
            raise ValueError("tagger exploded")
        return list(self.tags)


keys = st.from_regex(r"[a-z][a-z_]{0,6}", fullmatch=True).filter(lambda k: k != "memory_tags")
scalars = st.one_of(st.text(st.characters(max_codepoint=0xFFFF, blacklist_categories=("Cs",)), max_size=12),
                  st.integers(), st.booleans())


@settings(max_examples=60)
@given(st.lists(st.tuples(keys, scalars), max_size=5, unique_by=lambda kv: kv[0]), st.text(max_size=80),
       st.sampled_from(["\n", "\r\n"]), st.booleans(), st.lists(st.text(max_size=8), max_size=3))
def test_tagging_changes_only_the_tag_keys_bytes(tmp_path_factory: Any, pairs: list[tuple[str, Any]], body: str,
                                                 newline: str, existing: bool, old_tags: list[str]) -> None:
    root = tmp_path_factory.mktemp("v")
    lines = [f"{k}: {json.dumps(v)}  # keep me" for k, v in pairs]
    if existing:
        lines.insert(len(lines) // 2, "memory_tags: " + json.dumps(old_tags, ensure_ascii=False))
    text = "---" + newline + newline.join(lines + ["---"]) + newline + body
    vault = Vault(root)
    vault.write("c.md", text, ABSENT)
    result = tag_file(vault, "c.md", FixedTagger(), "memory_tags", 3, "modified")
    after = (root / "c.md").read_bytes().decode("utf-8")
    assert result.success and props.read(after)["memory_tags"] == ["Alpha", "Beta"]
    assert props.set_props(after, {"memory_tags": None}) == props.set_props(text, {"memory_tags": None})
    before_lines = [l for l in text.split(newline) if not l.startswith("memory_tags")]
    after_lines = [l for l in after.split(newline) if not l.startswith(("memory_tags", "  - "))]
    assert after_lines == [l for l in before_lines if not l.startswith("  - ")]


def msg(text: str, at: str = "2023-01-19T08:00:00") -> dict[str, Any]:
    return {"role": "user", "name": "kim", "content": text, "created_at": at}


def test_only_changed_cards_are_tagged_at_their_final_path(config: Config, vault_root: Path) -> None:
    def make(request: DistillRequest) -> Card:
        name = "renamed" if request.existing else "first"
        body = (request.existing.body if request.existing else "") + "".join(f"- {m.text}\n" for m in request.messages)
        return Card(name, "d", body)

    tagger = FixedTagger()
    ctx = build(config, distiller=FakeDistiller(make=make), clock=lambda: FIXED_NOW, tagger=tagger)
    first = auto_memory(ctx, "s", [msg("one")])
    assert first["metadata"]["auto_tag"]["results"] == [
        {"change": "added", "path": "daily/2023-01-19/first.md", "success": True, "tags": ["Alpha", "Beta"]}]
    again = auto_memory(ctx, "s", [msg("one")])
    assert again["metadata"]["auto_tag"] == {"processed": 0, "succeeded": 0, "failed": 0, "results": []}
    assert tagger.calls == 1
    second = auto_memory(ctx, "s", [msg("one"), msg("two", "2023-01-19T09:00:00")])
    assert second["metadata"]["auto_tag"]["results"][0]["path"] == "daily/2023-01-19/renamed.md"
    assert second["metadata"]["auto_tag"]["results"][0]["change"] == "modified"
    assert props.read((vault_root / "daily/2023-01-19/renamed.md").read_text())["memory_tags"] == ["Alpha", "Beta"]
    assert ctx.graph.index.tagged("alpha") == ["daily/2023-01-19/renamed.md"]


def test_a_tagging_failure_never_fails_the_memory_result(config: Config, vault_root: Path) -> None:
    ctx = build(config, distiller=FakeDistiller(), clock=lambda: FIXED_NOW, tagger=FixedTagger(fail=True))
    result = auto_memory(ctx, "s", [msg("one")])
    assert result["success"] is True and result["metadata"]["created"] is True
    assert result["metadata"]["auto_tag"]["failed"] == 1
    assert "tagger exploded" in result["metadata"]["auto_tag"]["results"][0]["error"]
    assert "memory_tags" not in props.read((vault_root / result["metadata"]["path"]).read_text())


def test_tags_key_makes_obsidian_tags(vault_root: Path) -> None:
    config = load_config(overrides=[f"vault={vault_root}", "tagging.key=tags"], environ={})
    ctx = build(config, distiller=FakeDistiller(), clock=lambda: FIXED_NOW, tagger=FixedTagger(["Sam Altman", "C++"]))
    path = auto_memory(ctx, "s", [msg("one")])["metadata"]["path"]
    assert props.read((vault_root / path).read_text())["tags"] == ["Sam_Altman", "C"]


def test_retag_only_cards_changed_since_last_tagged(config: Config, vault_root: Path) -> None:
    tagger = FixedTagger()
    ctx = build(config, distiller=FakeDistiller(), clock=lambda: FIXED_NOW, tagger=tagger)
    path = auto_memory(ctx, "s", [msg("one")])["metadata"]["path"]
    auto_memory(ctx, "t", [msg("other")])
    assert stale(ctx, [path]) == [] and retag(ctx, now=100.0)["processed"] == 0
    card = vault_root / path
    card.write_text(card.read_text() + "A line the user added.\n")
    ctx.graph.sync([path])
    report = retag(ctx, now=200.0)
    assert [r["path"] for r in report["results"]] == [path]
    assert json.loads(ctx.graph.index.get_meta("retag.last") or "{}")["at"] == 200.0
    assert retag(ctx, everything=True, now=300.0)["processed"] == 2


class Runtime:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.worker = self
        self.watcher = None

    def submit(self, fn: Any) -> Any:
        from concurrent.futures import Future
        future: Future[Any] = Future()
        future.set_result(fn())
        return future


def test_retag_job_and_its_schedule(config: Config, vault_root: Path) -> None:
    ctx = build(config, distiller=FakeDistiller(), clock=lambda: FIXED_NOW, tagger=FixedTagger())
    auto_memory(ctx, "s", [msg("one")])
    assert retag_job(Runtime(ctx), now=50.0)["processed"] == 0
    nightly = load_config(overrides=[f"vault={vault_root}", "tagging.schedule=30 2 * * *"], environ={})
    job = {j.id: j for j in make_scheduler(nightly, Runtime(ctx)).get_jobs()}[RETAG]
    assert isinstance(job.trigger, CronTrigger)
    assert {f.name: str(f) for f in job.trigger.fields}["hour"] == "2"
    assert {f.name: str(f) for f in job.trigger.fields}["minute"] == "30"
    assert job.coalesce is True and job.misfire_grace_time is None and job.max_instances == 1
    off = load_config(overrides=[f"vault={vault_root}", "tagging.enabled=false"], environ={})
    assert RETAG not in {j.id for j in make_scheduler(off, Runtime(ctx)).get_jobs()}


def test_a_word_after_a_speaker_colon_is_a_sentence_start_not_a_name() -> None:
    text = "---\nname: x\ndescription: They talked about distances. User: Choose a bunch of points.\n---\n- User: Choose.\n"
    assert "Choose" not in ExtractiveTagger().tag(text, 3)


def test_weekday_abbreviations_domains_long_dotted_names_and_mixed_chinese_phrases_are_not_tags() -> None:
    from daemon.distill.tagging import _fragment
    for bad in ("Fri", "Saturdays", "ID", "github.com", "Phoenix.Socket.V2.JSONSerializer", "N3 N4水平 Anki的N3词库",
                "JLPT考试在12月6日", "Sat Nov", "Mon Dec.", "due-date-31", "lemon-drizzle-cake-3"):
        assert _fragment(bad), bad
    for good in ("JWT", "Node.js", "payments.event_id", "OpenTelemetry", "灵隐寺", "G7501", "hex.pm", "pm2", "covid-19"):
        assert not _fragment(good), good


def test_a_capitalised_word_the_card_mostly_writes_in_lower_case_is_a_common_word_not_a_tag() -> None:
    text = ("---\nname: savings-plan\ndescription: Saving for a sabbatical in Peru.\n---\n"
            "- **A**: easy access, Monthly needed £314, Interest over 20 months £325.\n"
            "- **B**: regular saver, Monthly needed £312, Interest over 20 months £364.\n"
            "- The interest is taxed above the allowance; the interest on B is higher, paid monthly and monthly again.\n"
            "- Peru in May, then Bolivia.\n- Peru and Bolivia by bus.\n")
    tags = ExtractiveTagger().tag(text, 3)
    assert "Interest" not in tags and "Monthly" not in tags
    assert "Peru" in tags and "Bolivia" in tags
    # A name written more often capitalised stays, as does the card's own topic; search queries don't count.
    kept = ("---\nname: minesweeper-solver\ndescription: A Minesweeper solver.\n---\n"
            "- Minesweeper boards are graphs.\n- A minesweeper board has mines.\n"
            "- Searched: hex.pm elixir latest; elixir otp\n- The Elixir packages and Elixir releases.\n")
    tags = ExtractiveTagger().tag(kept, 3)
    assert "Minesweeper" in tags and "Elixir" in tags


def test_a_columns_header_before_its_value_and_a_contractions_head_are_not_tags() -> None:
    text = ("---\nname: pet-insurance\ndescription: Comparing pet insurance for Biscuit.\n---\n"
            "- 2 Petwise: Type Lifetime, £250 excess, Monthly £31.70, Per year £380.40.\n"
            "- 3 Harbour: Type Time-limited, £120 excess, Monthly £21.15, Per year £253.80.\n"
            "- Don’t pick Harbour. Don't pick the Harbour accident cover either.\n- I'd go with Petwise over Harbour.\n")
    tags = ExtractiveTagger().tag(text, 4)
    assert "Monthly" not in tags and "Per" not in tags and "Don" not in tags
    assert "Harbour" in tags


def test_a_key_phrase_that_opens_on_a_verb_is_no_topic_tag() -> None:
    text = ("---\nname: johns-news\ndescription: talked about local politics and road trips.\n---\n"
            "- I'm gonna gather ideas from local leaders about local politics.\n"
            "- We should gather ideas soon; local politics needs ideas.\n"
            "- The road trip was long; another road trip soon.\n")
    tags = ExtractiveTagger().tag(text, 3)
    assert "gather ideas" not in tags and "local politics" in tags


def test_a_pets_name_never_makes_a_topic_phrase_with_its_kind() -> None:
    text = ("---\nname: pet-insurance\ndescription: Choosing insurance for my dog Biscuit.\n---\n"
            "- My dog Biscuit is a 2 year old cockapoo; dog Biscuit needs cover.\n"
            "- Lifetime cover renews every year; lifetime cover costs more.\n"
            "- The excess is paid once per condition; the excess on A is £150.\n")
    tags = ExtractiveTagger().tag(text, 3)
    assert not any("biscuit" in t.casefold() for t in tags), tags
    assert "lifetime cover" in tags


def test_a_time_zones_name_is_a_setting_not_two_places() -> None:
    text = ("---\nname: due-dates\ndescription: Loans compared in Europe/London days.\n---\n"
            "- The fix: compare calendar days in Europe/London, not instants.\n- Europe/London is the café's zone.\n"
            "- The Meeple Jar lends games; The Meeple Jar opens at 10.\n")
    tags = ExtractiveTagger().tag(text, 3)
    assert "Europe" not in tags and "London" not in tags and "Meeple Jar" in tags, tags
    # Nor is the person who raised an issue ("from Priya at The Meeple Jar", "requested by Priya") a topic.
    raised = text + "- Issue #31 from Priya at The Meeple Jar.\n- Requested by Priya (The Meeple Jar).\n- Priya again.\n"
    assert "Priya" not in ExtractiveTagger().tag(raised, 4)
    assert "London" in ExtractiveTagger().tag(text.replace("Europe/London", "London"), 3)


def test_everyone_and_someone_are_never_tags() -> None:
    text = ('---\n'
            'name: murder-mystery-dinner\n'
            "description: Okkk murder mystery dinner is happening, Aisha has decided. Saturday 28th (28 November 2026), Priya's, 7:30. Dress code 1920s. Aisha, Priya, Dan and Callum talked on Thursday 12 November 2026.\n"
            'session_id: review28-personal-plans-murder-mystery\n'
            'source_conversation: "[[session/dialog/review28-personal-plans-murder-mystery.jsonl]]"\n'
            '---\n'
            '## Decisions\n'
            "- Aisha: Okkk murder mystery dinner is happening, I've decided\n"
            '\n'
            '## Key facts\n'
            "- Dan: There's a 1920s one called Death at the Gin Palace, 4-8 players, £28.\n"
            '- Callum: The 20th (20 November 2026) is our work christmas do.\n'
            '- Priya: Saturday 28th (28 November 2026), mine, 7:30. Dress code 1920s\n'
            "- Aisha: Nvm I ordered it £28. Says delivery in ten days (23 November 2026) so we're fine for the 28th (28 November 2026)\n"
            '\n'
            '## Current state and next steps\n'
            "- Aisha: Everyone send me £7 for the kit, that's the 28 split 4 ways\n"
            "- Callum: I'll bring drinks, prosecco + something non-alcoholic\n"
            "- Aisha: I'll send everyone their character by Wednesday the 25th (25 November 2026)\n"
            '\n')
    tags = ExtractiveTagger().tag(text, 3)
    assert not {"everyone", "Everyone", "someone", "Someone"} & set(tags), tags
    assert "Gin Palace" in tags, tags


def test_a_meetings_aob_is_no_tag() -> None:
    text = ("---\nname: book-club\ndescription: Carried: the Hartley Road library room.\n---\n## Key facts\n"
            "- Imogen: Agenda: 1) where we meet 2) january book 3) AOB.\n- Theo: “AOB?” — The Lamb shuts in January.\n"
            "- Kasia: Piranesi by Susanna Clarke for January, over Demon Copperhead.\n")
    tags = ExtractiveTagger().tag(text, 3)
    assert "AOB" not in tags and "aob" not in tags, tags


def test_a_bare_label_or_literal_is_no_tag() -> None:
    text = ("---\nname: sqlalchemy-lazy-load\ndescription: Customer.addresses lazy load.\n---\n"
            "- Total: £1,527.60. Send it with lazy=False, False by default.\n- SQLAlchemy loads Customer.addresses.\n"
            "- Market: Total Send False SQLAlchemy\n")
    tags = ExtractiveTagger().tag(text, 4)
    assert not {"Total", "Send", "False", "Market"} & set(tags), tags
    assert "SQLAlchemy" in tags
