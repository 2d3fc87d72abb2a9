# lib/state.sh: a session's state, log/state/SESSION.state: one line a prompt, "v1 TURN LENGTH PENDING BOUNDARY SYNC FLUSHED".
# agenthooks-owned:7d2f9c1e template=hooks/lib/state.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. The one reader of the state, loaded by on_compact.sh on every prompt and by
# pre_task.sh after a compaction (the writes: ah_state_write in lib/runtime.sh).

# ah_state_read FILE PREFIX: the state's last valid line, each field in PREFIX+its name
# (PREFIXturn, PREFIXlength, PREFIXpending, PREFIXboundary, PREFIXsync, PREFIXflushed; a past release's line has no
# flushed: 0), PREFIXlines = the lines read, PREFIXnew=1 when none is valid, PREFIXnewer=1 when
# a newer release's line follows it (its file is then left alone).
ah_state_read() {
  local _tag _lines=0 _new=1 _newer=0 _turn='' _length='' _pending='' _boundary='' _sync='' _flushed=''
  local _last_turn='' _last_length='' _last_pending='' _last_boundary='' _last_sync='' _last_flushed=''
  if [ -f "$1" ] && [ ! -L "$1" ]; then
    while IFS=$' \t\r' read -r _tag _turn _length _pending _boundary _sync _flushed _; do # \r: a CRLF line
      _lines=$((_lines + 1))
      case $_tag in
        v1) ;;
        v[2-9] | v[1-9][0-9]) _newer=1 && continue ;;
        *) continue ;;
      esac
      # TURN and LENGTH: 1 to 10 digits each; FLUSHED: digits, or none (a past release's line).
      case $_turn:$_length in :* | *: | *[!0-9:]* | ???????????*:* | *:???????????*) continue ;; esac
      case $_flushed in '' | *[!0-9]* | ???????????*) _flushed=0 ;; esac
      _last_turn=$((10#$_turn)) _last_length=$((10#$_length)) _last_pending=${_pending:--}
      _last_boundary=${_boundary:--} _last_sync=${_sync:--} _last_flushed=$((10#$_flushed))
      _new=0 _newer=0
    done 2>/dev/null <"$1" || true
  fi
  [ "$_new" = 0 ] || { _last_turn=0 _last_length=0 _last_pending=- _last_boundary=- _last_sync=0 _last_flushed=0; }
  printf -v "$2turn" '%s' "$_last_turn"
  printf -v "$2length" '%s' "$_last_length"
  printf -v "$2pending" '%s' "$_last_pending"
  printf -v "$2boundary" '%s' "$_last_boundary"
  printf -v "$2sync" '%s' "$_last_sync"
  printf -v "$2flushed" '%s' "$_last_flushed"
  printf -v "$2lines" '%s' "$_lines"
  printf -v "$2new" '%s' "$_new"
  printf -v "$2newer" '%s' "$_newer"
}
