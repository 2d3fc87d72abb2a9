#!/usr/bin/env bash
# pre_task.sh: load .agent/memory/ into the agent's context when a session starts.
# agenthooks-owned:7d2f9c1e template=hooks/pre_task.sh@6
# Runs: at session start (and again after the host compacts the context), from the host's
# registration, as: bash .agent/hooks/pre_task.sh [FRAMEWORK] [--show | --archive | --statusline] < payload.json
#   FRAMEWORK  how to print for the host (claude-code); default generic
#   --show     print the block the agent would get now; write nothing
#   --archive  move the snapshot to memory/archive/ and start a fresh one
#   --statusline  one line for Claude Code's status line (its JSON on stdin), from the hooks' state
# Prints the memory block (rules, snapshot, latest notes, within the budget), kept in
# .agent/injected_context.txt; with memory unchanged it prints that copy again, no awk.
# Also the shared runtime: post_edit.sh and on_compact.sh load its prelude (and the rest when needed).
# Rendered by agenthooks for: linux. Tunables: .agent/config.yaml.
# Re-run 'agenthooks install' to upgrade; it merges edits made here.
# shellcheck disable=SC2034  # the shared runtime sets a few values only the other hooks read

# --- prelude: what every run of the three hooks needs (post_edit.sh and on_compact.sh load it from here) ---
[ -n "${BASH_VERSION-}" ] || { echo "agenthooks: this hook needs bash (3.2 or newer)" >&2; exit 0; }
set -euo pipefail
export LC_ALL=C; unset CDPATH  # cd never searches CDPATH (nor prints where it went)
umask 022
trap '' XFSZ PIPE  # a size limit (ulimit -f) or a closed stdout fails a write, not the hook
# Run as a script, this file is pre_task; loaded by another hook, that hook has set AH_HOOK.
[ "${#BASH_SOURCE[@]}" -gt 1 ] || AH_HOOK=pre_task AH_PART=''
AH_NL=$'\n'
AH_STDIN_MAX=16384  # bytes of stdin read at most: the fields hooks need come first
ah_epoch() { printf -v AH_EPOCH '%(%s)T' -1; }
# ah_json [-n] KEY...: AH_V = the string value of the first KEY present at the payload's top
# level (-n: any depth). Reads JSON as hosts send it (no regex); else ah_json_full, in the runtime.
ah_json() {
  local key h r s any=''; [ "$1" != -n ] || { any=1; shift; }
  for key in "$@"; do
    case $AH_IN in
      *"\"$key\":\""*) s=: ;;
      *"\"$key\": \""*) s=': ' ;;
      *"\"$key\":"[!\ ]* | *"\"$key\": "[!\ ]*) continue ;;  # null, a number, an object: no string here
      *"\"$key\""*) s='' ;;
      *) continue ;;
    esac
    if [ -n "$s" ]; then
      h=${AH_IN%%"\"$key\"$s\""*} r=${AH_IN:${#h}+${#key}+${#s}+3} r=${r%%\"*}
      # After a comma, a brace or a space; no escape in it; at depth 1 (no bracket before it: no call).
      case ${h: -1}"|$r" in [,\ \{]\|*\\*) s='' ;; [,\ \{]\|*) ;; *) s='' ;; esac
      [ -n "$any" ] || case ${h#\{} in *[[\{]*) ah_top "$h" || s='' ;; esac
      [ -z "$s" ] || { AH_V=$r; return 0; }
    fi
    ah_runtime
    ah_json_full ${any:+-n} "$@"
    return
  done
  AH_V=
  return 1
}
# ah_top TEXT: is the end of TEXT at depth 1? Brackets in strings do not count.
ah_top() {
  case ${1#\{} in *[[\{]*) ;; *) return 0 ;; esac  # one glob, linear: no second bracket
  local o c i n=0 parts bs=\\ t IFS='"'
  t=${1//"$bs$bs"/} t=${t//"$bs\""/}
  # Split at the quotes in place: a here-string is a temp file in bash before 5.1.
  set -f
  # shellcheck disable=SC2206
  parts=($t)
  set +f
  for ((i = 0; i < ${#parts[@]}; i += 2)); do o=${parts[i]//[!\[\{]/} c=${parts[i]//[!\]\}]/} n=$((n + ${#o} - ${#c})); done
  [ "$n" -le 1 ]
}
# ah_runtime: load the rest of pre_task.sh, when a quiet path is not enough. pre_task has it
# once it has read that far; its start section below loads it the same way (rare: see there).
ah_runtime() {
  declare -F ah_log >/dev/null || {
    local part=${AH_PART-}
    AH_PART=runtime
    # shellcheck source=/dev/null
    . "$AH_HOOKS/pre_task.sh"
    [ "$AH_HOOK" != pre_task ] || AH_PART=$part
  }
}

# --- start: what every run does first, once (not when the runtime is loaded) ---
if [ "${AH_PART-}" != runtime ]; then
  AH_FRAMEWORK=generic AH_MODE=run AH_EVENT_ARG='' AH_EVENT='' AH_EVENT_READ=0 AH_LOCKED=0 AH_WARNED=0 AH_TMP='' AH_IN='' AH_V='' AH_DONE=0 AH_RC=0
  for AH_A in "${AGENTHOOKS_FRAMEWORK-}" "$@"; do
    case $AH_A in
      --show) AH_MODE=show ;;
      --archive) AH_MODE=archive ;;
      --event=*) AH_EVENT_ARG=${AH_A#--event=} ;;
      --*) ;;
      claude-code | codex | gemini-cli | cursor | copilot-cli | cline | windsurf | opencode | aider | generic) AH_FRAMEWORK=$AH_A ;;
    esac
  done
  # .agent/ is the folder above this file, as reached: not the working directory, not a link's target.
  AH_V=${BASH_SOURCE[0]%/*}
  case ${BASH_SOURCE[0]} in /*) AH_HOOKS=$AH_V ;; */*) AH_HOOKS=$PWD/$AH_V ;; *) AH_HOOKS=$PWD ;; esac
  AH_HOOKS=${AH_HOOKS%/.}
  AH_AGENT=${AH_HOOKS%/*}
  AH_ROOT=${AH_AGENT%/*} AH_MEM=$AH_AGENT/memory AH_LOGDIR=$AH_AGENT/log AH_LOG=$AH_AGENT/log/memory.log AH_STATE=$AH_AGENT/log/state
  AH_LOCKF=$AH_AGENT/log/.lock AH_PLOCK=$AH_AGENT/log/.lock.pid
  # Every run ends in the runtime's ah_done, with status 0; a quiet path exits first, holding nothing.
  trap 'AH_RC=$?; { ah_runtime && ah_done; } || true; exit 0' EXIT
  # The tunables pre_task.sh last parsed (log/state/config.values); stale or unreadable: AH_CFG_PENDING=1.
  AH_CFG_PENDING=1 AH_V=$AH_STATE/config.values AH_A='' AH_C=''
  if [ "$AH_V" -nt "$AH_AGENT/config.yaml" ] && [ "$AH_V" -nt "$AH_HOOKS/pre_task.sh" ] &&
    { read -r AH_A AH_ENABLED AH_BUDGET AH_NOTES AH_STALE AH_DROP AH_TURNS AH_LOCK_TIMEOUT AH_LOG_MAX_KB AH_FRESH AH_C && IFS= read -r AH_MARKERS; } <"$AH_V" 2>/dev/null &&
    [ "$AH_A:$AH_C" = AHCFG6:. ]; then
    case $AH_ENABLED$AH_BUDGET$AH_NOTES$AH_STALE$AH_DROP$AH_TURNS$AH_LOCK_TIMEOUT$AH_LOG_MAX_KB$AH_FRESH in *[!0-9]*) ;; *) AH_CFG_PENDING=0 ;; esac
  fi
  # enabled: false turns every hook into a silent no-op.
  [ "$AH_CFG_PENDING" = 1 ] || [ "$AH_ENABLED" = 1 ] || { trap - EXIT; exit 0; }
  # Stdin is the host's JSON payload: a bounded prefix, 1 s at most.
  [ -t 0 ] || { IFS= read -r -t 1 -d '' -n "$AH_STDIN_MAX" AH_IN 2>/dev/null || true; }
  ah_json session_id sessionId conversation_id taskId trajectory_id || AH_V=${GEMINI_SESSION_ID-}
  case $AH_V in *[!A-Za-z0-9_.-]*) AH_V=${AH_V//[!A-Za-z0-9_.-]/_} ;; esac  # safe for a file name
  AH_SID=${AH_V:0:80} AH_SID=${AH_SID:-default}
fi
# The other hooks stop loading here: the rest is pre_task's, and theirs when a quiet path is not enough.
if [ "$AH_HOOK" != pre_task ] && [ "${AH_PART-}" != runtime ]; then return 0; fi
# --- pre_task's and the runtime's: ah_now; ah_mtime FILE, AH_MTIME = its modification time in epoch seconds ---
ah_now() { printf -v AH_TS '%(%Y-%m-%d %H:%M:%S)T' -1; }
ah_mtime() {
  AH_MTIME=$(exec stat -c %Y -- "$1" 2>/dev/null) || return 1
  case $AH_MTIME in '' | *[!0-9]*) return 1 ;; esac
}

# --- status line: Claude Code runs it every few hundred milliseconds; what is above is all it needs ---
# ah_statusline: one line from last.block, <session>.count and snapshot.mtime (renewed); empty without them.
ah_statusline() {
  local b='' t='' n='' m='' s
  { read -r b s s s s t s <"$AH_STATE/last.block"; read -r n <"$AH_STATE/$AH_SID.count"; } 2>/dev/null || true
  if [ ! "$AH_MEM/snapshot.md" -ot "$AH_STATE/snapshot.mtime" ]; then
    ! ah_mtime "$AH_MEM/snapshot.md" || [ -L "$AH_STATE/snapshot.mtime" ] || { printf '%s\n' "$AH_MTIME" >"$AH_STATE/snapshot.mtime"; } 2>/dev/null || true
  fi
  { read -r m <"$AH_STATE/snapshot.mtime"; } 2>/dev/null || true
  n=${n:-0} s=
  case $b:$t:$m:$n in *[!0-9:]* | :* | *::* | *: | *:*:*:*:*) { echo; } 2>/dev/null; return 0 ;; esac
  ah_epoch
  m=$(((AH_EPOCH > m ? AH_EPOCH - m : 0) / 60))
  if [ "$m" -ge 2880 ]; then m=$((m / 1440))d; elif [ "$m" -ge 120 ]; then m=$((m / 60))h; else m=${m}m; fi
  [[ ! $AH_IN =~ \"used_percentage\"[[:space:]]*:[[:space:]]*([0-9]{1,3}) ]] || s=" · ctx ${BASH_REMATCH[1]}%"
  { printf '%s\n' "memory $t/$b tok · compacted ${n}x · snapshot $m old$s"; } 2>/dev/null || true
}
if [ "$AH_HOOK" = pre_task ] && [ "${AH_PART-}" != runtime ]; then
  case " $* " in *" --statusline "*) ah_statusline; trap - EXIT; exit 0 ;; esac
fi

# --- log: the one way hooks report ---
# ah_log MESSAGE: one line "[TIME] HOOK FRAMEWORK SESSION: MESSAGE" in the log, else one warning on stderr.
ah_log() {
  local msg=$*
  msg=${msg//[[:cntrl:]]/ }
  if [ "$AH_MODE" = show ]; then
    # --show writes nothing, not even the log: warnings go to stderr.
    printf 'agenthooks[%s]: %s\n' "$AH_HOOK" "$msg" >&2
    return 0
  fi
  ah_now
  # Never through a link (it may point out of the repo), never into a FIFO (would block).
  if [ ! -L "$AH_LOG" ] && [ ! -L "$AH_LOGDIR" ] && [ -d "$AH_LOGDIR" ] &&
    { [ -f "$AH_LOG" ] || [ ! -e "$AH_LOG" ]; } &&
    { printf '[%s] %s %s %s: %s\n' "$AH_TS" "$AH_HOOK" "$AH_FRAMEWORK" "${AH_SID:-default}" "$msg" >>"$AH_LOG"; } 2>/dev/null; then
    return 0
  fi
  [ "$AH_WARNED" = 1 ] || { AH_WARNED=1; printf 'agenthooks[%s]: %s (log not writable)\n' "$AH_HOOK" "$msg" >&2; }
  return 0
}
# ah_done: every run ends here (the exit trap), with status 0: the lock released, no temp file left.
ah_done() {
  trap - EXIT
  [ "$AH_RC" = 0 ] || ah_log "internal error (status $AH_RC); memory may be incomplete this run"
  [ -z "$AH_TMP" ] || rm -f -- "$AH_TMP" 2>/dev/null || true
  [ "$AH_LOCKED" = 0 ] || ah_unlock
}

# --- payload: the full JSON reader (ah_json in the prelude reads what hosts usually send) ---
# ah_json_full [-n] KEY...: ah_json for any JSON: any spacing, escapes decoded, nested keys skipped.
ah_json_full() {
  local key re bs=\\ any='' r t h; [ "$1" != -n ] || { any=1; shift; }
  for key in "$@"; do
    case $AH_IN in *"\"$key\""*) ;; *) continue ;; esac
    re='(^|[{,])[[:space:]]*"'$key'"[[:space:]]*:[[:space:]]*"(([^"\\]|\\.)*)"'
    r=$AH_IN t=''
    while [[ $r =~ $re ]]; do
      # A key nested in an object is skipped (bash's patterns are quadratic: up to 16 KB).
      [ -n "$any" ] || [ ${#AH_IN} -gt 16384 ] || { h=${r%%"${BASH_REMATCH[0]}"*} r=${r:${#h}+${#BASH_REMATCH[0]}}
        ah_top "$t$h${BASH_REMATCH[1]}" || { t=$t$h${BASH_REMATCH[0]}; continue; }; }
      AH_V=${BASH_REMATCH[2]}
      case $AH_V in
        *"$bs"*)
          AH_V=${AH_V//"$bs$bs"/$'\001'} AH_V=${AH_V//"$bs\""/\"} AH_V=${AH_V//"$bs/"//}
          AH_V=${AH_V//"${bs}n"/$AH_NL} AH_V=${AH_V//"${bs}t"/$'\t'} AH_V=${AH_V//$'\001'/$bs}
          ;;
      esac
      return 0
    done
  done
  AH_V=
  return 1
}
# --- printing: where the host shows text to the model ---
# ah_jstr TEXT: AH_J = TEXT as the inside of a JSON string.
ah_jstr() {
  local bs=\\
  AH_J=${1//"$bs"/"$bs$bs"}
  AH_J=${AH_J//\"/"$bs\""}
  AH_J=${AH_J//"$AH_NL"/"${bs}n"}
  AH_J=${AH_J//$'\t'/"${bs}t"}
  AH_J=${AH_J//$'\r'/}
}
# ah_event: AH_EVENT = the hook event the payload names, looked up once, when needed.
ah_event() {
  [ "$AH_EVENT_READ" = 0 ] || return 0
  AH_EVENT_READ=1
  ! ah_json hook_event_name hookName agent_action_name || AH_EVENT=${AH_V//[!A-Za-z_]/}
  # Payloads without an event name (Copilot CLI camelCase): the registration passes --event=.
  [ -n "$AH_EVENT" ] || AH_EVENT=${AH_EVENT_ARG//[!A-Za-z_]/}
}
# ah_envelope EVENT: AH_PRE / AH_POST wrap text so it reaches the model (frameworks/<name>/envelope.sh.j2).
ah_envelope() {
  local event
  ah_event
  event=${AH_EVENT:-$1}
  AH_PRE='' AH_POST=''
  case $AH_FRAMEWORK in
    claude-code) AH_PRE='{"hookSpecificOutput":{"hookEventName":"'$event'","additionalContext":"' AH_POST='"}}' ;;
  esac
}
# ah_say EVENT TEXT: print TEXT where the framework shows it to the model (never fatal).
ah_say() {
  ah_envelope "$1"
  if [ -n "$AH_PRE" ]; then
    ah_jstr "$2"
    { printf '%s%s%s\n' "$AH_PRE" "$AH_J" "$AH_POST"; } 2>/dev/null || true
  else
    { printf '%s\n' "$2"; } 2>/dev/null || true
  fi
}

# --- block cache: log/state/block.stats says which block injected_context.txt holds ---
# ah_user_tattoo: AH_UTAT = the user-level rules file, or empty when there is none.
ah_user_tattoo() {
  AH_UTAT=${HOME:+$HOME/.agent/memory/tattoo.md}
  [ -n "$AH_UTAT" ] && [ "$AH_UTAT" != "$AH_MEM/tattoo.md" ] && [ -f "$AH_UTAT" ] && [ -r "$AH_UTAT" ] || AH_UTAT=
}
# ah_budget: AH_EB = budget_tokens, kept under what the host shows inline (its framework module says).
ah_budget() {
  AH_EB=$AH_BUDGET
}
# ah_fresh FILE: is FILE newer than all a block is built from, memory/ too, each memory file with its twin's time?
ah_fresh() {
  local f i=0
  for f in "$AH_MEM/tattoo.md" "$AH_MEM/snapshot.md" "$AH_MEM/notes.md" ${AH_UTAT:+"$AH_UTAT"} "$AH_MEM" \
    "$AH_AGENT/config.yaml" "$AH_HOOKS/pre_task.sh" "$AH_HOOKS/on_compact.sh"; do
    [ "$1" -nt "$f" ] || return 1
    [ "$i" -gt 3 ] || [ "$f" = "$AH_MEM" ] || ah_same "$f" "$AH_STATE/mtime.$i" || return 1
    i=$((i + 1))
  done
}
ah_same() { [ ! "$1" -nt "$2" ] && [ ! "$1" -ot "$2" ]; }
# ah_cached: AH_BLOCK / AH_STATS = the published block and its figures, if built plainly, for this budget, from this memory.
ah_cached() {
  local st=$AH_STATE/block.stats cur=$AH_AGENT/injected_context.txt tag='' len='' u='' budget='' notes='' rest='' user=0
  [ -f "$st" ] && [ ! -L "$st" ] && [ -f "$cur" ] && [ ! -L "$cur" ] || return 1
  ah_budget
  ah_user_tattoo
  [ -z "$AH_UTAT" ] || user=1
  ah_fresh "$st" || return 1
  { read -r tag len u budget notes rest <"$st"; } 2>/dev/null || true
  [ "$tag" = AHC1 ] && [ "$u" = "$user" ] && [ "$budget" = "$AH_EB" ] && [ "$notes" = "$AH_NOTES" ] || return 1
  AH_BLOCK=''; { IFS= read -r -d '' AH_BLOCK <"$cur"; } 2>/dev/null || true
  # A block published by another hook since this figure was written: build anew.
  [ "${#AH_BLOCK}" = "$len" ] || return 1
  AH_BLOCK=${AH_BLOCK%"$AH_NL"}
  AH_STATS=$rest
}
# ah_loaded STATS MISSING: the audit line for a block, from the figures of its build.
ah_loaded() {
  local f miss=$2
  case $1 in '' | *[!0-9\ ]*) return 0 ;; esac
  # shellcheck disable=SC2086
  set -- $1
  [ $# -ge 10 ] || return 0
  f="memory loaded: tattoo=$1 lines snapshot=$2 lines notes=$4/$3, ~$5 tokens of ${AH_EB}, $6 chars"
  [ "$AH_EB" = "$AH_BUDGET" ] || f="$f; budget_tokens $AH_BUDGET is over what $AH_FRAMEWORK shows inline: kept to $AH_EB"
  [ "$7" = 0 ] || f="$f; cut $7 notes"
  [ "$8" = 0 ] || f="$f; cut $8 snapshot lines"
  [ "$9" = 0 ] || f="$f; WARNING $9 rules left out (over the budget or the character cap)"
  [ "${10}" = 0 ] || f="$f; redacted ${10} secret-looking lines"
  [ -z "$miss" ] || f="$f; missing or unreadable:$miss"
  ah_log "$f"
}
# ah_quiet_pre_task: AH_DONE=1 when memory is unchanged since the last build: injected_context.txt, no awk.
ah_quiet_pre_task() {
  [ "$AH_CFG_PENDING" = 0 ] && [ "$AH_MODE" = run ] || return 0
  [ -f "$AH_MEM/tattoo.md" ] && [ -f "$AH_MEM/snapshot.md" ] && [ -f "$AH_MEM/notes.md" ] &&
    [ -d "$AH_STATE" ] || return 0
  # After a compaction the block carries a notice and the state is updated: main does both.
  if ah_json source && [ "$AH_V" = compact ]; then
    return 0
  fi
  ah_cached || return 0
  ah_say SessionStart "$AH_BLOCK"
  AH_DONE=1
  ah_loaded "$AH_STATS" ''
}

# --- fast path: a start with unchanged memory (most) ends here, before bash parses the rest ---
if [ "$AH_HOOK" = pre_task ] && [ "${AH_PART-}" != runtime ]; then
  ah_quiet_pre_task
  [ "$AH_DONE" = 0 ] || { trap - EXIT; exit 0; }  # nothing held, nothing to clean
fi

# --- config: the defaults and the config.yaml reader (declared in agenthooks/config.py) ---
# ah_config_parse: the tunables from config.yaml (defaults for keys missing or unreadable), kept in config.values.
ah_config_parse() {
  AH_BUDGET=500 AH_NOTES=5 AH_STALE=10 AH_DROP=40 AH_TURNS=20 AH_MARKERS='This session is being continued from a previous conversation|CONTEXT CHECKPOINT COMPACTION|<state_snapshot>' AH_LOCK_TIMEOUT=5 AH_LOG_MAX_KB=256 AH_FRESH=3 AH_ENABLED=1
  local f=$AH_AGENT/config.yaml line key val bs=\\ bad=''
  [ -f "$f" ] && [ -r "$f" ] || f=/dev/null
  while IFS= read -r line || [ -n "$line" ]; do
    case ${line#$'\357\273\277'} in [a-z]*:*) ;; *) continue ;; esac
    key=${line%%:*} key=${key#$'\357\273\277'} val=${line#*:} val=${val%$'\r'}
    key=${key%"${key##*[![:blank:]]}"} val=${val#"${val%%[![:blank:]]*}"}
    # As YAML: a quoted value ends at its last quote (escapes \\, \"); else ' #' starts a comment.
    case $val in
      \"*\"*) val=${val#\"} val=${val%\"*} val=${val//"$bs$bs"/$'\001'} val=${val//"$bs\""/\"} val=${val//$'\001'/$bs} ;;
      \'*\'*) val=${val#\'} val=${val%\'*} val=${val//"''"/"'"} ;;
      *) val=${val%%[[:blank:]]#*} val=${val##\#*} val=${val%"${val##*[![:blank:]]}"} ;;
    esac
    case $key in
      budget_tokens) ah_int AH_BUDGET "$val" 50 20000 || bad="$bad $key" ;;
      notes_count) ah_int AH_NOTES "$val" 0 100 || bad="$bad $key" ;;
      stale_minutes) ah_int AH_STALE "$val" 0 10080 || bad="$bad $key" ;;
      drop_percent) ah_int AH_DROP "$val" 1 99 || bad="$bad $key" ;;
      reload_turns) ah_int AH_TURNS "$val" 0 100000 || bad="$bad $key" ;;
      lock_timeout_seconds) ah_int AH_LOCK_TIMEOUT "$val" 0 120 || bad="$bad $key" ;;
      log_max_kb) ah_int AH_LOG_MAX_KB "$val" 1 102400 || bad="$bad $key" ;;
      fresh_after_compactions) ah_int AH_FRESH "$val" 0 1000 || bad="$bad $key" ;;
      summary_markers) AH_MARKERS=$val ;;
      enabled)
        case $val in
          true | True | TRUE | yes | Yes | YES | on | On | ON | 1) AH_ENABLED=1 ;;
          false | False | FALSE | no | No | NO | off | Off | OFF | 0) AH_ENABLED=0 ;;
          *) bad="$bad enabled" ;;
        esac
        ;;
    esac
  done <"$f"
  [ -z "$bad" ] || ah_log "config.yaml:$bad unreadable or out of range; using defaults for them"
  # Kept only from a readable file with nothing to report, so that each run says it again.
  if [ -z "$bad" ] && [ "$f" != /dev/null ] && [ -d "$AH_STATE" ] && [ ! -L "$AH_LOGDIR" ] && [ ! -L "$AH_STATE/config.values" ]; then
    { printf 'AHCFG6 %s %s %s %s %s %s %s %s %s .\n%s\n' "$AH_ENABLED" "$AH_BUDGET" "$AH_NOTES" "$AH_STALE" "$AH_DROP" "$AH_TURNS" "$AH_LOCK_TIMEOUT" "$AH_LOG_MAX_KB" "$AH_FRESH" "$AH_MARKERS" >"$AH_STATE/config.values"; } 2>/dev/null || true
  fi
  # enabled: false turns every hook into a silent no-op.
  [ "$AH_ENABLED" = 1 ] || exit 0
}
# ah_int NAME VALUE MIN MAX: set NAME when VALUE is a plain integer in range.
ah_int() {
  local v=${2//[[:space:]]/}
  case $v in '' | *[!0-9]*) return 1 ;; esac
  [ ${#v} -le 9 ] && [ $((10#$v)) -ge "$3" ] && [ $((10#$v)) -le "$4" ] || return 1
  printf -v "$1" '%s' $((10#$v))
}
# ah_config_full: parse a changed config.yaml, then offer the quiet path again (AH_DONE=1 if it ended the run).
ah_config_full() {
  [ "$AH_CFG_PENDING" = 1 ] || return 0
  ah_config_parse
  AH_CFG_PENDING=0
  ! declare -F "ah_quiet_$AH_HOOK" >/dev/null || "ah_quiet_$AH_HOOK"  # (on_compact's is top-level code)
}

# --- runtime: time stamps, file times, the lock, log rotation, printing for the host ---
# ah_stamp: AH_STAMP = now, for file names.
ah_stamp() { printf -v AH_STAMP '%(%Y%m%d_%H%M%S)T' -1; }
# Locking: writes of shared state wait for the lock, lock_timeout_seconds at most, whatever is there.
# ah_plain FILE: a regular file or nothing there: a FIFO, a link or an empty folder goes; 1 if anything stays.
ah_plain() {
  { [ -e "$1" ] || [ -L "$1" ]; } && { [ -L "$1" ] || [ ! -f "$1" ]; } || return 0
  rm -f -- "$1" 2>/dev/null || rmdir -- "$1" 2>/dev/null
}
ah_lock() {
  [ "$AH_LOCKED" = 0 ] || return 0
  # Every write of shared state happens under the lock: none through a linked log folder.
  [ -d "$AH_LOGDIR" ] && [ -w "$AH_LOGDIR" ] && [ ! -L "$AH_LOGDIR" ] || return 1
  local rc=0
  ah_plain "$AH_LOCKF" && { exec 9>>"$AH_LOCKF"; } 2>/dev/null || return 1
  flock -w "$AH_LOCK_TIMEOUT" -E 75 9 2>/dev/null || rc=$?
  [ "$rc" != 0 ] || { AH_LOCKED=1; return 0; }
  exec 9>&-
  return 1
}
ah_unlock() {
  local h=''
  [ "$AH_LOCKED" != 1 ] || exec 9>&-
  # The portable lock: only our own, as a lock broken as stale may since be another hook's.
  [ "$AH_LOCKED" != 2 ] || [ ! -f "$AH_PLOCK" ] || { IFS= read -r h <"$AH_PLOCK"; } 2>/dev/null || true
  [ "$h" != "$$" ] || rm -f -- "$AH_PLOCK" 2>/dev/null || true
  AH_LOCKED=0
}
# ah_rotate_log BYTES: keep the log under log_max_kb, one old file kept.
ah_rotate_log() {
  [ "${1:-0}" -gt $((AH_LOG_MAX_KB * 1024)) ] || return 0
  ah_lock || return 0
  mv -f -- "$AH_LOG" "$AH_LOG.1" 2>/dev/null || true
  ah_log "rotated the log at $1 bytes (old lines in memory.log.1)"
}
# ah_compacted NOTICE: AH_NOTE = NOTICE, plus the fresh-session line from fresh_after_compactions on.
ah_compacted() {
  local f=$AH_STATE/$AH_SID.count n=''
  { read -r n <"$f"; } 2>/dev/null || true
  case $n in '' | *[!0-9]* | ??????????*) n=0 ;; esac
  n=$((10#$n + 1)) AH_NOTE=$1
  [ -L "$f" ] || { printf '%s\n' "$n" >"$f"; } 2>/dev/null || true
  [ "$AH_FRESH" -gt 0 ] && [ "$n" -ge "$AH_FRESH" ] || return 0
  printf -v f 'This session was compacted %dx: start a fresh session when you can; memory carries over (.agent/memory/).' "$n"
  AH_NOTE=$AH_NOTE$AH_NL$f
  ah_log "recommended a fresh session after $n compactions"
}

# ah_template NAME: AH_TPL = the starting text of memory/NAME.md, for printf %b.
ah_template() {
  case $1 in
    tattoo) AH_TPL='# Project hard rules\n<!-- Only rules whose violation means a rollback. One imperative rule per line; 3-5 per\n     dimension (style, architecture, interfaces, process), 20 at most. Injected whole. -->\n' ;;
    snapshot) AH_TPL='# Current task snapshot\n<!-- The progress board: update it when the task changes phase, not after every edit. -->\n\n## Goal\n\n## Done\n\n## In progress\n\n## Todo\n\n## Key decisions\n' ;;
    notes) AH_TPL='# Scratch notes\n<!-- Free-form and possibly stale; one note per line. The latest few are injected. -->\n' ;;
  esac
}
# ah_gone: is memory/ missing from a repo that had it (a build here, or git tracks it)? ah_gone_say EVENT: say so.
ah_gone_say() { ah_say "$1" 'agenthooks: .agent/memory/ is missing right now (renamed, or a git checkout under way); project memory was not loaded: read .agent/memory/ once it is back.'; ah_log "memory/ is missing (renamed or checked out?): not recreated; told the agent"; }
ah_gone() {
  [ ! -d "$AH_MEM" ] && { [ -e "$AH_STATE/last.block" ] || [ -e "$AH_AGENT/injected_context.txt" ] ||
    [ -n "$(exec git -C "$AH_ROOT" ls-files -- .agent/memory 2>/dev/null)" ]; }
}
# ah_scaffold: create missing folders and memory files (none once memory is gone); never touch an existing one.
ah_scaffold() {
  local f
  # post_edit keeps its state here and never makes the folder itself on the hot path.
  [ -d "$AH_STATE" ] || [ -L "$AH_LOGDIR" ] || mkdir -p -- "$AH_STATE" 2>/dev/null || true
  [ "${1:-0}" = 0 ] || return 0
  [ -d "$AH_MEM" ] || mkdir -p -- "$AH_MEM" 2>/dev/null || true
  for f in tattoo snapshot notes; do
    if [ -e "$AH_MEM/$f.md" ] || [ -L "$AH_MEM/$f.md" ]; then continue; fi
    ah_template "$f"
    set -C  # never over a file made meanwhile (the log's >> is not affected)
    ! { printf '%b' "$AH_TPL" >"$AH_MEM/$f.md"; } 2>/dev/null || ah_log "created memory/$f.md from the template"
    set +C
  done
}
AH_CUTB=262144  # bytes of a memory file read at most
# ah_whole FILE: is FILE under AH_CUTB bytes and 64 NULs (BusyBox awk: a record each)? No fork.
ah_whole() {
  local x n=0 i=0
  while IFS= read -r -d '' -n $((AH_CUTB - n)) x; do
    n=$((n + ${#x} + 1)) i=$((i + 1)) && [ "$n" -lt "$AH_CUTB" ] && [ "$i" -lt 64 ] || return 1
  done 2>/dev/null <"$1"
}
# ah_twins: log/state/mtime.N take the memory files' times (ah_fresh): one touch per time.
ah_twins() {
  local i j
  local -a src=("$AH_MEM/tattoo.md" "$AH_MEM/snapshot.md" "$AH_MEM/notes.md" ${AH_UTAT:+"$AH_UTAT"}) tw
  for ((i = 0; i < ${#src[@]}; i++)); do
    if [ ! -f "${src[i]}" ] || [ -L "$AH_STATE/mtime.$i" ] || ah_same "${src[i]}" "$AH_STATE/mtime.$i"; then continue; fi
    tw=()
    for ((j = i; j < ${#src[@]}; j++)); do
      ! ah_same "${src[j]}" "${src[i]}" || ah_same "${src[j]}" "$AH_STATE/mtime.$j" || tw+=("$AH_STATE/mtime.$j")
    done
    touch -r "${src[i]}" -- "${tw[@]}" 2>/dev/null || return 1
  done
}
# ah_block EVENT NOTICE: build, publish and print the memory block.
ah_block() {
  local f m out prog='' stats plain lbytes cur='' st='' stamp='' fresh=0 missing='' lf='' cut='' keys=''
  local -a files
  ah_budget
  ah_user_tattoo
  files=(K=utat "${AH_UTAT:-/dev/null}")
  for f in tattoo snapshot notes; do
    if [ -f "$AH_MEM/$f.md" ] && [ -r "$AH_MEM/$f.md" ]; then
      files+=("K=$f" "$AH_MEM/$f.md")
    else
      missing="$missing $f.md" files+=("K=$f" /dev/null)
    fi
  done
  # A file awk cannot read whole at once: AH_CUTB bytes of it, through head (notes.md: tail).
  for m in 1 3 5 7; do
    [ "${files[m]}" = /dev/null ] || ah_whole "${files[m]}" || cut="$cut $m" keys="$keys ${files[m - 1]#K=}"
  done
  AH_TMP=
  if [ "$AH_MODE" = run ] && [ -w "$AH_AGENT" ] && [ ! -L "$AH_AGENT/injected_context.txt" ] &&
    [ ! -d "$AH_AGENT/injected_context.txt" ]; then
    AH_TMP=$AH_AGENT/.injected_context.txt.$$.$RANDOM
    [ ! -f "$AH_AGENT/injected_context.txt" ] || cur=$AH_AGENT/injected_context.txt
  fi
  # Cache figures only from a build no change came after: this session's stamp marks when awk read.
  if [ -n "$AH_TMP" ] && [ -d "$AH_STATE" ] && [ ! -L "$AH_LOGDIR" ] && [ ! -L "$AH_STATE/block.stats" ]; then
    st=$AH_STATE/block.stats stamp=$AH_STATE/$AH_SID.built
    [ ! -L "$stamp" ] && { : >"$stamp"; } 2>/dev/null && ah_twins || st=
  fi
  [ ! -f "$AH_LOG" ] || lf=$AH_LOG
  # The awk program is data at the end of on_compact.sh of this release (or its .agenthooks-new): no fork.
  for f in on_compact.sh on_compact.sh.agenthooks-new; do
    { IFS= read -r -d '' prog <"$AH_HOOKS/$f"; } 2>/dev/null || true
    m="<<'AGENTHOOKS_AWK'$AH_NL" f=${prog%%"$m"*}
    if [ ${#f} -lt ${#prog} ]; then
      case $f in *"template=hooks/on_compact.sh@6$AH_NL"*) prog=${prog:${#f}+${#m}} && break ;; esac
    fi
    prog=
  done
  out=
  [ -z "$prog" ] || out=$(for m in $cut; do
      f='head' && [ "$m" != 7 ] || f='tail'
      eval "exec $((m + 2))<"' <("$f" -c "$AH_CUTB" -- "${files[m]}" 2>/dev/null | tr -d "\000" 2>/dev/null)'
      files[m]=/dev/fd/$((m + 2))
    done
    AH_NOTICE=$2 AH_CUR=$cur AH_LOGF=$lf AH_CUT="$((AH_CUTB / 1024))$keys" \
    exec awk -v budget="$AH_EB" -v nnotes="$AH_NOTES" "${prog%"${AH_NL}AGENTHOOKS_AWK"*}" "${files[@]}" 2>/dev/null) || out=
  stats=${out%%"$AH_NL"*}
  plain=${out#*"$AH_NL"}
  if [ "${stats%% *}" != AHSTATS ]; then
    # The block could not be built: say so in one line rather than print half a block.
    [ -z "$AH_TMP" ] || rm -f -- "$AH_TMP" 2>/dev/null || true
    AH_TMP='' f="awk failed"
    ah_say "$1" 'agenthooks: the memory block could not be built this time; read .agent/memory/tattoo.md and snapshot.md yourself.'
    [ -n "$prog" ] || f="on_compact.sh is missing or not release 6"
    ah_log "could not build the memory block ($f); printed a warning instead"
    return 0
  fi
  for f in $keys; do  # one line for each file read in part (the block says so too)
    [ "$f" = utat ] && f=\~/.agent/memory/tattoo || f=memory/$f; ah_log "$f.md is over $((AH_CUTB / 1024)) KB or binary: read $((AH_CUTB / 1024)) KB of it (notes.md: its end), NUL bytes dropped"
  done
  ah_say "$1" "$plain"
  [ "$AH_MODE" = run ] || return 0
  # AHSTATS <10 figures for the audit line> LOG_BYTES SAME (the published block is this one)
  stats=${stats#AHSTATS } lbytes=${stats% *}
  lbytes=${lbytes##* }
  [ -z "$st" ] || [ -n "$2" ] || ! ah_fresh "$stamp" || fresh=1
  [ "${stats##* }" != 1 ] || AH_TMP=
  if [ -n "$AH_TMP" ] && ! { { printf '%s\n' "$plain" >"$AH_TMP"; } 2>/dev/null && mv -f -- "$AH_TMP" "$AH_AGENT/injected_context.txt" 2>/dev/null; }; then
    rm -f -- "$AH_TMP" 2>/dev/null || true
    st='' && ah_log "could not publish injected_context.txt"
  fi
  AH_TMP=
  [ -z "$st" ] || [ -L "$AH_STATE/last.block" ] || { printf '%s %s\n' "$AH_EB" "$stats" >"$AH_STATE/last.block"; } 2>/dev/null || true
  # Figures for this block, or none: a block that is not current must not be reused.
  [ -z "$st" ] || [ "$fresh" = 1 ] || { : >"$st"; } 2>/dev/null || true
  [ -z "$st" ] || [ "$fresh" = 0 ] || { printf 'AHC1 %s %s %s %s %s\n' $((${#plain} + 1)) $((${#AH_UTAT} > 0)) "$AH_EB" "$AH_NOTES" "$stats" >"$st"; } 2>/dev/null || true
  ah_loaded "$stats" "$missing"
  ah_rotate_log "$lbytes"
}

# Loaded as the runtime: it is defined, and the hook that loaded it goes on with its own main.
if [ "$AH_HOOK" != pre_task ] || [ "${AH_PART-}" = runtime ]; then return 0; fi

# --- pre_task ---
# ah_archive: archives are never injected, and never overwritten.
ah_archive() {
  local dest n=1
  [ -f "$AH_MEM/snapshot.md" ] || { ah_log "archive: no snapshot to archive"; return 0; }
  # Never through a link: the snapshot would leave .agent/.
  [[ ! -L $AH_MEM/archive && ! -L $AH_MEM ]] || n=100
  [ -d "$AH_MEM/archive" ] || [ "$n" = 100 ] || mkdir -p -- "$AH_MEM/archive" 2>/dev/null || true
  ah_stamp
  dest=$AH_MEM/archive/snapshot_$AH_STAMP.md
  set -C  # the first free name: noclobber makes the file or fails, so none is overwritten
  until [ "$n" -gt 99 ] || { : >"$dest"; } 2>/dev/null; do
    n=$((n + 1)) dest=$AH_MEM/archive/snapshot_${AH_STAMP}_$n.md
  done
  set +C
  if [ "$n" -gt 99 ]; then
    ah_log "archive: cannot create a file in memory/archive/ (or it or memory/ is a link); nothing moved"
    echo "agenthooks: cannot archive the snapshot (see .agent/log/memory.log)" >&2
    return 0
  fi
  mv -f -- "$AH_MEM/snapshot.md" "$dest" || { ah_log "archive: could not move the snapshot"; return 0; }
  ah_template snapshot
  { printf '%b' "$AH_TPL" >"$AH_MEM/snapshot.md"; } 2>/dev/null || true
  ah_log "archived the snapshot to memory/archive/${dest##*/}; started a fresh one"
  { printf '%s\n' "archived: .agent/memory/archive/${dest##*/}"; } 2>/dev/null || true
}

main() {
  local notice='' cause='' gone=0
  ! ah_gone || gone=1
  [ "$AH_MODE" = show ] || ah_scaffold "$gone"
  ah_config_full
  [ "$AH_DONE" = 0 ] || return 0
  [ "$gone" = 0 ] || { ah_gone_say SessionStart; return 0; }
  [ "$AH_MODE" != archive ] || { ah_archive; return 0; }
  if ah_json source && [ "$AH_V" = compact ]; then
    cause="SessionStart source=compact"
    notice='Context was compacted: memory reloaded from .agent/memory/; it wins over the summary. This is the same task, continued, not a new session: do not start over or greet; resume the In progress item and the user'"'"'s latest request.'
    [ "$AH_MODE" != run ] || { ah_compacted "$notice"; notice=$AH_NOTE; }
  fi
  ah_block SessionStart "$notice"
  if [ "$AH_MODE" = run ] && [ -n "$cause" ]; then
    # The host reloads us after its own compaction: the SYNC flag of on_compact's state says not to count it twice.
    ! ah_lock || [ -L "$AH_STATE/$AH_SID.state" ] || { printf 'v1 0 0 - - 1\n' >>"$AH_STATE/$AH_SID.state"; } 2>/dev/null || true
    ah_log "compaction detected ($cause); memory reloaded"
  fi
}

main "$@"
