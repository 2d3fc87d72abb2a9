"""A scripted mock model API on 127.0.0.1 for the real agent CLIs (stdlib only).

One server speaks three wire formats, chosen by the request path:

- ``claude``: Anthropic ``POST /v1/messages`` (streamed SSE or plain JSON);
- ``gemini``: ``POST /v1beta/models/M:streamGenerateContent?alt=sse`` and
  ``:generateContent`` (utility calls get schema-shaped JSON);
- ``codex``: OpenAI Responses ``POST /v1/responses`` (SSE; Codex, Copilot CLI);
- ``chat``: OpenAI Chat Completions ``POST /v1/chat/completions`` (SSE or plain
  JSON; OpenCode, Cline CLI, Aider).

Each dialect has its own queue of scripted replies (:func:`text`,
:func:`write`, :func:`edit`, :func:`tool`).  A main request takes the next
reply; when the queue is empty it gets a short text.  Summary/compaction
requests are recognised and answered with :attr:`MockAPI.summary_text`
without consuming the script.

The server is also the HTTP(S) proxy of every CLI run: ``CONNECT`` and
absolute-URI requests to non-loopback hosts are refused with 403 and logged
in :attr:`MockAPI.refused`, so nothing leaves the machine.

    with MockAPI() as mock:
        mock.script("claude", [write("/repo/a.txt", "hi\\n"), text("done")])
        ...run the CLI with ANTHROPIC_BASE_URL=mock.url...
        assert mock.refused == []
"""

from __future__ import annotations

import gzip
import http.server
import itertools
import json
import os
import threading
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DIALECTS = ("claude", "codex", "gemini", "chat")
DEFAULT_INPUT_TOKENS = 1000
DEFAULT_TEXT = "Done."
DEFAULT_SUMMARY = "MOCK-SUMMARY: the earlier conversation wrote the requested files."

CLAUDE_SUMMARY_MARK = "CRITICAL: Respond with TEXT ONLY"
CODEX_SUMMARY_MARK = "CONTEXT CHECKPOINT COMPACTION"
COPILOT_SUMMARY_MARK = "Please create a detailed summary of the conversation so far"
# Chat Completions: the summary requests of OpenCode, Cline CLI and Aider (system text),
# and OpenCode's title generator (a utility call).
CHAT_SUMMARY_MARKS = ("You are a context summarization agent",
                      "Summarize the provided coding session into a concise continuation note",
                      "summarize this partial conversation",
                      # Qwen Code, Pi and Factory Droid.
                      "You are the component that summarizes a conversation",
                      "You are a context summarization assistant",
                      "Remember to wrap your final summary in <summary> tags")
CHAT_UTILITY_MARKS = ("You are a title generator",
                      # Qwen Code's background memory extraction.
                      "You are now acting as the managed memory extraction subagent")
GEMINI_SUMMARY_MARK = "<state_snapshot>"
GEMINI_VERIFY_MARK = "Critically evaluate"

_HEADER_KEEP = (
    "content-type",
    "user-agent",
    "anthropic-version",
    "anthropic-beta",
    "x-api-key",
    "authorization",
    "x-goog-api-key",
    "x-goog-api-client",
    "accept",
    "originator",
    "session_id",
    "host",
)
_LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}


# --------------------------------------------------------------------------
# Scripted replies


@dataclass
class Reply:
    """One scripted model answer.

    kind is ``text`` | ``write`` | ``edit`` | ``tool``.  ``write``/``edit``
    are translated per dialect (Claude Write/Edit, Codex apply_patch, Gemini
    write_file/replace); ``tool`` is sent as-is (``args`` is a dict for a
    function call, or a str for a Codex custom tool).  ``input_tokens`` is the
    prompt size the mock reports in the usage of this reply.
    """

    kind: str
    text: str = ""
    path: str = ""
    content: str = ""
    old: str = ""
    new: str = ""
    name: str = ""
    args: Any = None
    input_tokens: int | None = None
    output_tokens: int = 20
    namespace: str = ""  # Responses API: the namespace tool holding a function (Codex's collaboration)


def text(s: str, *, input_tokens: int | None = None) -> Reply:
    return Reply("text", text=s, input_tokens=input_tokens)


def write(path: str, content: str, *, input_tokens: int | None = None,
          preamble: str = "") -> Reply:
    """Create/overwrite ``path`` (absolute, or relative to ``MockAPI.workdir``)."""
    return Reply("write", path=path, content=content, text=preamble,
                 input_tokens=input_tokens)


def edit(path: str, old: str, new: str, *, input_tokens: int | None = None,
         preamble: str = "") -> Reply:
    """Replace the unique string ``old`` by ``new`` in ``path``."""
    return Reply("edit", path=path, old=old, new=new, text=preamble,
                 input_tokens=input_tokens)


def tool(name: str, args: Any, *, input_tokens: int | None = None, namespace: str = "") -> Reply:
    """A raw tool call: dict args = function call, str args = Codex custom tool; namespace: the
    Responses API namespace tool the function belongs to (Codex's `collaboration`)."""
    return Reply("tool", name=name, args=args, input_tokens=input_tokens, namespace=namespace)


# --------------------------------------------------------------------------
# Recorded requests


@dataclass
class Request:
    index: int
    method: str
    path: str
    dialect: str | None
    kind: str  # "main" | "summary" | "utility" | "other"
    headers: dict[str, str]
    body: Any
    raw: str = field(repr=False, default="")
    reply: Reply | None = field(repr=False, default=None)

    @property
    def json_text(self) -> str:
        """The whole body as JSON text (non-ASCII kept), for substring search."""
        if self.body is None:
            return self.raw
        return json.dumps(self.body, ensure_ascii=False)

    @property
    def answered_with_tool(self) -> bool:
        return self.reply is not None and self.reply.kind in ("write", "edit", "tool")

    def contains(self, needle: str) -> bool:
        return needle in self.json_text or needle in self.raw

    def __contains__(self, needle: str) -> bool:
        return self.contains(needle)


# --------------------------------------------------------------------------
# Helpers shared by the dialects


def _texts(obj: Any) -> list[str]:
    """Every string stored under a "text" key anywhere in obj, or bare content strings."""
    out: list[str] = []
    if isinstance(obj, str):
        out.append(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("text", "content", "input") and isinstance(v, str):
                out.append(v)
            elif isinstance(v, (dict, list)):
                out.extend(_texts(v))
    elif isinstance(obj, list):
        for v in obj:
            out.extend(_texts(v))
    return out


def user_texts(body: Any) -> list[str]:
    """The texts of a request's user messages (Anthropic messages, Responses input, Chat
    Completions messages) and of the messages other agents sent it (Codex's agent_message
    items, whose encrypted payload the mock reads as it was sent), tool results left out: what
    the user, or a parent agent, asked."""
    if not isinstance(body, dict):
        return []
    out: list[str] = []
    for item in body.get("messages") or body.get("input") or []:
        if not isinstance(item, dict) or not (
                item.get("type") == "agent_message"
                or (item.get("role") == "user" and item.get("type", "message") == "message")):
            continue
        content = item.get("content")
        if isinstance(content, str):
            out.append(content)
            continue
        for part in content or []:
            if not isinstance(part, dict):
                continue
            if part.get("type") in ("text", "input_text") and isinstance(part.get("text"), str):
                out.append(part["text"])
            elif part.get("type") == "encrypted_content" \
                    and isinstance(part.get("encrypted_content"), str):
                out.append(part["encrypted_content"])
    return out


def _sse(events: list[tuple[str | None, dict]]) -> bytes:
    chunks = []
    for name, data in events:
        line = f"event: {name}\n" if name else ""
        chunks.append(f"{line}data: {json.dumps(data)}\n\n")
    return "".join(chunks).encode()


def sample_from_schema(schema: Any, name: str = "") -> Any:
    """A small value that satisfies a JSON/OpenAPI schema (for utility calls)."""
    if not isinstance(schema, dict):
        return "ok"
    if "enum" in schema and schema["enum"]:
        enum = list(schema["enum"])
        # Gemini's next-speaker check: "user" ends the turn.
        if "user" in enum:
            return "user"
        return enum[0]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return sample_from_schema(schema[key][0], name)
    typ = schema.get("type", "object")
    if isinstance(typ, list):
        typ = next((t for t in typ if str(t).lower() != "null"), "string")
    typ = str(typ).lower()
    if typ == "object" or "properties" in schema:
        props = schema.get("properties", {}) or {}
        return {k: sample_from_schema(v, k) for k, v in props.items()}
    if typ == "array":
        n = schema.get("minItems", 0) or 0
        return [sample_from_schema(schema.get("items", {}), name) for _ in range(n)]
    if typ in ("integer", "number"):
        return schema.get("minimum", 0)
    if typ == "boolean":
        return False
    if name == "model_choice":
        return "flash"
    return "mock"


# --------------------------------------------------------------------------
# The server


class MockAPI:
    """Scripted mock of the three model APIs, plus a refusing proxy.

    Attributes:
        url: ``http://127.0.0.1:PORT`` (also the proxy URL).
        requests: every model request, in arrival order (list of Request).
        refused: ``host:port`` (CONNECT) or absolute URLs that were refused.
        workdir: base for relative paths in write()/edit() replies.
        summary_text: the answer to summary/compaction requests.
        summary_input_tokens: the prompt size reported with that answer (Chat Completions;
            Qwen Code gives up a compaction whose summary reports less than it had).
    """

    def __init__(self, workdir: str | os.PathLike[str] | None = None,
                 summary_text: str = DEFAULT_SUMMARY,
                 default_text: str = DEFAULT_TEXT):
        self.workdir = str(workdir) if workdir else None
        self.summary_text = summary_text
        self.summary_input_tokens: int | None = None
        self.default_text = default_text
        self.requests: list[Request] = []
        self.refused: list[str] = []
        self.errors: list[str] = []
        self._scripts: dict[str, list[Reply]] = {d: [] for d in DIALECTS}
        # (dialect, needle) -> the replies of the requests whose user messages hold needle
        self._routes: dict[tuple[str, str], list[Reply]] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._server: http.server.ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # ---- lifecycle -------------------------------------------------------

    def start(self) -> MockAPI:
        mock = self

        class Handler(_Handler):
            api = mock

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05},
                                        name="mockapi", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> MockAPI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # ---- scripting -------------------------------------------------------

    def script(self, dialect: str, replies: list[Reply]) -> None:
        """Append replies to a dialect's queue ("claude", "codex", "gemini")."""
        if dialect not in DIALECTS:
            raise ValueError(f"unknown dialect {dialect!r}")
        with self._lock:
            self._scripts[dialect].extend(replies)

    def script_for(self, dialect: str, needle: str, replies: list[Reply]) -> None:
        """Replies for the requests whose user messages (not tool results) hold needle, ahead
        of the dialect's queue: a subagent the main loop started with that task runs beside
        the main loop, and each gets its own script whatever the order of their requests."""
        if dialect not in DIALECTS:
            raise ValueError(f"unknown dialect {dialect!r}")
        with self._lock:
            self._routes.setdefault((dialect, needle), []).extend(replies)

    def pending(self, dialect: str) -> list[Reply]:
        with self._lock:
            return list(self._scripts[dialect])

    def _next_reply(self, dialect: str, body: Any = None) -> Reply:
        with self._lock:
            routes = [(needle, q) for (d, needle), q in self._routes.items() if d == dialect]
        if routes:
            said = "\n".join(user_texts(body))
            for needle, queue in routes:
                if needle in said:
                    with self._lock:
                        return queue.pop(0) if queue else text(self.default_text)
        with self._lock:
            queue = self._scripts[dialect]
            if queue:
                return queue.pop(0)
        return text(self.default_text)

    # ---- queries ---------------------------------------------------------

    def _select(self, kind: str | None, dialect: str | None) -> list[Request]:
        with self._lock:
            reqs = list(self.requests)
        return [r for r in reqs
                if (kind is None or r.kind == kind)
                and (dialect is None or r.dialect == dialect)]

    def main_requests(self, dialect: str | None = None) -> list[Request]:
        """Requests of the agent loop (not summary/utility), in order."""
        return self._select("main", dialect)

    def summary_requests(self, dialect: str | None = None) -> list[Request]:
        return self._select("summary", dialect)

    def utility_requests(self, dialect: str | None = None) -> list[Request]:
        return self._select("utility", dialect)

    def find(self, needle: str, kind: str | None = "main",
             dialect: str | None = None) -> list[Request]:
        """Requests whose JSON text contains needle."""
        return [r for r in self._select(kind, dialect) if r.contains(needle)]

    def main_after(self, req: Request) -> list[Request]:
        """Main requests that arrived after req (same dialect)."""
        return [r for r in self.main_requests(req.dialect) if r.index > req.index]

    def request_after_tool(self, dialect: str | None = None, n: int = 0) -> Request | None:
        """The main request that follows the n-th main request answered with a tool call
        (it carries the tool result and the post-tool hook output)."""
        mains = self.main_requests(dialect)
        tool_reqs = [r for r in mains if r.answered_with_tool]
        if len(tool_reqs) <= n:
            return None
        after = [r for r in mains if r.index > tool_reqs[n].index]
        return after[0] if after else None

    def first_main_after_summary(self, dialect: str | None = None) -> Request | None:
        summaries = self.summary_requests(dialect)
        if not summaries:
            return None
        after = self.main_after(summaries[-1])
        return after[0] if after else None

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()
            self.refused.clear()

    # ---- classification ---------------------------------------------------

    def _record(self, **kw: Any) -> Request:
        with self._lock:
            req = Request(index=len(self.requests), **kw)
            self.requests.append(req)
            return req

    def _abs(self, path: str) -> str:
        if os.path.isabs(path) or not self.workdir:
            return path
        return os.path.join(self.workdir, path)

    def _rel(self, path: str) -> str:
        if self.workdir and os.path.isabs(path):
            rel = os.path.relpath(path, self.workdir)
            if not rel.startswith(".."):
                return rel
        return path

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids):04d}mock{os.getpid()}"

    # ---- Anthropic --------------------------------------------------------

    def handle_claude(self, body: dict) -> tuple[str, Reply]:
        msgs = [m for m in body.get("messages", []) if m.get("role") == "user"]
        last = msgs[-1] if msgs else {}
        if any(CLAUDE_SUMMARY_MARK in t for t in _texts(last.get("content"))):
            # In <summary> tags, as asked: Claude Code 2.1.328 asks again for an answer without.
            return "summary", text(f"<summary>{self.summary_text}</summary>")
        return "main", self._next_reply("claude", body)

    def claude_blocks(self, reply: Reply) -> list[dict]:
        blocks: list[dict] = []
        if reply.text:
            blocks.append({"type": "text", "text": reply.text})
        if reply.kind == "write":
            blocks.append({"type": "tool_use", "id": self._new_id("toolu_"), "name": "Write",
                           "input": {"file_path": self._abs(reply.path),
                                     "content": reply.content}})
        elif reply.kind == "edit":
            blocks.append({"type": "tool_use", "id": self._new_id("toolu_"), "name": "Edit",
                           "input": {"file_path": self._abs(reply.path),
                                     "old_string": reply.old, "new_string": reply.new,
                                     "replace_all": False}})
        elif reply.kind == "tool":
            blocks.append({"type": "tool_use", "id": self._new_id("toolu_"),
                           "name": reply.name, "input": reply.args or {}})
        if not blocks:
            blocks.append({"type": "text", "text": self.default_text})
        return blocks

    def claude_response(self, body: dict, reply: Reply) -> tuple[str, bytes]:
        blocks = self.claude_blocks(reply)
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
        usage = {"input_tokens": reply.input_tokens or DEFAULT_INPUT_TOKENS,
                 "output_tokens": reply.output_tokens,
                 "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        message = {"id": self._new_id("msg_"), "type": "message", "role": "assistant",
                   "model": body.get("model", "claude-mock")}
        if not body.get("stream"):
            doc = dict(message, content=blocks, stop_reason=stop, stop_sequence=None,
                       usage=usage)
            return "application/json", json.dumps(doc).encode()
        start_usage = dict(usage, output_tokens=1)
        events: list[tuple[str | None, dict]] = [
            ("message_start", {"type": "message_start", "message": dict(
                message, content=[], stop_reason=None, stop_sequence=None,
                usage=start_usage)}),
        ]
        for i, b in enumerate(blocks):
            if b["type"] == "text":
                events.append(("content_block_start", {
                    "type": "content_block_start", "index": i,
                    "content_block": {"type": "text", "text": ""}}))
                events.append(("content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "text_delta", "text": b["text"]}}))
            else:
                events.append(("content_block_start", {
                    "type": "content_block_start", "index": i,
                    "content_block": {"type": "tool_use", "id": b["id"],
                                      "name": b["name"], "input": {}}}))
                events.append(("content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta",
                              "partial_json": json.dumps(b["input"])}}))
            events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
        events.append(("message_delta", {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"input_tokens": usage["input_tokens"],
                      "output_tokens": reply.output_tokens,
                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}))
        events.append(("message_stop", {"type": "message_stop"}))
        return "text/event-stream", _sse(events)

    # ---- OpenAI Responses (Codex) ----------------------------------------

    def handle_codex(self, body: dict) -> tuple[str, Reply]:
        items = [i for i in body.get("input", []) or []
                 if isinstance(i, dict) and i.get("type", "message") == "message"
                 and i.get("role") == "user"]
        last = items[-1] if items else {}
        if any(CODEX_SUMMARY_MARK in t or t.startswith(COPILOT_SUMMARY_MARK)
               for t in _texts(last.get("content"))):
            return "summary", text(self.summary_text)
        return "main", self._next_reply("codex", body)

    def codex_patch(self, reply: Reply) -> str:
        path = self._rel(reply.path)
        if reply.kind == "write":
            lines = "".join(f"+{ln}\n" for ln in reply.content.splitlines())
            return f"*** Begin Patch\n*** Add File: {path}\n{lines}*** End Patch\n"
        before, after = reply.old, reply.new
        try:  # apply_patch matches whole lines: diff the whole file when we can see it
            current = Path(self._abs(reply.path)).read_text()
        except OSError:
            current = None
        if current is not None and reply.old in current:
            before, after = current, current.replace(reply.old, reply.new, 1)
        old = "".join(f"-{ln}\n" for ln in before.splitlines())
        new = "".join(f"+{ln}\n" for ln in after.splitlines())
        return f"*** Begin Patch\n*** Update File: {path}\n@@\n{old}{new}*** End Patch\n"

    def codex_items(self, reply: Reply) -> list[dict]:
        items: list[dict] = []
        if reply.text or reply.kind == "text":
            items.append({"type": "message", "id": self._new_id("msg_"), "role": "assistant",
                          "status": "completed",
                          "content": [{"type": "output_text",
                                       "text": reply.text or self.default_text,
                                       "annotations": []}]})
        if reply.kind in ("write", "edit"):
            items.append({"type": "custom_tool_call", "id": self._new_id("ctc_"),
                          "status": "completed", "call_id": self._new_id("call_"),
                          "name": "apply_patch", "input": self.codex_patch(reply)})
        elif reply.kind == "tool":
            if isinstance(reply.args, str):
                items.append({"type": "custom_tool_call", "id": self._new_id("ctc_"),
                              "status": "completed", "call_id": self._new_id("call_"),
                              "name": reply.name, "input": reply.args})
            else:
                call = {"type": "function_call", "id": self._new_id("fc_"),
                        "status": "completed", "call_id": self._new_id("call_"),
                        "name": reply.name, "arguments": json.dumps(reply.args or {})}
                if reply.namespace:
                    call["namespace"] = reply.namespace
                items.append(call)
        return items

    def codex_response(self, body: dict, reply: Reply) -> tuple[str, bytes]:
        items = self.codex_items(reply)
        inp = reply.input_tokens or DEFAULT_INPUT_TOKENS
        usage = {"input_tokens": inp, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": reply.output_tokens,
                 "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": inp + reply.output_tokens}
        rid = self._new_id("resp_")
        base = {"id": rid, "object": "response", "model": body.get("model", "mock")}
        events: list[tuple[str | None, dict]] = [
            ("response.created", {"type": "response.created", "sequence_number": 0,
                                  "response": dict(base, status="in_progress", output=[])}),
        ]
        for n, item in enumerate(items):
            events.append(("response.output_item.added", {
                "type": "response.output_item.added", "output_index": n, "item": item}))
            events.append(("response.output_item.done", {
                "type": "response.output_item.done", "output_index": n, "item": item}))
        events.append(("response.completed", {
            "type": "response.completed",
            "response": dict(base, status="completed", output=items, usage=usage)}))
        for seq, (_, data) in enumerate(events):
            data["sequence_number"] = seq
        if not body.get("stream", True):
            return "application/json", json.dumps(events[-1][1]["response"]).encode()
        return "text/event-stream", _sse(events)

    # ---- OpenAI Chat Completions (OpenCode, Cline CLI, Aider) ---------------

    def handle_chat(self, body: dict) -> tuple[str, Reply]:
        """write/edit replies are not translated here: each CLI names its tools its own
        way, so scripts use tool() (or text() for Aider's fenced-file edits)."""
        msgs = [m for m in body.get("messages", []) or [] if isinstance(m, dict)]
        system = " ".join(t for m in msgs if m.get("role") == "system"
                          for t in _texts(m.get("content")))
        users = [m for m in msgs if m.get("role") == "user"]
        last = " ".join(_texts(users[-1].get("content"))) if users else ""
        if any(mark in system or mark in last for mark in CHAT_SUMMARY_MARKS):
            # In the form asked for: Qwen Code wants <state_snapshot> XML, else it retries.
            summary = (f"<state_snapshot>{self.summary_text}</state_snapshot>"
                       if "<state_snapshot>" in system + last else self.summary_text)
            return "summary", text(summary, input_tokens=self.summary_input_tokens)
        if any(mark in system for mark in CHAT_UTILITY_MARKS):
            return "utility", text("Mock title")
        return "main", self._next_reply("chat", body)

    def chat_response(self, body: dict, reply: Reply) -> tuple[str, bytes]:
        inp = reply.input_tokens or DEFAULT_INPUT_TOKENS
        usage = {"prompt_tokens": inp, "completion_tokens": reply.output_tokens,
                 "total_tokens": inp + reply.output_tokens}
        content = reply.text or (self.default_text if reply.kind == "text" else "")
        calls = []
        if reply.kind == "tool":
            calls.append({"id": self._new_id("call_"), "type": "function",
                          "function": {"name": reply.name,
                                       "arguments": json.dumps(reply.args or {})}})
        finish = "tool_calls" if calls else "stop"
        base = {"id": self._new_id("chatcmpl-"), "created": 1700000000,
                "model": body.get("model", "mock")}
        if not body.get("stream"):
            message: dict[str, Any] = {"role": "assistant", "content": content or None}
            if calls:
                message["tool_calls"] = calls
            doc = dict(base, object="chat.completion", usage=usage, choices=[
                {"index": 0, "message": message, "finish_reason": finish}])
            return "application/json", json.dumps(doc).encode()
        chunk = dict(base, object="chat.completion.chunk")
        deltas: list[dict] = [{"role": "assistant", "content": content}]
        deltas += [{"tool_calls": [dict(c, index=i)]} for i, c in enumerate(calls)]
        events: list[tuple[str | None, dict]] = [
            (None, dict(chunk, choices=[{"index": 0, "delta": d, "finish_reason": None}]))
            for d in deltas]
        events.append((None, dict(chunk, choices=[
            {"index": 0, "delta": {}, "finish_reason": finish}])))
        events.append((None, dict(chunk, choices=[], usage=usage)))
        return "text/event-stream", _sse(events) + b"data: [DONE]\n\n"

    # ---- Gemini -----------------------------------------------------------

    def handle_gemini(self, path: str, body: dict) -> tuple[str, Reply | Any]:
        streamed = ":streamGenerateContent" in path
        system = " ".join(_texts(body.get("systemInstruction")))
        contents = body.get("contents", []) or []
        last_user = next((c for c in reversed(contents) if c.get("role", "user") == "user"), {})
        last_text = " ".join(_texts(last_user))
        if not streamed and (GEMINI_SUMMARY_MARK in system or GEMINI_VERIFY_MARK in last_text):
            return "summary", text(f"<state_snapshot>{self.summary_text}</state_snapshot>")
        cfg = body.get("generationConfig", {}) or {}
        schema = cfg.get("responseJsonSchema") or cfg.get("responseSchema")
        if not streamed and (schema or cfg.get("responseMimeType") == "application/json"):
            return "utility", sample_from_schema(schema or {})
        if not streamed and not body.get("tools"):
            return "utility", text(self.default_text)
        return "main", self._next_reply("gemini", body)

    def gemini_parts(self, reply: Reply) -> list[dict]:
        parts: list[dict] = []
        if reply.text:
            parts.append({"text": reply.text})
        call: dict | None = None
        if reply.kind == "write":
            call = {"name": "write_file", "args": {"file_path": self._abs(reply.path),
                                                   "content": reply.content}}
        elif reply.kind == "edit":
            call = {"name": "replace", "args": {
                "file_path": self._abs(reply.path), "old_string": reply.old,
                "new_string": reply.new, "instruction": "apply the scripted edit"}}
        elif reply.kind == "tool":
            call = {"name": reply.name, "args": reply.args or {}}
        if call is not None:
            call["id"] = self._new_id("call_")
            parts.append({"functionCall": call,
                          "thoughtSignature": "skip_thought_signature_validator"})
        if not parts:
            parts.append({"text": self.default_text})
        return parts

    def gemini_response(self, path: str, kind: str, answer: Any) -> tuple[str, bytes]:
        model = path.split("/models/", 1)[-1].split(":", 1)[0]
        if isinstance(answer, Reply):
            parts = self.gemini_parts(answer)
            inp = answer.input_tokens or DEFAULT_INPUT_TOKENS
            out = answer.output_tokens
        else:
            parts = [{"text": json.dumps(answer)}]
            inp, out = 100, 10
        doc = {"candidates": [{"content": {"role": "model", "parts": parts},
                               "finishReason": "STOP", "index": 0}],
               "usageMetadata": {"promptTokenCount": inp, "candidatesTokenCount": out,
                                 "totalTokenCount": inp + out},
               "modelVersion": model, "responseId": self._new_id("gresp_")}
        if ":streamGenerateContent" in path:
            return "text/event-stream", _sse([(None, doc)])
        return "application/json", json.dumps(doc).encode()

    # ---- dispatch ---------------------------------------------------------

    def dispatch(self, method: str, path: str, headers: dict[str, str],
                 raw: bytes) -> tuple[int, str, bytes]:
        route = urllib.parse.urlsplit(path).path
        raw_text = raw.decode("utf-8", "replace")
        try:
            body = json.loads(raw_text) if raw_text.strip() else None
        except ValueError:
            body = None
        hdrs = {k: v for k, v in headers.items() if k in _HEADER_KEEP}

        def rec(dialect: str | None, kind: str, reply: Reply | None = None) -> Request:
            return self._record(method=method, path=path, dialect=dialect, kind=kind,
                                headers=hdrs, body=body, raw=raw_text, reply=reply)

        if method == "POST" and isinstance(body, dict):
            if route.endswith("/v1/messages"):
                kind, reply = self.handle_claude(body)
                rec("claude", kind, reply)
                ctype, out = self.claude_response(body, reply)
                return 200, ctype, out
            if route.endswith("/v1/messages/count_tokens"):
                rec("claude", "utility")
                return 200, "application/json", json.dumps({"input_tokens": 100}).encode()
            if route.endswith("/chat/completions"):
                kind, reply = self.handle_chat(body)
                rec("chat", kind, reply)
                ctype, out = self.chat_response(body, reply)
                return 200, ctype, out
            if route.endswith("/responses"):
                kind, reply = self.handle_codex(body)
                rec("codex", kind, reply)
                ctype, out = self.codex_response(body, reply)
                return 200, ctype, out
            if "/models/" in route and route.endswith(":countTokens"):
                rec("gemini", "utility")
                return 200, "application/json", json.dumps({"totalTokens": 100}).encode()
            if "/models/" in route and (route.endswith(":generateContent")
                                        or route.endswith(":streamGenerateContent")):
                kind, answer = self.handle_gemini(path, body)
                rec("gemini", kind, answer if isinstance(answer, Reply) else None)
                ctype, out = self.gemini_response(path, kind, answer)
                return 200, ctype, out
        rec(None, "other")
        self.errors.append(f"unhandled {method} {path}")
        return 404, "application/json", json.dumps(
            {"error": {"message": f"mockapi: no route for {method} {route}"}}).encode()


class _Handler(http.server.BaseHTTPRequestHandler):
    api: MockAPI
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt: str, *args: Any) -> None:  # keep pytest output clean
        pass

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0] or b"0", 16)
                if size == 0:
                    while self.rfile.readline().strip():
                        pass
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
        else:
            n = int(self.headers.get("Content-Length") or 0)
            data = self.rfile.read(n) if n else b""
        if self.headers.get("Content-Encoding", "").lower() == "gzip":
            data = gzip.decompress(data)
        return data

    def _send(self, status: int, ctype: str, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        if ctype == "text/event-stream":
            self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()

    def _refuse(self, target: str) -> None:
        with self.api._lock:
            self.api.refused.append(target)
        self.close_connection = True
        payload = b"mockapi: outbound traffic refused\n"
        self.send_response(403)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(payload)

    def do_CONNECT(self) -> None:  # noqa: N802
        self._refuse(self.path)

    def _handle(self) -> None:
        path = self.path
        if "://" in path.split("?", 1)[0]:
            parts = urllib.parse.urlsplit(path)
            host = (parts.hostname or "").lower()
            if host not in _LOOPBACK or (parts.port or 80) != self.api.port:
                self._read_body()
                self._refuse(path)
                return
            path = urllib.parse.urlunsplit(("", "", parts.path, parts.query, ""))
        try:
            raw = self._read_body()
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, ctype, payload = self.api.dispatch(self.command, path, headers, raw)
        except Exception as exc:  # report, never hang the client
            self.api.errors.append(f"{self.command} {path}: {exc!r}")
            status, ctype, payload = 500, "application/json", json.dumps(
                {"error": {"message": f"mockapi error: {exc!r}"}}).encode()
        self._send(status, ctype, payload)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _handle  # noqa: N815
