"""Word lists and patterns for the extractive distiller (English and Chinese).

Kept apart from ``distill`` so the algorithm reads on its own: what counts as a
stopword, small talk, a cue for a decision or a preference, a sentence end.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words: never content, never part of a topic phrase.
_STOP = _words("""a an the and or but if of to in on at by for with about as into from up down over
under out off again then once here there when where why how all any both each few more most other some
such no nor not only own same so than too very s t can will just don should now is are was were be been
being have has had having do does did doing i me my myself we our ours us you your yours he him his she
her hers it its they them their what which who whom this that these those am would could might must
shall may i'm i've i'll i'd you're you've you'll you'd we're we've we'll he's she's it's that's there's
they're what's let's don't didn't doesn't isn't aren't wasn't can't won't couldn't wouldn't also
really yeah yes oh okay ok well got get gets getting go going gone went like lot lots thing things
one much many even still way something anything everything lately bit kinda gonna wanna 'em""")
# Everyday verbs and adverbs: content, but rarely what a card is about (lower weight, never a topic).
_COMMON = _words("""make made makes making take took taking come came coming want wanted wants try
tried trying start started starting need needed find found give gave keep kept put use used help helped
show showed seem seems let mean meant call called move moved live lived believe hold bring brought happen
happened learn learned change changed watch follow stop create created spend spent grow open win offer
remember consider buy wait send expect build stay reach check checked share shared hear heard ask asked
always never ever often sometimes recently together maybe probably especially usually almost already
enough else anyway able big little new old plan plans""")
# Calendar words: grounded dates carry them; they make poor topics.
_TIME_WORDS = _words("""yesterday today tomorrow tonight last next ago year years month months week
weeks day days weekend morning evening night around""")
# Reactions and pleasantries: they make a sentence warm but carry nothing to remember.
_FLUFF = _words("""wow cool awesome amazing great nice good glad happy thanks thank hey hi hello bye
sounds totally agree love loved lovely proud sweet fantastic wonderful incredible super fun enjoy
inspiring inspired congrats congratulations hope hoping sure absolutely definitely exactly true right
haha hahaha lol omg aw aww yay cheers talk soon see later care luck best means mean appreciate stuff
feel feeling feels felt think thought know knew tell told say said seen look looks looking sorry pretty
exciting excited stunning beautiful gorgeous special vital huge crazy rewarding refreshing meaningful
important brilliant neat rad blast vibe vibes seriously truly honestly literally certainly actually
kind sort quite""")
_SMALL_TALK_EN = _FLUFF | _STOP | _words("""morning evening night afternoon doing fine how day welcome
np problem again goodbye yep nope sup whats makes sense noted gotcha alright""")
_SMALL_TALK_ZH = re.compile(r"你好|您好|好的|谢谢|多谢|感谢|不客气|没问题|再见|拜拜|晚安|早上好|早安|"
                            r"辛苦了|收到|明白|了解|知道了|哈+|嗯+|哦+|好吧|好|行|可以|在吗|吗|呢|啊|呀|了|的")
_ZH_STOP_CHARS = "的了是在我你他她它们和就也都要把被吗呢吧啊这那有没不很还会说着过对给跟让从而与及或呀哦嗯么"

_CUES = {
    "en": {
        "procedure": r"`[^`]+`|\b(?:commands?|step \d+|steps to|shortcut|procedure|recipe|instructions|"
                     r"install|configure|to (?:fix|set up|reset|deploy|rebuild|update) \w+)\b",
        "decision": r"\b(?:decided|decide|decision|go(?:ing)? with|went with|chose|chosen|choose|picked|"
                    r"settled on|agreed|instead of|rather than|ruled out|rejected|opted|switch(?:ed)? to|"
                    r"dropp(?:ed|ing)|won't use|not going to use)\b",
        "preference": r"\b(?:i|we) (?:really |always |usually )?(?:prefer|like|love|enjoy|hate|dislike|"
                      r"can't stand|don't like|adore)\b|\bfavou?rite\b|\bi'?d rather\b|\bfan of\b|"
                      r"\bi'?m (?:really |so )?(?:into|keen on|passionate about)\b|"
                      r"\b(?:always|never) use\b|\bplease (?:always|never|don't)\b",
        "state": r"\b(?:current(?:ly)?|status|as of|right now|at the moment|merged|shipped|deployed|switched|"
                 r"done|finished|completed|fixed|released|(?:is|are) next|working on|in progress|next steps?|"
                 r"todo|to-do|plan|plans|planning|going to|gonna|(?:i|we) will|i'll|we'll|blocked|"
                 r"waiting (?:for|on)|pending|still need|remaining|deadline|tomorrow|"
                 r"next (?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
    },
    "zh": {
        "procedure": r"`[^`]+`|命令|步骤|运行|执行|安装|配置|输入|脚本",
        "decision": r"决定|选择|选用|选了|定了|改用|换成|而不是|放弃|不用了|否决|采用|就用",
        "preference": r"喜欢|偏好|更喜欢|最爱|讨厌|习惯|总是用|别再|不要再",
        "state": r"目前|现在|正在|还没|已经|完成|下一步|计划|打算|准备|待办|接下来|明天|下周",
    },
}
# Both languages' cues apply to every sentence: chats mix them ("我们决定用 Redis", "We chose 方案 B").
_KIND_RE = {k: re.compile(f"{_CUES['en'][k]}|{_CUES['zh'][k]}", re.I) for k in _CUES["en"]}
# Card-worthy kinds win ties against plain facts.
_KIND_BOOST = {"preference": 1.6, "fact": 1.0, "decision": 1.7, "state": 1.3, "procedure": 1.7}
_REASON_RE = re.compile(r"^(?:because|since|the reason|that way|this way|so that|因为|由于|原因)", re.I)
_SELF_RE = re.compile(r"(?:i|i'm|i've|i'd|i'll|my|me|we|we're|we've|our)\b|我", re.I)
_REACTION_RE = re.compile(r"(?:you|your|you're|you'd|you've|you'll|it|it's|that|that's|this|thanks)\b"
                          r"|你|这|那", re.I)

_FENCE_RE = re.compile(r"^(`{3,}|~{3,})[^\n]*\n.*?^\1[ \t]*$", re.S | re.M)
_SENT_END = re.compile(r"(?<=[.!?…])[\"'”’)]*\s+|(?<=[。！？；])|\n+")
_ABBREV = re.compile(r"\b(?:mr|mrs|ms|dr|st|vs|etc|e\.g|i\.e|jr|sr|no|approx)\.$", re.I)
_LEAD_FILLER = re.compile(r"^(?:(?:oh|wow|yeah|yes|yep|hey|hi|well|so|haha+|lol|ah+|aw+|omg|ok(?:ay)?|"
                          r"sure|totally|right|absolutely|definitely|anyway)[,!.]?\s+)+", re.I)
_CLAUSE_SEP = re.compile(r"(,\s+|\s+[-–—]\s+|;\s+|，)")
_WORD_RE = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?|[\u3400-\u9fff]+", re.I)
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_ZH_CUES = re.compile("|".join(_CUES["zh"].values()) + r"|[\d０-９]+")
_PHRASE_BREAK = re.compile(r"[^\w\s'’-]|\s-\s|[" + _ZH_STOP_CHARS + r"]|(?<=[\u3400-\u9fff])(?=[a-z0-9])"
                           r"|(?<=[a-z0-9])(?=[\u3400-\u9fff])", re.I)
# Connectives and verbs that end a topic phrase ("sessions because every request" is not a topic).
_PHRASE_EDGE = _words("""because since every currently handles handle handled kept timing per via whether
instead rather though although until while which without within using decide decided deciding go goes
let lets switch switched ship shipped review reviews reviewed stored store generate generated verify
verified verifies run runs running hit hits would could should cost costs doubled rejected chose chosen
picked pick prefer prefers preferred add added adding authenticates""")
_PHRASE_STOP = re.compile(r"\s*\b(?:" + "|".join(sorted(map(re.escape, _STOP | _FLUFF | _TIME_WORDS
                                                              | _COMMON | _PHRASE_EDGE), key=len, reverse=True))
                          + r")\b\s*|\s*\b\d+\b\s*", re.I)
_BULLET_RE = re.compile(r"^- (?!\[)([^:：\n]{1,40})[:：] ?(.*)$")  # "- Name: text", not "- [ ] task"
_DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt")
                                                            for i in "0123456789¹²³"})
