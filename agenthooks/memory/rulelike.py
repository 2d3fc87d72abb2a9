"""Does a piece of an instruction file read as a standalone rule? What `agenthooks import`
offers from CLAUDE.md, AGENTS.md, ...: imperative or normative sentences (a list item, or
a sentence of prose that says must/never/always), never a bare link, a fragment of a
longer sentence, a command tip or a package blurb.

    judge("Never add yourself as a co-author")  -> Verdict(why="", binding=True)
    judge("[Contributing](CONTRIBUTING.md)")    -> Verdict(why="a link", binding=False)

`binding`: the text says must, never, always, don't, is required, ... (必须, 禁止, 不要, ...):
the rules the installer ticks first. Pure functions over strings; nothing is read here."""
from __future__ import annotations

import re
from dataclasses import dataclass

# Words that make a sentence a rule wherever they stand.
_STRONG_EN = re.compile(
    r"\b(must|mustn'?t|never|always|shall|don'?t|do\s+not|cannot|can'?t|"
    r"(?:is|are)\s+(?:required|forbidden|mandatory|prohibited|not\s+allowed|not\s+permitted)|"
    r"required\s+to|not\s+allowed\s+to|no\s+exceptions?|under\s+no\s+circumstances)\b", re.I)
_SOFT_EN = re.compile(r"\b(should(?:n'?t)?|should\s+not|prefer|avoid|ought\s+to|only\s+use)\b",
                      re.I)
_STRONG_ZH = re.compile(r"必须|禁止|不要|不得|严禁|切勿|务必|一律|不允许|不准|不许|绝不|永远不")
_SOFT_ZH = re.compile(r"应该|应当|尽量|避免|优先|请|统一|只用|只能")
# Verbs a rule is commonly written with, in the imperative (the first word).
_VERBS = frozenset("""
    add adopt annotate ask avoid be bump build call catch check choose clean close comment
    commit confirm consider create declare default delete deploy describe do document
    don't double-check edit enable disable ensure escape explain export favor favour fix
    follow format generate give group handle have import include install keep label leave
    let limit lint link list lock log make mark match mention merge migrate mock move name
    never note open pass pin place prefer prefix preserve prevent print profile protect
    push put quote raise read rebase record reduce refactor reference remember remove
    rename reply report request require reset resolve respect restart return reuse review
    run sanitize save scope search separate set sign skip sort split squash stage start
    state stick stop store submit suffix tag target test throw treat trust try type update
    upgrade use validate verify wait wrap write always only also please
    align append apply assert await bundle cache cap cover define delegate depend derive
    document emit encode expose extend extract fail fetch flag flush guard hide implement
    indent inject inline isolate lowercase uppercase memoize minimize normalize omit order
    parse poll prune rely replace retry revert rotate route seed serialize ship shorten
    simplify strip stub sync throttle translate trim unwrap vendor version watch pick
""".split())
# What points elsewhere rather than binding: "See docs/x.md", "For more, ...".
_POINTER = re.compile(r"^(see|refer\s+to|for\s+(more|details|further)|more\s+(info|details)|"
                      r"check\s+out|visit|details\s+(are\s+)?in|learn\s+more|read\s+more|"
                      r"参见|详见|参考)", re.I)
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>|\bhttps?://\S+")
_LABEL = re.compile(r"^(\*\*[^*]+\*\*|__[^_]+__|`[^`]+`|[\w@./-]+)\s*(?::|：|\s[-–—]\s|[–—])\s*(.*)$")
_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[A-Za-z0-9_'’-]+|[\u3400-\u9fff]")
# Alternatives: the items finish the lead-in sentence and mean nothing alone.
_ALTERNATIVES = re.compile(r"\b(one\s+of|either|any\s+of|at\s+least\s+one|one\s+or\s+more|"
                           r"the\s+following(\s+\w+)?|as\s+follows|such\s+as|including|"
                           r"e\.g\.|for\s+example)\b|以下|如下|之一", re.I)


@dataclass(frozen=True)
class Verdict:
    why: str  # "" when it reads as a standalone rule; else why not, in a few words
    binding: bool = False  # must / never / always / ...: ticked first


def plain(text: str, link: "LinkFix | None" = None) -> str:
    """Markdown made plain for tattoo.md: a link becomes its text (a repo path kept after
    it, when `link` resolves one), bold and italics lose their markers, code spans stay,
    whitespace runs become one space."""
    def sub(m: "re.Match[str]") -> str:
        label, target = m.group(1).strip(), m.group(2)
        if m.group(0).startswith("!"):
            return label
        path = link(target) if link is not None else None
        return f"{label} ({path})" if path and path != label else label or (path or "")

    t = _LINK.sub(sub, text)
    t = re.sub(r"<(https?://[^>\s]+)>", r"\1", t)
    t = re.sub(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", r"\2", t)
    t = re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"\1", t)
    return re.sub(r"\s+", " ", t).strip()


class LinkFix:
    """A relative link of a source file, as a path from the repo root (None: not one)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder  # the source file's folder, from the repo root ("" at the top)

    def __call__(self, target: str) -> str | None:
        import posixpath

        if not target or re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target, re.I):
            return None  # a URL, an anchor or an absolute path: the text says enough
        path = posixpath.normpath(posixpath.join(self.folder, target.split("#", 1)[0]))
        return None if path.startswith("..") or path == "." else path


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def _without_links(text: str) -> str:
    return _AUTOLINK.sub(" ", _LINK.sub(" ", text))


def _first_word(text: str) -> str:
    t = re.sub(r"^[\W_]+", "", text.lower().replace("’", "'"))
    m = re.match(r"[a-z][a-z'-]*", t)
    return m.group(0) if m else ""


def strength(text: str) -> str:
    """binding (must, never, ...), soft (should, prefer, avoid, ...) or ''."""
    if _STRONG_EN.search(text) or _STRONG_ZH.search(text):
        return "binding"
    if _SOFT_EN.search(text) or _SOFT_ZH.search(text):
        return "soft"
    return ""


def imperative(text: str) -> bool:
    """Opens with a verb in the imperative (Use, Run, Keep, ...; 请/使用 in Chinese)."""
    if _CJK.match(text.lstrip("*_` ")):
        return bool(re.match(r"^[*_` ]*(请|使用|采用|保持|运行|提交|不要|禁止|必须|务必|一律|统一|所有|每个)",
                             text))
    if _first_word(text) in _VERBS:
        return True
    # "Before opening a PR, run ...": a leading clause, then the imperative.
    m = re.match(r"^(before|after|when|whenever|if|once|unless|while|for|in|on|to)\b[^,]{1,80},\s*(.*)",
                 text, re.I)
    return m is not None and _first_word(m.group(2)) in _VERBS


def judge(text: str, *, prose: bool = False, under_negative: bool = False) -> Verdict:
    """TEXT (markdown, one item or sentence) as a rule. prose: a sentence of a paragraph,
    which must say must/never/always to count (prose is mostly explanation).
    under_negative: it sits under a heading like "Don'ts", whose sense it depends on."""
    t = text.strip()
    bare = _without_links(t)
    if not words(bare) or (len(words(bare)) < 2 and not _CJK.search(bare)):
        return Verdict("a link" if _LINK.search(t) or _AUTOLINK.search(t) else "a fragment")
    if len(words(bare)) < 3 and not _CJK.search(bare) and (_LINK.search(t) or _AUTOLINK.search(t)):
        return Verdict("a link")
    if _POINTER.match(plain(t)):
        return Verdict("a pointer to elsewhere")
    if t.rstrip("*_ ").endswith(("?", "？")):
        return Verdict("a question")
    if re.search(r"(,|;|\s(or|and|but|to|the|a|with|for))\s*$|…$|\.\.\.$", t, re.I):
        return Verdict("a fragment")
    level = strength(t)
    if under_negative and not re.search(r"\b(never|don'?t|do\s+not|avoid|no)\b|不要|禁止|避免",
                                        t, re.I):
        return Verdict("its sense depends on the heading above it")
    m = _LABEL.match(t)
    if m and not imperative(m.group(1).strip("*_`")):
        desc = m.group(2)
        if strength(desc) == "binding":
            return Verdict("", True)
        label = m.group(1)
        tip = label.startswith("`") and " " in label.strip("`").strip()
        return Verdict("a command tip" if tip else "a description")
    if t.startswith("`") and level != "binding":
        return Verdict("a command tip")
    if level == "binding" or re.match(r"^(no|none\s+of)\s+\w", t, re.I):
        return Verdict("", True)
    if prose:
        return Verdict("prose, not a rule")
    if level == "soft" or imperative(t) or re.match(r"^(every|all|each|any)\s+\w", t, re.I):
        return Verdict("")  # "Every API returns {code, data, msg}": a convention stated
    if t[:1].islower():
        return Verdict("a fragment")
    return Verdict("a description, not a rule")


def lead_in(text: str) -> bool:
    """TEXT opens a list: it ends with a colon."""
    return text.rstrip("*_ ").endswith((":", "："))


def alternatives(text: str) -> bool:
    """A lead-in whose items are choices or examples ("one of:", "such as:")."""
    return bool(_ALTERNATIVES.search(text))


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])[\"'”’)]*\s+(?=[A-Z`\"*\[(]|[\u3400-\u9fff])"
                           r"|(?<=[。！？])")
_ABBREV = re.compile(r"\b(e\.g|i\.e|etc|vs|cf|approx|incl|Mr|Dr|No)\.$", re.I)


def sentences(text: str) -> list[str]:
    """A paragraph's sentences, split after . ! ? (and 。！？), not after e.g. / i.e."""
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        piece = text[start:m.start()].strip()
        if piece and _ABBREV.search(piece):
            continue
        if piece:
            out.append(piece)
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def shorten(text: str, limit: int) -> tuple[str, int, int]:
    """The leading whole sentences of TEXT that fit LIMIT characters (never a cut inside
    one): (text, sentences kept, sentences in all). (text, n, n) when it fits."""
    parts = sentences(text)
    kept: list[str] = []
    for p in parts:
        if len(" ".join(kept + [p])) > limit:
            break
        kept.append(p)
    if not kept or len(kept) == len(parts):
        return text, len(parts), len(parts)
    return " ".join(kept), len(kept), len(parts)
