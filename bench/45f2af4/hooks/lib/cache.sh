# lib/cache.sh: is the block in .agent/injected_context.txt still the one memory would build?
# agenthooks-owned:7d2f9c1e template=hooks/lib/cache.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. log/state/block.stats holds the figures of the block published there; it
# is kept only when nothing changed while the block was built. Loaded by pre_task.sh and block.sh.

# ah_user_rules VAR: VAR = the user-level rules file (~/.agent/memory/tattoo.md), or empty.
ah_user_rules() {
  local _file=${HOME:+$HOME/.agent/memory/tattoo.md}
  [ -n "$_file" ] && [ "$_file" != "$AH_MEMORY/tattoo.md" ] && [ -f "$_file" ] && [ -r "$_file" ] || _file=
  printf -v "$1" '%s' "$_file"
}
# ah_budget VAR: VAR = budget_tokens, kept under what the host shows inline (its module says).
ah_budget() {
  local _budget=$AH_BUDGET
  printf -v "$1" '%s' "$_budget"
}
# ah_fresh FILE USER_RULES: is FILE newer than all a block is built from (memory/ too), and
# has each memory file the time its twin log/state/mtime.N took when the block was built?
ah_fresh() {
  local file i=0
  for file in "$AH_MEMORY/tattoo.md" "$AH_MEMORY/snapshot.md" "$AH_MEMORY/notes.md" ${2:+"$2"} "$AH_MEMORY" \
    "$AH_AGENT/config.yaml" "$AH_HOOKS/lib/block.awk" "$AH_HOOKS/lib/clean.awk"; do
    [ "$1" -nt "$file" ] || return 1
    [ "$i" -gt 3 ] || [ "$file" = "$AH_MEMORY" ] || ah_same "$file" "$AH_STATE/mtime.$i" || return 1
    i=$((i + 1))
  done
}
# ah_same A B: have A and B the same modification time?
ah_same() { [ ! "$1" -nt "$2" ] && [ ! "$1" -ot "$2" ]; }
# ah_cached BLOCK STATS: BLOCK and STATS = the published block and its figures, when it was
# built plainly (no notice), for this budget, from this memory; 1 when it must be built anew.
ah_cached() {
  local _stats=$AH_STATE/block.stats _block=$AH_AGENT/injected_context.txt _text='' user budget
  local _tag='' _chars='' _user_rules='' _build_budget='' _notes='' _figures=''
  [ -f "$_stats" ] && [ ! -L "$_stats" ] && [ -f "$_block" ] && [ ! -L "$_block" ] || return 1
  ah_budget budget # (never a name of ours with _: ah_budget's own locals have one)
  ah_user_rules user
  ah_fresh "$_stats" "$user" || return 1
  { read -r _tag _chars _user_rules _build_budget _notes _figures <"$_stats"; } 2>/dev/null || true
  [ "$_tag" = block-v2 ] && [ "$_user_rules" = $((${#user} > 0)) ] && [ "$budget" = "$_build_budget" ] &&
    [ "$_notes" = "$AH_NOTES" ] || return 1
  { IFS= read -r -d '' _text <"$_block"; } 2>/dev/null || true
  # A block another hook published since these figures were written: build anew.
  [ "${#_text}" = "$_chars" ] || return 1
  printf -v "$1" '%s' "${_text%$'\n'}"
  printf -v "$2" '%s' "$_figures"
}
# ah_loaded STATS MISSING: the log line that says what a block held, from its build's figures.
ah_loaded() {
  local budget line missing=$2
  local tattoo='' snapshot='' notes='' notes_shown='' tokens='' chars='' cut_notes='' cut_snapshot='' \
    cut_rules='' redacted='' log_bytes='' same=''
  case $1 in '' | *[!0-9\ ]*) return 0 ;; esac
  # shellcheck disable=SC2086  # the figures: numbers, split into 12 words
  set -- $1
  [ $# -ge 12 ] || return 0
  # shellcheck disable=SC2034  # the figures by name; the last two are not logged
  tattoo=$1 snapshot=$2 notes=$3 notes_shown=$4 tokens=$5 chars=$6 cut_notes=$7 \
    cut_snapshot=$8 cut_rules=$9 redacted=${10} log_bytes=${11} same=${12}
  ah_budget budget
  line="memory loaded: tattoo=$tattoo lines snapshot=$snapshot lines notes=$notes_shown/$notes"
  line="$line, ~$tokens tokens of $budget, $chars chars"
  [ "$budget" = "$AH_BUDGET" ] ||
    line="$line; budget_tokens $AH_BUDGET is over what $AH_FRAMEWORK shows inline: kept to $budget"
  [ "$cut_notes" = 0 ] || line="$line; cut $cut_notes notes"
  [ "$cut_snapshot" = 0 ] || line="$line; cut $cut_snapshot snapshot lines"
  [ "$cut_rules" = 0 ] || line="$line; WARNING $cut_rules rules left out (over the budget or the character cap)"
  [ "$redacted" = 0 ] || line="$line; redacted $redacted secret-looking lines"
  [ -z "$missing" ] || line="$line; missing or unreadable:$missing"
  ah_log "$line"
}
