#!/usr/bin/env bash
# agenthooks 0.3.0
# dispatch.sh: run the memory hook of the repository a session works in.
# Runs: from the agenthooks Claude Code plugin (hooks/hooks.json beside this file) and from a
# user-level install (agenthooks install --user), once per host event, as:
#   bash -p dispatch.sh HOOK FRAMEWORK [--plugin] < payload.json
#   HOOK       pre_task, post_edit or on_compact
#   FRAMEWORK  the host (claude-code, codex), passed on to the hook
#   --plugin   run by the plugin: it steps aside where a user-level install runs the same hook
# It finds the nearest .agent/hooks/HOOK.sh walking up from the payload's "cwd" (else the working
# directory), never past the top of the git work tree (the folder holding .git), and runs that
# repository's own committed hook, with the payload on stdin:
#   bash -p REPO/.agent/hooks/HOOK.sh FRAMEWORK
# Silent (exit 0, no output): where there is no such hook; where the host already runs it from
# the settings it loaded for this session (memory is given once, not twice); where .agent/, its
# hooks/ or the hook is a link, or the hook is not the user's. It writes nothing, anywhere.
# Pure bash, no other process: the hook's bash replaces this one (exec).

# ad_cwd VAR PAYLOAD: VAR = the payload's top-level "cwd" (a Windows path with slashes), else
# empty. Only a key with no bracket before it counts (the fields hosts send first).
ad_cwd() {
  local _re='^[[:space:]]*\{([^][{}]*[,[:space:]])?"cwd"[[:space:]]*:[[:space:]]*"(([^"\\]|\\.)*)"' _v
  printf -v "$1" '%s' ''
  [[ $2 =~ $_re ]] || return 0
  _v=${BASH_REMATCH[2]}
  case $_v in
    *\\*)
      _v=${_v//\\\\/$'\001'}  # an escaped backslash, held aside
      _v=${_v//\\\//\/}       # \/ is a slash
      case $_v in *\\*) return 0 ;; esac  # any other escape: not a path we take
      _v=${_v//$'\001'/\\}
      ;;
  esac
  case $_v in
    [A-Za-z]:\\* | \\\\*) _v=${_v//\\//} ;;  # C:\a\b -> C:/a/b, as Git Bash opens it
  esac
  case $_v in
    /* | [A-Za-z]:/*) printf -v "$1" '%s' "$_v" ;;
  esac
}

# ad_find VAR DIR HOOK: VAR = the nearest folder from DIR up that holds .agent/hooks/HOOK.sh;
# 1 when none does up to the top of the git work tree (or the file system's root).
ad_find() {
  local _d=${2%/}
  while :; do
    if [ -f "$_d/.agent/hooks/$3.sh" ]; then
      printf -v "$1" '%s' "${_d:-/}"
      return 0
    fi
    [ ! -e "$_d/.git" ] || return 1
    case $_d in */*) _d=${_d%/*} ;; *) return 1 ;; esac
  done
}

# ad_holds FILE TEXT: FILE, a regular file, has TEXT in its first 64 KiB.
ad_holds() {
  local _t=''
  [ -f "$1" ] || return 1
  { IFS= read -r -d '' -n 65536 _t <"$1"; } 2>/dev/null || true
  case $_t in *"$2"*) return 0 ;; esac
  return 1
}

# ad_aside ROOT HOOK FRAMEWORK ORIGIN: does the host already run ROOT's HOOK for this session?
ad_aside() {
  local dir f
  case $3 in
    claude-code)
      # Claude Code loads the project settings of the folder it started in (CLAUDE_PROJECT_DIR),
      # none of a parent's: started in a subfolder, the repository's registration is not loaded.
      # Those settings run the hook when they name it and it is there.
      dir=${CLAUDE_PROJECT_DIR-}
      case $dir in [A-Za-z]:\\* | \\\\*) dir=${dir//\\//} ;; esac
      if [ -n "$dir" ] && [ -f "$dir/.agent/hooks/$2.sh" ]; then
        for f in "$dir/.claude/settings.json" "$dir/.claude/settings.local.json"; do
          ! ad_holds "$f" ".agent/hooks/$2.sh" || return 0
        done
      fi
      # The plugin steps aside from a user-level install, which runs this same script.
      [ "$4" != --plugin ] || ! ad_holds "${CLAUDE_CONFIG_DIR:-${HOME-}/.claude}/settings.json" \
        "agenthooks/dispatch.sh" || return 0
      ;;
    codex)
      # Codex runs the hooks of the repository's .codex/hooks.json (a trusted project) beside the user's.
      ! ad_holds "$1/.codex/hooks.json" ".agent/hooks/$2.sh" || return 0
      ;;
  esac
  return 1
}

main() {
  local hook=${1-} framework=${2-} origin=${3-} payload='' dir root script
  case $hook in pre_task | post_edit | on_compact) ;; *) return 0 ;; esac
  case $framework in '' | *[!a-z-]*) return 0 ;; esac
  export LC_ALL=C
  unset CDPATH
  # The payload: the prefix the hook itself reads (its fields come first), 1 s at most.
  [ -t 0 ] || { IFS= read -r -t 1 -d '' -n 16384 payload 2>/dev/null || true; }
  ad_cwd dir "$payload"
  [ -n "$dir" ] || dir=$PWD
  ad_find root "$dir" "$hook" || return 0
  script=$root/.agent/hooks/$hook.sh
  if [ -L "$root/.agent" ] || [ -L "$root/.agent/hooks" ] || [ -L "$script" ] ||
    { [ ! -O "$script" ] && [ "${EUID-}" != 0 ]; }; then
    echo "agenthooks: $script is a link or not yours: not run" >&2
    return 0
  fi
  ! ad_aside "$root" "$hook" "$framework" "$origin" || return 0
  cd -- "$root" 2>/dev/null || return 0
  if [ -t 0 ]; then
    exec "$BASH" -p "$script" "$framework"
  fi
  exec "$BASH" -p "$script" "$framework" <<<"$payload"
}

main "$@"
exit 0
