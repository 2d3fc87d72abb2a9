"""Deterministic memory corpora and Claude Code transcripts for the benchmark."""
from __future__ import annotations

import json
import random

SEED = 20240611

WORDS = (
    "cache user service async handler retry timeout schema migration index token "
    "session queue worker payload config logger metric request response client server "
    "module test fixture mock deploy build branch commit review lint format error "
    "exception null return value field column table query filter batch stream"
).split()
CJK = "缓存用户服务异步处理重试超时模式迁移索引会话队列配置日志请求响应客户端测试部署构建错误异常返回字段查询批量"
SECTIONS = ("Goal", "Done", "In progress", "Todo", "Key decisions")


def _phrase(rng: random.Random, lo: int, hi: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    if rng.random() < 0.2:  # a line in Chinese now and then, as the article's users write
        words.append("".join(rng.choice(CJK) for _ in range(rng.randint(4, 14))))
    return " ".join(words)


def corpus(scale: int, seed: int = SEED) -> dict[str, str]:
    """Memory files at `scale` times the 1x size: 20 rules, 60 snapshot lines, 200 notes."""
    rng = random.Random(seed * 1000 + scale)
    rules = 20 * scale
    tattoo = ["# Project hard rules", ""]
    tattoo += [f"- R{i + 1}: {_phrase(rng, 5, 12)}" for i in range(rules)]
    snap_lines = 60 * scale
    snapshot = ["# Current task snapshot", ""]
    body = snap_lines - len(snapshot) - len(SECTIONS)  # the rest split across the five sections
    for s, name in enumerate(SECTIONS):
        snapshot.append(f"## {name}")
        n = body // len(SECTIONS) + (body % len(SECTIONS) if s == len(SECTIONS) - 1 else 0)
        mark = {"Done": "- [x] ", "In progress": "- [ ] "}.get(name, "- ")
        snapshot += [f"{mark}{_phrase(rng, 4, 14)}" for _ in range(n)]
    notes = [f"- {_phrase(rng, 3, 16)}" for _ in range(200 * scale)]
    return {
        "tattoo": "\n".join(tattoo) + "\n",
        "snapshot": "\n".join(snapshot) + "\n",
        "notes": "\n".join(notes) + "\n",
    }


def transcript(session_id: str, cwd: str, records: int = 400, seed: int = SEED) -> tuple[str, int]:
    """A Claude Code transcript (JSONL) and the context length of its latest usage record."""
    rng = random.Random(seed)
    lines = []
    parent = None
    ctx = 12000
    last = 0
    for i in range(records):
        uid = f"{rng.getrandbits(64):016x}-{i:04d}"
        base = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": cwd,
                "sessionId": session_id, "version": "2.1.197", "gitBranch": "main",
                "uuid": uid, "timestamp": f"2025-06-11T10:{i // 60 % 60:02d}:{i % 60:02d}.000Z"}
        if i % 2 == 0:
            rec = {**base, "type": "user",
                   "message": {"role": "user", "content": _phrase(rng, 10, 60)}}
        else:
            ctx += rng.randint(200, 900)
            cache_read = ctx - 3000
            usage = {"input_tokens": 4, "cache_creation_input_tokens": 2996,
                     "cache_read_input_tokens": cache_read, "output_tokens": rng.randint(50, 600),
                     "service_tier": "standard"}
            last = 4 + 2996 + cache_read
            rec = {**base, "type": "assistant",
                   "message": {"id": f"msg_{uid}", "type": "message", "role": "assistant",
                               "model": "claude-sonnet-4-5", "content": [
                                   {"type": "text", "text": _phrase(rng, 40, 160)}],
                               "stop_reason": "end_turn", "usage": usage}}
        parent = uid
        lines.append(json.dumps(rec, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(lines) + "\n", last
