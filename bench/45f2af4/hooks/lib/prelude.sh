# lib/prelude.sh: the functions every run calls: the loader, the exit, the payload's fields.
# agenthooks-owned:7d2f9c1e template=hooks/lib/prelude.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only, sourced by each hook's start. A function that produces a value takes the
# caller's variable name first and sets it with printf -v (no fork, no global); its own locals
# start with _, so no caller passes a _ name. The rest of lib/ loads when a run needs it.

# ah_exit: the exit trap of every run, status 0. The runtime loads only to release the lock, drop
# a temp file or log an error: a quiet run ends with no more work.
ah_exit() {
  local _rc=$?
  trap - EXIT
  if [ "$_rc" != 0 ] || [ "$AH_LOCK" != none ] || [ -n "$AH_TMPFILE" ]; then
    { ah_runtime && ah_done "$_rc"; } || true
  fi
  exit 0
}
# ah_load PART...: source lib/PART once, if it is this release; else say so and end the run.
ah_load() {
  local _part
  for _part in "$@"; do
    case " $AH_LOADED " in *" $_part "*) continue ;; esac
    if ! ah_release "$_part"; then
      echo "agenthooks[$AH_HOOK]: lib/$_part is missing or not release 9: run 'agenthooks install'" >&2
      exit 0
    fi
    # shellcheck source=/dev/null
    . "$AH_HOOKS/lib/$_part"
    AH_LOADED="$AH_LOADED $_part"
  done
}
# ah_release PART: is lib/PART of this release (its second line, the owner line, ends in @9)?
ah_release() {
  local _line=''
  { read -r _ && read -r _line; } 2>/dev/null <"$AH_HOOKS/lib/$1" || true
  [ "${_line##*@}" = 9 ]
}
# ah_runtime: what a run past its quiet path needs: disk changes, the log, printing, the lock.
ah_runtime() { ah_load io.sh say.sh runtime.sh; }

# ah_digits VALUE...: is each VALUE a plain number of 10 digits at most (safe to add)?
ah_digits() {
  local _value
  for _value in "$@"; do
    case $_value in '' | *[!0-9]* | ???????????*) return 1 ;; esac
  done
}
# ah_json VAR [-n] KEY...: VAR = the string value of the first KEY present at the payload's top
# level (-n: at any depth). Reads JSON as hosts send it, without a regex; else ah_json_full.
ah_json() {
  local _var=$1 _key _head _value _sep _any='' _bs=\\
  shift
  [ "$1" != -n ] || { _any=1 && shift; }
  for _key in "$@"; do
    case $AH_PAYLOAD in
      *"\"$_key\":\""*) _sep=: ;;
      *"\"$_key\": \""*) _sep=': ' ;;
      *"\"$_key\":"[!\ ]* | *"\"$_key\": "[!\ ]*) continue ;; # null, a number, an object
      *"\"$_key\""*) _sep='' ;;
      *) continue ;;
    esac
    if [ -n "$_sep" ]; then
      _head=${AH_PAYLOAD%%"\"$_key\"$_sep\""*}
      _value=${AH_PAYLOAD:${#_head}+${#_key}+${#_sep}+3} _value=${_value%%\"*}
      # After a comma, a brace or a space; no escape in it but \\ (a Windows path's: decoded);
      # at depth 1 (no bracket before it, or ah_top says so).
      case ${_head: -1}"|${_value//"$_bs$_bs"/}" in
        [,\ \{]\|*\\*) _sep='' ;;
        [,\ \{]\|*) _value=${_value//"$_bs$_bs"/$_bs} ;;
        *) _sep='' ;;
      esac
      [ -n "$_any" ] || case ${_head#\{} in *[[\{]*) ah_top "$_head" || _sep='' ;; esac
      [ -z "$_sep" ] || { printf -v "$_var" '%s' "$_value" && return 0; }
    fi
    ah_runtime
    ah_json_full "$_var" ${_any:+-n} "$@"
    return
  done
  printf -v "$_var" '%s' ''
  return 1
}
# ah_top TEXT: is the end of TEXT at depth 1? Brackets in strings do not count.
ah_top() {
  case ${1#\{} in *[[\{]*) ;; *) return 0 ;; esac # one glob, linear: no second bracket
  local _open _close _i _depth=0 _parts _bs=\\ _text IFS='"'
  _text=${1//"$_bs$_bs"/} _text=${_text//"$_bs\""/}
  # Split at the quotes in place: a here-string is a temp file in bash before 5.1.
  set -f
  # shellcheck disable=SC2206
  _parts=($_text)
  set +f
  for ((_i = 0; _i < ${#_parts[@]}; _i += 2)); do
    _open=${_parts[_i]//[!\[\{]/} _close=${_parts[_i]//[!\]\}]/}
    _depth=$((_depth + ${#_open} - ${#_close}))
  done
  [ "$_depth" -le 1 ]
}
# ah_path VAR PATH: VAR = PATH, a Windows one (C:\a\b, \\server\share) with slashes for its
# backslashes (C:/a/b, //server/share), which Git Bash opens as it is.
ah_path() {
  case $2 in
    [A-Za-z]:\\* | \\\\*) printf -v "$1" '%s' "${2//\\//}" ;;
    *) printf -v "$1" '%s' "$2" ;;
  esac
}
# ah_epoch VAR: VAR = now, in epoch seconds.
ah_epoch() { printf -v "$1" '%(%s)T' -1; }
