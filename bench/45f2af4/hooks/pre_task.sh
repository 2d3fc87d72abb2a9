#!/usr/bin/env bash
# pre_task.sh: load .agent/memory/ into the agent's context when a session starts.
# agenthooks-owned:7d2f9c1e template=hooks/pre_task.sh@9
# Runs: at session start (and again after the host compacts the context), from the host's
# registration, as: bash .agent/hooks/pre_task.sh [FRAMEWORK] [MODE] < payload.json
#   FRAMEWORK     how to print for the host (claude-code);
#                 default generic
#   --show        print the block the agent would get now; write nothing
#   --archive     move the snapshot to memory/archive/ and start a fresh one (--force: even an empty one)
#   --statusline  one line for Claude Code's status line (its JSON on stdin), from the hooks' state
# Prints the memory block (rules, snapshot, latest notes, within the budget), kept in
# .agent/injected_context.txt; with memory unchanged it prints that copy again, without awk.
# Effects in .agent/ (agenthooks/statefiles.py; every change on disk: lib/io.sh):
#   reads    config.yaml log/state/config.values (every run)
#   writes   log/state/config.values (config.yaml changed)
#   appends  log/memory.log log/trace.log (something to log; AGENTHOOKS_DEBUG=1)
#   reads    injected_context.txt log/state/block.stats log/state/mtime.N (every run)
#   makes    log/state (a session start)
#   reads    memory/tattoo.md memory/snapshot.md memory/notes.md ~/.agent/memory/tattoo.md
#            (a build)
#   writes   injected_context.txt .injected_context.txt.PID.N log/state/block.stats
#            log/state/last.block log/state/SESSION.built log/state/mtime.N log/memory.log.1
#            (a build)
#   removes  .injected_context.txt.PID.N log/state/SESSION.state log/state/SESSION.remind
#            log/state/SESSION.built log/state/SESSION.count log/state/SESSION.window
#            log/state/SESSION.files log/state/SESSION.request log/state/SESSION.audit
#            (a build: temp files of ended hooks; past 800 files, sessions idle 30 days)
#   reads    log/state/SESSION.files log/state/SESSION.request (a build after a compaction)
#   writes   log/.lock log/.lock.pid log/.lock.pid.break (a write of shared state)
#   removes  log/.lock.pid log/.lock.pid.break (the portable lock released)
#   appends  log/state/SESSION.state log/state/SESSION.state.PID.tmp (a start after a compaction)
#   writes   log/state/SESSION.count (a start after a compaction)
#   writes   log/state/snapshot.mtime log/state/SESSION.window (--statusline)
#   writes   memory/archive/snapshot_TIME.md memory/.snapshot.md.PID.tmp memory/snapshot.md
#            (--archive)
#   makes    memory/archive (--archive)
#   spawns   touch awk mv mkdir flock head tail tr readlink stat (a build; --statusline)
# Parts, in lib/: prelude.sh (every run), cache.sh, say.sh and io.sh (the quiet path), runtime.sh
# (config.yaml, the lock), block.sh with memory.awk, block.awk and clean.awk (building the block),
# state.sh (after a compaction), archive.sh. The status line is here: the host runs it most often.
# Rendered by agenthooks for: linux. Tunables: .agent/config.yaml.
# Re-run 'agenthooks install' to upgrade; it merges edits made here.
{ POSIXLY_CORRECT=1 && set +x; } >/dev/null 2>&1 # no trace, even with SHELLOPTS=xtrace exported
# Bash only, and none of the caller's shell state: run by hand (bash .agent/hooks/pre_task.sh),
# a hook first drops imported functions, options and settings that change how bash runs it (the
# hosts start it with bash -p, which also drops BASH_ENV, SHELLOPTS and imported functions).
case ${BASH_VERSION-} in '') echo "agenthooks: this hook needs bash (3.2 or newer)" >&2 && exit 0 ;; esac
PS4='' POSIXLY_CORRECT=1 # POSIX mode: the special builtins set and unset win over functions
unset -f builtin command compgen declare set unset 2>/dev/null
set +xvaCfkTEu +o posix
unset POSIXLY_CORRECT CDPATH FUNCNEST GLOBIGNORE TMOUT
if compgen -A function >/dev/null 2>&1; then # forks only when a function was imported
  set -f
  # shellcheck disable=SC2046 # function names, one word each
  unset -f $(compgen -A function) 2>/dev/null
  set +f
fi
# --- The start: this run's facts, the AH_ names (the config reader sets the tunables among them) ---
set -euo pipefail
export LC_ALL=C
umask 022
trap '' XFSZ PIPE # a size limit (ulimit -f) or a closed stdout fails a write, not the hook
# shellcheck disable=SC2034 # the run's facts are read in lib/ too
AH_HOOK=pre_task AH_FRAMEWORK=generic AH_MODE=run AH_EVENT_ARG='' AH_EVENT='?' AH_LOADED=prelude.sh
# shellcheck disable=SC2034
AH_LOCK=none AH_WARNED=0 AH_TMPFILE='' AH_PAYLOAD='' AH_SESSION=default
# shellcheck disable=SC2034
for arg in "${AGENTHOOKS_FRAMEWORK-}" "$@"; do
  case $arg in
    --show) AH_MODE=show ;;
    --archive) AH_MODE=archive ;;
    --statusline) AH_MODE=statusline ;;
    --event=*) AH_EVENT_ARG=${arg#--event=} ;;
    claude-code | codex | gemini-cli | cursor | copilot-cli | cline | windsurf | opencode) AH_FRAMEWORK=$arg ;;
    kilo | pi | qwen-code | droid | aider | generic) AH_FRAMEWORK=$arg ;;
  esac
done
# .agent/ is the folder above hooks/, as reached: not the working directory, not a link's target.
# Absolute: /a/b, and C:/a/b, as the Windows registrations hand Git Bash the hook.
AH_HOOKS=${BASH_SOURCE[0]%/*}
[ "$AH_HOOKS" != "${BASH_SOURCE[0]}" ] || AH_HOOKS=.
case $AH_HOOKS in /* | [A-Za-z]:/*) ;; *) AH_HOOKS=$PWD/$AH_HOOKS ;; esac
AH_HOOKS=${AH_HOOKS%/.} AH_AGENT=${AH_HOOKS%/*}
# shellcheck disable=SC2034
AH_MEMORY=$AH_AGENT/memory AH_STATE=$AH_AGENT/log/state AH_LOGFILE=$AH_AGENT/log/memory.log
# The library this hook is written for: lib/prelude.sh of the release its second line names.
AH_RELEASE=''
{ read -r _ && read -r AH_RELEASE; } 2>/dev/null <"$AH_HOOKS/lib/prelude.sh" || true
if [ "${AH_RELEASE##*@}" != 9 ]; then
  echo "agenthooks[pre_task]: lib/prelude.sh is missing or not release 9: run 'agenthooks install'" >&2
  exit 0
fi
# shellcheck source=SCRIPTDIR/lib/prelude.sh
. "$AH_HOOKS/lib/prelude.sh"
trap ah_exit EXIT # every run ends there, with status 0
[ "${AGENTHOOKS_DEBUG-}" != 1 ] || { ah_runtime && ah_trace; }
# The tunables as the config reader last kept them (log/state/config.values), when that is
# newer than config.yaml and the reader; else config.yaml is read below (rare: once an edit).
config=stale
# shellcheck disable=SC2034 # AH_MARKERS: read by on_compact.sh
if [ "$AH_STATE/config.values" -nt "$AH_AGENT/config.yaml" ] &&
  [ "$AH_STATE/config.values" -nt "$AH_HOOKS/lib/runtime.sh" ] &&
  { read -r tag AH_ENABLED AH_BUDGET AH_NOTES AH_STALE AH_DROP AH_TURNS AH_LOCK_TIMEOUT \
    AH_LOG_MAX_KB AH_FRESH AH_FLUSH AH_WINDOW AH_SUMMARY AH_WORKING end &&
    IFS= read -r AH_MARKERS; } 2>/dev/null <"$AH_STATE/config.values" &&
  [ "$tag:$end" = config-of-release-9:. ] &&
  [[ "$AH_ENABLED$AH_BUDGET$AH_NOTES$AH_STALE$AH_DROP$AH_TURNS$AH_LOCK_TIMEOUT" != *[!0-9]* &&
    "$AH_LOG_MAX_KB$AH_FRESH$AH_FLUSH$AH_WINDOW$AH_SUMMARY$AH_WORKING" != *[!0-9]* ]]; then
  config=kept
  [ "$AH_ENABLED" = 1 ] || exit 0 # enabled: false makes every hook a silent no-op
fi
# Stdin is the host's JSON payload: a bounded prefix (the fields hooks need come first), 1 s at most.
[ -t 0 ] || { IFS= read -r -t 1 -d '' -n 16384 AH_PAYLOAD 2>/dev/null || true; }
# The session: its state files' name. A host's id (a UUID, digits) is used as it is; any other
# id gets a name of its own (ah_session_name).
sid=''
ah_json sid session_id sessionId conversation_id taskId trajectory_id || sid=${GEMINI_SESSION_ID-}
AH_SESSION=${sid:-default}
case $sid in
  '') ;;
  default | [!A-Za-z0-9]* | *[!A-Za-z0-9.-]*) ah_runtime && ah_session_name AH_SESSION "$sid" ;;
  *) [ ${#sid} -le 80 ] || { ah_runtime && ah_session_name AH_SESSION "$sid"; } ;;
esac
if [ "$config" = stale ]; then
  ah_runtime
  [ "$AH_MODE" = show ] || ah_mkdir "$AH_STATE" || true # the hooks' state, made at a session start
  ah_config_parse
  [ "$AH_ENABLED" = 1 ] || exit 0
fi

# --- The status line: one line from last.block, SESSION.count and snapshot.mtime (an empty
# line without them). Claude Code runs it every few hundred milliseconds. ---
if [ "$AH_MODE" = statusline ]; then
  budget='' tokens='' count='' mtime='' context='' now=0
  # last.block: the budget, then the block's figures (tokens is the 5th).
  { read -r budget _ _ _ _ tokens _ <"$AH_STATE/last.block"; } 2>/dev/null || true
  { read -r count <"$AH_STATE/$AH_SESSION.count"; } 2>/dev/null || true
  # The snapshot's time, kept in snapshot.mtime: asked of stat only when the snapshot changed.
  if [ ! "$AH_MEMORY/snapshot.md" -ot "$AH_STATE/snapshot.mtime" ] && ah_runtime &&
    ah_mtime mtime "$AH_MEMORY/snapshot.md"; then
    ah_put "$AH_STATE/snapshot.mtime" "$mtime"$'\n' || true
  fi
  { read -r mtime <"$AH_STATE/snapshot.mtime"; } 2>/dev/null || true
  count=${count:-0}
  ah_digits "$budget" "$tokens" "$mtime" "$count" || { { echo; } 2>/dev/null && exit 0; }
  ah_epoch now
  age=$(((now > mtime ? now - mtime : 0) / 60))
  if [ "$age" -ge 2880 ]; then
    age=$((age / 1440))d
  elif [ "$age" -ge 120 ]; then
    age=$((age / 60))h
  else
    age=${age}m
  fi
  # The window, for on_compact's flush_at_percent: written when the host's figure changes.
  re='"context_window_size"[[:space:]]*:[[:space:]]*([0-9]{1,10})'
  if [[ $AH_PAYLOAD =~ $re ]] && [ -d "$AH_STATE" ]; then
    window=${BASH_REMATCH[1]} known=''
    { read -r known <"$AH_STATE/$AH_SESSION.window"; } 2>/dev/null || true
    printf -v line '%s\n' "$window"
    [ "$known" = "$window" ] || { ah_load io.sh && ah_put "$AH_STATE/$AH_SESSION.window" "$line"; } || true
  fi
  re='"used_percentage"[[:space:]]*:[[:space:]]*([0-9]{1,3})'
  [[ ! $AH_PAYLOAD =~ $re ]] || context=" · ctx ${BASH_REMATCH[1]}%"
  { printf 'memory %s/%s tok · compacted %sx · snapshot %s old%s\n' \
    "$tokens" "$budget" "$count" "$age" "$context"; } 2>/dev/null || true
  exit 0
fi

# --- The quiet path: memory unchanged since the block was built, and no compaction to announce:
# injected_context.txt printed again (no awk, no process) ---
source=''
ah_json source source || true
if [ "$AH_MODE" = run ] && [ -f "$AH_MEMORY/tattoo.md" ] && [ -f "$AH_MEMORY/snapshot.md" ] &&
  [ -f "$AH_MEMORY/notes.md" ] && [ -d "$AH_STATE" ] && [ "$source" != compact ] && [ "$source" != compress ]; then
  ah_load cache.sh
  block='' figures=''
  if ah_cached block figures; then
    ah_load io.sh say.sh
    ah_say SessionStart "$block"
    ah_loaded "$figures" ''
    exit 0
  fi
fi

# --- Building the block ---
ah_runtime
ah_load cache.sh block.sh

# main [--force]: build the block and print it; or archive the snapshot (--archive).
main() {
  local source notice='' working=''
  # shellcheck disable=SC2034 # ah_state_read sets every field; main reads three
  local was_turn='' was_length='' was_pending='' was_boundary='' was_sync='' was_flushed='' was_lines was_new was_newer
  local state=$AH_STATE/$AH_SESSION.state
  # The hooks' state (post_edit never makes the folder on its hot path).
  [ "$AH_MODE" = show ] || ah_mkdir "$AH_STATE" || true
  ! ah_memory_gone SessionStart || return 0
  [ "$AH_MODE" != archive ] || { ah_load archive.sh && ah_archive "$@" && return 0; }
  ah_json source source || true
  [ "$source" != compress ] || source=compact # Gemini CLI's name for it (SessionStart sources)
  if [ "$source" = compact ]; then
    notice='Context was compacted: memory reloaded from .agent/memory/; it wins over the summary. This is '
    notice+='the same task, continued, not a new session: do not start over or greet; resume the In progress '
    notice+='item and the user'"'"'s latest request.'
    if [ "$AH_MODE" = run ]; then
      ah_load state.sh
      ah_state_read "$state" was_
      ah_compacted notice "$notice" "$was_flushed"
    fi
  fi
  # After a compaction the block also names the session's working set (its files, the request).
  [ "$source" != compact ] || working=1
  ah_block SessionStart "$notice" "$working"
  [ "$source" = compact ] && [ "$AH_MODE" = run ] || return 0
  # The host reloads us after its own compaction: the sync line tells on_compact not to count it twice.
  if ah_lock; then
    ah_state_read "$state" was_
    ah_state_write "$state" "$was_lines" "$was_newer" 0 0 - - 1 0 || true
    ah_unlock
  fi
  ah_log "compaction detected (SessionStart source=compact); memory reloaded"
}

main "$@"
