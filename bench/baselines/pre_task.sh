#!/usr/bin/env bash
# Baseline for pre_task: the naive memory loader that concatenates every memory file.
# mkdir -p, three touch, the three files cat-ed into one file, date, two wc -l, cat.
set -euo pipefail
AGENT_DIR=".agent"
MEM_DIR="$AGENT_DIR/memory"
LOG_FILE="$AGENT_DIR/log/memory.log"
log() { echo "[$(date '+%Y-%m-%d %H:%M:%S')] $1" >>"$LOG_FILE"; }
mkdir -p "$MEM_DIR" "$AGENT_DIR/log"
for f in tattoo snapshot notes; do
  touch "$MEM_DIR/$f.md"
done
{
  echo "===== AGENT MEMORY BEGIN ====="
  echo "## Hard rules (must obey)"
  cat "$MEM_DIR/tattoo.md"
  echo ""
  echo "## Current task snapshot"
  cat "$MEM_DIR/snapshot.md"
  echo ""
  echo "## Scratch notes (may be stale)"
  cat "$MEM_DIR/notes.md"
  echo "===== AGENT MEMORY END ====="
} >"$AGENT_DIR/injected_context.txt"
log "pre_task: memory loaded, tattoo=$(wc -l <"$MEM_DIR/tattoo.md") lines snapshot=$(wc -l <"$MEM_DIR/snapshot.md") lines"
cat "$AGENT_DIR/injected_context.txt"
