"""agenthooks lint: checks .agent/memory/ against the rules of the method.

R1 tattoo size and one rule a line; R2/R13 snapshot sections and edit-log growth, and
Tried and failed kept to the few lines the block carries; R22 contradictions between and
within files (en and zh); repo paths memory names that no longer exist; secrets
(agenthooks.redact, the patterns the hooks redact with). Findings read
`path:line: level: message`."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from agenthooks import redact
from agenthooks.memory import boards, parse


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    level: str  # error | warning
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.level}: {self.message}"


# Messages, English and Chinese (the repo's --lang): `path:line: level:` stays as it is
# for programs; the text after it is for the person.
MESSAGES: dict[str, tuple[str, str]] = {
    "tattoo_lines": (
        "tattoo has {n} lines, over the limit of {max} (lint_max_tattoo_lines): past ~200 lines "
        "rules stop being followed",
        "tattoo 有 {n} 行，超过上限 {max}（lint_max_tattoo_lines）：超过约 200 行，规则就不再被遵守"),
    "tattoo_rules": (
        "{n} rules, over the limit of {max} (lint_max_rules): keep only rules whose violation "
        "means a rollback, 3-5 per dimension",
        "{n} 条规则，超过上限 {max}（lint_max_rules）：只保留违反就必须回滚的规则，每个维度 3-5 条"),
    "code_block": ("code block in tattoo: write each rule as one line",
                   "tattoo 里有代码块：每条规则写成一行"),
    "continues": ("continues the rule on line {no}: one rule, one line",
                  "接续第 {no} 行的规则：一条规则一行"),
    "backslash": ("rule ends with '\\' and runs on: one rule, one line",
                  "规则以 '\\' 结尾并延续到下一行：一条规则一行"),
    "long_rule": ("rule is {n} characters long: one short imperative line",
                  "规则长 {n} 个字符：写成一行简短的祈使句"),
    "missing_file": ("missing: pre_task creates it from the template on the next run",
                     "缺失：pre_task 下次运行时会按模板创建"),
    "missing_section": (
        "missing section '## {title}' ({want}); the snapshot needs Goal, Done, In progress, "
        "Todo, Key decisions",
        "缺少小节 '## {title}'（{want}）；快照需要 目标、已完成、进行中、待办、关键决策"),
    "edit_log": (
        "snapshot reads like an edit log: {n} of {total} items record single edits, line numbers "
        "or diffs (lines {shown}); keep it a progress board: one item per step, not per edit",
        "快照像一份编辑记录：{total} 项中有 {n} 项记录单次编辑、行号或 diff（第 {shown} 行）；"
        "它是进度板：一步一项，而不是一次编辑一项"),
    "many_items": (
        "snapshot has {n} items: summarise, or archive finished work with 'agenthooks archive'",
        "快照有 {n} 项：请归纳，或用 'agenthooks archive' 归档已完成的工作"),
    "failed_many": (
        "'{title}' has {n} entries: the agent sees only the latest {shown}, the {old} older ones "
        "(from this line) never reach it: delete them, or move one that still binds to Key decisions",
        "'{title}' 有 {n} 条：agent 只看到最近 {shown} 条，较早的 {old} 条（从本行起）不会给到它："
        "请删除它们，或把仍然有效的移到关键决策"),
    "failed_long": (
        "entry is {n} characters long: one short line, what was tried and why it failed",
        "这一条长 {n} 个字符：写成简短的一行，试了什么、为什么失败"),
    "stale_ref": (
        "names {path}, which is not in the repo (renamed or deleted?): update the line or remove it",
        "提到的 {path} 在仓库中不存在（已改名或删除？）：请更新或删除这一行"),
    "contradicts": (
        "contradicts {where}: '{b}' vs '{a}'; memory files must agree, fix one of them",
        "与 {where} 矛盾：'{b}' 对 '{a}'；记忆文件必须一致，请改正其中之一"),
    "secret": (
        "looks like a secret ({names}): the hooks redact this line; remove it and rotate the secret",
        "疑似密钥（{names}）：钩子会遮蔽这一行；请删除它并更换该密钥"),
    "unclosed_comment": (
        "'<!--' is not closed by '-->' before the next blank line: lines {a}-{b} are not loaded; "
        "close the comment",
        "'<!--' 在下一个空行之前没有用 '-->' 闭合：第 {a}-{b} 行不会被加载；请闭合注释"),
    "unclosed_comment_rules": (
        "'<!--' is not closed by '-->' before the next blank line: lines {a}-{b} are loaded as "
        "rules; close the comment or delete '<!--'",
        "'<!--' 在下一个空行之前没有用 '-->' 闭合：第 {a}-{b} 行会作为规则加载；请闭合注释或删除 '<!--'"),
    "after_comment": ("text after '-->' on this line is not loaded: put it on its own line",
                      "本行 '-->' 之后的文字不会被加载：请把它放到单独一行"),
    "delimiter": (
        "looks like the memory block's delimiter (spelled with lookalike or invisible characters "
        "too): the hooks show it as agent-memory(quoted)",
        "看起来像记忆块的分隔行（包括用形近或不可见字符拼写的）：钩子会把它显示为 agent-memory(quoted)"),
    "dup_source": (
        "same rule as {where}, which its host loads itself: keep both only if it must hold "
        "on every host",
        "与 {where} 的规则相同，其宿主会自行加载：只有当它必须在所有宿主上生效时才两处都保留"),
    "partial": (
        "over {kb} KB: read in part, its {where} {kb} KB, as the hooks read it; the rest "
        "never reaches the agent: trim the file",
        "超过 {kb} KB：只读取了一部分（{where} {kb} KB），与钩子读取的相同；其余部分不会给到 agent：请精简该文件"),
    "not_utf8": (
        "not UTF-8 ({enc}): the hooks read bytes as UTF-8, so the agent gets garbage; "
        "save the file as UTF-8",
        "不是 UTF-8（{enc}）：钩子按 UTF-8 读取，agent 得到的是乱码；请把文件另存为 UTF-8"),
    "summary": ("agenthooks lint: {errors} error(s), {warnings} warning(s)",
                "agenthooks lint: {errors} 个错误，{warnings} 个警告"),
    "clean": ("agenthooks lint: memory is clean", "agenthooks lint: 记忆文件没有问题"),
}


def say(lang: str, key: str, **values: object) -> str:
    en, zh = MESSAGES[key]
    return (zh if lang == "zh" else en).format(**values)


# --- R1: tattoo -------------------------------------------------------------------------

LONG_LINE = 400  # characters: past it, a rule or a dead end is no longer one short line
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)、]|[（(]?\d+[)）])\s*(?:\[[ xX]\]\s*)?")


def check_tattoo(mf: parse.MemFile, max_lines: int, max_rules: int, level: str,
                 lang: str = "en") -> list[Finding]:
    out: list[Finding] = []
    if not mf.exists:
        return out
    if len(mf.raw) > max_lines:
        out.append(Finding(mf.label, max_lines + 1, level,
                           say(lang, "tattoo_lines", n=len(mf.raw), max=max_lines)))
    rules = parse.rules(mf)
    if len(rules) > max_rules:
        out.append(Finding(mf.label, rules[max_rules].no, level,
                           say(lang, "tattoo_rules", n=len(rules), max=max_rules)))
    prev: parse.Line | None = None
    infence = False
    for ln in rules:
        s = ln.text
        if s.lstrip().startswith("```") or s.lstrip().startswith("~~~"):
            if not infence:
                out.append(Finding(mf.label, ln.no, level,
                                   say(lang, "code_block")))
            infence = not infence
            prev = ln
            continue
        if infence:
            continue
        if prev is not None and re.match(r"^[ \t]+\S", s) and not re.match(r"^#", prev.text):
            out.append(Finding(mf.label, ln.no, level,
                               say(lang, "continues", no=prev.no)))
            continue
        if s.rstrip().endswith("\\"):
            out.append(Finding(mf.label, ln.no, level,
                               say(lang, "backslash")))
        elif len(s) > LONG_LINE:
            out.append(Finding(mf.label, ln.no, "warning",
                               say(lang, "long_rule", n=len(s))))
        prev = ln
    return out


# --- R2, R13: snapshot ------------------------------------------------------------------

_EDIT_LOG = [re.compile(p, re.I) for p in (
    r"\b(edit|chang|modif|updat|fix|add|remov|delet|renam|tweak|replac|touch|refactor)\w*\b.{0,40}?\blines?\s+\d+",
    r"\blines?\s+\d+\s*(-|–|to|\.\.)\s*\d+",
    r"\bL\d+(-L?\d+)?\b",
    r"(^|[\s(`'\"])[\w./-]+\.[A-Za-z][A-Za-z0-9]{0,5}:\d+",
    r"(^|\s)[+-]\d+\s+lines?\b|\+\d+\s*/\s*-\d+|\b\d+\s+(insertions?|deletions?)\b"
    r"|\b\d+\s+lines?\s+(added|removed|changed|deleted|edited)\b",
    r"^\s*(?:[-*+]\s*)?(?:\[[ xX]\]\s*)?(edited|changed|modified|updated|tweaked|touched|"
    r"renamed|replaced|removed|deleted|added)\s",
    r"^(@@ -\d+|diff --git |(\+\+\+|---) [ab]/|index [0-9a-f]{7,}\.\.)",
    r"第\s*\d+\s*(-|到|至)?\s*\d*\s*行",
    r"^\s*(?:[-*+]\s*)?(?:\[[ xX]\]\s*)?(修改|改动|编辑|更新|改|删除|新增|增加|替换)了",
    r"(增加|删除|新增|修改|改动|删掉)了?\s*\d+\s*行",
)]


def is_edit_log(s: str) -> bool:
    return any(rx.search(s) for rx in _EDIT_LOG)


def check_snapshot(mf: parse.MemFile, lang: str) -> list[Finding]:
    out: list[Finding] = []
    if not mf.exists:
        out.append(Finding(mf.label, 1, "warning", say(lang, "missing_file")))
        return out
    secs = parse.sections(mf)
    have = {s.key for s in secs}
    titles = parse.SECTION_TITLES[lang]
    for key in parse.SECTION_KEYS:
        if key not in have:
            want = " / ".join(t[key] for t in parse.SECTION_TITLES.values())
            out.append(Finding(mf.label, 1, "error",
                               say(lang, "missing_section", title=titles[key], want=want)))
    items = [ln for s in secs for ln in s.items]
    raw_diff = [parse.Line(i, s) for i, s in enumerate(mf.raw, 1)
                if re.match(r"^(@@ -\d+|diff --git |(\+\+\+|---) [ab]/)", s)]
    flagged = sorted({ln.no for ln in items if is_edit_log(ln.text)} | {ln.no for ln in raw_diff})
    total = max(len(items), 1)
    if len(flagged) >= 5 or (len(flagged) >= 3 and len(flagged) * 2 >= total):
        shown = ", ".join(str(n) for n in flagged[:8]) + (", ..." if len(flagged) > 8 else "")
        out.append(Finding(mf.label, flagged[0], "error",
                           say(lang, "edit_log", n=len(flagged), total=len(items), shown=shown)))
    if len(items) > 80:
        out.append(Finding(mf.label, items[80].no, "warning",
                           say(lang, "many_items", n=len(items))))
    return out + check_failed(mf, secs, lang)


def check_failed(mf: parse.MemFile, secs: list[parse.Section], lang: str) -> list[Finding]:
    """Tried and failed: the block carries only its latest few lines, each kept short."""
    failed = [s for s in secs if s.key == "failed"]
    items = [ln for s in failed for ln in s.items]
    out: list[Finding] = []
    old = len(items) - parse.FAILED_SHOWN
    if old > 0:
        out.append(Finding(mf.label, items[0].no, "warning", say(
            lang, "failed_many", title=failed[0].title, n=len(items), shown=parse.FAILED_SHOWN,
            old=old)))
    for ln in items:
        if len(ln.text) > LONG_LINE:
            out.append(Finding(mf.label, ln.no, "warning", say(lang, "failed_long", n=len(ln.text))))
    return out


# --- R22: contradictions ----------------------------------------------------------------

_CLAUSE_SPLIT = re.compile(r"[,;.!?，；。！？、]|\s+but\s+|\s+and\s+(?=never|not|don|no\b)|但是?|而不是(?=.)")
_NEG_EN = r"(?:never|don'?t|do\s+not|must\s+not|mustn'?t|should\s+not|shouldn'?t|may\s+not|cannot|can'?t|avoid|stop|no\s+longer|forbid(?:den)?|ban(?:ned)?)"
_VERBS_EN = {
    "use": "use", "using": "use", "prefer": "use", "adopt": "use", "add": "add", "introduce": "add",
    "write": "write", "call": "call", "commit": "commit", "push": "push", "run": "run",
    "import": "import", "return": "return", "mock": "mock", "edit": "edit", "modify": "edit",
    "touch": "edit", "put": "add", "log": "log", "catch": "catch", "raise": "raise", "throw": "raise",
}
_VERBS_ZH = {
    "使用": "use", "采用": "use", "改用": "use", "用": "use", "引入": "add", "添加": "add",
    "加": "add", "写": "write", "调用": "call", "提交": "commit", "推送": "push", "运行": "run",
    "导入": "import", "返回": "return", "修改": "edit", "改": "edit", "抛出": "raise", "捕获": "catch",
}
_VZH = "|".join(sorted(_VERBS_ZH, key=len, reverse=True))
_VEN = "|".join(_VERBS_EN)
_NEG_ZH = r"(?:禁止|不要|不得|不准|不许|严禁|切勿|避免|不能|不可|别|勿|不再|不用)"
_STOP = {"the", "a", "an", "all", "only", "always", "ever", "for", "to", "in", "of", "on",
         "with", "your", "our", "this", "that", "these", "those", "it", "them", "please", "directly"}
_SYN = {"制表符": "tab", "tabs": "tab", "tab键": "tab", "空格": "space", "spaces": "space"}


def _norm(s: str) -> str:
    return unicodedata.normalize("NFKC", s).casefold()


def _subject(text: str) -> str:
    text = _norm(text)
    text = re.sub(r"[`'\"“”‘’()\[\]{}<>（）【】《》「」]", " ", text)
    words = []
    for w in re.findall(r"[a-z0-9_+#./-]+|[\u3400-\u9fff]+", text):
        w = w.strip("./-")
        if not w or w in _STOP:
            continue
        w = _SYN.get(w, w)
        if re.fullmatch(r"[a-z]{4,}s", w) and not w.endswith("ss"):
            w = w[:-1]
        words.append(w)
    return " ".join(words[:6])


@dataclass(frozen=True)
class Claim:
    kind: str  # "do:VERB:SUBJECT" | "indent"
    positive: bool
    value: str  # for indent: tab | space | width:N
    where: tuple[str, int]
    text: str
    weight: str  # error | warning: how strongly this file binds


def _clauses(s: str) -> list[str]:
    s = _BULLET.sub("", s, count=1)
    return [c.strip() for c in _CLAUSE_SPLIT.split(s) if c and c.strip()]


def _directives(clause: str) -> list[tuple[bool, str, str]]:
    c = _norm(clause)
    out = []
    m = re.search(rf"\b{_NEG_EN}\s+(?:(?:ever|any)\s+)?(?:({_VEN})\s+)?(.+)", c)
    if m:
        out.append((False, _VERBS_EN.get(m.group(1) or "use", "use"), m.group(2)))
    else:
        m = re.match(r"^(?:no|without)\s+(.+)", c) or re.match(
            r"^(.+?)\s+(?:is|are)\s+(?:forbidden|banned|not allowed|prohibited)\b", c)
        if m:
            out.append((False, "use", m.group(1)))
        else:
            m = re.match(rf"^(?:(?:always|must|should|please|only)\s+)*({_VEN})\s+(.+)", c) or \
                re.search(rf"\b(?:always|must|should)\s+({_VEN})\s+(.+)", c)
            if m:
                out.append((True, _VERBS_EN[m.group(1)], m.group(2)))
    if re.search(r"[\u3400-\u9fff]", c):
        m = re.search(rf"{_NEG_ZH}\s*({_VZH})?\s*(.+)", c)
        if m:
            out.append((False, _VERBS_ZH.get(m.group(1) or "使用", "use"), m.group(2)))
        else:
            m = re.match(rf"^(?:必须|务必|一律|总是|始终|统一|请|只|仅)?\s*({_VZH})\s*(.+)", c) or \
                re.search(rf"(?:必须|务必|一律|总是|始终|统一)\s*({_VZH})\s*(.+)", c)
            if m:
                out.append((True, _VERBS_ZH[m.group(1)], m.group(2)))
    return [(pos, verb, _subject(obj)) for pos, verb, obj in out if _subject(obj)]


_TAB = re.compile(r"\btabs?\b|制表符|tab\s*键|\\t")
_SPACE = re.compile(r"\bspaces?\b|空格")
_WIDTH = re.compile(r"(\d{1,2})\s*(?:-|个|格)?\s*(?:spaces?|空格|格缩进)"
                    r"|indent(?:ation|ed|s)?\s*(?:width|size|level)?\s*(?:of|=|:|is|to|by|with|at)?\s*(\d{1,2})\b"
                    r"|缩进\s*(?:为|是|用|使用)?\s*(\d{1,2})")
_NEG_BEFORE = re.compile(r"\b(never|no|not|don'?t|avoid|without|instead\s+of|rather\s+than|"
                         r"forbid\w*|ban\w*)\b|禁止|不要|不用|不得|不准|严禁|别|勿|而不是|不是|避免")
_INDENT_CTX = re.compile(r"indent|缩进|\btabs?\b|制表符")


def _indent_claims(clause: str, line_text: str) -> list[tuple[bool, str]]:
    c = _norm(clause)
    out = []
    for rx, value in ((_TAB, "tab"), (_SPACE, "space")):
        m = rx.search(c)
        if not m:
            continue
        if value == "space" and not (_INDENT_CTX.search(_norm(line_text)) or _WIDTH.search(c)):
            continue
        neg = bool(_NEG_BEFORE.search(c[: m.start()]))
        out.append((not neg, value))
    m = _WIDTH.search(c)
    if m and not _NEG_BEFORE.search(c[: m.start()]):
        n = next(g for g in m.groups() if g)
        if 1 <= int(n) <= 16:
            out.append((True, f"width:{int(n)}"))
    return out


def claims(label: str, lines: Iterable[parse.Line], weight: str) -> list[Claim]:
    out = []
    for ln in lines:
        if redact.find_secrets(ln.text):
            continue
        for clause in _clauses(ln.text):
            for pos, verb, subj in _directives(clause):
                out.append(Claim(f"do:{verb}", pos, subj, (label, ln.no), clause, weight))
            for pos, value in _indent_claims(clause, ln.text):
                out.append(Claim("indent", pos, value, (label, ln.no), clause, weight))
    return out


def _same_subject(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < 2 or not long_.startswith(short):
        return False
    nxt = long_[len(short)]
    return nxt == " " or "\u3400" <= nxt <= "\u9fff"


def _conflict(a: Claim, b: Claim) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind == "indent":
        va, vb = a.value, b.value
        if va.startswith("width:") and vb.startswith("width:"):
            return a.positive and b.positive and va != vb
        if va.startswith("width:") or vb.startswith("width:"):
            other = vb if va.startswith("width:") else va
            pos = b.positive if va.startswith("width:") else a.positive
            return other == "tab" and pos and a.positive and b.positive
        if va == vb:
            return a.positive != b.positive
        return a.positive and b.positive  # tabs and spaces both required
    return a.positive != b.positive and _same_subject(a.value, b.value)


def check_contradictions(groups: list[list[Claim]], lang: str = "en") -> list[Finding]:
    allc = [c for g in groups for c in g]
    out: list[Finding] = []
    seen: set[tuple[tuple[str, int], tuple[str, int]]] = set()
    # Only claims of one kind can conflict, and directives only of opposite polarity:
    # pairs taken within those buckets, in the order of the full pairwise walk, so a
    # tattoo of thousands of agreeing rules is checked in linear time.
    by_kind: dict[str, list[int]] = {}
    for i, c in enumerate(allc):
        by_kind.setdefault(c.kind, []).append(i)
    pairs: list[tuple[int, int]] = []
    for kind_, idx in by_kind.items():
        if kind_.startswith("do:"):
            pos = [i for i in idx if allc[i].positive]
            neg = [i for i in idx if not allc[i].positive]
            pairs += [(min(p, n), max(p, n)) for p in pos for n in neg]
        else:
            pairs += [(x, y) for k, x in enumerate(idx) for y in idx[k + 1:]]
    for i, j in sorted(pairs):
        a, b = allc[i], allc[j]
        if a.where == b.where or not _conflict(a, b):
            continue
        key = (a.where, b.where)
        if key in seen:
            continue
        seen.add(key)
        level = "error" if a.weight == b.weight == "error" else "warning"
        where = f"{a.where[0]}:{a.where[1]}"
        out.append(Finding(b.where[0], b.where[1], level,
                           say(lang, "contradicts", where=where, b=b.text, a=a.text)))
    return out


# --- the host's own instruction files (CLAUDE.md, AGENTS.md, ...) -----------------------

def check_sources(root: Path, tat: parse.MemFile, lang: str = "en") -> list[Finding]:
    """Tattoo rules that repeat or contradict a rule of an instruction file: warnings,
    found on the tattoo line (the source files are the user's, lint only reads them)."""
    from agenthooks.memory import decided, promote, sources

    items = [it for it in sources.all_items(root) if not it.why]
    if not items or not tat.exists:
        return []
    rules = parse.rules(tat)
    out: list[Finding] = []
    keys: dict[str, str] = {}
    for it in items:
        keys.setdefault(promote.key(it.text), f"{it.source}:{it.line}")
    imported = decided.imported_keys(root)  # brought by an import on purpose: no finding
    for ln in rules:
        where = keys.get(promote.key(ln.text))
        if where and promote.key(ln.text) and promote.key(ln.text) not in imported:
            out.append(Finding(tat.label, ln.no, "warning", say(lang, "dup_source", where=where)))
    theirs = [c for it in items
              for c in claims(it.source, [parse.Line(it.line, it.text)], "warning")]
    for b in claims(tat.label, rules, "warning"):
        for a in theirs:
            if _conflict(a, b):
                out.append(Finding(b.where[0], b.where[1], "warning", say(
                    lang, "contradicts", where=f"{a.where[0]}:{a.where[1]}", b=b.text, a=a.text)))
    return out


# --- a monorepo's packages ---------------------------------------------------------------

def check_scopes(repo: parse.Repo, max_lines: int, max_rules: int,
                 lang: str = "en") -> list[Finding]:
    """Each package's rules file (.agent/memory/scopes/PACKAGE/tattoo.md) as tattoo.md is
    checked: size, one rule a line, contradictions within it, secrets, comments."""
    out: list[Finding] = []
    for scope in repo.scopes():
        mf = repo.tattoo_of(scope, parse.HOOK_CAP)
        out += check_read(mf, lang) + check_tattoo(mf, max_lines, max_rules, "error", lang)
        out += check_contradictions([claims(mf.label, parse.rules(mf), "error")], lang)
        out += check_secrets(mf, lang=lang) + check_markup(mf, lang)
    return out


# --- stale references ------------------------------------------------------------------

def check_refs(root: Path, files: Iterable[parse.MemFile], lang: str = "en") -> list[Finding]:
    """Repo paths named in memory lines that no longer exist (agenthooks.memory.refs)."""
    from agenthooks.memory import refs

    checker = refs.Checker(root)
    out = []
    for mf in files:
        lines = [(ln.no, ln.text) for ln, ok in
                 parse.content_lines(mf.raw, unclosed_hides=not mf.label.endswith("tattoo.md"))
                 if ok and not ln.text.startswith("#")]
        for st in checker.stale(lines):
            out.append(Finding(mf.label, st.line, "warning", say(lang, "stale_ref", path=st.path)))
    return out


# --- secrets ----------------------------------------------------------------------------

def check_secrets(mf: parse.MemFile, level: str = "error", lang: str = "en") -> list[Finding]:
    # Every line the hooks redact: those a pattern matches, and a private key's body.
    return [Finding(mf.label, i, level, say(lang, "secret", names=", ".join(names)))
            for i, names in sorted(redact.secret_lines(mf.raw).items())]


# --- comments and delimiters ----------------------------------------------------------

def check_markup(mf: parse.MemFile, lang: str = "en") -> list[Finding]:
    """Comments that hide more than their author meant, and delimiter lookalikes."""
    out: list[Finding] = []
    opened = 0
    for ln, ok in parse.content_lines(mf.raw) + [(parse.Line(len(mf.raw) + 1, ""), False)]:
        s = ln.text
        if opened and (not s.strip(" \t\r") or "-->" in s):
            if "-->" not in s:
                out.append(Finding(mf.label, opened, "error",
                                   say(lang, "unclosed_comment_rules" if mf.label.endswith("tattoo.md")
                                       else "unclosed_comment", a=opened, b=ln.no - 1)))
            opened = 0
        elif not opened and not ok and re.match(r"^[ \t]*<!--", s) and "-->" not in s:
            opened = ln.no
        if not ok and "-->" in s and s.rsplit("-->", 1)[1].strip(" \t\r"):
            out.append(Finding(mf.label, ln.no, "warning", say(lang, "after_comment")))
        if redact.looks_like_delimiter(s):
            out.append(Finding(mf.label, ln.no, "warning", say(lang, "delimiter")))
    return out


# --- run --------------------------------------------------------------------------------

def check_read(mf: parse.MemFile, lang: str = "en") -> list[Finding]:
    """A file the hooks read in part, or one that is not UTF-8."""
    out = []
    if mf.partial:
        out.append(Finding(mf.label, 1, "warning", say(
            lang, "partial", kb=parse.HOOK_CAP // 1024,
            where="last" if mf.path.name == "notes.md" else "first")))
    if mf.encoding:
        out.append(Finding(mf.label, 1, "warning", say(lang, "not_utf8", enc=mf.encoding)))
    return out


def lint(repo: parse.Repo) -> list[Finding]:
    cfg = repo.config()
    max_lines = int(cfg["lint_max_tattoo_lines"])  # type: ignore[call-overload]
    max_rules = int(cfg["lint_max_rules"])  # type: ignore[call-overload]
    cap = parse.HOOK_CAP
    tat, snap, notes = (repo.file("tattoo", cap), repo.file("snapshot", cap),
                        repo.file("notes", cap))
    lang = repo.lang
    user = repo.user_tattoo(cap)
    found: list[Finding] = []
    for mf in (tat, snap, notes, *([user] if user is not None else [])):
        found += check_read(mf, lang)
    if not tat.exists:
        found.append(Finding(tat.label, 1, "warning", say(lang, "missing_file")))
    found += check_tattoo(tat, max_lines, max_rules, "error", lang)
    if user is not None:
        found += check_tattoo(user, max_lines, max_rules, "warning", lang)
    # A branch's board not started yet (board: local, branch) is normal: nothing to check.
    if snap.exists or not boards.is_branch_board(repo.agent, snap.path):
        found += check_snapshot(snap, repo.lang)
    groups = []
    if user is not None:
        groups.append(claims(user.label, parse.rules(user), "warning"))
    groups.append(claims(tat.label, parse.rules(tat), "error"))
    # Done and Tried and failed are history: "use X" there is no rule to contradict.
    groups.append(claims(snap.label, [ln for s in parse.sections(snap)
                                      if s.key not in ("done", "failed") for ln in s.items], "error"))
    groups.append(claims(notes.label, parse.notes(notes), "warning"))
    found += check_contradictions(groups, lang)
    found += check_sources(repo.root, tat, lang)
    found += check_scopes(repo, max_lines, max_rules, lang)
    found += check_refs(repo.root, (tat, snap, notes), lang)
    for mf in (tat, snap, notes):
        found += check_secrets(mf, lang=lang) + check_markup(mf, lang)
    if user is not None:
        found += check_secrets(user, "warning", lang)
    for p in repo.archives():
        found += check_secrets(parse.load_file(p, str(p.relative_to(repo.root)), cap), lang=lang)
    order = {tat.label: 0, snap.label: 1, notes.label: 2}
    return sorted(set(found), key=lambda f: (order.get(f.path, 3), f.path, f.line, f.message))


def run(dir_: Path | None, echo: Callable[[str], None], quiet: bool = False) -> int:
    repo = parse.find_repo(dir_)
    found = lint(repo)
    errors = sum(f.level == "error" for f in found)
    warnings = len(found) - errors
    for f in found:
        if not (quiet and f.level != "error"):
            echo(str(f))
    if found or not quiet:
        echo(say(repo.lang, "summary", errors=errors, warnings=warnings)
             if found else say(repo.lang, "clean"))
    return 1 if errors else 0
