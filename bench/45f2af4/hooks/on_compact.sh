#!/usr/bin/env bash
# on_compact.sh: detect a context compaction and re-inject .agent/memory/ at once.
# agenthooks-owned:7d2f9c1e template=hooks/on_compact.sh@9
# Runs: once per prompt, and on the host's compaction events, from the host's registration, as:
#   bash .agent/hooks/on_compact.sh [FRAMEWORK] < payload.json
# Signals: the host's pre-compaction event (a flag for the next prompt), a compaction record in
# the transcript, the context length dropping by drop_percent (AGENT_CONTEXT_LEN or the
# transcript's usage), summary_markers in the payload, every reload_turns prompts. Most prompts
# show none: one append to the state (and, with a transcript, one tail), and the prompt kept as
# the user's latest request. A reload prints the memory block; at flush_at_percent of the window,
# one line asks the agent to update the snapshot. At the host's pre-compaction event, where the
# host hands its output to the summarizer, it prints what the summary must keep; at its
# post-compaction event it checks the summary against the rules and In progress items.
# Effects in .agent/ (agenthooks/statefiles.py; every change on disk: lib/io.sh):
#   reads    config.yaml log/state/config.values (every run)
#   writes   log/state/config.values (config.yaml changed)
#   appends  log/memory.log log/trace.log (something to log; AGENTHOOKS_DEBUG=1)
#   reads    log/state/SESSION.state log/state/SESSION.window (every prompt)
#   appends  log/state/SESSION.state (every prompt)
#   writes   log/state/SESSION.request (a prompt)
#   writes   log/state/SESSION.audit (the host's post-compaction event, a summary that left out)
#   removes  log/state/SESSION.audit (the next prompt, which says it)
#   writes   log/state/SESSION.state log/state/SESSION.state.PID.tmp (past 64 lines (by rename))
#   makes    log/state (a reload)
#   writes   log/state/SESSION.count (a reload)
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
#   spawns   tail touch awk mv mkdir flock head tr readlink stat rm
#            (a transcript; a reload; the host's compaction events)
# Parts, in lib/: prelude.sh (every run), state.sh (the state file), context.sh (the host's
# transcript, when read), io.sh (every change on disk); past the quiet path runtime.sh and say.sh
# (config, the lock, the log), block.sh with memory.awk, block.awk and clean.awk (the block),
# compaction.sh with audit.awk (the summary's instructions and its audit).
# Rendered by agenthooks for: linux. Tunables: .agent/config.yaml.
# Re-run 'agenthooks install' to upgrade; it merges edits made here.
{ POSIXLY_CORRECT=1 && set +x; } >/dev/null 2>&1 # no trace, even with SHELLOPTS=xtrace exported
# Bash only, and none of the caller's shell state: run by hand (bash .agent/hooks/on_compact.sh),
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
AH_HOOK=on_compact AH_FRAMEWORK=generic AH_MODE=run AH_EVENT_ARG='' AH_EVENT='?' AH_LOADED=prelude.sh
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
  echo "agenthooks[on_compact]: lib/prelude.sh is missing or not release 9: run 'agenthooks install'" >&2
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
  ah_config_parse
  [ "$AH_ENABLED" = 1 ] || exit 0
fi

# --- This prompt: the session's state, the context's length, and what they show ---
# (Top-level code: these are this run's facts, read once; the functions below take them as arguments.)
state=$AH_STATE/$AH_SESSION.state
# The host's own compaction events are for main (a glob: most payloads name none).
announced=0
case $AH_PAYLOAD$AH_EVENT_ARG in *[Pp]reCompact* | *PreCompress* | *PostCompact*) announced=1 ;; esac
ah_load state.sh
last_turn=0 last_length=0 last_pending=- last_boundary=- last_sync=0 last_flushed=0 last_lines=0 last_new=1 last_newer=0
ah_state_read "$state" last_
# length: the context's length in tokens now (AGENT_CONTEXT_LEN, else the host's transcript), or
# empty; bound: the latest compaction record there; stale=1: that record follows the length;
# window: the context window, where the transcript says it (lib/context.sh sets the last three).
length='' bound='' stale=0 window=''
if [ -n "${AGENT_CONTEXT_LEN+x}" ]; then
  raw=${AGENT_CONTEXT_LEN//[[:space:]]/}
  if ah_digits "$raw"; then
    length=$((10#$raw))
  else
    raw=${AGENT_CONTEXT_LEN:0:40}
    ah_runtime
    ah_log "ignored AGENT_CONTEXT_LEN='${raw//[![:print:]]/?}': not a token count"
  fi
elif transcript='' && [ "$announced" = 0 ] && case $AH_FRAMEWORK in claude-code) true ;; *) false ;; esac &&
  ah_json transcript transcript_path transcriptPath && ah_path transcript "$transcript" &&
  [ -f "$transcript" ] && [ -r "$transcript" ]; then
  ah_load context.sh
  # A bounded tail (exec: one fork), wider when the usage sits behind a long summary.
  for size in 4096 65536; do
    { tail_text=$(exec tail -c "$size" -- "$transcript" 2>/dev/null); } 2>/dev/null || break
    ! "ah_transcript_${AH_FRAMEWORK//-/_}" "$tail_text" || break
    [ ${#tail_text} -gt $((size - 256)) ] || break # a shorter tail is the whole file
  done
fi
# cause: why memory must reload now (empty: no need); next_*: the state line to record. sync:
# the length recorded predates a compaction, so the first one measured after it is the new
# baseline, not a drop (set by pre_task's reload, kept while stale says so).
next_turn=$((last_turn + 1)) next_length=${length:-$last_length} next_pending=-
next_boundary=${bound:-$last_boundary} next_sync=$stale next_flushed=$last_flushed cause=''
if [ "$last_pending" = pending ]; then
  cause="the host announced a compaction"
elif [ "$last_sync" = 1 ]; then
  : # memory was reloaded after this compaction
elif [ "$last_new" = 0 ] && [ -n "$bound" ] && [ "$bound" != "$last_boundary" ]; then
  cause="a compaction record in the transcript"
elif [ -n "$length" ] && [ "$length" -lt $((last_length * (100 - AH_DROP) / 100)) ]; then
  cause="context length dropped $last_length -> $length"
  [ "$last_pending" != candidate ] || cause="$cause after PreCompress"
fi
if [ -z "$cause" ] && [ -n "$AH_PAYLOAD" ] && [ -n "$AH_MARKERS" ]; then
  set -f
  IFS='|'
  for marker in $AH_MARKERS; do
    case $AH_PAYLOAD in *"$marker"*) [ -z "$marker" ] || { cause="summary marker '$marker' in the input" && break; } ;; esac
  done
  IFS=$' \t\n'
  set +f
fi
[ -n "$cause" ] || [ "$AH_TURNS" = 0 ] || [ "$next_turn" -lt "$AH_TURNS" ] ||
  cause="periodic reload after $next_turn prompts"
[ -z "$cause" ] || next_turn=0
# flush: the context's percent when the flush line is due (flush_at_percent of the window: the
# host's, else context_window_tokens), once a compaction cycle; next_flushed re-arms it after a
# compaction or below the threshold.
flush=''
if [ -n "$cause" ]; then
  case $cause in periodic*) ;; *) next_flushed=0 ;; esac
elif [ "$AH_FLUSH" -gt 0 ] && [ -n "$length" ]; then
  [ -n "$window" ] || { read -r window <"$AH_STATE/$AH_SESSION.window"; } 2>/dev/null || true
  ah_digits "$window" && [ "$window" -gt 0 ] || window=$AH_WINDOW
  # Claude Code compacts at a share of its auto-compact window (CLAUDE_CODE_AUTO_COMPACT_WINDOW,
  # else the model's), lowered by CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: the flush counts against the smaller.
  if [ "$AH_FRAMEWORK" = claude-code ]; then
    auto=${CLAUDE_CODE_AUTO_COMPACT_WINDOW-} share=${CLAUDE_AUTOCOMPACT_PCT_OVERRIDE-}
    share=${share%%.*} # a percent may have decimals
    ! ah_digits "$auto" || [ "$auto" -lt 1000 ] || [ "$auto" -ge "$window" ] || window=$auto
    ! ah_digits "$share" || [ "$share" -lt 1 ] || [ "$share" -ge 100 ] || window=$((window * share / 100))
  fi
  if [ $((length * 100)) -lt $((window * AH_FLUSH)) ]; then
    next_flushed=0
  elif [ "$last_flushed" = 0 ]; then
    flush=$((length * 100 / window))
  fi
fi

# request: a prompt's top-level "prompt" field as the payload holds it, JSON escapes and all, its
# first 320 characters: kept as SESSION.request for the block after a compaction, whose awk reads
# the request out of it; a slash command (/compact) is none. ${x%%X*}, no *X* glob: linear.
request=''
if [ "$announced" = 0 ] && [ "$AH_WORKING" != 0 ]; then
  head=${AH_PAYLOAD%%'"prompt":'*} request=${AH_PAYLOAD:${#head}:320}
  [ -z "$request" ] || case ${request:0:12}:${head#\{} in '"prompt":"/'* | '"prompt": "/'* | *:*[[{]*) request='' ;; esac
fi

# --- The quiet path: nothing to do but count the prompt (almost every prompt) ---
# One append and no lock: a line this short is written whole. (SESSION.audit: a line to say.)
if [ "$announced$last_newer" = 00 ] && [ -z "$cause$flush" ] && [ "$last_lines" -lt 64 ] && [ -d "$AH_STATE" ] &&
  [ ! -f "$AH_STATE/$AH_SESSION.audit" ]; then
  ah_load io.sh
  printf -v line 'v1 %s %s %s %s %s %s\n' "$next_turn" "$next_length" "$next_pending" "$next_boundary" "$next_sync" "$next_flushed"
  if ah_append "$state" "$line"; then
    # The request beside the state just written: its folder is checked already.
    [ -z "$request" ] || ah_put_beside "$AH_STATE/$AH_SESSION.request" "$request" || true
    exit 0
  fi
fi

# --- Past the quiet path: the host's events, the flush line, a reload, what the summary dropped ---
ah_runtime
ah_load lock.sh cache.sh block.sh compaction.sh

# record STATE FIELD...: a line of FIELDs added to the STATE file under the lock; without the
# lock it is skipped, and logged.
record() {
  local file=$1 rc=0 was_turn='' was_length='' was_pending='' was_boundary='' was_sync='' was_flushed='' was_lines was_new was_newer
  shift
  ah_lock || rc=$?
  [ "$rc" = 0 ] || { ah_skipped "$rc" "skipped writes" && return 0; }
  ah_state_read "$file" was_
  ah_state_write "$file" "$was_lines" "$was_newer" "$@" || ah_log "could not write hook state"
  ah_unlock
}
# announced EVENT STATE: the host's pre-compaction event flags the next prompt (PreCompress,
# Gemini CLI's, fires before every request: a candidate only); its post-compaction one
# (PostCompact) too, unless a SessionStart reload already followed the compaction (sync).
announced() {
  local event=$1 pending=pending rc=0 was_turn='' was_length='' was_pending='' was_boundary='' was_sync='' was_flushed='' was_lines was_new was_newer
  ah_state_read "$2" was_
  if [ "$event" = PostCompact ] && [ "$was_sync" = 1 ] && [ "$was_pending" != pending ]; then
    ah_log "compaction reported by the host (PostCompact); memory was already reloaded"
    return 0
  fi
  [ "$event" != PreCompress ] || [ "$was_pending" = pending ] || pending=candidate
  # Without the lock the flag is still appended (a line this short is written whole): the
  # compaction is never lost.
  ah_lock || rc=$?
  [ "$rc" = 0 ] || { ah_skipped "$rc" "appending the flag without it" && was_lines=0; }
  ah_state_write "$2" "$was_lines" "$was_newer" \
    "$was_turn" "$was_length" "$pending" "$was_boundary" "$was_sync" "$was_flushed" || true
  [ "$rc" != 0 ] || ah_unlock
  [ "$pending" = candidate ] ||
    ah_log "compaction announced by the host ($event); memory will reload on the next prompt"
}
# flush_line PERCENT LENGTH WINDOW TOLD STATE FIELD...: ask the agent to update the snapshot
# (and say TOLD, when not empty), and record when (the state line's flushed).
flush_line() {
  local percent=$1 length=$2 window=$3 told=$4 text now
  shift 4
  ah_epoch now
  record "${@:1:6}" "$now" # the state line, with the time of this flush line
  text='agenthooks: context is %s%% full, a compaction is near: update .agent/memory/snapshot.md now (In '
  text+='progress, Key decisions, Tried and failed).'
  # shellcheck disable=SC2059 # the format is the message above
  printf -v text "$text" "$percent"
  ah_say UserPromptSubmit "$text${told:+$'\n'$told}"
  ah_log "context $percent% full ($length of $window tokens): asked the agent to update the snapshot"
}

# main STATE CAUSE FLUSH LENGTH WINDOW REQUEST NEXT...: what this prompt needs beyond one
# append; REQUEST is kept as the user's latest once a reload has named the one before it.
main() {
  local state=$1 cause=$2 flush=$3 length=$4 window=$5 request=$6 event notice told='' working=1
  # shellcheck disable=SC2034 # ah_state_read sets every field; main reads one
  local was_turn='' was_length='' was_pending='' was_boundary='' was_sync='' was_flushed='' was_lines was_new was_newer
  shift 6
  ah_event event
  case $event in
    PreCompact | preCompact | PreCompress)
      announced "$event" "$state"
      # Where the host hands this output to its summarizer: what the summary must keep.
      case $event:$AH_FRAMEWORK in PreCompact:claude-code) ah_summary ;; esac
      return 0
      ;;
    PostCompact)
      announced "$event" "$state"
      ah_audit # the summary the host made, against the rules and In progress
      return 0
      ;;
  esac
  ah_told told # what the last compaction's summary dropped, once
  if [ -n "$flush" ]; then
    flush_line "$flush" "$length" "$window" "$told" "$state" "$@"
    ah_request "$request"
    return 0
  fi
  # Without the lock, memory is still printed; only the state update is skipped. The block is
  # published by rename and needs no lock: many agents in one repo never queue behind one awk.
  ah_state_read "$state" was_
  record "$state" "$@"
  if [ -z "$cause" ]; then
    [ -z "$told" ] || ah_say UserPromptSubmit "$told"
    ah_request "$request"
    return 0
  fi
  notice='agenthooks detected a context compaction and reloaded memory: follow .agent/memory/ over the '
  notice+='conversation summary. This is the same task, continued, not a new session: do not start over or '
  notice+='greet; resume the In progress item and the user'"'"'s latest request.'
  case $cause in periodic*) working='' ;; *) ah_compacted notice "$notice" "$was_flushed" ;; esac
  notice=$notice${told:+$'\n'$told}
  ! ah_memory_gone UserPromptSubmit || return 0
  ah_block UserPromptSubmit "$notice" "$working"
  ah_log "compaction detected ($cause); memory reloaded"
  ah_request "$request"
}

main "$state" "$cause" "$flush" "$length" "$window" "$request" "$next_turn" "$next_length" "$next_pending" "$next_boundary" "$next_sync" "$next_flushed"
