"""The adapter's prompts, in English and Chinese: the distiller's card prompt and the tagger's tag prompt.

The language follows the text's script (``language``). The tools are the
structured-output schemas each call forces; a server without tool calling
gets the same prompt plus a request for one JSON object in the text.
"""

from __future__ import annotations

import re
from typing import Any

from daemon.models import Card, DistillRequest

__all__ = ["SYSTEM", "TAG_SYSTEM", "TAG_TEXT", "TAG_TOOL", "TEXT", "TOOL", "frame", "language"]

TOOL_NAME = "write_memory_card"
TAG_TOOL_NAME = "write_tags"


def _flow(text: str, joiner: str) -> str:
    """Unwrap source lines: a single line break inside a paragraph becomes ``joiner``; list items stay."""
    return re.sub(r"(?<=\S)\n(?=[^\n-])", joiner, text.strip())


_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def language(text: str) -> str:
    """``zh`` when Chinese characters outnumber Latin words in ``text``, else ``en``."""
    return "zh" if len(_CJK.findall(text)) > len(re.findall(r"[A-Za-z]+", text)) else "en"


# ---- the distiller: one memory card from a conversation -------------------------------

SYSTEM: dict[str, str] = {
    "en": _flow("""
You keep a personal memory vault in Obsidian. From one chat session you write one memory card: a Markdown
note that lets the user, or an assistant helping them later, recall what matters without rereading the chat.

Record statements of substance: lasting facts about the people, projects and things discussed (preferences,
relationships, background, plans); decisions with their reasons and the alternatives ruled out; the current
state (done, in progress, blocked, next, deadlines); reusable procedures (commands, settings, code, steps).
Quote names, numbers, versions, paths and commands verbatim. Attribute statements to speakers by name when
names are given. Resolve pronouns to their referent.
Leave out greetings, thanks, acknowledgements, reactions and agreement, the assistant announcing what it will
do, image-only lines and any filler line.

Time: each message is shown as "[speaker @ timestamp]" (or "[speaker]" without one). Keep apart the
conversation date, the event date and relative time ("yesterday", "next Friday"), which counts from the
timestamp of the message that says it, never from today. Resolve relative dates and keep the original phrase:
"next Friday (2023-05-12)". When messages have no timestamps, state no date as fact.

Agent and tool sessions: summarise the work from the tool calls: files read, edited or created, commands run
with their outcome, what changed and why, what is next. No "[tool ...]" placeholders, no narration.

The card:
- name: the conversation's subject in 2-5 words, usable as a file name: no date, none of / \\ : * ? " < > | # ^ [ ],
in the conversation's language; never from markup such as image captions or tool placeholders, never a
speaker's name alone, never a filler word.
- description: one to three sentences saying what happened: what was decided, learned, planned or asked, with
names, numbers and the date when known; never a keyword list, never a quoted filler line.
- body: Markdown, no YAML front matter, no title line, statements under true headings: "Decisions" only for
decisions, with the reason; short reusable commands under "Commands and procedures"; other headings as the
content needs. Never add status or other properties: the system maintains them.

Skip: if the conversation is pure small talk with nothing worth remembering, set skip to true, leave name and
body empty and give the reason in description. When in doubt, write the card.

Answer with the card's four fields {skip, name, description, body}: call the tool write_memory_card once when
it is offered, otherwise reply with one JSON object only.
""", " "),
    "zh": _flow("""
你在 Obsidian 中维护一个个人记忆库。请根据一次聊天会话写一张记忆卡片：一篇 Markdown 笔记，
让用户或日后帮助用户的助手无需重读聊天记录就能回想起重要内容。

记录有实质内容的陈述：关于所谈到的人、项目和事物的持久事实（偏好、关系、背景、计划）；做出的决定及其理由和被放弃的方案；
当前状态（已完成、进行中、受阻、下一步、截止日期）；可复用的步骤（命令、设置、代码、步骤）。
原文照录名称、数字、版本、路径和命令。给出了说话人名字时，按名字归属。把代词还原为所指的对象。
不要写问候、致谢、确认、反应和附和，不要写助手宣布将要做什么，不要写只有图片的消息和任何客套话。

时间：每条消息显示为“[说话人 @ 时间戳]”（没有时间戳时为“[说话人]”）。请区分对话日期、事件日期和相对时间（“昨天”“下周五”）；
相对时间以说这句话的那条消息的时间戳为准，绝不以今天为准。把相对日期换算成绝对日期并保留原话：“下周五（2023-05-12）”。
消息没有时间戳时，不要把任何日期当作事实写出。

智能体和工具会话：根据工具调用总结工作：读取、编辑或新建的文件，运行的命令及其结果，改了什么、为什么改，下一步是什么。
不要照抄“[tool …]”占位符，不要复述操作过程。

卡片：
- name：用 2–5 个词概括对话主题，可用作文件名：不含日期，不含 / \\ : * ? " < > | # ^ [ ] 这些字符，使用对话的语言；
不要取自图片说明或工具占位符之类的标记，不要只用说话人的名字，不要用客套词。
- description：用一到三句话说明发生了什么：决定、了解、计划或询问了什么，写上已知的名字、数字和日期；
不要写成关键词列表，不要引用客套话。
- body：Markdown，不要 YAML front matter 和标题行，陈述放在名副其实的小标题下：“决定”只放决定并写明理由；
简短可复用的命令放在“命令和步骤”下；其他小标题按内容需要。不要添加 status 或其他属性：它们由系统维护。

跳过：如果对话只是寒暄闲聊，没有值得记住的内容，把 skip 设为 true，name 和 body 留空，并在 description 中说明原因。
拿不准时，写卡片。

用卡片的四个字段 {skip, name, description, body} 作答：提供了 write_memory_card 工具时调用它一次，
否则只回复一个 JSON 对象。
""", ""),
}

_CARD = "\n# {title}\n\n<existing_card>\nname: {{name}}\ndescription: {{description}}\n\n{{body}}\n</existing_card>\n"
_JSON_FORM = '{"skip": false, "name": "...", "description": "...", "body": "..."}'
TEXT: dict[str, dict[str, str]] = {
    "en": {
        "head": "Card date: {day} (the day of the conversation this card covers, not today's date)\n"
                "Session ID: {session_id}\nExtra hint: {hint}\n",
        "create": "Write the memory card for this session and day from the conversation below. "
                  "Create one card at most.\n",
        "update": "This session already has a card for this day, shown below; it may hold the user's own edits. "
                  "Merge the new messages into it and return the whole merged card:\n"
                  "- keep everything in the existing card unless a new message corrects it;\n"
                  "- timeline or log entries: append new ones at the end, never reorder or drop earlier ones;\n"
                  "- current-state sections: rewrite them to describe the latest state;\n"
                  "- everything else: merge and remove duplicates;\n"
                  "- keep the name unless the topic has clearly changed; the description covers the whole card.\n"
                  "If the new messages add nothing worth remembering, set skip to true: the card stays as it is.\n",
        "part": "The conversation is long and comes in parts; this is part {n}. {more} Keep the whole card under "
                "about {chars} characters: merge and condense rather than append, and keep the description to "
                "one to three sentences about the whole conversation.\n",
        "more": "More parts follow.", "last": "This is the last part.",
        "earlier": "The existing card already holds what the earlier parts said.",
        "card": _CARD.format(title="Existing card"),
        "history": "\n# Recent Conversation\n\n",
        "continued": " (continued)",
        "source": "Image source: ",
        "images": "\n\nImages: each image above follows its \"Image source:\" line. Take visual facts only from the "
                  "images, and cite the exact source in the same sentence as each visual fact: the wikilink as "
                  "given (e.g. [[session/images/...]]) for a saved image, a Markdown link [image](URL) for a URL. "
                  "Keep existing citations. Do not add or edit a source_images property: the system maintains it.",
        "json": "\n\nTool calls are not available here. Reply with exactly one JSON object and nothing else, "
                f"in this form:\n{_JSON_FORM}",
        "none": "(none)",
    },
    "zh": {
        "head": "卡片日期：{day}（这张卡片所记录对话的日期，不是今天的日期）\n"
                "会话 ID：{session_id}\n额外提示：{hint}\n",
        "create": "请根据下面的对话，为这个会话和这一天写记忆卡片。最多写一张卡片。\n",
        "update": "这个会话在这一天已经有一张卡片（见下文），其中可能有用户自己的修改。"
                  "请把新消息合并进去，并返回合并后的完整卡片：\n"
                  "- 保留现有卡片的全部内容，除非新消息更正了它；\n"
                  "- 时间线或日志条目：新条目追加在末尾，不要调整顺序或删除之前的条目；\n"
                  "- 当前状态部分：改写为最新状态；\n"
                  "- 其他内容：合并并去重；\n"
                  "- 除非话题明显改变，否则保留 name；description 概括整张卡片。\n"
                  "如果新消息没有值得记住的内容，把 skip 设为 true：卡片保持不变。\n",
        "part": "对话很长，分几部分给出；这是第 {n} 部分。{more}整张卡片保持在大约 {chars} 个字符以内："
                "合并、精简，不要一味追加；description 保持一到三句话，概括整段对话。\n",
        "more": "后面还有更多部分。", "last": "这是最后一部分。",
        "earlier": "现有卡片已包含前面各部分的内容。",
        "card": _CARD.format(title="现有卡片"),
        "history": "\n# 最近的对话\n\n",
        "continued": "（续）",
        "source": "Image source: ",
        "images": "\n\n图片：每张图片都跟在它的“Image source:”行之后。视觉事实只能取自图片本身，并在陈述每条视觉事实的"
                  "同一句中注明确切来源：已保存的图片用给出的 wikilink（例如 [[session/images/...]]），"
                  "URL 图片用 Markdown 链接 [图片](URL)。保留已有的引用。"
                  "不要添加或修改 source_images 属性：它由系统维护。",
        "json": f"\n\n这里不能调用工具。请只回复一个 JSON 对象，不要有其他内容，格式如下：\n{_JSON_FORM}",
        "none": "（无）",
    },
}

TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": TOOL_NAME,
        "description": "Write the session's memory card, or skip it when nothing is worth remembering.",
        "parameters": {
            "type": "object",
            "properties": {
                "skip": {"type": "boolean", "description": "true when nothing is worth remembering"},
                "name": {"type": "string", "description": "the subject in 2-5 words, usable as a file name, no date"},
                "description": {"type": "string",
                                "description": "one to three sentences saying what happened (or the skip reason)"},
                "body": {"type": "string", "description": "the card's Markdown body"},
            },
            "required": ["skip", "name", "description", "body"],
        },
    },
}


def frame(request: DistillRequest, card: Card | None, lang: str, note: tuple[int, bool, int] | None,
          with_images: bool, text_mode: bool) -> tuple[str, str]:
    """The distiller's user prompt around the transcript: (before, after).

    ``note`` is (part number, more parts follow, the card's size bound in characters) for a conversation
    sent in parts.
    """
    t = TEXT[lang]
    # The export's own title says what the conversation is about: the model may name the card after it.
    hint = " ".join(filter(None, ((request.hint or "").strip(), f"(title: {request.title})" if request.title else "")))
    before = t["head"].format(day=request.day.isoformat(), session_id=request.session_id,
                              hint=" ".join(hint.split()) or t["none"])
    if note:
        more = t["more"] if note[1] else t["last"]
        before += t["part"].format(n=note[0], more=more + (" " + t["earlier"] if card and note[0] > 1 else ""),
                                   chars=note[2])
    before += t["update"] if card is not None else t["create"]
    if card is not None:
        before += t["card"].format(name=card.name, description=card.description, body=card.body.strip())
    after = (t["images"] if with_images else "") + (t["json"] if text_mode else "")
    return before + t["history"], after


# ---- the tagger: entity tags for one memory card --------------------------------------

TAG_SYSTEM: dict[str, str] = {
    "en": _flow("""
You tag the memory cards of a personal memory vault kept in Obsidian. A card is one Markdown note: YAML
properties between --- lines, then the body. Tags are retrieval keywords: they name the card's central
entities, the people, projects, products, tools, places and topics the card is about, so that a search for
any of them finds the card.

Choose tags that:
- name what the card is about, not what it mentions in passing; the most central first;
- keep each name as the card spells it (Priya_Shah, PostgreSQL, 宁德时代);
- are unique: never two tags for the same thing.

Each tag:
- has no whitespace inside: join words with _ (home_lab, Priya_Shah);
- may use technical punctuation: GPT-5, C++, C#, .NET, Node.js;
- has at least one letter or digit and at most 64 characters;
- is a string, numbers included ("2024", not 2024).

Never tag anything else: no dates, statuses, moods, generic words (note, summary, chat, user, assistant,
meeting) or sentences, and no leading #. Tags already in the card's properties are earlier suggestions: keep
those that still fit. When nothing in the card is worth a tag, answer with an empty list [].

Answer with {tags}: call the tool write_tags once when it is offered, otherwise reply with one JSON object
only.
""", " "),
    "zh": _flow("""
你为 Obsidian 中的个人记忆库给记忆卡片打标签。一张卡片是一篇 Markdown 笔记：--- 行之间的 YAML 属性，然后是正文。
标签是检索关键词：它们指出卡片的核心实体，即卡片所讲的人物、项目、产品、工具、地点和主题，
让搜索其中任何一个都能找到这张卡片。

选择这样的标签：
- 指出卡片讲的是什么，而不是顺带提到的内容；最核心的排在前面；
- 名称按卡片中的写法保留（Priya_Shah、PostgreSQL、宁德时代）；
- 互不重复：同一事物只用一个标签。

每个标签：
- 内部不含空白：多个词用 _ 连接（home_lab、Priya_Shah）；
- 可以使用技术符号：GPT-5、C++、C#、.NET、Node.js；
- 至少包含一个字母、汉字或数字，最多 64 个字符；
- 是字符串，数字也写成字符串（"2024"，不是 2024）。

不要标注其他任何内容：不要日期、状态、情绪、泛泛的词（笔记、总结、聊天、用户、助手、会议）或句子，
也不要开头的 #。卡片属性中已有的标签是先前的建议：仍然合适的就保留。卡片中没有值得打标签的内容时，
回答空列表 []。

用 {tags} 作答：提供了 write_tags 工具时调用它一次，否则只回复一个 JSON 对象。
""", ""),
}

_TAGS_FORM = '{"tags": ["...", "..."]}'
TAG_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "ask": "Tag this memory card with at most {max_tags} tags.\n\n<card>\n{card}\n</card>",
        "cut": "\n[… the rest of the card is left out: it does not fit the model's context]",
        "json": "\n\nTool calls are not available here. Reply with exactly one JSON object and nothing else, "
                f"in this form:\n{_TAGS_FORM}",
    },
    "zh": {
        "ask": "请为这张记忆卡片打最多 {max_tags} 个标签。\n\n<card>\n{card}\n</card>",
        "cut": "\n[……卡片其余部分超出模型的上下文，已省略]",
        "json": f"\n\n这里不能调用工具。请只回复一个 JSON 对象，不要有其他内容，格式如下：\n{_TAGS_FORM}",
    },
}

TAG_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": TAG_TOOL_NAME,
        "description": "Write the card's tags: entity-oriented retrieval keywords, or [] when nothing is useful.",
        "parameters": {
            "type": "object",
            "properties": {
                "tags": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "the card's central entities, most central first; no whitespace inside a tag "
                                   "(use _), at most 64 characters each",
                },
            },
            "required": ["tags"],
        },
    },
}
