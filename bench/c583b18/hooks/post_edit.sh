#!/usr/bin/env bash
# post_edit.sh: after a file edit, remind the agent when the snapshot has gone stale.
# agenthooks-owned:7d2f9c1e template=hooks/post_edit.sh@6
# Runs: after each edit the agent makes, from the host's registration, as:
#   bash .agent/hooks/post_edit.sh [FRAMEWORK] < payload.json
# Never edits the snapshot (only the agent knows whether progress changed); reminds at
# most once per stale_minutes, and never for an edit of the snapshot itself. Most edits
# end in the quiet path below, with no process spawned.
# Rendered by agenthooks for: linux. Tunables: .agent/config.yaml.
# Re-run 'agenthooks install' to upgrade; it merges edits made here.
[ -n "${BASH_VERSION-}" ] || { echo "agenthooks: this hook needs bash (3.2 or newer)" >&2; exit 0; }
# The shared runtime is pre_task.sh: load its prelude, if it is the release named on its third line.
AH_HOOK=post_edit AH_PART='' AH_LIB=${BASH_SOURCE[0]%post_edit.sh}pre_task.sh AH_V=''
{ read -r _ && read -r _ && read -r AH_V; } <"$AH_LIB" 2>/dev/null || true
# shellcheck source=SCRIPTDIR/pre_task.sh
if [ "${AH_V##*@}" != 6 ] || ! . "$AH_LIB"; then echo "agenthooks[$AH_HOOK]: $AH_LIB is missing or not release 6: run 'agenthooks install'" >&2; exit 0; fi

# --- quiet path: an edit that needs no reminder ---
# The reminder state of a session, in $AH_MARK: "SNAP REMIND", the snapshot's last known
# modification time and the last reminder, in epoch seconds. With bash's -nt test the usual
# edit spawns nothing; stat(1) runs only when the snapshot changed behind the hook's back.
# ah_mark_read: AH_M_SNAP and AH_M_REMIND from the mark; both untouched when it is unusable.
ah_mark_read() {
  local snap='' remind=''
  [ -f "$AH_MARK" ] && [ ! -L "$AH_MARK" ] || return 1
  { read -r snap remind _ <"$AH_MARK"; } 2>/dev/null || true
  case $snap in '' | *[!0-9]*) return 1 ;; esac
  case $remind in '' | *[!0-9]*) remind=0 ;; esac
  AH_M_SNAP=$snap AH_M_REMIND=$remind
}
# ah_quiet_post_edit: AH_DONE=1 when this edit needs no reminder and nothing written, which is
# almost every edit; anything else is left to main.
ah_quiet_post_edit() {
  local snap=$AH_MEM/snapshot.md period
  AH_MARK=$AH_STATE/$AH_SID.remind
  [ "$AH_CFG_PENDING" = 0 ] || return 0
  period=$((AH_STALE * 60))
  [ -f "$snap" ] || { AH_DONE=1; return 0; }
  # An edit that may be of the snapshot itself is main's to judge.
  case $AH_IN in *snapshot.md*) return 0 ;; esac
  AH_M_SNAP='' AH_M_REMIND=0
  ah_mark_read || return 0
  [ ! "$snap" -nt "$AH_MARK" ] || return 0
  ah_epoch
  if [ $((AH_EPOCH - AH_M_SNAP)) -lt "$period" ] ||
    { [ "$AH_M_REMIND" != 0 ] && [ $((AH_EPOCH - AH_M_REMIND)) -lt "$period" ]; }; then
    AH_DONE=1
  fi
}

# --- reminder ---
# ah_edits_snapshot: is the snapshot among the files this edit touched?
ah_edits_snapshot() {
  local re
  if ah_json -n file_path filePath path target_file; then
    case $AH_V in .agent/memory/snapshot.md | */.agent/memory/snapshot.md) return 0 ;; esac
  fi
  case $AH_IN in
    *snapshot.md*) ;;
    *) return 1 ;;
  esac
  # apply_patch (Codex, Cline): the paths sit in the patch text.
  re='File:[[:space:]]*([^"\\]*/)?\.agent/memory/snapshot\.md(\\n|")'
  [[ $AH_IN =~ $re ]] && return 0
  # Arguments passed as a JSON string (Copilot CLI toolArgs): the quotes are escaped.
  re='\\"(path|file_path|filePath)\\"[[:space:]]*:[[:space:]]*\\"([^"\\]*/)?\.agent/memory/snapshot\.md\\"'
  [[ $AH_IN =~ $re ]]
}
# ah_mark_write SNAP REMIND [mkdir]: the state folder is made only when reminding (pre_task
# makes it at session start), so that an ordinary edit never spawns mkdir.
ah_mark_write() {
  # A linked log folder may point out of the repo: state stays inside or is not kept.
  [ ! -L "$AH_LOGDIR" ] && [ -d "$AH_LOGDIR" ] || return 1
  [ -d "$AH_STATE" ] || { [ -n "${3-}" ] && mkdir -p -- "$AH_STATE" 2>/dev/null; } || return 1
  # Never write through a link in its place: it may point anywhere.
  [ ! -L "$AH_MARK" ] || rm -f -- "$AH_MARK" 2>/dev/null || return 1
  { printf '%s %s\n' "$1" "$2" >"$AH_MARK"; } 2>/dev/null
}

# --- main ---
main() {
  local snap out age period s
  ah_quiet_post_edit
  [ "$AH_DONE" = 0 ] || { trap - EXIT; exit 0; }  # nothing held, nothing to clean
  ah_runtime
  ah_config_full  # config.yaml changed: parsed, then the quiet path is offered again
  [ "$AH_DONE" = 0 ] || return 0
  snap=$AH_MEM/snapshot.md
  period=$((AH_STALE * 60))
  [ -f "$snap" ] || return 0
  # An edit of the snapshot itself: no reminder; the next edit sees it is newer than the mark.
  ! ah_edits_snapshot || return 0
  ah_epoch
  AH_M_SNAP='' AH_M_REMIND=0
  if ! ah_mark_read || [ "$snap" -nt "$AH_MARK" ]; then
    # The first edit of the session, or the snapshot changed elsewhere: ask stat once.
    ah_mtime "$snap" || return 0
    AH_M_SNAP=$AH_MTIME
    # Stale: the mark is written under the lock only, or it could clear another's reminder.
    [ $((AH_EPOCH - AH_M_SNAP)) -ge "$period" ] || { ah_mark_write "$AH_M_SNAP" 0 || true; return 0; }
  fi
  s=$AH_M_SNAP
  [ $((AH_EPOCH - s)) -ge "$period" ] || return 0
  [ "$AH_M_REMIND" = 0 ] || [ $((AH_EPOCH - AH_M_REMIND)) -ge "$period" ] || return 0
  if ah_lock; then
    # Another hook of this session may have reminded while this one waited for the lock.
    ! ah_mark_read || [ "$AH_M_REMIND" = 0 ] || [ $((AH_EPOCH - AH_M_REMIND)) -ge "$period" ] || return 0
    ah_mark_write "$s" "$AH_EPOCH" mkdir || ah_log "could not record the reminder"
    ah_unlock
  else
    ah_log "lock busy for ${AH_LOCK_TIMEOUT}s; reminding without recording it (skipped writes)"
  fi
  age=$(((AH_EPOCH - s) / 60))
  printf -v out 'agenthooks: .agent/memory/snapshot.md was last updated %s minutes ago. If the task changed phase (a step finished, a decision was made), update its In progress and Key decisions now; do not log individual edits.' "$age"
  ah_say PostToolUse "$out"
  ah_log "snapshot not updated for $age minutes; reminded the agent"
}

main "$@"
