"""OpenCode: a TypeScript plugin wholly ours, .opencode/plugins/agenthooks.ts.

OpenCode has no shell hooks; the plugin shells out to the bash hooks with Bun's $:
  experimental.chat.system.transform -> pre_task: the memory block is pushed into the
      system prompt of every request (pre_task runs for real once per session and after a
      compaction; in between `--show` rebuilds it fresh without writing anything);
  event session.compacted -> the next request runs pre_task with source=compact, which
      logs the compaction and reloads memory;
  tool.execute.after for edit/write/patch/multiedit -> post_edit, whose reminder is
      appended to the tool output the model reads."""
from __future__ import annotations

from pathlib import Path

from agenthooks.files import OWNER_ID, PlannedFile

NAME = "opencode"
PATH = ".opencode/plugins/agenthooks.ts"

_PLUGIN = """// agenthooks plugin for OpenCode: loads .agent/memory/ into every request.
// {owner} template=frameworks/opencode
// Written by agenthooks install; re-run it to upgrade (edits are merged).
import type {{ Plugin }} from "@opencode-ai/plugin"

const EDIT_TOOLS = new Set(["edit", "write", "patch", "multiedit"])

export const AgentHooks: Plugin = async ({{ $, directory, worktree }}) => {{
  // worktree is the git top level ("/" outside git); directory is where opencode started.
  const root = worktree && worktree !== "/" ? worktree : directory
  // session id -> "loaded", or "compacted" (run pre_task for real on the next request)
  const state = new Map<string, string>()
  // call id -> the arguments of an edit tool call, from tool.execute.before
  const calls = new Map<string, Record<string, unknown>>()

  const hook = async (name: string, payload: object, ...args: string[]): Promise<string> => {{
    const script = `${{root}}/.agent/hooks/${{name}}.sh`
    const input = new Response(JSON.stringify(payload))
    try {{
      const out = await $`bash ${{script}} opencode ${{args}} < ${{input}}`.cwd(root).nothrow().quiet().text()
      return out.trim()
    }} catch {{
      return ""
    }}
  }}

  return {{
    event: async ({{ event }}) => {{
      if (event.type === "session.compacted") {{
        const id = (event as any).properties?.sessionID ?? "default"
        state.set(id, "compacted")
      }}
    }},
    "experimental.chat.system.transform": async (input, output) => {{
      const id = (input as any)?.sessionID ?? "default"
      const seen = state.get(id)
      let text: string
      if (seen === "loaded") {{
        text = await hook("pre_task", {{ session_id: id }}, "--show")
      }} else {{
        const source = seen === "compacted" ? "compact" : "startup"
        text = await hook("pre_task", {{ session_id: id, hook_event_name: "SessionStart", source }})
        state.set(id, "loaded")
      }}
      if (text) output.system.push(text)
    }},
    "tool.execute.before": async (input, output) => {{
      if (EDIT_TOOLS.has(input.tool)) calls.set(input.callID, (output as any).args ?? {{}})
    }},
    "tool.execute.after": async (input, output) => {{
      if (!EDIT_TOOLS.has(input.tool)) return
      const args = calls.get(input.callID) ?? {{}}
      calls.delete(input.callID)
      const text = await hook("post_edit", {{
        session_id: input.sessionID ?? "default",
        hook_event_name: "PostToolUse",
        tool_name: input.tool,
        tool_input: {{ file_path: String(args.filePath ?? args.file_path ?? "") }},
      }})
      if (text) output.output = `${{output.output ?? ""}}\\n\\n${{text}}`
    }},
  }}
}}
"""


def plugin_text() -> str:
    return _PLUGIN.format(owner=OWNER_ID)


def plan(root: Path, answers: dict) -> list[PlannedFile]:  # type: ignore[type-arg]
    return [PlannedFile(PATH, plugin_text(), 0o644, "owned", "frameworks/opencode")]


def unregister(root: Path) -> list[tuple[str, str | None]]:
    path = root / PATH
    if path.is_file() and OWNER_ID.encode() in path.read_bytes():
        return [(PATH, None)]
    return []


def next_steps(answers: dict) -> list[str]:  # type: ignore[type-arg]
    return ["OpenCode: restart opencode in this repo to load .opencode/plugins/agenthooks.ts "
            "(needs bash on PATH)."]
