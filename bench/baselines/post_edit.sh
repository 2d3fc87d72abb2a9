#!/usr/bin/env bash
# Baseline for post_edit: stat the snapshot, date for now, remind past 10 minutes.
set -euo pipefail
AGENT_DIR=".agent"
SNAPSHOT="$AGENT_DIR/memory/snapshot.md"
LOG_FILE="$AGENT_DIR/log/memory.log"
log() { echo "[$(date '+%Y-%m-%d %H:%M:%S')] $1" >>"$LOG_FILE"; }
if [ -f "$SNAPSHOT" ]; then
  last_mod=$(stat -c %Y "$SNAPSHOT" 2>/dev/null || stat -f %m "$SNAPSHOT")
  now=$(date +%s)
  diff=$(((now - last_mod) / 60))
  if [ "$diff" -gt 10 ]; then
    log "post_edit: snapshot not updated for $diff minutes"
    echo "Reminder: the snapshot has not been updated for $diff minutes; update .agent/memory/snapshot.md if progress changed."
  fi
fi
