#!/usr/bin/env bash
# Baseline for on_compact: cat the last length, reload through pre_task on a 40% drop.
set -euo pipefail
AGENT_DIR=".agent"
LOG_FILE="$AGENT_DIR/log/memory.log"
LAST_LEN_FILE="$AGENT_DIR/log/last_context_len"
log() { echo "[$(date '+%Y-%m-%d %H:%M:%S')] $1" >>"$LOG_FILE"; }
CURRENT_LEN="${AGENT_CONTEXT_LEN:-0}"
if [ -f "$LAST_LEN_FILE" ]; then
  LAST_LEN=$(cat "$LAST_LEN_FILE")
  if [ "$LAST_LEN" -gt 0 ] && [ "$CURRENT_LEN" -lt $((LAST_LEN * 60 / 100)) ]; then
    log "on_compact: context dropped $LAST_LEN -> $CURRENT_LEN, reloading"
    bash "$AGENT_DIR/hooks/pre_task.sh" >/dev/null
    echo "Context compaction detected; memory reloaded. Trust .agent/memory/ over earlier context."
  fi
fi
echo "$CURRENT_LEN" >"$LAST_LEN_FILE"
