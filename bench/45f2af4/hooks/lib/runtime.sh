# lib/runtime.sh: what a run past its quiet path needs: config.yaml, any JSON, the lock, the end.
# agenthooks-owned:7d2f9c1e template=hooks/lib/runtime.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. Loaded by ah_runtime (lib/prelude.sh), with lib/io.sh and lib/say.sh.

# --- config.yaml: the tunables, declared in agenthooks/config.py ---
# ah_config_parse: the tunables from config.yaml (the defaults for a key missing or unreadable),
# kept in log/state/config.values for the next runs.
ah_config_parse() {
  local file=$AH_AGENT/config.yaml line key val bs=\\ bad='' bom=$'\357\273\277' values
  AH_BUDGET=500
  AH_NOTES=5
  AH_STALE=10
  AH_DROP=40
  AH_TURNS=20
  AH_MARKERS='This session is being continued from a previous conversation|CONTEXT CHECKPOINT '
  AH_MARKERS+='COMPACTION|<state_snapshot>'
  AH_LOCK_TIMEOUT=5
  AH_LOG_MAX_KB=256
  AH_FRESH=3
  AH_FLUSH=75
  AH_WINDOW=200000
  AH_SUMMARY=400
  AH_WORKING=8
  AH_ENABLED=1
  [ -f "$file" ] && [ -r "$file" ] || file=/dev/null
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line#"$bom"} line=${line%$'\r'}
    case $line in [a-z]*:*) ;; *) continue ;; esac
    key=${line%%:*} val=${line#*:}
    key=${key%"${key##*[![:blank:]]}"} val=${val#"${val%%[![:blank:]]*}"}
    # As YAML: a quoted value ends at its last quote (escapes \\, \"); else ' #' starts a comment.
    case $val in
      \"*\"*)
        val=${val#\"} val=${val%\"*}
        val=${val//"$bs$bs"/$'\001'} val=${val//"$bs\""/\"} val=${val//$'\001'/$bs}
        ;;
      \'*\'*) val=${val#\'} val=${val%\'*} val=${val//"''"/"'"} ;;
      *) val=${val%%[[:blank:]]#*} val=${val##\#*} val=${val%"${val##*[![:blank:]]}"} ;;
    esac
    case $key in
      budget_tokens) ah_int AH_BUDGET "$val" 50 20000 || bad="$bad $key" ;;
      notes_count) ah_int AH_NOTES "$val" 0 100 || bad="$bad $key" ;;
      stale_minutes) ah_int AH_STALE "$val" 0 10080 || bad="$bad $key" ;;
      drop_percent) ah_int AH_DROP "$val" 1 99 || bad="$bad $key" ;;
      reload_turns) ah_int AH_TURNS "$val" 0 100000 || bad="$bad $key" ;;
      lock_timeout_seconds) ah_int AH_LOCK_TIMEOUT "$val" 0 20 || bad="$bad $key" ;;
      log_max_kb) ah_int AH_LOG_MAX_KB "$val" 1 102400 || bad="$bad $key" ;;
      fresh_after_compactions) ah_int AH_FRESH "$val" 0 1000 || bad="$bad $key" ;;
      flush_at_percent) ah_int AH_FLUSH "$val" 0 99 || bad="$bad $key" ;;
      context_window_tokens) ah_int AH_WINDOW "$val" 1000 100000000 || bad="$bad $key" ;;
      summary_budget_tokens) ah_int AH_SUMMARY "$val" 0 4000 || bad="$bad $key" ;;
      working_set_files) ah_int AH_WORKING "$val" 0 50 || bad="$bad $key" ;;
      summary_markers) AH_MARKERS=$val ;;
      enabled)
        case $val in
          true | True | TRUE | yes | Yes | YES | on | On | ON | 1) AH_ENABLED=1 ;;
          false | False | FALSE | no | No | NO | off | Off | OFF | 0) AH_ENABLED=0 ;;
          *) bad="$bad enabled" ;;
        esac
        ;;
    esac
  done <"$file"
  [ -z "$bad" ] || ah_log "config.yaml:$bad unreadable or out of range; using defaults for them"
  # Kept only from a readable file with nothing to report, so that each run says it again;
  # never by --show, which writes nothing.
  if [ -z "$bad" ] && [ "$file" != /dev/null ] && [ "$AH_MODE" != show ] && [ -d "$AH_STATE" ]; then
    printf -v values 'config-of-release-9 %s %s %s %s %s %s %s %s %s %s %s %s %s .\n''%s\n' \
      "$AH_ENABLED" "$AH_BUDGET" "$AH_NOTES" "$AH_STALE" "$AH_DROP" "$AH_TURNS" \
      "$AH_LOCK_TIMEOUT" "$AH_LOG_MAX_KB" "$AH_FRESH" "$AH_FLUSH" "$AH_WINDOW" "$AH_SUMMARY" \
      "$AH_WORKING" "$AH_MARKERS"
    ah_put "$AH_STATE/config.values" "$values" || true
  fi
}
# ah_int NAME VALUE MIN MAX: NAME = VALUE when it is a plain integer in range; else 1.
ah_int() {
  local v=${2//[[:space:]]/}
  case $v in '' | *[!0-9]*) return 1 ;; esac
  [ ${#v} -le 9 ] && [ $((10#$v)) -ge "$3" ] && [ $((10#$v)) -le "$4" ] || return 1
  printf -v "$1" '%s' $((10#$v))
}

# --- the session: its state's writes, a name for its files ---
# ah_state_write FILE LINES NEWER FIELD...: a line of FIELDs added to the state FILE (LINES and
# NEWER as lib/state.sh's ah_state_read gave them): one append; past 64 lines the file becomes this line, by a
# rename. A newer release's file is left alone.
ah_state_write() {
  local _file=$1 _lines=$2 _newer=$3 _line
  shift 3
  [ "$_newer" = 0 ] || { ah_log "left ${_file##*/} alone: written by a newer release" && return 0; }
  ah_mkdir "$AH_STATE" || return 1
  printf -v _line 'v1 %s %s %s %s %s %s\n' "$@"
  [ "$_lines" -lt 64 ] || ! ah_replace "$_file" "$_line" || return 0
  ah_append "$_file" "$_line"
}

# ah_session_name VAR ID: VAR = a file name for a session ID that is not one of letters, digits,
# dots and dashes (up to 80, not starting with a dot): "_" and ID with every other byte as _XX
# (hex), so that no two IDs share a name; one over 80 characters keeps its first 60 and "_g",
# the FNV-1a checksum of the whole ID (64 bits, 16 hex digits).
ah_session_name() {
  local _id=$2 _name=_ _char _code _i _sum=-3750763034362895579
  for ((_i = 0; _i < ${#_id}; _i++)); do
    _char=${_id:_i:1}
    printf -v _code '%d' "'$_char"
    _code=$((_code & 255)) _sum=$(((_sum ^ _code) * 1099511628211))
    case $_char in
      [A-Za-z0-9.-]) _name=$_name$_char ;;
      *) printf -v _name '%s_%02x' "$_name" "$_code" ;;
    esac
  done
  [ ${#_name} -le 80 ] || printf -v _name '%s_g%016x' "${_name:0:60}" "$_sum"
  printf -v "$1" '%s' "$_name"
}

# --- payload: the full JSON reader (ah_json in the prelude reads what hosts usually send) ---
# ah_json_full VAR [-n] KEY...: ah_json for any JSON: any spacing, escapes decoded, nested keys skipped.
ah_json_full() {
  local _var=$1 _key _re _bs=\\ _any='' _rest _seen _head _str
  shift
  [ "$1" != -n ] || { _any=1 && shift; }
  for _key in "$@"; do
    case $AH_PAYLOAD in *"\"$_key\""*) ;; *) continue ;; esac
    _re='(^|[{,])[[:space:]]*"'$_key'"[[:space:]]*:[[:space:]]*"(([^"\\]|\\.)*)"'
    _rest=$AH_PAYLOAD _seen=''
    while [[ $_rest =~ $_re ]]; do
      # A key nested in an object is skipped (bash's patterns are quadratic: up to 16 KB).
      if [ -z "$_any" ] && [ ${#AH_PAYLOAD} -le 16384 ]; then
        _head=${_rest%%"${BASH_REMATCH[0]}"*} _rest=${_rest:${#_head}+${#BASH_REMATCH[0]}}
        ah_top "$_seen$_head${BASH_REMATCH[1]}" || { _seen=$_seen$_head${BASH_REMATCH[0]} && continue; }
      fi
      _str=${BASH_REMATCH[2]}
      case $_str in
        *"$_bs"*)
          _str=${_str//"$_bs$_bs"/$'\001'} _str=${_str//"$_bs\""/\"} _str=${_str//"$_bs/"//}
          _str=${_str//"${_bs}n"/$'\n'} _str=${_str//"${_bs}t"/$'\t'} _str=${_str//$'\001'/$_bs}
          ;;
      esac
      printf -v "$_var" '%s' "$_str"
      return 0
    done
  done
  printf -v "$_var" '%s' ''
  return 1
}

# --- the lock: every write of shared state waits for it, lock_timeout_seconds at most ---
# ah_lock: AH_LOCK=flock (flock on fd 9) or portable (lib/lock.sh: where flock is missing or
# fails); 1 when another hook holds it past lock_timeout_seconds, 2 at once when log/ cannot hold it.
ah_lock() {
  [ "$AH_LOCK" = none ] || return 0
  # Every write of shared state happens under the lock: none through a linked log folder.
  [ -d "$AH_AGENT/log" ] && [ -w "$AH_AGENT/log" ] && ah_unlinked "$AH_AGENT/log" || return 2
  local rc=0
  # util-linux flock; where there is none, or it fails for any reason but a holder (BusyBox's
  # rejects -w), the portable lock of lib/lock.sh: never writes without a lock.
  if command -v flock >/dev/null 2>&1 && ah_plain "$AH_AGENT/log/.lock" && ah_open 9 "$AH_AGENT/log/.lock"; then
    flock -w "$AH_LOCK_TIMEOUT" -E 75 9 2>/dev/null || rc=$?
    [ "$rc" != 0 ] || { AH_LOCK=flock && return 0; }
    exec 9>&-
    [ "$rc" != 75 ] || return 1 # another hook held it for lock_timeout_seconds
  fi
  ah_load lock.sh
  ah_lock_portable
}
# ah_plain FILE: a regular file or nothing there: a FIFO, a link or an empty folder goes; 1 if anything stays.
ah_plain() {
  { [ -e "$1" ] || [ -L "$1" ]; } && { [ -L "$1" ] || [ ! -f "$1" ]; } || return 0
  ah_remove "$1"
}
# ah_skipped STATUS WHAT: the log line for a lock not taken (ah_lock's STATUS: busy, or no place
# for it), and WHAT the run did instead.
ah_skipped() {
  [ "$1" = 2 ] || { ah_log "lock busy for ${AH_LOCK_TIMEOUT}s; $2" && return 0; }
  ah_log ".agent/log is not writable (read-only, or a link): no lock; $2"
}
# ah_unlock: the lock released; the portable one only when it is still ours (it may have been
# broken as stale and taken by another hook since).
ah_unlock() {
  local holder='' file=$AH_AGENT/log/.lock.pid
  [ "$AH_LOCK" != flock ] || exec 9>&-
  [ "$AH_LOCK" != portable ] || [ ! -f "$file" ] || { IFS= read -r holder <"$file"; } 2>/dev/null || true
  [ "$holder" != "$$" ] || ah_remove "$file" || true
  AH_LOCK=none
}

# ah_done STATUS: every run that holds something ends here (ah_exit): the lock released, no temp
# file left, and an error said.
ah_done() {
  [ "$1" = 0 ] || ah_log "internal error (status $1); memory may be incomplete this run"
  [ -z "$AH_TMPFILE" ] || ah_remove "$AH_TMPFILE" || true
  [ "$AH_LOCK" = none ] || ah_unlock
}
# ah_rotate_log BYTES: keep the log under log_max_kb, one old file kept.
ah_rotate_log() {
  [ "${1:-0}" -gt $((AH_LOG_MAX_KB * 1024)) ] || return 0
  ah_lock || return 0
  ah_rename "$AH_LOGFILE" "$AH_LOGFILE.1" || true
  ah_log "rotated the log at $1 bytes (old lines in memory.log.1)"
}
# ah_compacted VAR NOTICE [FLUSHED]: VAR = NOTICE, plus a line when snapshot.md is older than the
# session's last edit (post_edit's mark), and the fresh-session line from fresh_after_compactions
# on; counts the compaction in log/state/SESSION.count; logs whether the snapshot changed after
# the flush line of this cycle (FLUSHED: its time, 0: none).
ah_compacted() {
  local _file=$AH_STATE/$AH_SESSION.count _count='' _line _snap=0 _m_snapshot_time='' _m_reminded='' _m_edited=''
  { read -r _count <"$_file"; } 2>/dev/null || true
  case $_count in '' | *[!0-9]* | ??????????*) _count=0 ;; esac
  _count=$((10#$_count + 1))
  ah_put "$_file" "$_count"$'\n' || true
  printf -v "$1" '%s' "$2"
  { read -r _m_snapshot_time _m_reminded _m_edited _ <"$AH_STATE/$AH_SESSION.remind"; } 2>/dev/null || true
  if ah_mtime _snap "$AH_MEMORY/snapshot.md"; then
    if ah_digits "$_m_edited" && [ $((_m_edited - _snap)) -ge 60 ]; then
      _line='agenthooks: snapshot.md is %s min older than your last edit: check In progress against the '
      _line+='code before you continue.'
      # shellcheck disable=SC2059 # the format is the message above
      printf -v _line "$_line" $(((_m_edited - _snap) / 60))
      printf -v "$1" '%s\n%s' "$2" "$_line"
      ah_log "at the compaction: snapshot.md $(((_m_edited - _snap) / 60)) min older than the last edit"
    fi
    if ah_digits "${3:-0}" && [ "${3:-0}" -gt 0 ]; then
      [ "$_snap" -ge "$3" ] && _line=updated || _line='not updated'
      ah_log "at the compaction: snapshot $_line since the flush"
    fi
  fi
  [ "$AH_FRESH" -gt 0 ] && [ "$_count" -ge "$AH_FRESH" ] || return 0
  _line='This session was compacted %dx: start a fresh session when you can; memory carries over '
  _line+='(.agent/memory/).'
  # shellcheck disable=SC2059 # the format is the message above
  printf -v _line "$_line" "$_count"
  printf -v "$1" '%s\n%s' "${!1}" "$_line"
  ah_log "recommended a fresh session after $_count compactions"
}

# --- the platform's tools: a file's time, the time for a file name, the trace ---
# ah_mtime VAR FILE: VAR = FILE's modification time in epoch seconds; 1 when FILE has none.
ah_mtime() {
  local _time
  _time=$(exec stat -c %Y -- "$2" 2>/dev/null) || return 1
  case $_time in '' | *[!0-9]*) return 1 ;; esac
  printf -v "$1" '%s' "$_time"
}
# ah_stamp VAR: VAR = now, for a file name.
ah_stamp() { printf -v "$1" '%(%Y%m%d_%H%M%S)T' -1; }
# ah_trace: AGENTHOOKS_DEBUG=1 traces the run into .agent/log/trace.log, never onto the host's output.
ah_trace() {
  [ -d "$AH_AGENT/log" ] && ah_open 7 "$AH_AGENT/log/trace.log" || return 0
  BASH_XTRACEFD=7
  PS4='+ ${BASH_SOURCE[0]##*/}:${LINENO} ${FUNCNAME[0]-}: '
  printf '# %s %s\n' "$AH_HOOK" "$AH_HOOKS" >&7
  set -x
}
