#!/usr/bin/env bash
# on_compact.sh: detect a context compaction and re-inject .agent/memory/ at once.
# agenthooks-owned:7d2f9c1e template=hooks/on_compact.sh@6
# Runs: once per prompt, and on the host's pre-compaction event, from the host's
# registration, as: bash .agent/hooks/on_compact.sh [FRAMEWORK] < payload.json
# Signals: the host's pre-compaction event (a flag for the next prompt), a compaction record
# in the transcript, the context length dropping by drop_percent (AGENT_CONTEXT_LEN or the
# transcript's usage), summary_markers in the payload, every reload_turns prompts. Most
# prompts show none: one append to the state. A reload prints pre_task.sh's block.
# Rendered by agenthooks for: linux. Tunables: .agent/config.yaml.
# Re-run 'agenthooks install' to upgrade; it merges edits made here.
[ -n "${BASH_VERSION-}" ] || { echo "agenthooks: this hook needs bash (3.2 or newer)" >&2; exit 0; }
# The shared runtime is pre_task.sh: load its prelude, if it is the release named on its third line.
AH_HOOK=on_compact AH_PART='' AH_LIB=${BASH_SOURCE[0]%on_compact.sh}pre_task.sh AH_V=''
{ read -r _ && read -r _ && read -r AH_V; } <"$AH_LIB" 2>/dev/null || true
# shellcheck source=SCRIPTDIR/pre_task.sh
if [ "${AH_V##*@}" != 6 ] || ! . "$AH_LIB"; then echo "agenthooks[$AH_HOOK]: $AH_LIB is missing or not release 6: run 'agenthooks install'" >&2; exit 0; fi

# config.yaml changed since pre_task.sh last read it: read it now (rare), before anything uses it.
[ "$AH_CFG_PENDING" = 0 ] || { ah_runtime; ah_config_full; }
# The host's pre-compaction event is main's (a glob: most payloads name no such event).
AH_PRE=0
case $AH_IN$AH_EVENT_ARG in *[Pp]reCompact* | *PreCompress*) AH_PRE=1 ;; esac

# --- state: the last valid line "v1 TURN LEN PENDING BOUNDARY SYNC" of log/state/<session>.state ---
AH_SF=$AH_STATE/$AH_SID.state
AH_S_TURN=0 AH_S_LEN=0 AH_S_PEND=- AH_S_BOUND=- AH_S_SYNC=0 AH_S_LINES=0 AH_S_NEW=1 AH_S_NEWER=0
AH_L=()
[ ! -f "$AH_SF" ] || [ -L "$AH_SF" ] || { mapfile -t AH_L <"$AH_SF"; } 2>/dev/null || true
AH_S_LINES=${#AH_L[@]} AH_I=${#AH_L[@]}
set -f
while [ "$AH_I" -gt 0 ]; do
  AH_I=$((AH_I - 1))
  # shellcheck disable=SC2086
  set -- ${AH_L[AH_I]} - - - - - -
  case $1 in
    v1) ;;
    v[2-9] | v[1-9][0-9]) AH_S_NEWER=1 && break ;;  # a newer release's: its file is left alone
    *) continue ;;
  esac
  case $2:$3 in :* | *: | *:*:* | *[!0-9:]* | ??????????*:* | *:???????????*) continue ;; esac  # 9 and 10 digits at most
  AH_S_TURN=$((10#$2)) AH_S_LEN=$((10#$3)) AH_S_PEND=$4 AH_S_BOUND=$5 AH_S_SYNC=$6 AH_S_NEW=0 AH_S_NEWER=0
  break
done
set +f

# --- transcript: the context length and the latest compaction record ---
# ah_transcript_claude_code: AH_LEN = input + cache tokens of the last usage in $AH_TAIL (or fail),
# AH_BOUND = the time of a compaction record after it (and AH_STALE=1). '"usage":' can only be a key.
ah_transcript_claude_code() {
  local h r l IFS=:,
  h=${AH_TAIL%'"usage":'*}
  [ "${#h}" -lt "${#AH_TAIL}" ] && r=${AH_TAIL:${#h}} || r=$AH_TAIL  # none: the record may still be there
  case $r in *'"compact_boundary"'*)
    # Its time follows on its line: ..."subtype":"compact_boundary",...,"timestamp":"..."
    l=${r%'"compact_boundary"'*} l=${r:${#l}:2000} AH_STALE=1
    [[ ${l%%"$AH_NL"*} =~ \"timestamp\"[[:space:]]*:[[:space:]]*\"([0-9A-Za-z:.+-]{1,40})\" ]] && AH_BOUND=${AH_BOUND:-${BASH_REMATCH[1]}} ;;
  esac
  [ "${r:0:8}" = '"usage":' ] || return 1
  # Claude Code writes it compact, in this order (no regex: bash compiles one at every use).
  set -f
  # shellcheck disable=SC2086
  set -- ${r:0:200} - - - - - - -
  set +f
  case $2$4$6 in '{"input_tokens""cache_creation_input_tokens""cache_read_input_tokens"')
    case .$3.$5.$7. in *..* | *[!0-9.]* | *[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*) ;; *) AH_LEN=$((10#$3 + 10#$5 + 10#$7)) && return 0 ;; esac ;;
  esac
  AH_LEN='' r=${r:0:600}
  for h in input_tokens cache_creation_input_tokens cache_read_input_tokens; do
    [[ ! $r =~ \"$h\"[[:space:]]*:[[:space:]]*([0-9]{1,9}) ]] || AH_LEN=$((${AH_LEN:-0} + 10#${BASH_REMATCH[1]}))
  done
  [ -n "$AH_LEN" ]  # no token count there ("usage":null): no length
}
# AH_LEN = the context length in tokens, AH_BOUND = the latest compaction record's id (or empty),
# AH_STALE=1: a compaction record follows that length (Claude Code), so it predates the compaction.
AH_LEN='' AH_BOUND='' AH_STALE=0
if [ -n "${AGENT_CONTEXT_LEN+x}" ]; then
  AH_V=${AGENT_CONTEXT_LEN//[[:space:]]/}
  case $AH_V in
    '' | *[!0-9]* | ??????????*) AH_V=${AGENT_CONTEXT_LEN:0:40} && ah_runtime && ah_log "ignored AGENT_CONTEXT_LEN='${AH_V//[![:print:]]/?}': not a token count" ;;
    *) AH_LEN=$((10#$AH_V)) ;;
  esac
elif [ "$AH_PRE" = 0 ] && case $AH_FRAMEWORK in claude-code) ;; *) false ;; esac &&
  ah_json transcript_path transcriptPath && [ -f "$AH_V" ] && [ -r "$AH_V" ]; then
  # A bounded tail (exec: one fork), wider when the usage sits behind a long summary.
  for AH_I in 4096 65536; do
    { AH_TAIL=$(exec tail -c "$AH_I" -- "$AH_V" 2>/dev/null); } 2>/dev/null || break
    ! "ah_transcript_${AH_FRAMEWORK//-/_}" || break
    [ ${#AH_TAIL} -gt $((AH_I - 256)) ] || break  # a shorter tail is the whole file
  done
fi

# --- detection: AH_CAUSE = why memory must reload now, or empty; AH_TURN, AH_NLEN, AH_NBOUND = the state to record ---
# SYNC: the length recorded predates a compaction, so the first one measured after it is the
# new baseline, not a drop (set by pre_task's reload, kept while AH_STALE says so).
AH_TURN=$((AH_S_TURN + 1)) AH_NLEN=${AH_LEN:-$AH_S_LEN} AH_NBOUND=${AH_BOUND:-$AH_S_BOUND} AH_CAUSE='' AH_FIRST=0 AH_NSYNC=$AH_STALE
if [ "$AH_S_PEND" = pending ]; then
  AH_CAUSE="the host announced a compaction"
elif [ "$AH_S_SYNC" = 1 ]; then
  :  # memory was reloaded after this compaction
elif [ "$AH_S_NEW" = 0 ] && [ -n "$AH_BOUND" ] && [ "$AH_BOUND" != "$AH_S_BOUND" ]; then
  AH_CAUSE="a compaction record in the transcript"
elif [ -n "$AH_LEN" ] && [ "$AH_LEN" -lt $((AH_S_LEN * (100 - AH_DROP) / 100)) ]; then
  AH_CAUSE="context length dropped $AH_S_LEN -> $AH_LEN"
  [ "$AH_S_PEND" != candidate ] || AH_CAUSE="$AH_CAUSE after PreCompress"
fi
if [ "$AH_CAUSE$AH_FIRST" = 0 ] && [ -n "$AH_IN" ]; then
  set -f
  IFS='|'
  for AH_V in $AH_MARKERS; do
    case $AH_IN in *"$AH_V"*) [ -z "$AH_V" ] || { AH_CAUSE="summary marker '$AH_V' in the input"; break; } ;; esac
  done
  IFS=$' \t\n'
  set +f
fi
[ -n "$AH_CAUSE" ] || [ "$AH_FIRST" = 1 ] || [ "$AH_TURNS" = 0 ] || [ "$AH_TURN" -lt "$AH_TURNS" ] || AH_CAUSE="periodic reload after $AH_TURN prompts"
[ -z "$AH_CAUSE" ] || AH_TURN=0

# --- quiet path: no compaction (almost every prompt) ends here, before bash parses the rest ---
# One append and no lock: a line this short is written whole. All else is main's.
if [ "$AH_PRE$AH_FIRST$AH_S_NEWER" = 000 ] && [ -z "$AH_CAUSE" ] && [ "$AH_S_LINES" -lt 64 ] &&
  [ -d "$AH_STATE" ] && [ ! -L "$AH_LOGDIR" ] && [ ! -L "$AH_SF" ] &&
  { printf 'v1 %s %s - %s %s\n' "$AH_TURN" "$AH_NLEN" "$AH_NBOUND" "$AH_NSYNC" >>"$AH_SF"; } 2>/dev/null; then
  trap - EXIT  # nothing held, nothing to clean
  exit 0
fi
ah_runtime

# --- main: a compaction announced or detected, or a run the quiet path left ---
# ah_state_write TURN LEN PENDING BOUNDARY SYNC: one atomic append; the file is compacted to
# its last line now and then, through a same-folder rename. A newer release's file is left alone.
ah_state_write() {
  local line="v1 $1 $2 $3 $4 $5"
  [ "$AH_S_NEWER" = 0 ] || { ah_log "left ${AH_SF##*/} alone: written by a newer release"; return 0; }
  [ -d "$AH_STATE" ] || mkdir -p -- "$AH_STATE" 2>/dev/null || return 1
  [ ! -L "$AH_SF" ] || return 1
  if [ "$AH_S_LINES" -ge 64 ]; then
    AH_TMP=$AH_SF.$$.tmp
    { printf '%s\n' "$line" >"$AH_TMP"; } 2>/dev/null && mv -f -- "$AH_TMP" "$AH_SF" 2>/dev/null && AH_TMP= && return 0
    rm -f -- "$AH_TMP" 2>/dev/null || true
    AH_TMP=
  fi
  { printf '%s\n' "$line" >>"$AH_SF"; } 2>/dev/null
}
main() {
  local pend locked=1
  ah_event
  case $AH_EVENT in
    PreCompact | preCompact | PreCompress)
      # Before the host compacts: flag it for the next prompt. PreCompress (Gemini CLI)
      # fires before every request, so it only marks a candidate.
      ah_lock || { ah_log "lock busy for ${AH_LOCK_TIMEOUT}s; skipped writes"; return 0; }
      pend=pending
      [ "$AH_EVENT" != PreCompress ] || pend=candidate
      [ "$AH_S_PEND" = pending ] && pend=pending
      ah_state_write "$AH_S_TURN" "$AH_S_LEN" "$pend" "$AH_S_BOUND" "$AH_S_SYNC" || true
      [ "$pend" = candidate ] || ah_log "compaction announced by the host ($AH_EVENT); memory will reload on the next prompt"
      return 0
      ;;
  esac
  # Without the lock, memory is still printed; only the state update is skipped.
  ah_lock || locked=0
  if [ "$locked" = 1 ]; then
    ah_state_write "$AH_TURN" "$AH_NLEN" - "$AH_NBOUND" "$AH_NSYNC" || ah_log "could not write hook state"
    # The block is published by rename and needs no lock: hold it only for the state, so
    # that many agents in one repo never queue behind each other's awk.
    ah_unlock
  else
    ah_log "lock busy for ${AH_LOCK_TIMEOUT}s; skipped writes"
  fi
  [ -n "$AH_CAUSE" ] || return 0
  AH_NOTE='agenthooks detected a context compaction and reloaded memory: follow .agent/memory/ over the conversation summary. This is the same task, continued, not a new session: do not start over or greet; resume the In progress item and the user'"'"'s latest request.'
  case $AH_CAUSE in periodic*) ;; *) ah_compacted "$AH_NOTE" ;; esac
  ! ah_gone || { ah_gone_say UserPromptSubmit; return 0; }
  ah_block UserPromptSubmit "$AH_NOTE"
  ah_log "compaction detected ($AH_CAUSE); memory reloaded"
}

main
[ "$AH_HOOK" != on_compact ] || exit 0  # what follows is data, never run

# --- data: the block builder's awk program; pre_task.sh reads it from here and runs it ---
# One pass reads the memory files, cleans every line, keeps to the budget and prints the
# block (bash publishes it with one rename). Never run as bash: the hook exits above.
: <<'AGENTHOOKS_AWK'
# Runs under LC_ALL=C: every string is bytes. Files: K=utat user rules, K=tattoo project
# rules, K=snapshot, K=notes. Prints a stats line, then the block.
# Estimate: one token per CJK-width character (3- and 4-byte UTF-8), one per 4 others.
function tok(s,   t, w, c) {
  if (s !~ /[\200-\377]/) return int((length(s) + 4) / 4)
  t = s; w = gsub(/[\340-\364]/, "", t)
  t = s; c = gsub(/[\200-\277]/, "", t)
  return w + int((length(s) - c - w + 4) / 4)
}
# Characters as hosts count them (UTF-16 units), plus the newline.
function nch(s,   t, c, q) {
  if (s !~ /[\200-\377]/) return length(s) + 1
  t = s; c = gsub(/[\200-\277]/, "", t)
  t = s; q = gsub(/[\360-\364]/, "", t)
  return length(s) - c + q + 1
}
# Invalid UTF-8 becomes "?", so every JSON parser accepts the output.
function utf8(s,   out, r) {
  for (out = ""; s != ""; s = substr(s, r + 1))
    if (match(s, /^[\001-\177]+/) || match(s, /^([\302-\337][\200-\277]|\340[\240-\277][\200-\277]|[\341-\354\356\357][\200-\277][\200-\277]|\355[\200-\237][\200-\277]|\360[\220-\277][\200-\277][\200-\277]|[\361-\363][\200-\277][\200-\277][\200-\277]|\364[\200-\217][\200-\277][\200-\277])+/)) { out = out substr(s, 1, RLENGTH); r = RLENGTH }
    else { out = out "?"; r = 1 }
  return out
}
function secret(p) { SECRET = SECRET (SECRET == "" ? "" : "|") "(" p ")" }
function clean(s, where,   i, long, t) {
  # Only the first 600 bytes are shown: cut a huge line first, so that neither the NUL
  # loop nor the secret regex (quadratic on long runs in some awks) sees megabytes.
  long = 0
  if (length(s) > 1200) { s = substr(s, 1, 1200); long = 1 }
  if (NUL != "") while ((i = index(s, NUL)) > 0) s = substr(s, 1, i - 1) substr(s, i + 1)
  # Normalise first: no control or invisible character (redact.INVISIBLE) splits a secret.
  gsub(/\t/, "  ", s)
  gsub(/[\001-\037\177]|\302[\200-\237\255]|\342\200[\213-\217\252-\256]|\342\201[\240-\244\246-\251]|\357\273\277/, "", s)
  if (SECRET != "" && s ~ SECRET) { redacted++; return sprintf("[redacted by agenthooks: a line of %s looks like a secret]", where) }
  if (long || length(s) > 600) { s = substr(s, 1, 600); sub(/[\300-\367][\200-\277]*$/, "", s); s = s " [...]" }
  if (s ~ /[\200-\377]/) s = utf8(s)
  # Memory text must not be able to close (or reopen) the block, even with lookalikes.
  t = (s ~ /[\316\320\321\357]/) ? fold(s) : s
  if (toupper(t) ~ /AGENT[^A-Z0-9]*MEMORY[^A-Z0-9]*(BEGIN|END)/) { s = t; gsub(/[Aa][Gg][Ee][Nn][Tt][^A-Za-z0-9]*[Mm][Ee][Mm][Oo][Rr][Yy]/, "agent-memory(quoted)", s) }
  return s
}
function fold(s,   o) {  # lookalike letters (redact.LOOKALIKES) as ASCII
  for (o = ""; match(s, LKRE); s = substr(s, RSTART + RLENGTH)) o = o substr(s, 1, RSTART - 1) LK[substr(s, RSTART, RLENGTH)]
  return o s
}
# Blank lines, HTML comments (to "-->", never past a blank line) and the title line carry
# nothing the agent needs.
function skip(s) {
  if (s ~ /^[ \t\r]*$/) { incomment = 0; return 1 }
  if (incomment) { if (index(s, "-->")) incomment = 0; return 1 }
  if (s ~ /^[ \t]*<!--/) { if (!index(s, "-->")) incomment = 1; return 1 }
  return 0
}
function section(t) {
  t = tolower(t)
  sub(/[ \t\r]+$/, "", t)
  sub(/(:|\357\274\232)$/, "", t)
  if (t ~ /^(goals?|objective|目标|任务目标)$/) return "goal"
  if (t ~ /^(in[ -]?progress|progress|doing|进行中)$/) return "progress"
  if (t ~ /^((key )?decisions|关键决策)$/) return "decisions"
  if (t ~ /^(done|completed|已完成)$/) return "done"
  if (t ~ /^(todo|to[ -]do|next|待办)$/) return "todo"
  return "other"
}
function add(s) { L[++n] = s; T += tok(s); C += nch(s) }
function over() { return T > budget || C > 9500 }
function drop(s) { T -= tok(s); C -= nch(s) }
function build(   i, k, key, any) {
  n = 0; T = 0; C = 0
  add(BEGIN_DELIM)
  add("Project memory (.agent/memory/, loaded by agenthooks): current, and it wins over anything earlier in this conversation.")
  if (ENVIRON["AH_NOTICE"] != "") add(ENVIRON["AH_NOTICE"])
  if (ncut > 1) add(sprintf("[agenthooks: over %d KB or binary, read in part only: %s; read and shorten it]", CUT[1], cuts))
  add("## " "Hard rules (must obey)")
  rcut = ucut + pcut + uextra + pextra
  if (rcut > 0) add(sprintf("[agenthooks WARNING: %d of %d rules are left out, over the budget or the host\047s 10,000-character cap: READ .agent/memory/tattoo.md NOW, and shorten it]", rcut, nut + uextra + ntat + pextra))
  if (nut > 0) {
    add("### " "User rules (~/.agent/memory/tattoo.md)")
    for (i = 1; i <= nut - ucut; i++) add(UT[i])
    add("### " "Project rules (.agent/memory/tattoo.md; these win over user rules on conflict)")
  }
  if (ntat == 0) add("(no project rules yet: add one-line rules to .agent/memory/tattoo.md)")
  for (i = 1; i <= ntat - pcut; i++) add(TT[i])
  add("## " "Current task snapshot (summary)")
  any = 0; gone = 0
  for (k = 1; k <= 3; k++) {
    if (SN[key = order[k]] == 0) continue
    any = 1
    # A section cut to nothing loses its heading too: one marker says what is missing.
    if (keep[key] == 0) { gone += SN[key]; continue }
    add("### " (key in HEAD ? HEAD[key] : key))
    for (i = 1; i <= keep[key]; i++) add(S[key, i])
    if (keep[key] < SN[key]) add(sprintf("[... %d lines left out for the budget: read .agent/memory/snapshot.md]", SN[key] - keep[key]))
  }
  if (gone > 0) add(sprintf("[... %d lines left out for the budget: read .agent/memory/snapshot.md]", gone))
  if (!any) add("(no goal, in-progress or key-decision items yet: see .agent/memory/snapshot.md)")
  if (nnotes > 0 && nn > 0) {
    if (cut_n < shown) {
      add("## " sprintf("Scratch notes (may be stale; latest %d of %d)", shown - cut_n, nn))
      for (i = 1 + cut_n; i <= shown; i++) add(R[i])
    }
    if (cut_n > 0) add(sprintf("[... %d older notes left out for the budget: read .agent/memory/notes.md]", cut_n))
  }
  add("---")
  add("Full files: .agent/memory/. Update snapshot.md when the task changes phase (a progress board, not an edit log). Task done: bash .agent/hooks/pre_task.sh --archive")
  add(END_DELIM)
}
# One more cut, in order: oldest note, key decisions, goal, in progress; rules only when
# nothing else is left, user rules before project rules, and never silently (build()
# puts a warning first). Returns 0 when nothing is left to cut.
function cut1(   k, key) {
  if (cut_n < shown) { drop(R[1 + cut_n]); cut_n++; return 1 }
  for (k = 1; k <= 3; k++) if (keep[key = cutk[k]] > 0) { drop(S[key, keep[key]]); keep[key]--; cut_s++; return 1 }
  if (ucut < nut) { drop(UT[nut - ucut]); ucut++; return 1 }
  if (pcut < ntat) { drop(TT[ntat - pcut]); pcut++; return 1 }
  return 0
}
BEGIN {
  NUL = sprintf("%c", 0)
  ncut = split(ENVIRON["AH_CUT"], CUT, " ")  # KB, then the keys of files read in part
  for (i = 2; i <= ncut; i++) cuts = cuts (i > 2 ? ", " : "") (CUT[i] == "utat" ? "~/.agent/memory/tattoo" : ".agent/memory/" CUT[i]) ".md"
  n = split("\320\220A \320\222B \320\225E \320\206I \320\232K \320\234M \320\235H \320\236O \320\240P \320\241C \320\242T \320\243Y \320\245X \320\260a \320\265e \321\226i \320\276o \321\200p \321\201c \321\203y \321\205x \316\221A \316\222B \316\225E \316\227H \316\231I \316\232K \316\234M \316\235N \316\237O \316\241P \316\244T \316\245Y \316\247X \316\226Z \316\277o \357\274\241A \357\274\242B \357\274\243C \357\274\244D \357\274\245E \357\274\246F \357\274\247G \357\274\250H \357\274\251I \357\274\252J \357\274\253K \357\274\254L \357\274\255M \357\274\256N \357\274\257O \357\274\260P \357\274\261Q \357\274\262R \357\274\263S \357\274\264T \357\274\265U \357\274\266V \357\274\267W \357\274\270X \357\274\271Y \357\274\272Z \357\275\201a \357\275\202b \357\275\203c \357\275\204d \357\275\205e \357\275\206f \357\275\207g \357\275\210h \357\275\211i \357\275\212j \357\275\213k \357\275\214l \357\275\215m \357\275\216n \357\275\217o \357\275\220p \357\275\221q \357\275\222r \357\275\223s \357\275\224t \357\275\225u \357\275\226v \357\275\227w \357\275\230x \357\275\231y \357\275\232z", LKT, " ")
  for (i = 1; i <= n; i++) { k = substr(LKT[i], 1, length(LKT[i]) - 1); LK[k] = substr(LKT[i], length(LKT[i])); LKRE = LKRE (i > 1 ? "|" : "") k }
  # Secret patterns (agenthooks/redact.py), one per line: a line matching one is redacted.
  secret("(AKIA|ASIA)[0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z][0-9A-Z]")  # aws-access-key
  secret("(gh[pousr]_[A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9]|github_pat_[A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_][A-Za-z0-9_])")  # github-token
  secret("xox[abprs]-[A-Za-z0-9-][A-Za-z0-9-][A-Za-z0-9-][A-Za-z0-9-][A-Za-z0-9-][A-Za-z0-9-][A-Za-z0-9-][A-Za-z0-9-][A-Za-z0-9-][A-Za-z0-9-]")  # slack-token
  secret("sk-[A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-][A-Za-z0-9_-]")  # openai-anthropic-key
  secret("AIza[0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-][0-9A-Za-z_-]")  # google-api-key
  secret("-----BEGIN [A-Z ]*PRIVATE KEY-----")  # private-key
  secret("[A-Za-z][A-Za-z0-9+.-]*://[^/:@ ]+:[^/@ ]+@")  # password-in-url
  secret("([Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Pp][Aa][Ss][Ss][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee][Tt]|[Aa][Pp][Ii]_?[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn])[\\\"\047]?[[:blank:]]*[:=][[:blank:]]*[\\\"\047]?[^[:blank:]\\\"\047<>][^[:blank:]\\\"\047<>][^[:blank:]\\\"\047<>][^[:blank:]\\\"\047<>][^[:blank:]\\\"\047<>][^[:blank:]\\\"\047<>][^[:blank:]\\\"\047<>][^[:blank:]\\\"\047<>]")  # assigned-secret
  BEGIN_DELIM = "===== AGENT MEMORY BEGIN ====="; END_DELIM = "===== AGENT MEMORY END ====="
  budget += 0; nnotes += 0
  # A token is at least one character and at most four: no file can show more than this.
  if ((cap = 4 * budget + 400) > 10000) cap = 10000
  nut = 0; ntat = 0; nn = 0; tl = 0; sl = 0; redacted = 0
  WANT["goal"] = 1; WANT["progress"] = 1; WANT["decisions"] = 1
  uchars = 0; pchars = 0; uextra = 0; pextra = 0
}
FNR == 1 {
  incomment = 0; sec = ""
  # A BOM; tested first, as rewriting $0 makes awk split it into fields again.
  if (substr($0, 1, 3) == "\357\273\277") $0 = substr($0, 4)
}
# Lines past what the budget or the character cap could ever show are counted, not cleaned.
# One regex per line sends blank, comment and title lines to skip(): big files stay cheap.
K == "utat" || K == "tattoo" {
  if (K == "tattoo") tl++
  if (incomment || $0 ~ /^([ \t\r]*(<!--|$)|#[ \t])/) { skip($0); next }
  if (K == "utat") {
    if (uchars > cap) { uextra++; next }
    UT[++nut] = clean($0, "~/.agent/memory/tattoo.md")
    uchars += nch(UT[nut])
  } else {
    if (pchars > cap) { pextra++; next }
    TT[++ntat] = clean($0, ".agent/memory/tattoo.md:" FNR)
    pchars += nch(TT[ntat])
  }
  next
}
K == "snapshot" {
  sl++
  if (incomment || $0 ~ /^[ \t\r]*(<!--|$)/) { skip($0); next }
  if (substr($0, 1, 1) == "#") {
    if ($0 ~ /^##+[ \t]/) {
      h = $0
      sub(/^#+[ \t]+/, "", h)
      sec = section(h)
      if ((sec in WANT) && !(sec in HEAD)) HEAD[sec] = clean(h, "")
      next
    }
    if ($0 ~ /^#[ \t]/) { sec = ""; next }
  }
  if (!(sec in WANT)) next
  SN[sec]++
  if (SC[sec] > cap) next
  S[sec, ++SK[sec]] = clean($0, ".agent/memory/snapshot.md:" FNR)
  SC[sec] += nch(S[sec, SK[sec]])
  next
}
# notes.md: only its end is shown, so each line costs one regex (the count) and one store
# in a ring of the last 64 lines; the latest notes are picked from the ring at the end.
K == "notes" {
  if ($0 ~ /^[ \t]*[^ \t\r#<]/) nn++
  RING[++nr % 64] = $0
  next
}
# latest(): R[1..shown] = the latest nnotes notes, oldest first, cleaned; the ring is read
# forward, so that comments are found as skip() finds them in the other files.
function latest(   i, got, P) {
  got = 0; incomment = 0
  for (i = (nr > 64 ? nr - 63 : 1); i <= nr; i++)
    if (!skip(RING[i % 64]) && RING[i % 64] !~ /^[ \t]*#/) P[++got] = i
  shown = got < nnotes ? got : nnotes
  if (nn < shown) nn = shown
  for (i = 1; i <= shown; i++) R[i] = clean(RING[P[got - shown + i] % 64], ".agent/memory/notes.md:" P[got - shown + i])
}
END {
  order[1] = "goal"; order[2] = "progress"; order[3] = "decisions"
  cutk[1] = "decisions"; cutk[2] = "goal"; cutk[3] = "progress"
  latest()
  for (k = 1; k <= 3; k++) keep[order[k]] = SK[order[k]] + 0
  cut_n = 0; ucut = 0; pcut = 0
  build()
  if (over()) {
    while (over() && cut1()) ;
    build()
    # The cut markers themselves cost a little: settle with a few more single cuts.
    for (pass = 0; pass < 1000 && over() && cut1(); pass++) build()
  }
  cut_s = 0
  for (k = 1; k <= 3; k++) cut_s += SN[order[k]] - keep[order[k]]
  tover = ucut + pcut + uextra + pextra
  lb = 0
  if (ENVIRON["AH_LOGF"] != "") {
    while ((getline line < ENVIRON["AH_LOGF"]) > 0) lb += length(line) + 1
    close(ENVIRON["AH_LOGF"])
  }
  # Idempotent start: when the published block is already this one, nothing is rewritten.
  same = 0
  if (ENVIRON["AH_CUR"] != "") {
    same = 1; i = 0
    while ((getline line < ENVIRON["AH_CUR"]) > 0) if (++i > n || line != L[i]) { same = 0; break }
    close(ENVIRON["AH_CUR"])
    if (i != n) same = 0
  }
  printf "AHSTATS %d %d %d %d %d %d %d %d %d %d %d %d\n", tl, sl, nn, shown - cut_n, T, C, cut_n, cut_s, tover, redacted, lb, same
  for (i = 1; i <= n; i++) print L[i]
}
AGENTHOOKS_AWK
