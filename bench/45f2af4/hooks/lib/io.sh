# lib/io.sh: every change the hooks make on disk, each checked in one place.
# agenthooks-owned:7d2f9c1e template=hooks/lib/io.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. Every write, append, rename, removal, new folder, file time and opened file
# of the runtime is one of these. Each refuses a symbolic link anywhere from .agent/ down (it
# may point out of the repository) and a FIFO, a device or a folder where a file belongs (a
# write would block, or land elsewhere): then it changes nothing and returns 1.

# ah_unlinked PATH: no symbolic link from .agent/ down to PATH, PATH included?
ah_unlinked() {
  local _rest=${1#"$AH_AGENT"} _at=$AH_AGENT
  [ ! -L "$_at" ] || return 1
  while [ -n "$_rest" ]; do
    _rest=${_rest#/} _at=$_at/${_rest%%/*}
    [ ! -L "$_at" ] || return 1
    case $_rest in */*) _rest=/${_rest#*/} ;; *) return 0 ;; esac
  done
}
# ah_file PATH: may PATH be written as a file: no link on the way, a regular file or nothing?
ah_file() { ah_unlinked "$1" && { [ -f "$1" ] || [ ! -e "$1" ]; }; }
# ah_put FILE TEXT: FILE holds TEXT, written over what it held.
ah_put() { ah_file "$1" && { printf '%s' "$2" >"$1"; } 2>/dev/null; }
# ah_put_beside FILE TEXT: as ah_put, for a FILE in the folder of a file just written through
# these functions (its path is checked): only FILE itself is (no link, no FIFO, no folder).
ah_put_beside() { [ ! -L "$1" ] && { [ -f "$1" ] || [ ! -e "$1" ]; } && { printf '%s' "$2" >"$1"; } 2>/dev/null; }
# ah_append FILE TEXT: TEXT added at FILE's end (one write: a short line is never torn).
ah_append() { ah_file "$1" && { printf '%s' "$2" >>"$1"; } 2>/dev/null; }
# ah_create FILE TEXT: FILE made with TEXT only where nothing is (noclobber); 1 if something was.
ah_create() {
  local _rc=1
  ah_unlinked "$1" || return 1
  set -C
  { printf '%s' "$2" >"$1"; } 2>/dev/null && _rc=0
  set +C
  return "$_rc"
}
# ah_replace FILE TEXT: FILE holds TEXT, written beside it and renamed over it: whole, or not at all.
ah_replace() {
  local _rc=0
  AH_TMPFILE=$1.$$.tmp
  ah_put "$AH_TMPFILE" "$2" && ah_rename "$AH_TMPFILE" "$1" || _rc=1
  [ "$_rc" = 0 ] || ah_remove "$AH_TMPFILE" || true
  AH_TMPFILE=''
  return "$_rc"
}
# ah_rename FROM TO: FROM renamed TO (one folder: atomic), over a file there.
ah_rename() { ah_file "$1" && ah_file "$2" && mv -f -- "$1" "$2" 2>/dev/null; }
# ah_remove PATH...: each PATH gone: a file, a link itself (never what it points to), an empty folder.
ah_remove() {
  local _path
  for _path in "$@"; do
    ah_unlinked "${_path%/*}" || return 1
    if [ -e "$_path" ] || [ -L "$_path" ]; then
      rm -f -- "$_path" 2>/dev/null || rmdir -- "$_path" 2>/dev/null || return 1
    fi
  done
}
# ah_mkdir FOLDER: FOLDER made, with the folders above it.
ah_mkdir() { ah_unlinked "$1" && { [ -d "$1" ] || mkdir -p -- "$1" 2>/dev/null; }; }
# ah_touch_as REFERENCE FILE...: each FILE takes REFERENCE's modification time (made if new).
ah_touch_as() {
  local _file
  for _file in "${@:2}"; do ah_file "$_file" || return 1; done
  touch -r "$1" -- "${@:2}" 2>/dev/null
}
# ah_into FILE COMMAND...: COMMAND run with its output into FILE.
ah_into() { ah_file "$1" && "${@:2}" >"$1"; }
# ah_open FD FILE: FILE opened to append to, for the run: fd 7 (the trace) or 9 (the lock).
ah_open() {
  ah_file "$2" || return 1
  case $1 in
    7) { exec 7>>"$2"; } 2>/dev/null ;;
    9) { exec 9>>"$2"; } 2>/dev/null ;;
    *) return 1 ;;
  esac
}
# ah_remove_idle FOLDER DAYS: the session files in FOLDER untouched for DAYS days go.
ah_remove_idle() {
  ah_unlinked "$1" && find "$1" -maxdepth 1 -type f \( -name '*.state' -o -name '*.remind' \
    -o -name '*.built' -o -name '*.count' -o -name '*.window' -o -name '*.files' -o -name '*.request' \
    -o -name '*.audit' \) -mtime "+$2" -exec rm -f {} + 2>/dev/null
}
