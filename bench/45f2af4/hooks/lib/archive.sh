# lib/archive.sh: pre_task.sh --archive: the snapshot to memory/archive/, a fresh one in its place.
# agenthooks-owned:7d2f9c1e template=hooks/lib/archive.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. Loaded by pre_task.sh for --archive (the command the block's footer names).

# ah_template VAR NAME: VAR = the starting text of memory/NAME.md (for an archived snapshot).
ah_template() {
  local _text=''
  case $2 in
    snapshot)
      _text='# Current task snapshot\n<!-- The progress board: update it when the task changes phase, not '
      _text+='after every edit. -->\n\n## Goal\n\n## Done\n\n## In progress\n\n## Todo\n\n## Key '
      _text+='decisions\n\n## Tried and failed\n<!-- Approaches tried and rejected, one a line with why, '
      _text+='newest last: the agent sees the latest 3 and does not try them again. -->\n'
      ;;
  esac
  printf -v "$1" '%b' "$_text"
}
# ah_has_items FILE: has FILE an item in a section, as every reader of memory sees it (lib/memory.awk)?
ah_has_items() {
  local _items
  ah_release memory.awk || return 0 # no grammar to ask: the snapshot is not called empty
  _items=$(exec awk -v list=items -f "$AH_HOOKS/lib/memory.awk" -- "$1" 2>/dev/null) || return 0
  [ -n "$_items" ]
}
# ah_archive [--force]: move the snapshot to memory/archive/ (never over an archive, never through
# a link) and start a fresh one from its template; an empty snapshot only with --force.
ah_archive() {
  local dest n=1 stamp fresh
  [ -f "$AH_MEMORY/snapshot.md" ] || { ah_log "archive: no snapshot to archive" && return 0; }
  if ! ah_has_items "$AH_MEMORY/snapshot.md" && [[ " $* " != *" --force "* ]]; then
    ah_log "archive: the snapshot has no items yet; nothing archived (--force archives it anyway)"
    echo "agenthooks: the snapshot has no items yet: nothing archived (pass --force to archive it anyway)" >&2
    return 0
  fi
  ah_mkdir "$AH_MEMORY/archive" || n=100
  ah_stamp stamp
  dest=$AH_MEMORY/archive/snapshot_$stamp.md
  # The first free name: a file is made only where none is, so no archive is overwritten.
  until [ "$n" -gt 99 ] || ah_create "$dest" ''; do
    n=$((n + 1)) dest=$AH_MEMORY/archive/snapshot_${stamp}_$n.md
  done
  if [ "$n" -gt 99 ]; then
    ah_log "archive: cannot create a file in memory/archive/ (or it or memory/ is a link); nothing moved"
    echo "agenthooks: cannot archive the snapshot (see .agent/log/memory.log)" >&2
    return 0
  fi
  # The fresh snapshot is written whole beside the old one first, then both are renamed: a full
  # disk leaves the snapshot as it was.
  ah_template fresh snapshot
  AH_TMPFILE=$AH_MEMORY/.snapshot.md.$$.tmp
  if ! ah_put "$AH_TMPFILE" "$fresh" || ! ah_rename "$AH_MEMORY/snapshot.md" "$dest"; then
    ah_remove "$dest" || true
    ah_log "archive: could not write a fresh snapshot or move the old one (disk full?); nothing archived"
    echo "agenthooks: cannot write a fresh snapshot (disk full?): nothing archived" >&2
    return 0
  fi
  if ! ah_rename "$AH_TMPFILE" "$AH_MEMORY/snapshot.md"; then
    ah_rename "$dest" "$AH_MEMORY/snapshot.md" || true
    ah_log "archive: could not start a fresh snapshot; the old one is back in place"
    return 0
  fi
  AH_TMPFILE=''
  ah_log "archived the snapshot to memory/archive/${dest##*/}; started a fresh one"
  { printf '%s\n' "archived: .agent/memory/archive/${dest##*/}"; } 2>/dev/null || true
}
