# lib/compaction.sh: what the host's summary must keep, the summary checked, what is said of it.
# agenthooks-owned:7d2f9c1e template=hooks/lib/compaction.sh@9
# Shaping the host's compaction: the instructions for its summary (PreCompact), the summary it
# made checked against memory (PostCompact), and what the next prompt says of that.
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. Loaded by on_compact.sh past its quiet path, after lib/block.sh.

# ah_summary: print what the host's summary must keep, plain text (never JSON: the host hands it
# to its summarizer as it is), within summary_budget_tokens: lib/block.awk's summary scope over
# tattoo.md, the snapshot and the session's working set; 0: nothing. One log line.
ah_summary() {
  local out name file cut='' i edited request
  local -a files=(kind=user_rules /dev/null)
  [ "$AH_SUMMARY" -gt 0 ] || return 0
  for name in tattoo snapshot; do
    ah_source file "$name" || true
    files+=("kind=$name" "$file")
  done
  for i in 3 5; do
    [ "${files[i]}" = /dev/null ] || ah_whole "${files[i]}" || cut="$cut $i"
  done
  ah_working_set edited request
  files+=(kind=notes /dev/null kind=files "$edited" kind=request "$request")
  ah_release memory.awk && ah_release clean.awk && ah_release block.awk || return 0
  out=$(AGENTHOOKS_SCOPE=summary ah_build "$AH_SUMMARY" "$cut" "${files[@]}") || out=''
  # shellcheck disable=SC2086 # the figures: words
  set -- ${out%%$'\n'*}
  if [ "${1-}" != summary ] || [ $# -lt 10 ] || ! ah_digits "${10}"; then
    ah_log "could not build the instructions for the host's summary (awk failed)"
    return 0
  elif [ "${10}" = 0 ]; then
    ah_log "no instructions for the host's summary: nothing to keep, or summary_budget_tokens $AH_SUMMARY too small"
    return 0
  fi
  { printf '%s\n' "${out#*$'\n'}"; } 2>/dev/null || true
  name="$2 of $3 rules, $4 of $5 In progress items, $6 of $7 key decisions"
  [ "$8" = 0 ] || name="$name, the latest request"
  [ "$9" = 0 ] || name="$name, the files being edited"
  ah_log "instructions for the host's summary: keep $name; ~${10} tokens of $AH_SUMMARY"
}
# ah_audit: the host's summary (compact_summary, in the payload read whole: 256 KB at most) against
# tattoo.md's rules and the In progress items (lib/audit.awk): one log line; what it dropped or
# called done, for the next prompt to say once (log/state/SESSION.audit).
ah_audit() {
  local tattoo snapshot out tell
  # The first 16 KB were read at the start; the rest of the payload is still on stdin.
  case $AH_PAYLOAD in *'"compact_summary"'*) ;; *) [ ${#AH_PAYLOAD} -ge 16384 ] || return 0 ;; esac
  ah_source tattoo tattoo && ah_whole "$tattoo" || tattoo=/dev/null
  ah_source snapshot snapshot && ah_whole "$snapshot" || snapshot=/dev/null
  ah_release memory.awk && ah_release clean.awk && ah_release audit.awk || return 0
  out=$(
    [ ${#AH_PAYLOAD} -ge 16384 ] || exec </dev/null
    head -c $((262144 - ${#AH_PAYLOAD})) 2>/dev/null | AGENTHOOKS_PAYLOAD=$AH_PAYLOAD exec awk \
      -f "$AH_HOOKS/lib/memory.awk" -f "$AH_HOOKS/lib/clean.awk" -f "$AH_HOOKS/lib/audit.awk" \
      kind=tattoo "$tattoo" kind=snapshot "$snapshot" kind=payload - 2>/dev/null
  ) || out=''
  case $out in 'audit '*) ;; *) return 0 ;; esac
  tell=${out#*$'\n'} out=${out%%$'\n'*}
  ah_log "${out#audit }"
  case $tell in 'tell '?*) ah_put "$AH_STATE/$AH_SESSION.audit" "${tell#tell }"$'\n' || true ;; esac
}
# ah_told VAR: VAR = what the last compaction's summary left out (log/state/SESSION.audit), said
# once: the file goes.
ah_told() {
  local _file=$AH_STATE/$AH_SESSION.audit _line=''
  printf -v "$1" '%s' ''
  [ -f "$_file" ] || return 0
  [ -L "$_file" ] || { IFS= read -r _line <"$_file"; } 2>/dev/null || true
  ah_remove "$_file" || true
  printf -v "$1" '%s' "$_line"
  [ -z "$_line" ] || ah_log "told the agent what the compaction summary left out"
}
# ah_request PAYLOAD: a prompt's payload kept as the user's latest request (SESSION.request),
# when not empty.
ah_request() {
  [ -z "$1" ] || ah_put "$AH_STATE/$AH_SESSION.request" "$1" || true
}
