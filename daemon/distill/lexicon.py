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
one much many even still way something anything everything lately bit kinda gonna wanna 'em after before
during two three four five six seven eight nine ten first second third between among within toward towards
etc doesnt dont cant wont isnt didnt wasnt arent im ive it'd that'd there'd who'd across through along
behind beyond inside outside onto upon near""")
# Everyday verbs and adverbs: content, but rarely what a card is about (lower weight, never a topic).
_COMMON = _words("""make made makes making take took taking come came coming want wanted wants try
tried trying start started starting need needed find found give gave keep kept put use used help helped
show showed seem seems let mean meant call called move moved live lived believe hold bring brought happen
happened learn learned change changed watch follow stop create created spend spent grow open win offer
remember consider buy wait send expect build stay reach check checked share shared hear heard ask asked
choose chose chosen needs wants makes takes gets goes comes says thinks knows looks feels seems
always never ever often sometimes recently together maybe probably especially usually almost already
enough else anyway able big little new old plan plans""")
# Calendar words: grounded dates carry them; they make poor topics.
_TIME_WORDS = _words("""yesterday today tomorrow tonight last next ago year years month months week
weeks day days weekend morning evening night around hour hours minute minutes second seconds monday tuesday wednesday thursday friday saturday sunday
january february march april may june july august september october november december""")
# Reactions and pleasantries: they make a sentence warm but carry nothing to remember.
_FLUFF = _words("""wow cool awesome amazing great nice good glad happy thanks thank hey hi hello bye
sounds totally agree love loved lovely proud sweet fantastic wonderful incredible super fun enjoy
inspiring inspired congrats congratulations hope hoping sure absolutely definitely exactly true right
haha hahaha lol omg aw aww yay cheers talk soon see later care luck means mean appreciate stuff
feel feeling feels felt think thought know knew tell told say said seen look looks looking sorry pretty
exciting excited stunning beautiful gorgeous special vital huge crazy rewarding refreshing meaningful
important brilliant neat rad blast vibe vibes seriously truly honestly literally certainly actually
kind sort quite""")
_SMALL_TALK_EN = _FLUFF | _STOP | _words("""morning evening night afternoon doing fine how day welcome
np problem again goodbye yep nope sup whats makes sense noted gotcha alright saying hear asking help assist
today there else anything nice meet chat chatting well good great doing""")
_SMALL_TALK_ZH = re.compile(r"谢谢你|谢谢您|你好|您好|好的|谢谢|多谢|感谢|不客气|没问题|再见|拜拜|晚安|早上好|早安|到时候见|回头见|"
                            r"辛苦了|收到|明白|了解|知道了|好主意|好办法|加油|祝你(?:顺利|成功|好运)|一切顺利|"
                            r"有(?:问题|什么问题|需要)(?:的话)?随时(?:问我|找我|联系我)?|随时|太好了|真棒|厉害|"
                            r"这样更好|那就这样|就这么定了吧|(?:这样|这个|你们的)?安排得(?:很|挺|非常|真)?(?:好|周到|合理|妥当)|"
                            r"(?:我)?(?:来)?帮你们?(?:一起)?理一理|(?:那就)?都安排(?:妥|好)了|记下来了|记住了|我把\w{1,4}记下来了|谢谢你|谢谢您|"
                            r"祝[^，,。！!]{1,24}?(?:顺利|愉快|成功|好运|快乐|幸福|通过|过关|考过|拿证|高分)|祝[^，,。！!]{1,24}[！!]|新婚快乐|生日快乐|节日快乐|"
                            r"(?:我)?(?:在[^，,。]{1,10}之间)?(?:犹豫|纠结)(?:不决)?[，,]?\s*(?:选不出来|拿不定主意|不知道选哪个)|选不出来|拿不定主意|"
                            r"我来帮你(?:算|看|查|整理|想)一下|让我(?:算|看|查|整理|想)一下|等一下|等等|我(?:先)?(?:查|看|问|找|算|翻)一下|"
                            r"哈+|嗯+|哦+|好吧|好|行|可以|在吗|吗|呢|啊|呀|了|的")
_ZH_STOP_CHARS = "的了是在我你他她它们和就也都要把被吗呢吧啊这那有没不很还会说着过对给跟让从而与及或呀哦嗯么"

_CUES = {
    "en": {
        "procedure": r"`(?:sudo |pip3? |pipx |npm |npx |git |python3? |uv |cargo |go |make |docker |kubectl |brew |apt(?:-get)? |curl |wget |mix |yarn |pnpm |node |bash |sh |cd |ls |cat |grep |export |memvault |pytest|ssh |scp |rsync |chmod |mkdir |rm |cp |mv |tar |systemctl |conda |poetry |gradle |mvn |dotnet |swift |ruby |gem |bundle |rails |php |composer |psql |mysql |redis-cli |gh |terraform |ansible)[^`]*`|\b(?:commands?|step \d+|steps to|shortcut|procedure|recipe|instructions|"
                     r"install|configure|(?:^|how |steps )to (?:fix|set up|reset|deploy|rebuild|update) \w+)\b",
        "decision": r"\b(?:decided|(?:deferred|postponed|held over) (?:to|until) (?:the |next )?|decision(?! to make)(?<!its decision)(?<!their decision)(?<!his decision)"
                    r"(?<!her decision)(?<!court's decision)(?<!judge's decision)|(?:we'll|we will|i'll|i will|let's|going to) go with|"
                    r"(?:^|i'm |we're )going with (?:(?-i:[A-Z])\b|option\b|plan\b|the\b)|^going with (?-i:[A-Z])\w+|"
                    r"i'?m (?:getting|buying|ordering|going for) the|(?:i'?m|we'?re) keeping (?:it|the|my|our|both)\b(?!\s+(?:simple|short|quiet|low[- ]key|real|light|brief|"
                    r"together|going|up|down|warm|clean|tidy)\b)|"
                    r"went with|(?:i|we)(?:'ve| have)? (?:told (?:them|him|her|the \w+)|said) yes to|chose|chosen|picked(?! (?:\w+ )?up\b)|settled on|agreed (?:to|on|that)|we agreed|"
                    r"^agreed(?=\s*:)|^agreed,?\s+no\s+(?!problem|prob|worries|way|idea|rush)(?=\w)|"
                    r"^(?:so\s+)?final(?:\s+(?:plan|answer|decision|choice|pick))?(?=\s*:)|"  # ("so final: class £295 + …")
                    r"\b(?:we'll|we will|i'll|i will|let's|let us|we(?:'re| are) going to|we should|we decided to|we chose to|"
                    r"we went with|we use|we'll use)\b[^.!?]*\b(?:instead of|rather than)|ruled out|(?<!was )(?<!were )(?<!been )(?<!got )(?<!get )rejected(?! by)|opted|"
                    r"(?<!must )(?<!to )switch(?:ed)? to|moves from|comes out of|"
                    # (money put somewhere, "the £2,400 goes into easy access"; a hose that goes into the sink is not)
                    r"(?:[£$€][\d,.]+k?|\d[\d,.]*k?|rest|remainder|money|cash|savings|bonus|balance)(?:\s+\w+){0,2}\s+goes into|"
                    r"postpone[sd]?|let'?s defer|defer(?:red)? (?:it|this|that|the \w+) (?:to|until)|"
                    r"(?<!been )(?<!'s )(?<!was )(?<!were )pushed back|"  # ("after it's been pushed back": a machine moved)
                    r"(?<=^)(?:then )?let'?s decide\s*:\s*(?=\w)|"
                    r"(?:^|(?:we|i|we're|i'm|we've|i've) )dropp(?:ed|ing)|won't use|"
                    r"not going to use)\b",
        "preference": r"\b(?:i|we) (?:really |always |usually )?(?:prefer|like|love|enjoy|hate|dislike|want to do|"
                      r"can't stand|don't like|adore)\b|\bfavou?rite\b|\bi'?d rather\b|\b(?:i'?m|i am|we'?re|we are) (?:a |an |such a )?(?:big |huge )?fans? of\b|"
                      r"\bi'?m (?:really |so )?(?:into|keen on|passionate about)\b|"
                      r"\b(?:always|never) use\b|\bplease (?:always|never|don't)\b",
        "state": r"\b(?:current(?:ly)?|status|as of|right now|at the moment|merged|shipped|deployed|switched|"
                 r"(?<!be )(?<!been )done|finished|completed|fixed|released|(?:is|are) next|working on|in progress|next steps?|"
                 r"todo|to-do|plan|plans|planning|going to|gonna|(?:i|we) will|i'll|we'll|blocked (?:on|by|until)|"
                 r"waiting (?:for|on)|pending|still need|remaining|deadline|tomorrow|by (?:next )?"
                 r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|tonight|the end of|end of)|"
                 r"next (?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
                 # what each owes: "everyone send me £7 for the kit", "£30 each to me"
                 r"(?:everyone|each of you|you all|y'?all)\s+(?:send|pay|transfer|owes?)\b|send me [£$€]\d)\b",
    },
    "zh": {
        "procedure": r"`(?:sudo |pip3? |pipx |npm |npx |git |python3? |uv |cargo |go |make |docker |kubectl |brew |apt(?:-get)? |curl |wget |mix |yarn |pnpm |node |bash |sh |cd |ls |cat |grep |export |memvault |pytest|ssh |scp |rsync |chmod |mkdir |rm |cp |mv |tar |systemctl |conda |poetry |gradle |mvn |dotnet |swift |ruby |gem |bundle |rails |php |composer |psql |mysql |redis-cli |gh |terraform |ansible)[^`]*`|命令|步骤|运行|执行|安装|配置|输入|脚本",
        "decision": r"决定(?<!要决定)(?<!还没决定)(?<!没有决定)(?<!没决定)(?<!怎么决定)(?<!如何决定)(?<!再决定)(?<!来决定)"
                    r"(?<!评估决定)(?<!医生决定)(?<!你决定)(?<!您决定)"  # ("最终由麻醉医生评估决定": who will decide)
                    r"(?![^，。；,]{0,4}(?:不了|要不要|是否|怎么|如何|还是|多少|哪))|"  # ("这几个数决定后面怎么控制": decides how)
                    r"(?<![个种些])选择(?![性的题权])|选用|选了|定了|改用|(?<![想要能])换成|而不是|"  # ("两个选择", "选择性耳聋": no choice)
                    r"放弃|不用了|否决|采用|就用|那就(?!主要在|在[^，。]{0,8}之间)|就这么定|就坐|就换|就报名|(?<!早)(?<!已经)就订(?!满|不到|不了)|就选|(?:我们|我)也?(?:都)?倾向(?:于)?(?!.*[?？])",
        "preference": r"喜欢|偏好|更喜欢|最爱|讨厌|习惯|总是用|别再|不要再",
        "state": r"目前|现在|正在|还没|已经|完成|下一步|计划|打算|准备|待办|接下来|明天|下周|"
                 # a deadline or a wait: "月底前转给我", "病理结果要两周后才出"
                 r"(?:月底|月初|年底|周末|之前|以前)(?:（[^）]*）)?前?(?:把|转|交|付|给)|后才出",
    },
}
# Both languages' cues apply to every sentence: chats mix them ("我们决定用 Redis", "We chose 方案 B").
_KIND_RE = {k: re.compile(f"{_CUES['en'][k]}|{_CUES['zh'][k]}", re.I) for k in _CUES["en"]}
# Card-worthy kinds win ties against plain facts.
_KIND_BOOST = {"preference": 1.6, "fact": 1.0, "advice": 1.0, "decision": 3.0, "state": 1.3, "procedure": 1.7, "work": 1.5,
               "question": 1.0}
_REASON_RE = re.compile(r"^(?:(?:mainly|mostly|partly|simply|largely|chiefly) )?(?:because|since|the reason|that way|"
                        r"this way|so that|因为|由于|原因)", re.I)
_SELF_RE = re.compile(r"(?:i|i'm|i've|i'd|i'll|my|me|we|we're|we've|our)\b|我", re.I)
# News: the speaker did, got or will do something ("since we last spoke I went to…", "Last week we adopted…").
_EVENT_RE = re.compile(r"\b(?:i|we)\s+(?:just\s+|finally\s+|recently\s+|also\s+|actually\s+)?(?:went|got|started|"
                       r"finished|joined|made|bought|adopted|visited|signed|took|met|won|lost|moved|painted|wrote|"
                       r"read|saw|ran|gave|had|found|launched|opened|quit|decided|booked|tried|learned|became|"
                       r"[a-z]{3,}ed|(?:am|'m)\s+(?:going|gonna|planning|starting|thinking of)|'ll|will|plan)\b"
                       r"|\b(?:asked|invited|offered|hired|promoted|picked|chose|proposed to|called)\s+(?:me|us)\b"
                       # "I'm adopting a dog!", "We're moving in together", "I start as head chef on the 1st"
                       r"|\b(?:i'?m|i am|we'?re|we are)\s+(?:now\s+|finally\s+|also\s+|officially\s+)?"
                       r"(?!(?:being|feeling|doing|getting|coming|going|thinking|trying|looking|waiting|hoping|wondering|"
                       r"starving|crying|dying|kidding|joking|laughing|saying|telling|asking|sorry|rooting|counting|"
                       r"screaming|shaking|sobbing|squealing|shrieking|"
                       r"working from home|wearing|sitting|lying|freezing|shivering|sweating|melting|chilling|"
                       r"relaxing|procrastinating|eating|drinking)\b)"
                       r"[a-z]{3,}ing\b"
                       r"|\b(?:i|we)\s+(?:start|begin|fly|move|pick (?:\w+ )?up|get the keys|finally (?:have|own))\b"
                       r"|\bfinally (?:has|have|had|got)\b"  # "the band finally has a real gig"
                       r"|\b[a-z]+ and i are\s+(?:moving|getting married|engaged|expecting)\b"  # "lewis and i are moving to…"
                       # "I'm an auntie!!", "We're engaged": who one has become
                       r"|\b(?:i'?m|i am|we'?re|we are)\s+(?:now\s+|finally\s+|officially\s+)?(?:an?\s+)?(?:auntie|aunt|uncle|"
                       r"engaged|pregnant|married|expecting|dad|mum|mom|father|mother|grandma|grandpa|godfather|"
                       r"godmother|homeowners?)\b"
                       # An aim is news too: "I'm hoping to get into local politics", "My goal is to run a marathon"
                       r"|\b(?:(?:i'?m|i am|we'?re|we are)\s+(?:really\s+)?(?:hoping|aiming|planning)|(?:i|we)\s+"
                       r"(?:really\s+)?(?:hope|aim)|(?:my|our) (?:goal|dream|aim|plan) is)\s+to\s+"
                       r"(?!(?:see|hear|catch|meet|talk|chat)\b)", re.I)
# News told without its "I" ("Lost my job as a banker yesterday", "Just got back from Paris"): the speaker's own.
_PAST = """went got made took saw came found gave told felt left kept thought bought brought met ran began knew heard
lost won sent spent built wrote read taught caught sold held fell paid put set quit drove rode flew grew drew threw
wore chose spoke broke forgot became""".split()
_DROPPED_I = re.compile(r"^(?:just |finally |recently |also |actually )?(?!indeed\b)(?:" + "|".join(_PAST) +
                        r"|[a-z]{3,}ed)\s+(?:my|our|a|an|the|to|up|into|back|home|some|\d+|(?:him|her|them|it) up)\b", re.I)
_REACTION_RE = re.compile(r"(?:you|your|you're|you'd|you've|you'll|it|it's|that|that's|this|thanks)\b"
                          r"|你|这|那", re.I)

_FENCE_RE = re.compile(r"^(`{3,}|~{3,})[^\n]*\n.*?^\1[ \t]*$", re.S | re.M)
_SENT_END = re.compile(r"(?<=[.!?…])[\"'”’)]*\s+|(?<=[。！？；])|\n+")
_ABBREV = re.compile(r"\b(?:mr|mrs|ms|dr|st|vs|etc|e\.g|i\.e|jr|sr|no|approx)\.$", re.I)
_LEAD_FILLER = re.compile(r"^(?:(?:so far,? so good(?:\s*[-–—])?|(?i:speaking of|talking of|on the subject of) [\w' ]{2,20},|"
                          # ("it's less dramatic than TWINS but i got a place…", "mine is much smaller but: I PASSED…")
                          r"(?:it'?s|this is|mine is|mine'?s|my news is)\s+(?:much\s+|a lot\s+|way\s+|a bit\s+)?(?:less|"
                          r"smaller|more|not as)\b[^,:.!?]{0,30}?\s+but\b:?|"
                          # ("smaller news but... i've adopted a parrot")
                          r"(?:much\s+|way\s+)?(?:smaller|small|less exciting|boring|minor|less dramatic)\s+news"
                          r"(?:\s+(?:but|though|from me|here))?(?:\.\.\.|…)?|oh|wow|yeah|yes|yep|nah|nope|hey|hi|well|so(?! far\b)|haha+|lol|ah+|aw+|omg|ok(?:ay)?|"
                          r"sure|totally|right|absolutely|definitely|anyways?|firstly|secondly|additionally|"
                          r"actually|honestly|unfortunately|fortunately|luckily|btw|by the way|also|and|but|plus|then|"
                          r"(?:i'?ll|i will|i have to|i've got to|gotta|i must|let me) be honest|to be (?:fair|honest)|tbh|"
                          r"hmm+|um+|uh+|ugh+|argh+|gah|sigh|meh|gosh|whoa|woah|yay|(?:lol|haha+) no|no(?=[.!]+\s+(?:ok|okay|so|anyway)\b)|(?:ok(?:ay)? )?(?:but )?serious(?:ly)?\s*:|guess what|you know what|to be honest|tbh|"
                          r"since (?:we|i) last (?:spoke|talked|chatted)|since our last (?:chat|talk|conversation)|"
                          r"in the meantime|meanwhile|fwiw|on an? (?:happier|brighter|lighter|sadder|different|related|"
                          r"similar|other|more positive|serious) note|(?:maybe|probably|possibly|might be|could be) unrelated,?"
                          r"(?: but)?|not sure (?:if|whether) (?:it'?s|this is) related,?(?: but)?|"
                          r"good (?:choice|point|call|idea|catch)|nice catch|"
                          # ("perfect, 2pm on the 29th": the plan, agreed to)
                          r"(?:perfect|great|brilliant|lovely|cool|nice|amazing|awesome|fab|sorted)(?=[,!]+\s+\d)|"
                          r"great (?:choice|question|idea)|got it|noted|(?:(?:the )?last|other|more|big|my|some|in other|one more|"
                          r"(?:and )?(?:also,? )?(?:other|more)) (?:bit of |piece of )?news\s*:|(?:agreed|fair enough)(?=,\s+(?:i|i'?d|i'?ll|let'?s|we|we'?ll)\b)|"
                          # "I just wanted to let you know I challenged myself…" says "I challenged myself…"
                          r"(?:i |i'?m |i am )?(?:just |really |so )?(?:wanted|want|had|have|needed|need|gotta|"
                          r"excited|happy|thrilled|glad|stoked) to (?:tell|let) (?:you|ya)(?: know)?(?: that)?,?"
                          r"(?=\s+(?:i|i'm|i've|we|we're|we've|my|our)\b)|"
                          r"(?:(?:so )?many things to (?:plan|do|discuss|sort out)\s*)?(?:first|second|third|finally|"
                          r"lastly|(?:first|second|third|next|last|one more) (?:thing|topic|item))\s*:)[,!.:]?\s+|"
                          r"(?:你好|您好|嗨|哈喽|嗯+|好的?|对了|那个|先?(?:别|不要|不用)(?:太)?(?:慌|着急|担心|紧张))[，,！!。\s]+|哈哈+[，,！!。\s]*|"
                          r"(?:我)?想(?:咨询|请教|问)(?:一下|你)?[，,：:！!。\s]+(?=\S{4}|$))+", re.I)  # ("想咨询一下 我妈…")
_CLAUSE_SEP = re.compile(r"(,\s+|\s+[-–—]\s+|;\s+|，)")
_WORD_RE = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?|[\u3400-\u9fff]+", re.I)
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
# Chinese cue words and bare numbers end a phrase; "A100", "G7501" and "v2.3" are names and stay in it.
_ZH_CUE_WORDS = re.compile("|".join(v for v in _CUES["zh"].values() if not v.startswith("`")) + r"|(?<![A-Za-z\d０-９])[\d０-９]+(?![A-Za-z\d０-９])")
_PHRASE_BREAK = re.compile(r"(?![.](?<=\w[.])(?=\w))[^\w\s'’-]|\s-\s|[" + _ZH_STOP_CHARS + r"]|(?<=[\u3400-\u9fff])(?=[a-z0-9])"
                           r"|(?<=[a-z0-9])(?=[\u3400-\u9fff])", re.I)
# Connectives and verbs that end a topic phrase ("sessions because every request" is not a topic).
_PHRASE_EDGE = _words("""because since every currently handles handle handled kept timing per via whether
instead rather though although until while which without within using decide decided deciding go goes
let lets switch switched ship shipped review reviews reviewed stored store generate generated verify
verified verifies run runs running hit hits would could should cost costs doubled rejected chose chosen
picked pick prefer prefers preferred add added adding authenticates utilise utilises utilize utilizes uses
implement implements implementing solve solves solving trained developed keeps throwing throw throws holds
plus cheaper cheapest faster fastest better worse worst bigger smaller larger higher lower planning planned
proposes propose proposed confirmed confirm booked halfway euros euro eur dollars usd kwh kw kwp gb mb tb
percent gives gets makes takes says seems means puts comes knows thinks tries feels becomes wants needs ends starts
pays breaks stops opens closes happens partner wife husband girlfriend boyfriend fiance fiancee mum mom dad sister
brother colleague boss long short quick little tiny huge nice lovely""")
# (The last line: a verb, comparison or unit makes a poor name: "app keeps throwing", "a100 cheaper", "euros".)
# Words that end a key phrase: function words, filler, calendar words, everyday verbs, connectives.
# Irregular past tenses end a phrase as the -ed verbs do ("the Lindenstraße flat wrote back": "Lindenstraße flat").
_PHRASE_STOP_WORDS = _STOP | _FLUFF | _TIME_WORDS | _COMMON | _PHRASE_EDGE | frozenset(_PAST)
_BULLET_RE = re.compile(r"^- (?!\[)([^:：\n]{1,40})[:：] ?(.*)$")  # "- Name: text", not "- [ ] task"
_DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt")
                                                            for i in "0123456789¹²³"})

# ---- what a card leaves out (issue: cards are notes, not excerpts) --------------------
# Markup for a shared picture: its caption is not something anybody said.
_IMAGE_MARKUP = re.compile(r"^[ \t]*\[(?:shares?|shared|sends?|sent|posts?|posted)\s+(?:an?\s+)?(?:image|photo|picture|"
                           r"pic|screenshot)\b[^\]\n]*\][ \t]*$|\[(?:image|photo|picture|attachment)(?:\s*#?\d+)?\]",
                           re.I | re.M)
# The assistant announcing what it is about to do ("Let me check…", "I'll search…", "Here's the updated graph").
_NARRATION = re.compile(
    r"^(?:(?:ok(?:ay)?|alright|great|perfect|good|now|first|next|then|finally|so|sure)[,!.]?\s+)*"
    r"(?:let me|let's|let us|i'll|i will|i'm going to|i am going to|i need to|i'm gonna|i'm now|i am now|"
    r"we'll|we need to|now i'll|i'll now|i should|i can)\s+(?:\w+\s+){0,2}?"
    r"(?:check|look|search|read|open|run|try|update|create|write|fix|start|examine|explore|review|verify|test|"
    r"add|make|use|see|take|find|investigate|inspect|analy[sz]e|understand|get|fetch|grab|build|implement|"
    r"modify|edit|change|clean|commit|push|install|rerun|re-run|continue|do|go ahead|help|explain|walk|show|"
    r"summari[sz]e|break|keep|provide|give|outline|dig|pull|launch|set up|double-check)\b"
    r"|^(?:here(?:'s| is| are)|below (?:is|are))\s+(?:[\w-]+\s+){0,2}?(?:updated|revised|new|corrected|complete|"
    r"full|final|fixed|modified|improved|refactored|quick|short|simple|example|summary|overview|breakdown|"
    r"version|code|script|graph|result|results|output|steps|plan|list|recipe|itinerary|schedule|guide|draft|"
    r"what i (?:found|did|changed))\b"
    # "Now the hook and the dialog.": what comes next, said in passing
    r"|^(?:now|next|then|and now)[,:]?\s+(?:the|on to|onto|for the)(?:\s+[\w'’-]+){1,4}[.!]?$"
    # "Tell me the options and roughly how much data you use, and I'll put numbers on them": asks for input
    r"|^(?:just )?(?:tell me|send me|share|paste|give me)\b[^.?!]*\band (?:i'll|i will|i can)\b"
    # "Paste the quotes (monthly price, …) and tell me a bit about…", "Send me the options you're looking at": asks
    # for what is still to come
    r"|^(?:just |please |first,? )?(?:paste|send me|upload|attach)\s+(?:the|your|it|them|a|an|me|over|in)\b"
    # "The green and blue dashed lines represent the mean and median": a figure's legend, read out (with a value,
    # "the red dashed line is the theoretical average of 1/3", it says what the value is)
    r"|^(?![^.!?]*\d)(?:in (?:the|this) (?:plot|graph|chart|figure),?\s+)?(?:the|each)\s+(?:[\w-]+\s+){0,5}(?:lines?|bars?|curves?|"
    r"dots?|markers?|shaded (?:area|region|band)|bands?|x-axis|y-axis|axis|legend)\s+(?:represents?|shows?|indicates?|"
    r"depicts?|marks?|denotes?|is|are)\b",
    re.I)
# Acknowledgements and reactions that stand alone ("I see.", "Now I understand the issue.", "Fully agreed!").
_ACK = re.compile(r"^(?:i see|now i (?:see|understand|get it)|i understand|got it|understood|perfect|great|"
                  r"excellent|good|nice|awesome|sure|ok(?:ay)?|alright|done(?!\s+by\b)|all set|thanks?|thank you|"
                  r"(?:fully |totally |completely |absolutely )?agreed|exactly|indeed|same here|me too|for sure|"
                  r"of course|no way|deal|it'?s a deal|fair enough(?=[.!]*$)|(?:that )?(?:seems|sounds) (?:fair|reasonable)(?=[.!]*$)|already (?:on it|sorted|packed|done|in (?:my|the) (?:bag|car|calendar))|that'?s (?:it|right|true|fair|great|awesome|amazing|cool)|"
                  r"i (?:\d+% |totally |completely |fully |so )?agree|here'?s (?:a |my )?(?:pic|photo|picture|"
                  r"snap|shot|look)|check (?:it|this) out|look at (?:this|that)|action items(?: then)?|let'?s start|"
                  r"moving on(?=\s+(?:to|then|now)\b|\W*$)|(?:first|second|third|next|last|final|another|one) (?:topic|item|point|thing)|none|fine by me|works for me|sounds good|(?:that|this|(?:next |this )?\w+day|tomorrow|tonight)(?: [(（][^)）]*[)）])? works|"
                  r"(?:that|this|it) (?:works|sounds (?:good|great|fine)))\b"
                  r"(?!\s*:)(?![,;]?\s+no\s+(?!problem|prob|worries|way|idea|rush)\w)"  # ("Agreed, no bigger disk." decides)
                  r"[^.!?]{0,40}[.!?…]*$", re.I)  # ("Agreed: £12, £8 concessions" is what was agreed)
# Pleasantries inside a sentence that make the whole sentence filler.
_FILLER_PHRASE = re.compile(r"\b(?:mystery solved|there it is|cracks me up|(?:is|are) killing me|made my day|"
                            r"no prob(?:lem)?|always here (?:to help|for you)|stay safe|chat soon|no doubts?|"
                            r"(?:busy|crazy|wild) (?:week|few days|day|month) since we (?:last )?(?:talked|spoke|chatted)|"
                            r"(?:haven'?t|have not) (?:talked|spoken|chatted) in (?:a while|a few days|ages|forever)|"
                            r"(?:won'?t|will not|never) give up|staying positive|keep pushing|keep (?:you|ya) in the loop|"
                            r"time flies|you always say|that'?s (?:the|my|our) \w+ i know|see you (?:on )?(?:the \d+(?:st|nd|rd|th)|then|there)(?:\s*[(（][^)）]*[)）])?[\s!.x]*$|(?:won'?t|will not|never) (?:quit|stop|let you down)|(?:won'?t|will not|not going to|not gonna) die on (?:this|that) hill|keep going|hanging in there|"
                            r"never saw (?:this|that|it) coming|wanted to check in|keep working hard|crossing my fingers|"
                            # ("A lot's happened since we last chatted.", "Here's something cool that happened the other
                            # day.": what comes next is the news)
                            r"(?:a lot|so much|loads)(?:'s| has) (?:been )?happen(?:ing|ed)|here'?s something (?:\w+ )?that "
                            r"happened|"
                            r"fingers crossed|(?:crazy|wild|lots of|a lot of) (?:stuff|things)(?:'s| has| have)? (?:been )?"
                            r"happen(?:ing|ed)|quite a ride|can'?t imagine (?:my )?life without|"
                            r"(?:crazy|wild|bumpy) ride|make (?:my|our|your) dreams? (?:happen|come true)|"
                            r"let'?s make a difference|show 'em what we got|"
                            r"(?:been|it'?s been) (?:a (?:few days|while|bit)|ages|forever|so long) since we (?:last )?"
                            r"(?:talked|spoke|chatted)|"
                            r"(?<![\w'])let'?s (?:keep|cherish|work hard|stay|remember|never)\b|"
                            r"dying to (?:ask|know|hear)|gotta (?:go|run)|"
                            r"(?:i'?d|i had|i) better (?:go|run|dash|get going)|got to (?:go|run)|gtg|keep (?:you|ya) posted|"
                            # ("will report back re Jess", "sorry completely forgot, been a mad day")
                            r"(?:will|i'?ll) report back|request interrupted by user|(?:i'?m|i am) hanging up|"
                            r"(?:i'?m|i am) (?:leaving|quitting) (?:the|this) (?:group|chat)|(?:been|what|had) a (?:mad|long|busy|crazy|hectic|manic) (?:day|week)|let (?:you|ya) know(?!,?(?: that)? (?:i|i'm|i've|we|we're|we've|my|our)\b)|keep me posted|let me know|you got this|good luck|"
                            r"take care|take your time|no rush|my lips are sealed|^bargain\b|^(?:oh\s+)?(?:i|we) (?:had|have) no idea(?=\W*$)|stop (?:banging|going) on about|^(?:ok |right |and )?(?:now )?back to (?:the |my )?\w+(?: \w+)?(?=\W*$)|^(?:good ?)?night(?:y night| night)?[,!.]+\s+(?=(?:\S+\s+){0,9}\S+$)|we (?:need|have|must) to celebrate(?=[\s!.]*$)|talk (?:to you )?soon|catch you later|have fun|sounds like a plan|makes (?:total |perfect |complete )?sense|"
                            r"no worries|my pleasure|happy to help|glad (?:i|to) (?:could )?help|hope (?:this|that|it) "
                            r"helps|feel free|anytime|take lots of|can'?t wait to (?:see|hear)|proud of you|"
                            r"so happy for you|keep (?:it|up the good work)|you(?:'re| are) (?:doing )?(?:great|"
                            r"amazing|awesome|so \w+))\b", re.I)
# Maxims: true of everybody, so they say nothing about this conversation.
_PLATITUDE = re.compile(r"\b(?:is|are) (?:so |really |super |very |just )?(?:key|everything|important|essential|vital|"
                        r"crucial|the best|what matters|worth it|a must|a game[- ]changer)\b|\bmeans? (?:so much|"
                        r"a lot|the world)\b|\bit'?s all about\b|\blife is\b|\bthere'?s nothing like\b|"
                        r"\bmakes? life\b|\bwe all (?:have|need|deserve)\b|\blife (?:sure )?can be\b|"
                        r"\b(?:little|small|baby) steps (?:count|matter|add up)\b|\bsavou?r (?:them|it|every|the)\b",
                        re.I)
# Between friends, maxims and encouragement are made of these words ("Pets bring tons of joy.", "I believe in
# your power to make a positive difference.", "We should cherish every moment with them.").
_ABSTRACT = re.compile(r"\b(?:joy|joys|strength|support|supportive|power|powerful|happiness|happy|passion|passionate|"
                       r"journey|challenges?|moments?|life's|bond|bonds|memories|dreams?|goals?|difference|positiv\w*|"
                       r"heart|soul|hard work|dedication|connections?|kindness|inspir\w*|motivat\w*|proud|glad|"
                       r"amazing|awesome|wonderful|incredible|blessing|grateful|thankful|cherish\w*|encourag\w*|"
                       r"believe in|worth it|shine|meaningful|fulfilling|comfort\w*|rewarding|tough|hope|hopefully|"
                       r"warm|welcome|special|beautiful|precious|priceless|self-care|courage|brave|resilien\w*|"
                       r"growth|grow|peace|love|loving|fun|blast|impact|rock|centered|grounded|small stuff|"
                       r"little things|enjoy|appreciate|matters?|success|stay positive|positive|keep going|"
                       r"never give up|give up)\b", re.I)
# The speaker in the first person singular ("I", "my", "me"): a maxim never says it.
_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself|i'm|i've|i'll|i'd)\b", re.I)
# A number or a name (a capitalised word after the first): what makes a statement say something particular.
_NAMED = re.compile(r"\d|(?<=[\w,;] )[A-Z][a-zA-Z]+")
# A promise ("I'll send it", "we will book"): said of what will happen, not of what did.
_PROMISE = re.compile(r"(?i)\b(?:i|we)(?:'ll| will| shall)\b")
_YOURS = re.compile(r"\b(?:you|your|you're|you've|you'll|yours|yourself)\b", re.I)
_PAST_TENSE = re.compile(r"\b(?:was|were|had|did|" + "|".join(_PAST) + r")\b|"
                         r"\b(?:we|they|he|she|it|you|(?-i:[A-Z][a-z]+))\s+(?:\w+ly\s+)?[a-z]{3,}ed\b", re.I)
# Showing a photo ("Check out this moment I snapped!", "Look at this cute pic"): what the words add, if anything,
# is what follows.
_SHOWING = re.compile(r"^(?:check (?:this|it) out|check out|look at|here'?s|take a look at|see|this is)\s+(?:this|these|"
                      r"my|a|an|the|our)\s+(?:\w+\s+){0,2}?(?:photo|pic|picture|shot|snap|moment|image|selfie|"
                      r"snapshot|pics|photos|pictures)\b(?:\s+(?:i|we)\s+(?:snapped|took|got|made))?", re.I)
# A statement whose subject is a pronoun needs its referent to be read later.
_PRONOUN_START = re.compile(r"^(?:(?:just\s+)?(?:checked|asked|rang|called|looked)(?:\s+(?:them|it|online))?,\s+)?"
                            # ("Checked, they don't take bookings under 6": who "they" are is before it)
                            r"(?:he|she|they|his|her|their|its|it|this|these|those|him|them|"
                            # "There are several options available, such as Gudhi…": options for what the sentence
                            # before it named ("Install a Python package for algebraic topology.")
                            r"there (?:are|is) (?:several|many|a few|some|lots of|plenty of|a number of|other) "
                            r"(?:\w+ )?(?:options|choices|ways|tools|alternatives|libraries|packages|apps))\b", re.I)
# Hedged words: a sentence holding them is not a decision ("I'll keep you posted if I decide").
_TENTATIVE = re.compile(r"\b(?:if|whether|might|maybe|perhaps|not sure|thinking (?:about|of)|considering|"
                        r"(?<!went with your )(?<!went with the )(?<!going with )options?(?! (?:\d|[A-Z])\b)|"
                        r"either|alternatives?|need to decide|have to decide|(?:a|the) (?:decision|call|choice) for|"
                        r"(?:your|their) (?:decision|call|choice)|up to you|"
                        r"should (?:i|we)|wonder(?:ing)?|could|(?:i|we)(?:'d| would)|waiting (?:for|on)|"
                        r"(?:the|a) \w+ decision \()\b|如果|也许|可能|考虑|建议|"
                        # ("拿不定主意", "然后决定买不买", "别第一天就放弃": nothing decided yet)
                        r"拿不定|还没(?:想好|定)|犹豫|纠结|决定[^，。]{0,4}?(\w)不\1|(?:别|不要|千万别)[^，。]{0,8}放弃|"
                        # ("决定很清楚", "恭喜做了决定！", "这是个明智的决定": said of a decision, deciding nothing)
                        r"决定(?:很|挺|非常|其实|本身)|恭喜|明智的决定|好的决定|不错的决定|这个决定", re.I)
# Small talk that a word list misses: an assistant's stock opener and closer.
_SMALL_TALK_PHRASES = re.compile(r"how (?:can|may|could) i (?:help|assist)(?: you)?(?: today| with that)?|"
                                 r"thanks for asking|how about you|let me know if (?:there'?s |there is )?anything"
                                 r"(?: else)? i can (?:do|help)(?: you)?(?: with| for you)?|"
                                 r"what can i do for you|is there anything else(?: i can (?:help|do)[^?]*)?|"
                                 r"how are you(?: doing)?(?: today)?|nice to meet you|have a (?:great|nice|good) "
                                 r"(?:day|one|weekend|evening|night)|how'?s it going|what'?s up|"
                                 r"how'?s (?:\w+ ){1,2}treating you|how have you been|"
                                 # a letter's salutation and close, in a draft ("Dear Mr Hargreaves,", "Kind regards")
                                 r"^dear (?:mr|mrs|ms|miss|dr|sir|madam)?\.?\s*[a-z]*\W*$|"
                                 r"^(?:kind|best|warm) regards\W*$|^(?:yours )?sincerely\W*$|^best wishes\W*$|"
                                 r"^i hope (?:it|this|that|everything)\b[^.?]*!$|"
                                 r"^(?:viel erfolg|bonne chance|buena suerte|buona fortuna|boa sorte)\b[^.?]*[!.]?$|"
                                 r"(?:gotta|got to|have to|need to|must) (?:go|run|dash)|gtg|ttyl|brb|talk (?:to you )?later|"
                                 r"(?:see|talk to|catch) you (?:later|tonight|tomorrow|soon|then|there)|"
                                 r"有什么(?:可以|能)?(?:帮|帮助)(?:你|您)的|需要什么帮助|很高兴(?:认识|见到)(?:你|您)",
                                 re.I)
# Openers that make the whole sentence filler, however long ("I'm happy to help you with …").
_FILLER_START = re.compile(r"^(?:i'?m |i am |i'?d be |i would be )?(?:so |very |more than )?(?:happy|glad|delighted) to "
                           r"(?:help|assist)|^(?:congratulations|congrats)\b|^(?:great|good|excellent|interesting) "
                           r"question|^(?:what a|that'?s an?) (?:great|good|wonderful|interesting|lovely)\b|"
                           r"^(?:i hope (?:this|that|it) helps)|^(?:thanks?|thank you) (?:so much )?for\b|^kudos\b|"
                           r"\bdon'?t hesitate to (?:ask|reach out)|\bif you have any (?:more |other |further )?"
                           r"questions\b|\bfeel free to (?:ask|reach out|let me know)|^(?:my )?apologies\b|^sorry\b|"
                           r"^i apologi[sz]e\b|^let me\b|^(?:i'?m )?off (?:for|to) (?:a|my) (?:swim|run|walk|nap|shower|bath|lie-down)\b|"
                           r"^(?-i:(?:[Ii]'?m |[Ii] am )?[Oo]ff to (?:[a-z]+ ){0,3}[a-z]+)\W*$|^(?:brb|one sec|hang on|back in (?:a |\d+ )?(?:sec|min|mins|minutes?))\b|^(?:\d+|two|five|ten|a few|a couple of) (?:mins?|minutes|secs?|seconds)\b[^.!?]*$|^(?:this|that|it)(?: one)? (?:trips|catches|bites) (?:up )?(?:everybody|everyone|"
                           r"a lot of people|most people|many people)(?: (?:up|out))?\W*$|^(?:this|that) is a (?:classic|common) "
                           r"(?:gotcha|mistake|pitfall|trap)\W*$|^it (?:all )?depends\b|\bshould give you (?:a|an|some) (?:general |good |rough |better )?"
                           r"(?:idea|sense|overview|starting point)\b|\bthere (?:may|might|could) be other ways\b|"
                           r"\bthere are (?:many|several) other (?:possible )?(?:approaches|ways|options)\b|"
                           r"\bas i mentioned (?:before|earlier|above)\b|\bis (?:just )?one possible approach\b|"
                           r"\bnot something that can be explained\b|^(?:i now have|now i have|i have now)\b|^it (?:seems|appears|looks like)\b|^(?:ok(?:ay)?|alright),? "
                           r"(?:so|now|then)\b", re.I)
# An ask said as a statement: "I'm trying to figure out if the battery is worth it", "I need to decide which…".
# (Said by one person: "We need to decide how the gateway authenticates" is a team's open question, not an ask.)
_INDIRECT_ASK = re.compile(r"(?:^|,\s*|\b(?:and|but|so)\s+)(?:so,? )?(?:i'?m|i am) (?:trying to (?:figure out|decide|"
                           r"understand|work out|choose|find out)|wondering|not sure|unsure|torn)\b|^i (?:need|want|have) "
                           r"to (?:decide|figure out|choose|work out|find out)\b|^i(?:'d| would) like to (?:know|understand)"
                           r"\b|^i (?:want|need) (?:to know|help|advice)\b|^i can'?t decide\b"
                           r"|\bwonder(?:ing)? (?:if|whether) (?:you|anyone) (?:could|can|would|might)\b", re.I)
# The user's own problem, said in the present: "My flask app keeps throwing…", "my monthly report is wrong".
_PROBLEM = re.compile(r"(?i)(?:my|our)\b.*\b(?:keeps?|fails?|failing|crash(?:es|ing)?|freez(?:es|ing)|hangs|lags|throws?|stopped|"
                      r"(?:got|was|were|has been|have been) (?:cancell?ed|delayed|rejected|refused|denied|stolen|damaged)|"
                      r"won't|doesn't|isn't|broke|"
                      r"can't|cannot|couldn't|"
                      r"(?:is|are|has got|have got|has gotten|has become|got|gets|became) (?:really |very |so |super )?"
                      r"(?:wrong|off|broken|empty|missing|stuck|slow|slower|sluggish))\b|(?:i'?m getting|i get|i keep getting|"
                      r"i'?m seeing|i see|getting)\b[^.?!]*\b(?:error|exception|warning|panic|traceback|segfault|"
                      r"failure)s?\b|[^.?!]*\b(?:fails|crashes|panics|won't (?:compile|build|start)|doesn't (?:compile|"
                      r"build|start)|(?:has got|has gotten|got|has become|became|is|are)\s+(?:really |very |so |super )?(?:slow|slower|sluggish)|"
                      r"goes blank|went blank|(?:is|are) blank)\b")
# How it turned out, in the user's words: "zero errors", "that fixed it", "April is now 18,236.50, matches the till".
_OUTCOME = re.compile(r"\b(?:i(?:'ve| have)? (?:just |already )?(?:booked|ordered|bought|scheduled)|works? now|(?:that|it|this) (?:worked|works|fixed it|did it|did the trick)|(?:it|that|this) (?:runs|compiles|builds|passes|loads)(?=[!.,;:]|\s*$|\s+(?:but|and)\b)|fixed(?!\s+(?:for|at|rate|term|price|income|deal|\d))|solved|no (?:more )?(?:errors?|exceptions?)|which is (?:right|correct)|(?:went|goes) up by|"
                      r"zero errors|(?:it'?s |it has |has )?started (?:first time|fine|straight away|every time)|"  # ("It's started
                      r"every (?:morning|day|time|night) since\b|"  # first time every morning since")
                      r"\bzero\s+(?:\w+\s+)?['\"‘“][^'\"’”]{2,40}\w(?=['\"’”])|"  # ("zero 'database is locked' in the log")
                      r"\d+\s*(?:s|secs?|seconds|ms|min(?:ute)?s?|%|mb|gb)?\s+instead of\s+~?\d+|"  # ("11 seconds instead of 94")
                      r"\d+ (?:passed|errors?|failed)|(?i:\d[\d,]* rows)(?![^.!?]{0,12}\?)(?!\s+(?:a|an|per|each|every)\s)|no longer|went from|down to|up to|dropped to|(?:is|are) (?:all )?gone|went away|"
                      r"(?<=\b)(?:we|i) (?:took|accepted) the|^accepted (?:it|the|their)|"
                      r"^(?:update\s*:\s*)?(?:they|he|she|the (?:bank|court|council|landlord|school|shop|company|airline|"
                      r"insurer))(?:'ve|’ve| have|'s| has)? (?:accepted|approved|granted|refunded|agreed to|said yes)|"
                      r"\d[\d,.]*\s*(?:ms|s|sec|seconds|min|minutes|%|mb|gb)?\s*(?:→|->)\s*\d|[×x] faster|times faster|"
                      r"(?:is|are) now|now (?:matches|shows|works)|matches|that confirms|"
                      # ("that's it ✅ `go test ./...` all ok, replayed … they all went through", "they match the bank")
                      r"that'?s it(?=\s*[✅!.,]|\s*$)|all (?:ok|good|green|passing)|(?:all )?went through|"
                      r"match(?:es|ed)? (?:the \w+|to the penny)|(?:compiles|builds|runs|passes|"
                      r"loads|starts) (?:now|fine|again)|(?:build|it|everything) is (?:clean|green)|all green|"
                      # ("New passport arrived by courier this afternoon", "the discount was approved", "all sorted")
                      r"^(?:update\s*:\s*)?(?:(?:the|my|our|a|new|your)\s+)?(?:\w+\s+){0,2}(?:has |have |had )?(?:arrived|"
                      r"came through)|^(?:(?:the|my|our)\s+)?\w+\s+approved\b|(?:was|were|got|been|has been) (?:approved|accepted|"
                      r"refunded|granted|cancelled|paid out)|all sorted|sorted now)\b"
                      # ("办好了！电信99元融合套餐…", "已经退了", "钱到账了", "批下来了")
                      r"|办好了|搞定了|已经(?:交|办|买|订|约|配|取|退|付|换|签)(?:好)?了|到账了|批下来了|通过了", re.I)
# An answer's verdict ("Basically: solar yes, battery no for now"): what the advice comes to.
_VERDICT = re.compile(r"^(?:basically|in short|bottom line|tl;?dr|in summary|to sum up|summary|verdict|"
                      r"my (?:recommendation|advice|suggestion|verdict)|recommendation|the short answer|short answer|"
                      r"so,? (?:my|the) (?:recommendation|answer|advice) is|"
                      # a test's reading: "That's a clear result: … means condensation", "That confirms it"
                      r"(?:that'?s|this is|it'?s) an? (?:clear|conclusive|definite|textbook) (?:result|answer|sign|case)|"
                      r"(?:that|this) (?:confirms|settles|rules out)|diagnosis)\b", re.I)
# Said after being convinced ("ok that convinces me. lease the e-bike…"): what follows is the decision.
_CONVINCED = re.compile(r"(?i)^(?:(?:ok(?:ay)?|alright|right|perfect|great|brilliant|cool|nice)[,.!]?\s*)?(?:that convinces me|i'?m convinced|"
                        r"you(?:'ve| have) convinced me|sold(?=\W*$)|decision made|that settles it|let'?s do (?:it|that)|"
                        r"i'?ll do that|makes sense,? (?:then|so))\b")
# A step of arithmetic ("Exported: 5,300 kWh × €0.081 = €429/year"): the working, not the result.
_WORKING = re.compile(r"[×÷*/+−-]\s*[€$£]?\d[\d,.]*[^=≈]*[=≈]|\d\s*[×÷]\s*[€$£]?\d")
_RESULT = re.compile(r"^(?:\*\*)?(?:total|net|overall|result|payback|so|that'?s|in total|altogether)\b", re.I)
# An instruction: a sentence that starts with what to do ("Fix the login test", "Please write …").
_IMPERATIVE = re.compile(
    r"^(?:please\s+|pls\s+|now\s+|also\s+)?(?:write|make|create|fix|add|build|help|explain|show|give|convert|refactor|"
    r"implement|update|review|find|generate|translate|summari[sz]e|debug|set up|change|remove|rename|move|check|tell|"
    r"list|compare|draft|plan|continue|start|run|install|deploy|search|web ?search|look up|look|test|try|describe|suggest|recommend|"
    r"design|sort|clean|organi[sz]e|calculate|compute|estimate|analy[sz]e|prepare|book|schedule|remind|send|read|"
    r"open|edit|rewrite|improve|optimi[sz]e|simplify|format|parse|extract|merge|split|delete|commit|push|publish|"
    r"teach|walk|outline|brainstorm|name|pick|choose|fill|complete|finish|resume|investigate|figure|keep|use|"
    r"get|set|let's|lets|go ahead|assume|rerun|re-run|redo|repeat|plot|graph|draw|simulate|count|color|colour|"
    r"retry|undo|revert|translate|rewrite|shorten|expand|continue)\b", re.I)
_FIRST_PERSON_ANY = re.compile(r"\b(?:i|i'm|i've|i'll|i'd|me|my|mine|myself|we|we're|we've|our|us)\b|我", re.I)
# Words that add emphasis, not content: a note drops them ("I'm really excited" → "I'm excited").
_INTENSIFIER = re.compile(r"(?:^|(?<=\s))(?:really|super|totally|so so|pretty much|literally|honestly|basically|"
                          r"actually|just|truly|definitely|absolutely|kinda|sorta)\s+(?=\w)", re.I)

# ---- between people: news, answers, agreements (moved from extractive) ----

# Settled in a few words: "£14 it is.", "Melitta it is!", "Ok, no gluten-free." (not "That's what it is").
_SETTLED = re.compile(r"(?i)(?:(?:[^,.!?]{1,20},\s+)?(?!(?:what|that|this|it|there|here|so|of course|course|yes|yeah|yep|"
                      r"sure|no|because|cos|cause|maybe|perhaps|i think|think)\b)(?![\d:.]+(?:ish|pm|am)?\s)(?:[^\s.!?]+\s+){0,3}[^\s.!?]+"
                      r"\s+it is(?:,?\s+then)?(?:,?\s*(?:\d+|one|two|three|four|five)\s+(?:votes?\s+)?to\s+[^.!?]{1,20})?|(?:(?:ok(?:ay)?|right|fine|"
                      r"alright),?\s+)?no\s+(?!(?:way|problem|prob|probs|worries|idea|clue|rush|thanks|biggie|doubts?|kidding|"
                      r"chance|need|joke|pressure|stress|sweat|big deal|one|more|longer|exceptions?|errors?|crash(?:es)?|warnings?|"
                      r"issues?|problems?|bugs?)\b)[\w-]+(?: this (?:year|time))?"
                      # "好，就定B了！", "那就选海豚吧"
                      r"|(?:好|行|嗯)?[，,]?\s*(?:那)?就(?:定|选|报|订|买|用|要)[^，,。！!？?]{1,10}(?:了|吧))"
                      r"\W*$")

# Kept from someone: "And we do NOT tell Mum", "It's a surprise" — agreed between them, and easily forgotten.
_SECRET = re.compile(r"(?i)\b(?:we|you|i)(?: do|'ll| will)? (?:not|n't|never) (?:tell|say|mention)\b|\bwe don'?t tell\b|"
                     r"\b(?:it'?s|is) a (?:secret|surprise)\b")

_LET_ME_CHECK_ZH = re.compile(r"(?:等一下|等等|稍等)?[，,\s]*(?:我|让我)(?:先|去)?(?:查|看|问|找|算|翻)(?:一下|看|看看)"
                              r"|(?:(?:可以|好的|好|行|没问题|当然)[，,！!]\s*)?(?:请)?把[^。]{0,40}(?:发给我|告诉我)(?:[^。]*我(?:帮你|来)(?:看|算|查)|看看|[。！!]*$)")  # asks for input

# News of someone named: "Bethan's engaged!", "Priya is pregnant!", "Tom got promoted!".
_NEWS_OF = re.compile(r"(?!(?:That|This|It|What|How|So|Oh|Wow)\b)[A-Z][a-z]+(?:['’]s| is| has| got| just)\s+(?:\w+\s+)?"
                      r"(?:engaged|pregnant|married|expecting|moving|retiring|retired|promoted|hired|born|divorced|"
                      r"separated|graduated|quit|fired|(?:the |a |her |his |their )?(?:job|promotion|offer|place|"
                      r"scholarship|visa|keys|flat|house|part|contract|funding))\b")  # ("Femke got the job!")

# How the speaker found it, not what it is: "I joined a writers group." needs no "It's unbelievable--such…".
_JUDGED = re.compile(r"(?i)(?:it|this|that)(?:'s| is| was| has been)\s+(?:so |really |just |absolutely |honestly |"
                     r"been )?(?:unbelievable|amazing|awesome|great|incredible|wonderful|fantastic|cool|fun|crazy|wild|"
                     r"insane|surreal|lovely|brilliant|exciting|scary|nerve-?wracking|overwhelming|rewarding|a dream|"
                     r"a blast|a wild ride|a rollercoaster)\b")

# "后天上午要考科目二了，有点紧张。": how the speaker feels about it, not what it is.
# A clause that says only how the speaker feels: ", too tired now", "my brain is fried".
_FEELING_EN = re.compile(r"(?i)(?:(?:i'?m|i am)\s+)?(?:too|so|really|very|pretty|totally)\s+(?:tired|knackered|exhausted|sleepy|"
                         r"shattered|wiped)(?:\s+(?:now|today|tonight|to think))?|(?:my\s+)?brain(?:'s| is)\s+(?:fried|mush|"
                         r"melting|dead|toast)"
                         # ("…at 10:30 sharp, I'm serious": an insistence, no content)
                         r"|(?:i'?m|i am)\s+(?:dead\s+|deadly\s+|totally\s+|so\s+)?(?:serious|not (?:joking|kidding))|no joke|"
                         r"(?:and\s+)?i mean it"
                         # ("ok slightly panicking.", "freaking out a bit": how it feels, before what happened)
                         r"|(?:(?:i'?m|i am)\s+)?(?:slightly|a bit|a little|kinda|kind of|totally|low[- ]key|properly)?\s*"
                         r"(?:panicking|freaking out|stressing(?: out)?|losing my mind)(?:\s+(?:a bit|a little|here|now))?"
                         # ("…to the penny for the first time ever, accountant will be thrilled": a feeling foretold)
                         r"|(?:(?:my|our|the|your)\s+)?[\w'’]+\s+(?:will|'ll|is going to|gonna) be (?:so |very |absolutely )?"
                         r"(?:thrilled|pleased|happy|delighted|chuffed|over the moon|stoked|relieved)"
                         # ("Good luck, and I hope the corner dries out": a wish, said in parting)
                         r"|(?:good luck,?\s+)?(?:and\s+)?i (?:really\s+|do\s+)?hope (?:that\s+)?(?:the|it|this|your|you|everything|"
                         r"all|she|he|they)\b[^.!?]{0,60}"
                         # ("just wanted to say hi and thanks, you've been a nice bit of company": a hello)
                         r"|(?:anyway\s+)?(?:i\s+)?(?:just\s+)?wanted to (?:say|pop in and say|drop in and say) (?:hi|hello|hey|"
                         r"thanks|thank you)(?:\s+and\s+(?:thanks|thank you|hi))?(?:,?\s+you'?ve been (?:a |such a )?(?:nice|"
                         r"great|good|lovely|fun) (?:bit of )?(?:company|help)(?: this (?:week|morning|month))?)?"
                         # ("coffee number 4 is kicking in", "my knees vote yes twice": the speaker's body or cup, joking)
                         r"|(?:the\s+|my\s+)?(?:coffee|tea|caffeine|wine|gin|beer|pint)(?=\s+(?:number|no\.?|#)\s*\d|"
                         r"(?:\s+(?:is|has)|'s)?\s+(?:kicking|kicked|wearing|worn) (?:in|off))(?:\s+(?:number|no\.?|#)\s*\d+)?"
                         r"(?:\s+(?:is\s+|has\s+|'s\s+)?(?:kicking in|kicked in|wearing off|worn off))?"
                         r"|my\s+(?:poor\s+|old\s+)?(?:knees?|legs?|back|feet|liver|wallet|bank account|bank balance|calves|"
                         r"body|stomach|heart)\s+(?:votes?|says?|disagrees?|agrees?|begs to differ|(?:is|are)\s+(?:crying|"
                         r"screaming|weeping|protesting|judging me))(?:\s+(?:yes|no|twice|already|too|\w+ly))*"
                         # ("fine fine i'm just brainstorming": what kind of talk it was, no content)
                         r"|(?:(?:ok|okay|fine|alright)[,!.]*\s+)*(?:i'?m|i am|i was|just)\s+(?:just\s+|only\s+)?(?:brainstorming|joking|kidding|thinking out loud|"
                         r"spitballing|throwing (?:ideas|it|that) out there)"
                         # ("…for my dog Biscuit and I'm drowning in quotes": overwhelm, no content)
                         r"|(?:i'?m|i am)\s+(?:totally\s+|completely\s+|just\s+|kind of\s+|a bit\s+)?(?:drowning|swamped|"
                         r"buried|overwhelmed|lost)\s+(?:in|with|by)\s+(?:all\s+)?(?:the\s+|these\s+)?[\w-]+(?:\s+[\w-]+)?"
                         r"|my head (?:hurts|is spinning|'s spinning)|(?:this|it)(?:'s| is) driving me (?:mad|crazy|nuts|up the wall)"
                         r"|(?:i'?m|i am)\s+(?:literally\s+|actually\s+|so\s+)?(?:screaming|crying|shaking|sobbing|squealing|dead)")
_FEELING_ZH = re.compile(r"(?:我)?(?:有点|有些|好|很|挺|特别|超|真的|还是)?(?:紧张|担心|焦虑|慌|害怕|激动|兴奋|开心|纠结|头疼|"
                         r"头大|崩溃|郁闷)(?:了|啊|呢|呀|死了)?")

# A question that only names a topic: "Mince pies?", "And deliveries?", "Price?" (no verb, a few words).
_TOPIC = re.compile(r"(?i)(?:and |what about |how about )?(?:the )?(?!(?:why|how|what|who|when|where|which|whose|really|"
                    r"seriously|yes|no|ok|okay|sure|right|any\w*|some\w*|every\w*|nothing|one|more|else|again|you|me|us|"
                    r"tomorrow|today|tonight|now|then|same|deal|done|ready|coming|serious|sorry)\b)[\w£$€'’ -]{2,25}\?+$")

_WEEKDAY_START = re.compile(r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b")

_HOW_WENT = re.compile(r"(?i)how(?:'d| did| was| is)\b[^?]{0,40}\b(?:go|going|it go)\W*$|how was (?:the |your )\w+")

_WENT = re.compile(r"(?i)\W*(passed|failed|sold out|nailed it|smashed it|aced it|got it|got in|won|lost|"
                   r"(?:it )?went (?:well|great|fine|ok|"
                   r"badly)|really well|not great|brilliant|amazing|terrible|awful|great|fine|ok|okay)\b[!.,]*\s*")

# "Ok we need to talk about Mum and Dad's anniversary 😬": what the chat is about, said as it opens.
_TALK_ABOUT = re.compile(r"(?i)\b(?:we need to|we have to|let'?s|we should|i want to|wanna|gotta) (?:talk|chat|plan|sort out)"
                         r"(?: about)? ((?:[\w'’&-]+ ){0,5}[\w'’&-]+)(?=\s*(?:[.!?,;]|$|[^\w\s]))")

# The meeting the opening message calls: "let's do the black friday post-mortem while it's fresh".
_MEETING_OF = re.compile(r"(?i)\blet'?s (?:do|have|start|run|kick off) ((?:the|a|our|this week'?s|today'?s) (?:[\w'’&-]+ ){0,3}"
                         r"(?:post-?mortem|retro(?:spective)?|review|debrief|planning|stand-?up|wash-?up|check-?in|"
                         r"sync|kick-?off|catch-?up|huddle))\b")

# An occasion the opening message is about: "Zafferano got back to me about mum's 60th", "news about our wedding".
_ABOUT_OCCASION = re.compile(r"(?i)\babout (?:(?:my|our|your|the|his|her) )?((?:[\w'’-]+ ){0,3}(?:birthday|\d{2}(?:st|nd|rd|th)|"
                             r"anniversary|wedding|party|trip|holiday|move|dinner|christening|funeral|graduation|"
                             r"leaving do|retirement|reunion|hen do|stag do|baby shower|housewarming|barbecue|bbq))\b")

# Asking only for a name or an amount: "And the money?", "To Rhys?", "Halden & Pryce?" (answered by _SHORT_ANSWER)
_FOLLOW_UP_NAMED = re.compile(r"(?i)(?:and (?:the|your|his|her|their)|to|at|with)\b(?!.*\b(?:else|new|about you|with you)\b)"
                              r"|(?-i:[A-Z][\w'’-]+(?: (?:&|and) [A-Z][\w'’-]+| [A-Z][\w'’-]+){0,2})\?+$")

# A name, a place or an amount that answers a follow-up: "Strathclyde.", "To Rhys.", "34k.", "Two."
_SHORT_ANSWER = re.compile(r"(?:(?:[Tt]o|[Aa]t|[Ii]n|[Ff]rom|[Ww]ith|[Ff]or) )?[A-Z][\w'’-]+"
                           r"(?: (?:&|and|of) [A-Z][\w'’-]+| [A-Z][\w'’-]+){0,2}[.!]*"
                           r"|[£$€]?\d[\d,.]*\s?(?:k|K|m|%|pm|am|grand)?[.!]*"
                           r"|(?i:one|two|three|four|five|six|seven|eight|nine|ten|twelve)[.!]*")

_COUNT = re.compile(r"(?i)(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)\W*")

_BARE_YES = re.compile(r"“[^”]{2,80}” — [^.!?“”]{1,25}[.!]")

_HOW_IS = re.compile(r"(?i:(?:and )?how(?:'s| is| are| was)) (?:(?:the |little |old |your )?)([A-Z][a-z]+)\W*$"
                     r"|(?i:and |what about |how about )?([A-Z][a-z]+)\?"  # "And Pemberton? Is he asleep yet?"
                     # ("and how's pickle?": a name typed in lower case, not "how's work?")
                     r"|(?i:(?:and )?how(?:'s| is)) (?!(?:work|things|life|everything|it|that|this|you|school|uni|"
                     r"college|job|business|stuff|the|your|my|our|his|her|their|weather|family|everyone|everybody|home|"
                     r"house|flat|training|practice|revision|dating|mum|dad|mom|nan|gran|grandma|grandpa|baby|kids?|"
                     r"bump|back|knee|leg|arm|head|cold|cough|week|day|morning|today|tonight|sleep|food|pup|puppy|dog|"
                     r"cat|kitten|new|going|been|doing)\b)([a-z]{3,12})\W*$")

# "Kotlin question.", "quick money question that's been bugging me": the question is still to come.
_QUESTION_AHEAD = re.compile(r"(?i)(?:a |one |quick |small |another |random )*(?:[\w.+#-]+ ){0,2}question"
                             r"(?: for you| that'?s been bugging me)?(?:,? (?:i'?m|i am) (?:a (?:bit|little) |so |really |"
                             r"totally |completely )?(?:stuck|lost|confused|stumped))?\W*$"
                             r"|(?:我)?想(?:请教|问)(?:一下|问)?[^。？?！!]{0,20}?(?:的事|的问题|的事情)?[。！!]?$")  # 想请教一下…的事

# "Yes, that's fine." / "No. Bleach etches marble." — not "No problem!" and not a "Yes, but…" that takes it back.
_VERDICT_START = re.compile(r"(?i)\W*(yes|yeah|yep|yup|no|nope)\s*(?:[.!;:—–]|,(?!\s*(?:but|however|though|if|"
                            r"unless|as long as|provided)\b))")

_YES_NO_ASK = re.compile(r"(?i)(?:so |and |ok(?:ay)?,? )?(?:can|could|should|shall|may|must|is|are|was|were|do|does|"
                         r"did|will|would|have|has)\b(?! you (?:please |help|tell|explain|show|give|write|recommend|"
                         r"suggest|find|check|list|make|walk))")

# Said to the user as what to do ("Don't ignore it.", "**Appeal first**", "You should…", "I'd recommend…", "建议先观察").
_ADVISING = re.compile(
    r"(?i)(?:\W*\*\*)?(?:(?:first|then|next|also|so|instead|finally|otherwise|meanwhile|for now|for next time|"
    r"if [^,]{1,60}),\s*)?(?:don'?t|do not|never|always|avoid|make sure|be sure|remember to|ask|call|ring|keep|put|"
    r"save|bring|take|wait|stop|consider|appeal|reply|write|send|check|give|get|go|pay|book|apply|claim|contact|"
    r"email|switch|use|try|add|set|turn|replace|drink|eat|rest|see|tell|start|aim|stick|skip|leave|let|pick|"
    r"choose|buy|sell|move|open|close|watch|record|photograph|limit|plan|do|run|store|wear|"
    r"compare|read|look|talk|speak|seek|request|file|submit|"
    r"you(?:'d| would)? (?:should|must|need to|have to|'ll want to|will want to|might want to|may want to|could|can)|"
    r"you're better off|it'?s (?:worth|best|safer|wise|a good idea)|(?:i'?d|i would|i) (?:recommend|suggest|go with|"
    r"pick|choose|start)|my (?:recommendation|suggestion|advice)|(?:the )?best (?:option|bet|choice) is)\b")

_ADVISING_ZH = re.compile(r"\W*(?:\*\*)?(?:另外[，,]\s*)?(?:建议|最好|记得|不要|别(?!担心|着急|紧张)|一定要|务必|尽量|可以先|先去|先把|千万)")
