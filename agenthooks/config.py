"""The tunables in .agent/config.yaml: defaults, bounds, reading a user's file (read: the
values as the hooks see them; check: is it YAML), and migrations."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from agenthooks.errors import UserError


def yaml_module() -> ModuleType:
    """PyYAML, imported on first use: a fresh install never reads YAML, and importing it
    is about a tenth of the CLI's start."""
    import yaml

    return yaml


CONFIG_VERSION = 6

# Every framework registers the hooks with this timeout (Claude Code, Codex, Cursor, Copilot
# CLI: 30 s; Gemini CLI: 30000 ms), and a lock wait must end well before it: the hook still
# has its block to print. Beyond the cap a value is ignored, as any out-of-bounds value.
HOST_TIMEOUT = 30
LOCK_TIMEOUT_MAX = 20


@dataclass(frozen=True)
class Tunable:
    """One key of config.yaml, declared once: config.yaml's text, the hooks' defaults and
    reader, and the Python checks are all rendered or derived from this."""
    key: str
    default: Any
    comment: str  # the lines above the key in config.yaml
    var: str = ""  # the bash variable that carries it at run time
    bounds: tuple[int, int] | None = None  # whole numbers outside them are ignored
    comment_zh: str = ""  # the same, for a repo installed with --lang zh

    def comment_for(self, lang: str) -> str:
        return self.comment_zh if lang == "zh" and self.comment_zh else self.comment


TUNABLES: tuple[Tunable, ...] = (
    Tunable("budget_tokens", 500,
            "Injection budget in estimated tokens (one per CJK character, one per 4 other\n"
            "characters). Notes are cut first, then snapshot lines, rules last (with a warning).",
            "AH_BUDGET", (50, 20000),
            comment_zh="注入预算，按估算的 token 计（每个中日韩字符算一个，其他字符每 4 个算一个）。\n超出时先裁笔记，再裁快照行，规则最后裁（并给出警告）。"),
    Tunable("notes_count", 5, "How many of the latest notes (lines of memory/notes.md) the block carries.",
            "AH_NOTES", (0, 100),
            comment_zh="注入块带上 memory/notes.md 中最新的几条笔记。"),
    Tunable("stale_minutes", 10, "post_edit reminds the agent when memory/snapshot.md is older than this.",
            "AH_STALE", (0, 10080),
            comment_zh="memory/snapshot.md 超过这么多分钟未更新时，post_edit 提醒代理。"),
    Tunable("drop_percent", 40, "on_compact: a context length drop larger than this percent means a compaction.",
            "AH_DROP", (1, 99),
            comment_zh="on_compact：上下文长度下降超过这个百分比，视为一次压缩。"),
    Tunable("reload_turns", 20, "on_compact: reload anyway after this many prompts (0 = never).",
            "AH_TURNS", (0, 100000),
            comment_zh="on_compact：每隔这么多次提示无论如何重新加载一次（0 = 从不）。"),
    Tunable("summary_markers",
            "This session is being continued from a previous conversation"
            "|CONTEXT CHECKPOINT COMPACTION|<state_snapshot>",
            "Text that marks a conversation summary in a hook's input; '|' separates markers.",
            "AH_MARKERS",
            comment_zh="钩子输入中标志对话摘要的文本；用 '|' 分隔多个标记。"),
    Tunable("lock_timeout_seconds", 5,
            "Hooks wait this long for the lock before skipping their writes (memory is still printed).\n"
            f"At most {LOCK_TIMEOUT_MAX}: every host registration gives a hook {HOST_TIMEOUT} s in all.",
            "AH_LOCK_TIMEOUT", (0, LOCK_TIMEOUT_MAX),
            comment_zh="钩子等待锁的秒数，超时则跳过写入（记忆照样输出）。\n"
                       f"最多 {LOCK_TIMEOUT_MAX}：每个宿主的注册只给钩子共 {HOST_TIMEOUT} 秒。"),
    Tunable("log_max_kb", 256, "The audit log is rotated past this size; one old file (memory.log.1) is kept.",
            "AH_LOG_MAX_KB", (1, 102400),
            comment_zh="审计日志超过这个大小（KB）时轮转；保留一个旧文件（memory.log.1）。"),
    Tunable("fresh_after_compactions", 3,
            "After this many compactions in one session, the reloaded block recommends a fresh\n"
            "session (memory carries over); 0 = never.",
            "AH_FRESH", (0, 1000),
            comment_zh="同一会话被压缩这么多次后，重新注入的记忆块建议开启新会话（记忆会延续）；0 = 从不。"),
    Tunable("flush_at_percent", 75,
            "At a prompt, once the context is this full (percent of the window), on_compact asks the\n"
            "agent once to update memory/snapshot.md before the compaction (0 = never).",
            "AH_FLUSH", (0, 99),
            comment_zh="提示词到来时，上下文用到窗口的这个百分比，on_compact 就在压缩前提醒代理一次更新\nmemory/snapshot.md（0 = 从不）。"),
    Tunable("context_window_tokens", 200000,
            "The context window in tokens, for flush_at_percent, when the host does not say it.",
            "AH_WINDOW", (1000, 100000000),
            comment_zh="上下文窗口的 token 数，供 flush_at_percent 使用（宿主未给出时）。"),
    Tunable("board", "shared",
            "Where the progress board is: local (memory/boards/BRANCH.md, kept out of git: one per\n"
            "branch and worktree), branch (the same files, committed) or shared (memory/snapshot.md,\n"
            "one board, committed). Change it with 'agenthooks board --switch MODEL', which moves it.",
            "AH_BOARD",
            comment_zh="进度板放在哪里：local（memory/boards/分支名.md，不进 git：每个分支、每个 worktree\n"
            "各一份）、branch（同样的文件，提交进 git）或 shared（memory/snapshot.md，全仓库一份，提交）。\n"
            "用 'agenthooks board --switch 模式' 切换，它会搬移进度板。"),
    Tunable("summary_budget_tokens", 400,
            "At the host's pre-compaction event, the instructions for its summary (keep the rules,\n"
            "In progress, Key decisions, the latest request and the files being edited) take at most\n"
            "this many estimated tokens; Claude Code and OpenCode pass them to the summarizer (0 = none).",
            "AH_SUMMARY", (0, 4000),
            comment_zh="宿主压缩前，给它的摘要的指示（保留规则、进行中、关键决策、最新请求和正在编辑的文件）\n"
                       "最多占这么多估算 token；Claude Code 和 OpenCode 会把它交给摘要模型（0 = 不给）。"),
    Tunable("working_set_files", 8,
            "The working set the hooks keep per session: after a compaction the block names the last\n"
            "this many files the session edited and the user's latest request (0 = none).",
            "AH_WORKING", (0, 50),
            comment_zh="钩子按会话记下的工作集：压缩之后，记忆块列出该会话最近编辑的这么多个文件，\n"
                       "以及用户最新的请求（0 = 不记）。"),
    Tunable("subagent_budget_tokens", 300,
            "A subagent (Claude Code, Codex, Copilot CLI) starts with the project's rules and the\n"
            "board's In progress items, never the notes, in at most this many estimated tokens (0 = none).",
            "AH_SUBAGENT", (0, 4000),
            comment_zh="子代理（Claude Code、Codex、Copilot CLI）启动时得到项目约束和进度板的“进行中”条目，\n"
                       "不含笔记，最多占这么多估算 token（0 = 不给）。"),
    Tunable("subagent_skip", "Explore|explorer",
            "Subagent types that get no memory, '|' between them, any case: the hosts' read-only\n"
            "explorers (Claude Code's Explore, Copilot CLI's explore, Codex's explorer).",
            "AH_SKIP",
            comment_zh="不注入记忆的子代理类型，用 '|' 分隔，不分大小写：各宿主的只读探索代理\n"
                       "（Claude Code 的 Explore、Copilot CLI 的 explore、Codex 的 explorer）。"),
    Tunable("enabled", True, "false turns every hook into a silent no-op, without unregistering it.",
            "AH_ENABLED",
            comment_zh="设为 false 时所有钩子都变成静默的空操作，但不取消注册。"),
)

# config.yaml's opening comment, per language.
HEADER = {
    "en": ("agenthooks configuration: read by the hooks on every run, so an edit here takes\n"
           "effect on the next prompt. A value the hooks cannot read falls back to its default\n"
           "and is logged in .agent/log/memory.log. This file is yours: 'agenthooks install'\n"
           "never rewrites it, it only adds keys that newer versions introduce."),
    "zh": "agenthooks 配置：钩子每次运行都会读取，所以这里的修改在下一次提示时生效。\n钩子读不懂的值会退回默认值，并记在 .agent/log/memory.log。这个文件归你所有：\n'agenthooks install' 从不重写它，只会加入新版本引入的键。",
}

# Derived views, for the code that reads one aspect.
DEFAULTS: dict[str, Any] = {t.key: t.default for t in TUNABLES if not isinstance(t.default, bool)}
# The board models (config.yaml's board:). A config.yaml without the key predates boards: shared,
# as every repo had it; a new install writes local, the team default (answers.defaults).
BOARDS = ("local", "branch", "shared")
NEW_BOARD = "local"
# Keys the hooks read as true/false (true | yes | on | 1, false | no | off | 0).
BOOL_DEFAULTS: dict[str, bool] = {t.key: t.default for t in TUNABLES if isinstance(t.default, bool)}
# The same bounds are rendered into the hooks' reader; outside them a value is ignored.
INT_BOUNDS: dict[str, tuple[int, int]] = {t.key: t.bounds for t in TUNABLES if t.bounds}
# Bash variable that carries each whole-number key at run time.
BASH_VARS: dict[str, str] = {t.key: t.var for t in TUNABLES if t.bounds}


def bash_value(t: Tunable) -> str:
    """A tunable's default as the hooks' config reader holds it."""
    if isinstance(t.default, bool):
        return "1" if t.default else "0"
    return str(t.default)


def check_int(key: str, value: object) -> int:
    lo, hi = INT_BOUNDS[key]
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UserError(f"{key} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def check(path: Path) -> None:
    """An existing config.yaml must be YAML and a mapping, or a UserError says where not.
    Only a check: what the values are is read()'s answer, as the hooks read them."""
    yaml = yaml_module()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {path}: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None)
        raise UserError(
            f"{path} is not valid YAML{where}" + (f": {problem}" if problem else ""),
            hint="fix or delete it, then run agenthooks install again",
        ) from None
    if data is not None and not isinstance(data, dict):
        raise UserError(f"{path} must be a YAML mapping of key: value lines")


# Tunables only the memory tools read; the hooks ignore keys they do not know.
TOOL_DEFAULTS = {"lint_max_tattoo_lines": 200, "lint_max_rules": 20}
TOOL_BOUNDS = {"lint_max_tattoo_lines": (1, 100000), "lint_max_rules": (1, 10000)}
# YAML 1.1 booleans, as PyYAML reads them; the hooks' reader takes the same words (and 1/0).
YAML_TRUE = ("true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "1")
YAML_FALSE = ("false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "0")


def value(raw: str) -> str:
    """A top-level value as the hooks read it: a quoted value runs to its last quote (a '#'
    inside is text), an unquoted one to a blank followed by '#'."""
    raw = raw.rstrip("\r")
    val = raw.lstrip(" \t")
    if val[:1] == '"' and '"' in val[1:]:
        val = val[1:val.rindex('"')]
        return val.replace("\\\\", "\x01").replace('\\"', '"').replace("\x01", "\\")
    if val[:1] == "'" and "'" in val[1:]:
        return val[1:val.rindex("'")].replace("''", "'")
    return re.split(r"[ \t]#", raw, maxsplit=1)[0].strip(" \t")


def read(path: Path) -> dict[str, object]:
    """The values of config.yaml as the hooks read them: line by line, with the defaults for
    a missing file, an unknown key or an unreadable value. The one reader on the Python side."""
    out: dict[str, object] = {**DEFAULTS, **BOOL_DEFAULTS, **TOOL_DEFAULTS}
    bounds = {**INT_BOUNDS, **TOOL_BOUNDS}
    try:
        data = path.read_bytes() if path.is_file() else b""
    except OSError:
        data = b""
    text = data.decode("utf-8", errors="replace")
    for line in (text[1:] if text.startswith("\ufeff") else text).split("\n"):
        m = re.match(r"^([a-z][^:]*):(.*)$", line)
        if not m:
            continue
        key, val = m.group(1).rstrip(" \t"), value(m.group(2))
        if key in bounds:
            v = val.replace(" ", "").replace("\t", "")
            if v.isdigit() and v.isascii() and len(v) <= 9:
                n = int(v)
                lo, hi = bounds[key]
                if lo <= n <= hi:
                    out[key] = n
        elif key in ("summary_markers", "subagent_skip"):
            out[key] = val
        elif key == "board" and val in BOARDS:
            out[key] = val
        elif key in BOOL_DEFAULTS and val in YAML_TRUE + YAML_FALSE:
            out[key] = val in YAML_TRUE
    return out


# Migrations: config.yaml is the user's once written, so upgrades never re-render it.
# Each step takes the text at version N to N+1 by splicing text at YAML node offsets
# (pre-commit's migrate-config), so the user's values, comments and layout survive.
# Steps are idempotent: a key already present is left as it is.


def _compose(text: str) -> Any:
    yaml = yaml_module()
    try:
        return yaml.compose(text)
    except yaml.YAMLError:
        return None


def _top_keys(node: Any) -> dict[str, tuple[Any, Any]]:
    yaml = yaml_module()
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {k.value: (k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)}


def version_of(text: str) -> int:
    """The `version:` of a config.yaml text; a file without one predates versions (1)."""
    keys = _top_keys(_compose(text))
    if "version" not in keys:
        return 1
    try:
        return int(str(keys["version"][1].value))
    except (TypeError, ValueError):
        raise UserError("config.yaml: version must be a whole number",
                        hint="fix the version: line, then run agenthooks install again") from None


def _append_key(text: str, block: str) -> str:
    if text and not text.endswith("\n"):
        text += "\n"
    return text + block


def _v1_to_v2(text: str) -> str:
    if "enabled" in _top_keys(_compose(text)):
        return text
    return _append_key(text, "# false turns every hook into a silent no-op, without unregistering it.\n"
                             "enabled: true\n")


def _add_tunable(key: str) -> Callable[[str], str]:
    """A step that appends one tunable, with its comment, as TUNABLES declares it."""
    t = next(t for t in TUNABLES if t.key == key)

    def step(text: str) -> str:
        if key in _top_keys(_compose(text)):
            return text
        comment = "".join(f"# {line}\n" for line in t.comment.splitlines())
        return _append_key(text, f"{comment}{key}: {bash_value(t)}\n")
    return step


# From each version to the next: the keys it adds, each with its step (a key already there is kept).
MIGRATIONS: dict[int, tuple[tuple[str, Callable[[str], str]], ...]] = {
    1: (("enabled", _v1_to_v2),),
    2: (("fresh_after_compactions", _add_tunable("fresh_after_compactions")),),
    3: (("flush_at_percent", _add_tunable("flush_at_percent")),
        ("context_window_tokens", _add_tunable("context_window_tokens"))),
    # A repo from before boards keeps its one board, memory/snapshot.md, until it switches; the
    # compaction's shaping comes in the same release.
    4: (("board", _add_tunable("board")),
        ("summary_budget_tokens", _add_tunable("summary_budget_tokens")),
        ("working_set_files", _add_tunable("working_set_files"))),
    5: (("subagent_budget_tokens", _add_tunable("subagent_budget_tokens")),
        ("subagent_skip", _add_tunable("subagent_skip"))),
}


def _set_version(text: str, version: int) -> str:
    yaml = yaml_module()
    node = _compose(text)
    keys = _top_keys(node)
    if "version" in keys:
        return set_values(text, {"version": version})[0]
    line = f"version: {version}\n"
    if isinstance(node, yaml.MappingNode) and node.value:
        at = node.value[0][0].start_mark.index
        return text[:at] + line + text[at:]
    return _append_key(text, line)


def set_values(text: str, values: dict[str, Any]) -> tuple[str, list[str]]:
    """Set top-level keys by splicing their value's text, so comments and layout stay;
    a missing key is appended. (new text, ["key old -> new", ...] for what changed)."""
    changes = []
    for key, value in values.items():
        keys = _top_keys(_compose(text))
        if key in keys:
            node = keys[key][1]
            old = str(node.value)
            if old == str(value):
                continue
            text = text[:node.start_mark.index] + str(value) + text[node.end_mark.index:]
            changes.append(f"{key} {old} -> {value}")
        else:
            text = _append_key(text, f"{key}: {value}\n")
            changes.append(f"{key} {value}")
    return text, changes


def migrate(text: str) -> tuple[str, int, int, list[str]]:
    """(new text, from version, to version, keys added). Same text back when the file
    is already at CONFIG_VERSION (or newer: never downgraded)."""
    yaml = yaml_module()
    node = _compose(text)
    if node is not None and not isinstance(node, yaml.MappingNode):
        raise UserError("config.yaml must be a YAML mapping of key: value lines")
    if isinstance(node, yaml.MappingNode) and node.flow_style:
        raise UserError("config.yaml: write one key: value per line, not a {...} mapping")
    start = version_of(text)
    if start >= CONFIG_VERSION:
        return text, start, start, []
    added = []
    for version in range(start, CONFIG_VERSION):
        for key, step in MIGRATIONS[version]:
            new = step(text)
            if new != text:
                added.append(key)
            text = new
    return _set_version(text, CONFIG_VERSION), start, CONFIG_VERSION, added
