# lib/working.sh: the session's working set, the files it edited (log/state/SESSION.files).
# agenthooks-owned:7d2f9c1e template=hooks/lib/working.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. Loaded by post_edit.sh when an edit's path is not already the last one of
# the list; the block after a compaction names the list (lib/block.sh, lib/block.awk).

# ah_working EDITED LISTED: log/state/SESSION.files holds the paths of this edit last, each once,
# and at most working_set_files of them: EDITED (the payload's path), else the paths of an
# apply_patch in the payload; LISTED: the file's text as read. Rewritten only when it changes.
ah_working() {
  local paths=$1 path _rest _line _new='' _chosen=$'\n' _count=0
  [ -n "$paths" ] || ah_patch_paths paths
  _rest=$paths
  while [ -n "$_rest" ]; do
    path=${_rest%%$'\n'*}
    case $_rest in *$'\n'*) _rest=${_rest#*$'\n'} ;; *) _rest='' ;; esac
    ah_repo_path path "$path" || continue
    case $_chosen in *$'\n'"$path"$'\n'*) ;; *) _chosen=$_chosen$path$'\n' ;; esac
  done
  [ "$_chosen" != $'\n' ] || return 0
  # The paths listed before, less those edited now, then these; the oldest go past the limit.
  _rest=$2
  while [ -n "$_rest" ]; do
    _line=${_rest%%$'\n'*}
    case $_rest in *$'\n'*) _rest=${_rest#*$'\n'} ;; *) _rest='' ;; esac
    case $_chosen in *$'\n'"$_line"$'\n'*) continue ;; esac
    [ -z "$_line" ] || _new=$_new$_line$'\n'
  done
  _new=$_new${_chosen#$'\n'} _rest=$_new
  while [ -n "$_rest" ]; do
    _count=$((_count + 1)) _rest=${_rest#*$'\n'}
  done
  while [ "$_count" -gt "$AH_WORKING" ]; do
    _new=${_new#*$'\n'} _count=$((_count - 1))
  done
  [ "$_new" = "$2" ] || ah_put "$AH_STATE/$AH_SESSION.files" "$_new"
}
# ah_patch_paths VAR: VAR = the files an apply_patch in the payload adds, updates or moves to,
# one a line, as the patch names them; empty when it names none.
ah_patch_paths() {
  local _rest=$AH_PAYLOAD _found='' _re='\*\*\* (Add File|Update File|Move to): ([^"\\]+)'
  while [[ $_rest =~ $_re ]]; do
    _found=$_found${BASH_REMATCH[2]}$'\n'
    _rest=${_rest#*"${BASH_REMATCH[0]}"}
  done
  printf -v "$1" '%s' "$_found"
}
# ah_repo_path VAR PATH: VAR = PATH relative to the repository (a relative PATH is taken from the
# payload's cwd); 1 for a path outside it, under .agent/, with a .. part or a control character,
# or named like a secrets file (agenthooks/redact.py).
ah_repo_path() {
  local given cwd='' _root=${AH_AGENT%/*} _secret=0
  ah_path given "$2"
  case $given in
    "$_root"/*) given=${given#"$_root"/} ;;
    /* | [A-Za-z]:/*) return 1 ;;
    *)
      ah_json cwd cwd || true
      ah_path cwd "$cwd"
      case $cwd in
        "$_root"/*) given=${cwd#"$_root"/}/$given ;;
        '' | "$_root" | "$_root"/) ;;
        *) return 1 ;;
      esac
      ;;
  esac
  given=${given#./}
  case /$given/ in */../* | *[[:cntrl:]]* | /.agent/*) return 1 ;; esac
  [ -n "$given" ] && [ ${#given} -le 300 ] || return 1
  shopt -s nocasematch
  case ${given##*/} in
    *.env | .env.* | .envrc | *.pem | *.key | *.p12 | *.pfx | *.jks) _secret=1 ;;
    *.keystore | *.kdbx | id_rsa* | id_dsa* | id_ecdsa* | id_ed25519*) _secret=1 ;;
    .netrc | .npmrc | .pypirc | .pgpass | .htpasswd | *credential*) _secret=1 ;;
    *secret* | *.tfvars) _secret=1 ;;
  esac
  shopt -u nocasematch
  [ "$_secret" = 0 ] || return 1
  printf -v "$1" '%s' "$given"
}
