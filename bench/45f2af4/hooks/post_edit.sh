#!/usr/bin/env bash
# post_edit.sh: after a file edit, remind the agent when the snapshot has gone stale, and keep
# the session's working set (the files it edited, for the block after a compaction).
# agenthooks-owned:7d2f9c1e template=hooks/post_edit.sh@9
# Runs: after each edit the agent makes, from the host's registration, as:
#   bash .agent/hooks/post_edit.sh [FRAMEWORK] < payload.json
# Never edits the snapshot (only the agent knows whether progress changed); reminds at most
# once per stale_minutes, and never for an edit of the snapshot itself. Most edits end in the
# quiet path, with no process spawned.
# Effects in .agent/ (agenthooks/statefiles.py; every change on disk: lib/io.sh):
#   reads    config.yaml log/state/config.values (every run)
#   writes   log/state/config.values (config.yaml changed)
#   appends  log/memory.log log/trace.log (something to log; AGENTHOOKS_DEBUG=1)
#   reads    log/state/SESSION.remind log/state/SESSION.files (every run)
#   writes   log/state/SESSION.remind (once a minute)
#   writes   log/state/SESSION.files (an edit of a file that is not the last one listed)
#   makes    log/state (a reminder)
#   writes   log/.lock log/.lock.pid log/.lock.pid.break (a reminder)
#   removes  log/state/SESSION.remind log/.lock.pid log/.lock.pid.break (a reminder)
#   spawns   stat mkdir flock (a reminder)
# Parts, in lib/: prelude.sh (every run), io.sh (the session's mark); working.sh (an edit of a
# file that is not the last one listed); say.sh and runtime.sh (printing, the lock) only to remind.
# Rendered by agenthooks for: linux. Tunables: .agent/config.yaml.
# Re-run 'agenthooks install' to upgrade; it merges edits made here.
{ POSIXLY_CORRECT=1 && set +x; } >/dev/null 2>&1 # no trace, even with SHELLOPTS=xtrace exported
# Bash only, and none of the caller's shell state: run by hand (bash .agent/hooks/post_edit.sh),
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
AH_HOOK=post_edit AH_FRAMEWORK=generic AH_MODE=run AH_EVENT_ARG='' AH_EVENT='?' AH_LOADED=prelude.sh
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
  echo "agenthooks[post_edit]: lib/prelude.sh is missing or not release 9: run 'agenthooks install'" >&2
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

# The reminder state of a session, log/state/SESSION.remind: "SNAPSHOT_TIME REMINDED EDITED":
# the snapshot's last known modification time, the last reminder and the last edit (to the
# minute, for the stale-snapshot line at a compaction), in epoch seconds. With bash's -nt test
# the usual edit spawns nothing; stat(1) runs only when the snapshot changed behind its back.

# read_mark MARK SNAPSHOT_TIME REMINDED EDITED: the three times from the MARK file (a missing
# reminder or edit: 0); 1 when it has no snapshot time.
read_mark() {
  local _snapshot_time='' _reminded='' _edited=''
  [ -f "$1" ] && [ ! -L "$1" ] || return 1
  { IFS=$' \t\r' read -r _snapshot_time _reminded _edited _ <"$1"; } 2>/dev/null || true # \r: a CRLF line
  case $_snapshot_time in '' | *[!0-9]* | ???????????*) return 1 ;; esac
  case $_reminded in '' | *[!0-9]* | ???????????*) _reminded=0 ;; esac
  case $_edited in '' | *[!0-9]* | ???????????*) _edited=0 ;; esac
  printf -v "$2" '%s' "$_snapshot_time"
  printf -v "$3" '%s' "$_reminded"
  printf -v "$4" '%s' "$_edited"
}
# due NOW SNAPSHOT_TIME REMINDED: is a reminder due: the snapshot older than stale_minutes, and
# no reminder since?
due() {
  [ $(($1 - $2)) -ge $((AH_STALE * 60)) ] && { [ "$3" = 0 ] || [ $(($1 - $3)) -ge $((AH_STALE * 60)) ]; }
}
# write_mark MARK SNAPSHOT_TIME REMINDED EDITED [mkdir]: the state folder is made only when
# reminding (pre_task makes it at session start), so that an ordinary edit never spawns mkdir.
write_mark() {
  local line
  [ -d "$AH_STATE" ] || { [ -n "${5-}" ] && ah_mkdir "$AH_STATE"; } || return 1
  # A link in its place may point anywhere: it goes, and the mark is written as a file.
  [ ! -L "$1" ] || ah_remove "$1" || return 1
  printf -v line '%s %s %s\n' "$2" "$3" "$4"
  ah_put "$1" "$line"
}

# --- The working set: log/state/SESSION.files, the repo-relative paths this session edited,
# latest last; rewritten (lib/working.sh) only when this edit's path is not the last one ---
# The payload naming the last path listed ("/PATH" and a quote): the same file, nothing to do.
if [ "$AH_WORKING" != 0 ] && [ -d "$AH_STATE" ]; then
  listed=''
  { IFS= read -r -d '' listed <"$AH_STATE/$AH_SESSION.files"; } 2>/dev/null || true
  last=${listed%$'\n'} last=${last##*$'\n'}
  if [ -z "$last" ] || [ "${AH_PAYLOAD%%"/$last\""*}" = "$AH_PAYLOAD" ]; then
    path=''
    ah_json path -n file_path filePath notebook_path path target_file || true
    ah_path path "$path"
    ah_load io.sh working.sh
    ah_working "$path" "$listed" || true
  fi
fi

# --- The quiet path: an edit that needs no reminder (almost every edit) ---
mark=$AH_STATE/$AH_SESSION.remind snapshot_time='' reminded=0 edited=0 now=0
[ -f "$AH_MEMORY/snapshot.md" ] || exit 0
# An edit that may be of the snapshot itself is main's to judge.
case $AH_PAYLOAD in *snapshot.md*) ;; *)
  if read_mark "$mark" snapshot_time reminded edited && [ ! "$AH_MEMORY/snapshot.md" -nt "$mark" ]; then
    ah_epoch now
    if ! due "$now" "$snapshot_time" "$reminded"; then
      # The edit's time, once a minute at most: one write, no process.
      [ $((now - edited)) -lt 60 ] || { ah_load io.sh && write_mark "$mark" "$snapshot_time" "$reminded" "$now"; } || true
      exit 0
    fi
  fi
  ;;
esac

# --- A reminder, or a first look at the snapshot ---
ah_runtime

# edits_snapshot: is the snapshot among the files this edit touched? Windows hosts may write its
# path with backslashes, which JSON escapes (\\), and twice inside a JSON string.
edits_snapshot() {
  # sep: a slash, or a backslash as JSON writes it (\\); sep2: the same inside a JSON string (\\\\).
  local path re sep='(/|\\\\)' sep2='(/|\\\\\\\\)'
  if ah_json path -n file_path filePath path target_file; then
    ah_path path "$path"
    case ${path//\\//} in .agent/memory/snapshot.md | */.agent/memory/snapshot.md) return 0 ;; esac
  fi
  case $AH_PAYLOAD in *snapshot.md*) ;; *) return 1 ;; esac
  # An apply_patch tool: the paths sit in the patch text.
  re='File:[[:space:]]*(([^"\\]|\\\\)*'"$sep"')?\.agent'"$sep"'memory'"$sep"'snapshot\.md(\\n|")'
  [[ $AH_PAYLOAD =~ $re ]] && return 0
  # Arguments passed as a JSON string (toolArgs): the quotes are escaped.
  re='\\"(path|file_path|filePath)\\"[[:space:]]*:[[:space:]]*\\"(([^"\\]|\\\\\\\\)*'"$sep2"')?'
  re+='\.agent'"$sep2"'memory'"$sep2"'snapshot\.md\\"'
  [[ $AH_PAYLOAD =~ $re ]]
}

# main MARK: remind when the snapshot is stale, once per stale_minutes.
main() {
  local mark=$1 snapshot_time='' reminded=0 edited=0 now text
  # An edit of the snapshot itself: no reminder; the next edit sees it is newer than the mark.
  ! edits_snapshot || return 0
  ah_epoch now
  if ! read_mark "$mark" snapshot_time reminded edited || [ "$AH_MEMORY/snapshot.md" -nt "$mark" ]; then
    # The first edit of the session, or the snapshot changed elsewhere: ask stat once.
    ah_mtime snapshot_time "$AH_MEMORY/snapshot.md" || return 0
    # Not stale: recorded. Stale: the mark is written under the lock only, or it could clear
    # another hook's reminder.
    if [ $((now - snapshot_time)) -lt $((AH_STALE * 60)) ]; then
      write_mark "$mark" "$snapshot_time" 0 "$now" || true
      return 0
    fi
  fi
  due "$now" "$snapshot_time" "$reminded" || return 0
  if ah_lock; then
    # Another hook of this session may have reminded while this one waited for the lock.
    ! read_mark "$mark" snapshot_time reminded edited || due "$now" "$snapshot_time" "$reminded" || return 0
    write_mark "$mark" "$snapshot_time" "$now" "$now" mkdir || ah_log "could not record the reminder"
    ah_unlock
  else
    ah_skipped $? "reminding without recording it (skipped writes)"
  fi
  text='agenthooks: .agent/memory/snapshot.md was last updated %s minutes ago. If the task changed phase '
  text+='(a step finished, a decision was made), update its In progress and Key decisions now; do not log '
  text+='individual edits.'
  # shellcheck disable=SC2059 # the format is the message above
  printf -v text "$text" $(((now - snapshot_time) / 60))
  ah_say PostToolUse "$text"
  ah_log "snapshot not updated for $(((now - snapshot_time) / 60)) minutes; reminded the agent"
}

main "$mark"
