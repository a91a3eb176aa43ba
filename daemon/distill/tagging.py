"""Stage 7, tagging: name a card's central entities in its tag property, and nothing else.

Only a card that was created or modified is tagged, at its final path. The
write is surgical: only the tag key's lines change; every other property,
its order, quoting and comments, and the body stay byte for byte.
Normalization follows the reference (ReMe auto_tag, §1.7 item 59).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from daemon.distill.phrases import slugify, topics
from daemon.vault import props
from daemon.errors import ConflictError, MemvaultError
from daemon.vault.files import Vault

MAX_TAG_LENGTH = 64
_ALNUM = re.compile(r"[^\W_]", re.UNICODE)
_OBSIDIAN_BAD = re.compile(r"[^\w/-]", re.UNICODE)


def normalize_tags(raw: Any, max_tags: int, max_length: int = MAX_TAG_LENGTH, obsidian: bool = False) -> list[str]:
    """Reference item 59: a list of strings only; whitespace runs become ``_``; at most ``max_length``
    characters; at least one letter or digit; case-insensitive dedupe keeping the first spelling; capped.

    With ``obsidian`` (the key is ``tags``) a tag also has to be valid Obsidian tag syntax: letters,
    digits, ``_``, ``-`` and ``/`` only, and not only digits.
    """
    if not isinstance(raw, list):
        return []
    seen: set[str] = set()
    tags: list[str] = []
    for item in raw:
        if not isinstance(item, str):
            continue
        tag = "_".join(item.strip().lstrip("#" if obsidian else "").split())
        if obsidian:
            tag = _OBSIDIAN_BAD.sub("", tag).strip("/")
            if tag.isdigit():
                continue
        if not tag or len(tag) > max_length or not _ALNUM.search(tag) or tag.casefold() in seen:
            continue
        seen.add(tag.casefold())
        tags.append(tag)
        if len(tags) == max_tags:
            break
    return tags


class Tagger(Protocol):
    def tag(self, text: str, max_tags: int) -> list[str]: ...


# ---------------------------------------------------------------- the embedded tagger

# ("3m52s" is no "m52s"; a Latin word ends where Chinese starts, "N3总分180分" is N3, unless one character closes it: OK镜)
_WORD_OR_MARK = re.compile(r"(?<![\w.])[A-Za-z](?:[^\W\u4e00-\u9fff]|[.+#-])*(?:[^\W\u4e00-\u9fff]|[+#])"
                           r"(?:[\u4e00-\u9fff](?![\u4e00-\u9fff]))?|(?<![\w.])[A-Za-z]|[,;:()\[\]{}<>\"“”'‘’/|=→]")
_HAN = re.compile(r"[\u4e00-\u9fff]{2,}")
_STOP = set("""a an the and or but if of to in on at by for with about as into from this that these those it its
i me my we our you your he him his she her they them their is are was were be been being have has had do does did
will would can could should may might must not no yes so than then there here what which who whom when where why
how all any both each few more most other some such only own same too very just also now new next last first
user assistant key facts fact decisions decision preferences preference current state steps step commands
procedures advice notes note summary talked about said says mentioned decided agreed let lets let's we'll i'll i'm
it's that's don't didn't today yesterday tomorrow week month year day days morning evening night
monday tuesday wednesday thursday friday saturday sunday january february march april may june july august
september october november december task ran edited created looked searched conversation version latest
rationale example examples error errors update updated result results output input summary overview
important warning tip tips question answer option options approach solution problem issue step
work done other tools fixed added removed changed check checked gb mb kb tb ghz mhz ms kg km cm mm
add use run set get see try make open save click press everyone everybody anyone anybody someone somebody
nobody aob agenda total totals subtotal upfront standing usage ranking true false send market rows""".split())
_ZH_STOP = {"我们", "你们", "他们", "这个", "那个", "因为", "所以", "但是", "然后", "已经", "可以", "没有", "就是",
            "什么", "怎么", "用户", "助手", "关键事实", "现状与下一步", "命令与步骤", "偏好", "决定", "建议"}


@dataclass
class ExtractiveTagger:
    """Offline entity tagging: people, projects, products, tools, places and topics named in the card.

    Candidates are proper names (capitalised words and phrases), technical tokens
    (``JWT``, ``RS256``, ``Node.js``, ``C++``) and repeated Chinese terms; they are
    ranked by how often they occur, with the card's name and description counting
    extra.
    """

    weights: dict[str, float] = field(default_factory=lambda: {"head": 3.0, "body": 1.0})

    def tag(self, text: str, max_tags: int) -> list[str]:
        properties = props.read(text)
        own = str(properties.get("name") or "")
        # Who and when close a description: the speakers and the date are not what it is about.
        description = str(properties.get("description") or "")
        head = re.sub(r"\s*(?:[^.]* talked(?: about [^.]*?)?(?: on [^.]*)?|(?:Conversation between|Chat with|On) [^.]*)\.$",
                      "", description)
        body = _prose(props.body(text))
        # (A word cut short by an export, "my new Fit…", names nothing yet.)
        head, body = (re.sub(r"(?<![\w'’-])[A-Za-z][A-Za-z0-9'’-]*…", "…", part) for part in (head, body))
        head = _prose(head)
        # Speakers are who talked, not what the card is about; the card's name is already its name. (Those who
        # said nothing the card keeps are named where the description says who talked: "Odile, … and Kemal talked".)
        # (A table row's label, "无痛胃镜: 总费用 700元", is no speaker: a Chinese name has two or three characters.)
        speakers = {m.group(1).strip().casefold() for m in _SPEAKER.finditer(body)
                    if not (_is_han(m.group(1).strip()) and len(m.group(1).strip()) > 3)}
        if who := _TALKED.search(description):
            speakers |= {n.strip().casefold() for n in re.split(r",\s*|\s+and\s+", who.group(1)) if n.strip()}
        scores: Counter[str] = Counter()
        spelling: dict[str, str] = {}
        for part, weight in ((head, self.weights["head"]), (body, self.weights["body"])):
            for candidate in _candidates(part):
                key = candidate.casefold()
                if key in speakers or slugify(candidate) == own or _fragment(candidate):
                    continue
                spelling.setdefault(key, candidate)
                scores[key] += weight if not _is_han(candidate) else weight / 2
        # Family and friends ("my sister Hanna", "baby Mila", "Lea's party") are who the news is about, but a tag
        # collects a topic across cards (a place, an organisation, a thing), and a private name is not one.
        kin = {(m.group(1) or m.group(2)).casefold() for m in _KIN.finditer(head + "\n" + body)}
        # So are the people the talk is about ("I'll ask Gemma", "Jonas owns that code", "王师傅").
        kin |= {next(g for g in m.groups() if g).casefold() for m in _PERSON.finditer(head + "\n" + body)} | _FAMILY
        # A capitalised word the card also writes in lower case is a common word at the head of a label or a
        # table cell ("Monthly needed", "Interest over 20 months" beside "the interest"), not a name.
        # (A search query is typed in lower case: "hex.pm elixir latest version" does not make Elixir common.)
        lower = Counter(_LOWER_WORD.findall(re.sub(r"(?m)^- Searched:.*$", "", head + "\n" + body)))
        common = {k for k in scores if lower[k] >= scores[k] and spelling[k][1:].islower() and k not in own.split("-")}
        # What was called off ("I've cancelled Bramble & Fig", "Work do's cancelled: the Botanist had a fire") is no
        # longer what the card is about, unless it is named elsewhere too.
        lines = re.split(r"(?<=[.!?])\s+|\n", head + "\n" + body)
        words = [re.sub(r"[^\w.+#-]+", " ", line.casefold()) for line in lines]  # ("Bramble & Fig": bramble fig)
        off = {k for k in scores if (said := [line for line, w in zip(lines, words) if k in w]) and all(
            re.search(r"(?i)\b(?:cancell?(?:ed|ing)|called off)\b", line) for line in said)}
        ranked = sorted((k for k in scores if k not in kin and k not in common and k not in off),
                        key=lambda k: (-scores[k], -len(k), k))
        chosen = _drop_contained([spelling[k] for k in ranked if scores[k] >= 2 or k in head.casefold()])
        if len(chosen) < max_tags:  # a name said once still beats a key phrase
            chosen = _drop_contained(chosen + [spelling[k] for k in ranked if spelling[k] not in chosen])
        if len(chosen) < max_tags:  # no names, or too few: the card's key phrases
            names = frozenset(w for s in speakers for w in s.split())
            found = topics([head, body], names, k=max_tags + 2)
            usable = [p.lower() for p in found if slugify(p) != own and len(p.split()) <= 2 and not _fragment(p)
                      and len(p) >= 5 and "'" not in p and "’" not in p
                      and not re.search(r"(?i)\b(?:whatever|stuff|anyway|lol|haha|tbh|innit)\b", p)  # ("monzo whatever")
                      and len(set(p.casefold().split())) == len(p.split())  # ("boxes boxes boxes")
                      and p.casefold() not in {c.casefold() for c in chosen}
                      and not set(p.casefold().split()) & kin]  # ("my dog Biscuit" is no "dog biscuit")
            # Two-word phrases name a topic; a lone word only when nothing better is there. (A phrase that opens on a
            # verb, "gather ideas", "discussing collaborations", names an act, not a topic.)
            usable = [p for p in usable if not _VERB_HEAD.match(p)]
            usable = [p for p in usable if " " in p] or usable[:1]
            chosen += usable[: max_tags - len(chosen)]
        return chosen[: max_tags * 2]


def _fragment(candidate: str) -> bool:
    """Too short to name anything (``er``), a commit hash, only a stopword, weekday or month abbreviations ("Sat Nov"),
    a web domain (alone or in a phrase), a slug or branch (``due-date-31``), a test run's status word (``FAIL``, ``Tests``), or a long dotted
    identifier (``Phoenix.Socket.V2.JSONSerializer``)."""
    return (len(candidate) < 3 and not (candidate.isupper() and len(candidate) == 2 and candidate != "ID")) or \
        candidate.casefold() in _STOP or candidate.casefold().rstrip(".") in _ABBREVIATIONS or \
        all(w.casefold().rstrip(".") in _ABBREVIATIONS for w in candidate.split()) or \
        bool(re.fullmatch(r"[a-z]+(?:-[a-z]+)+-\d+", candidate)) or \
        bool(_DOMAIN.fullmatch(candidate)) or candidate.count(".") >= 3 or \
        any(_DOMAIN.fullmatch(w) or w.casefold() in _STATUS for w in candidate.split()) or \
        (bool(_HAN.search(candidate)) and (" " in candidate.strip() or bool(re.search(r"的|在|\d+[月日号年]|^[月日号年]", candidate)))) or \
        any(re.fullmatch(r"[0-9a-f]*\d[0-9a-f]*", w) and len(w) >= 6 for w in candidate.casefold().split()) or \
        _shouted(candidate)


# A word written in capitals for emphasis ("CONFIRMED for friday", "BOOKED:", "NOBODY post anything") is shouted,
# not an acronym: it ends like an English word, or is one of the words people shout.
_SHOUTED = frozenset("nobody everyone everybody nothing anything everything never always huge please stop must need "
                     "really very done yes omg wtf asap urgent important reminder note update warning confirmed "
                     "cancelled canceled booked sorted help".split())


def _shouted(candidate: str) -> bool:
    return candidate.isalpha() and candidate.isupper() and len(candidate) >= 4 and (
        candidate.casefold() in _SHOUTED or candidate.casefold() in _STOP or
        (len(candidate) >= 6 and bool(re.search(r"(?:ED|ING|LY)$", candidate))))


_ABBREVIATIONS = frozenset("mon tue tues wed thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct "
                           "nov dec id ok etc mondays tuesdays wednesdays thursdays fridays saturdays sundays "
                           "weekends weekdays i.e e.g i.e. e.g. vs cf approx ca".split())
_KIN = re.compile(r"(?i:\b(?:my|our|his|her|their|your)\s+(?:little\s+|big\s+|baby\s+|new\s+)?(?:sister|brother|mum|mom|"
                  r"mother|dad|father|son|daughter|wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|friend|"
                  r"cousin|niece|nephew|aunt|uncle|grandma|grandpa|grandmother|grandfather|kid|kids|baby|dog|cat|puppy|"
                  r"kitten|pup|rabbit|bunny|horse|pony|hamster|parrot|tortoise|greyhound|spaniel|terrier|lab)\s+|"
                  r"\bbaby\s+)([A-Z][a-z]+)|\b([A-Z][a-z]+)['’]s (?:\w+ )?(?:birthday|party|wedding|graduation|baby)\b")
_FAMILY = frozenset("dad mum mom mam mummy mommy daddy papa mama granny grandma grandpa nana nan gran babcia oma opa "
                    "auntie uncle".split())  # "Dad's knee op": who it is about, never a topic
_PERSON = re.compile(r"(?-i:\b(?i:ask|asked|asking|tell|told|text|texted|email|emailed|message|messaged|meet|met|invite|"
                     r"invited|thank|thanked|remind|reminded|owe|owes|hug|kiss|visit|visited|bring|walk|adopted|feed|"
                     r"fed)\s+([A-Z][a-z]+)\b(?!\s+[A-Z])|"
                     r"\b([A-Z][a-z]+)\s+(?:owns|said|says|thinks|wants|asked|told|agreed|replied|owes|cried|laughed)\b|"
                     r"\b(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+([A-Z][a-z]+)|"  # "Mr Hargreaves"
                     r"\b(?i:forward|send|give|hand|pass|show)\s+(?:\w+\s+){0,2}to\s+([A-Z][a-z]+)\b|"  # "forward that to Ruth"
                     r"\b(?i:how'?s|how is)\s+([A-Z][a-z]+)\b(?=\s*(?:doing|getting on)?\s*\?)|"  # "How's Pickle?"
                     r"\b([A-Z][a-z]+)\s+(?:is|was|will be)\s+(?:rewriting|writing|reviewing|handling|doing|working on|"
                     r"looking into|fixing)\b|"
                     r"\b([A-Z][a-z]+)\s+(?:can|will|could|should|'ll)\s+(?:review|check|help|look|do|take|bring|pick|sort|"
                     r"drive|cook|host|book|pay|send|call|ring|perform|sing|play|come|stay|visit|join|meet)\b|"  # "Halvard can
                     # review the PR", "Lola will perform her mouse lines"
                     # "Issue #31 from Priya at The Meeple Jar", "requested by Priya": who raised it
                     r"\bfrom\s+([A-Z][a-z]+)\s+(?:at|of)\s+(?:the\s+|The\s+)?[A-Z]|"
                     r"\b(?i:requested|reported|raised|suggested|filed|opened)\s+by\s+([A-Z][a-z]+)\b(?!\s+[A-Z]))|"
                     r"([\u4e00-\u9fff](?:师傅|老师|先生|女士|阿姨|叔叔|医生|经理))")  # a surname and a title
# Words a test run or a log prints ("FAIL github.com/…", "Tests 18 passed"): output, not a subject.
_STATUS = frozenset("fail failed failing pass passed ok error errors err warn warning tests test info debug".split())
_DOMAIN = re.compile(r"(?:www\.)?[a-z0-9-]+\.(?:com|org|net|io|dev|app|co|ai|de|uk)", re.I)


def _prose(body: str) -> str:
    body = re.sub(r"(?ms)^(`{3,}|~{3,}).*?^\1\s*$", " ", body)
    body = re.sub(r"(?s)\\\(.*?\\\)|\\\[.*?\\\]|\$\$.*?\$\$", " ", body)  # LaTeX math is not a name
    body = re.sub(r"\\[A-Za-z]+[\w^{}]*", " ", body)
    body = re.sub(r"`[^`\n]*`", " ", body)
    # A time zone's name ("Europe/London") is a setting, not two places.
    body = re.sub(r"\b(?:Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)/[A-Za-z_]+"
                  r"(?:/[A-Za-z_]+)?\b", " ", body)
    return re.sub(r"(?m)^#{1,6} .*$", " ", body)


_VERB_HEAD = re.compile(r"(?i)(?:\w+ing|gather|get|make|take|find|keep|give|go|come|see|know|think|want|need|try|use|"
                        r"help|start|work|play|watch|share|feel|love|like|enjoy|discuss|talk|say|tell|ask)\b")
_LOWER_WORD = re.compile(r"(?<![\w./'’\[-])[a-z]{3,}(?![\w/'’\]-]|\.\w)")
_TALKED = re.compile(r"([A-Z][\w'’-]+(?:,\s+[A-Z][\w'’-]+)*(?:,?\s+and\s+[A-Z][\w'’-]+)?) talked\b")
_SPEAKER = re.compile(r"^\s*[-*]\s+([^\s:：][^:：\n]{0,40})[:：]\s", re.M)


_BEFORE_VALUE = re.compile(r"(?:\s+[a-z]+)?\s+(?:\*\*)?[~≈]?[£$€]\d")


def _candidates(text: str) -> list[str]:
    """Entity-like phrases in order of appearance (speakers' ``- Name:`` labels are not read)."""
    found: list[str] = []
    text = _SPEAKER.sub("", text)
    for sentence in re.split(r"(?<=[.!?。！？:：”\"])\s+|\n", text):  # after "Name:" a new sentence starts
        # Punctuation ends a name: "Pasteurella, Capnocytophaga" are two.
        marks = list(_WORD_OR_MARK.finditer(sentence))
        words = [_singular(m.group(0)) if m.group(0)[0].isalpha() else "" for m in marks]
        # A column's header before its value ("Monthly £31.70", "Per year £380.40") labels a number; no name.
        # (Nor is a contraction's head, "Don’t", "Can’t".)
        labels = {k for k, m in enumerate(marks) if _BEFORE_VALUE.match(sentence, m.end()) or
                  re.match(r"[’'](?:t|re|ll|ve|d|m)\b", sentence[m.end():m.end() + 3])}
        run: list[str] = []
        index = -1
        for k, (word, raw) in enumerate(zip(words + [""], [m.group(0) for m in marks] + [""])):
            index = -1 if raw in ("(", "[", "{", "“", '"', "‘", ":", "→") else index + (1 if word else 0)
            if index < 0 or k in labels and not run and word.istitle():
                word = ""
            if word and _entity_like(word, index == 0) and word.casefold() not in _STOP:
                run.append(word)
                continue
            if run:
                found.append(" ".join(run[:3]))
                run = []
    found.extend(_han_terms(text))
    return found


_HAN_JOIN = re.compile(r"[和与及或跟的了得]")  # ("看得更": how it is seen, no term)
# A yes-no question's or a negation's words ("能不能游", "要不要", "不能游") are how something is asked, not what.
_HAN_ASKING = re.compile(r"不|能不|要不|是不|有没|会不|可不|没有|需不需")
# A term does not start on a verb of asking or telling ("告诉医生", "要耳塞"): that is what is done, not a topic.
_HAN_VERB = set("告问说让要会能请想")
_HAN_EDGE = set("的了是和也很在有就都而及与或把被给对从向这那个们上下中到去来我你他她它更最太还再又才吧呢吗啊时")


# A count and its unit ("两张副卡", "30天通知期", "第一次", "40公里左右"), a time of day or week ("周日下午") and
# "那边"/"左右" sit between terms, never inside one.
_HAN_NO_TERM = re.compile(r"[0-9０-９一二两三四五六七八九十百千万几每各第多半]+(?:公里|公斤|个月|块钱|万元|平米|小时|分钟|"
                          r"[个次张块岁年月号点分台位只条件套间节针天周把本项家人元期层站趟遍])|"
                          r"[周星期礼拜]+[一二三四五六日天末]|[上下]午|晚上|早上|中午|今天|明天|后天|昨天|那边|这边|左右|"
                          r"可以|应该|需要|一下|的话")
# A term does not end on what is done with it ("主卧装", "店里买", "全家搬").
_HAN_DEED = set("装买卖搬换办选")


def _han_terms(text: str) -> list[str]:
    """Repeated Chinese terms: the longest 2–6 character strings that occur at least twice.

    Without a segmenter, repetition is the signal: a name like 宁德时代 recurs, the
    sentences around it do not.
    """
    counts: Counter[str] = Counter()
    for run in _HAN.findall(_HAN_NO_TERM.sub(" ", text)):
        for size in range(2, 7):
            counts.update(run[i : i + size] for i in range(len(run) - size + 1))
    # ("子女教育和房贷" is two terms, not one: a joining word never sits inside a term)
    repeated = {t: c for t, c in counts.items() if c >= 2 and t[0] not in _HAN_EDGE and t[-1] not in _HAN_EDGE
                and t[0] not in _HAN_VERB and t[-1] not in _HAN_DEED
                and t not in _ZH_STOP and not _HAN_JOIN.search(t) and not _HAN_ASKING.match(t)}
    maximal = [t for t, c in repeated.items()
               if not any(t != u and t in u and repeated[u] == c for u in repeated)]
    return [t for t in maximal for _ in range(repeated[t])]


def _is_han(text: str) -> bool:
    return bool(_HAN.fullmatch(text))


def _singular(word: str) -> str:
    """``JWTs`` → ``JWT``: an acronym's plural names the same thing."""
    return word[:-1] if len(word) > 2 and word.endswith("s") and word[:-1].isupper() else word


def _entity_like(word: str, first: bool) -> bool:
    """A proper name or a technical token; a capitalised sentence opener only if it looks technical."""
    technical = any(c.isdigit() for c in word) or any(c in word for c in "+#.") or (
        sum(c.isupper() for c in word) >= 2)
    if technical:
        return len(word) > 1
    return word[:1].isupper() and not first and len(word) > 2


def _overlap(a: str, b: str) -> bool:
    """One Chinese term inside the other, or running into it (张医生阿司匹 into 阿司匹林): one name, or a window
    across two."""
    return a in b or b in a or any(a.endswith(b[:n]) or b.endswith(a[:n]) for n in range(2, min(len(a), len(b))))


def _drop_contained(tags: list[str]) -> list[str]:
    """Keep ``Priya Shah`` and drop a later ``Priya``; keep distinct names. (Chinese is not split into words: a term
    inside another, 湖畔花园 and 湖畔花园酒店, is the same name.)"""
    kept: list[str] = []
    for tag in tags:
        lowered = tag.casefold()
        if not any(lowered in k.casefold().split() or lowered == k.casefold() or
                   _is_han(tag) and _is_han(k) and _overlap(tag, k) for k in kept):
            kept.append(tag)
    return kept


# ---------------------------------------------------------------- writing and bookkeeping

@dataclass(frozen=True)
class TagResult:
    change: str
    path: str
    success: bool
    tags: tuple[str, ...] = ()
    error: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"change": self.change, "path": self.path, "success": self.success}
        out.update({"tags": list(self.tags)} if self.success else {"error": self.error})
        return out


def content_key(text: str, key: str) -> str:
    """A hash of the card without its tag property: what tagging depends on."""
    return hashlib.sha256(props.set_props(text, {key: None}).encode("utf-8")).hexdigest()


def tag_file(vault: Vault, path: str, tagger: Tagger, key: str, max_tags: int, change: str) -> TagResult:
    """Tag one card; a failure is reported in the result, never raised."""
    try:
        for _ in range(3):
            snapshot = vault.read(path)
            if snapshot is None:
                return TagResult(change, path, False, error="not found")
            tags = normalize_tags(tagger.tag(snapshot.text, max_tags), max_tags, obsidian=key == "tags")
            if props.read(snapshot.text).get(key) == tags:
                return TagResult(change, path, True, tuple(tags))
            try:
                vault.write(path, props.set_props(snapshot.text, {key: tags}), snapshot.digest)
                return TagResult(change, path, True, tuple(tags))
            except ConflictError:
                continue
        return TagResult(change, path, False, error="the card kept changing; try again")
    except (MemvaultError, OSError, ValueError) as exc:
        return TagResult(change, path, False, error=str(exc))


def summary(results: list[TagResult]) -> dict[str, Any]:
    """The ``metadata.auto_tag`` payload."""
    return {
        "processed": len(results),
        "succeeded": sum(r.success for r in results),
        "failed": sum(not r.success for r in results),
        "results": [r.as_dict() for r in results],
    }
