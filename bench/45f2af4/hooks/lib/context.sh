# lib/context.sh: what the host's transcript says: the context's length and the latest compaction record.
# agenthooks-owned:7d2f9c1e template=hooks/lib/context.sh@9
# shellcheck shell=bash disable=SC2153,SC2034 # AH_: set by each hook's start; the readers set on_compact.sh's length, bound, stale, window
# Definitions only. Loaded by on_compact.sh when it reads the host's transcript. Each reader,
# ah_transcript_NAME TAIL (the framework's own, templates/frameworks/NAME/transcript.sh.j2),
# returns 1 when TAIL holds no usage, and sets the prompt's facts that on_compact.sh keeps at
# its top level: length (tokens), bound (the latest compaction record's id), stale (1: that
# record follows the length) and window (the context window in tokens, where the host says it).
# ah_transcript_claude_code TAIL: length = input + cache tokens of the last usage in TAIL (1: none
# there); bound = the time of a compaction record after it, and stale=1. '"usage":' can only be a key.
ah_transcript_claude_code() {
  local head rest line name input creation cached sum=
  head=${1%'"usage":'*}
  [ "${#head}" -lt "${#1}" ] && rest=${1:${#head}} || rest=$1 # none: the record may still be there
  case $rest in *'"compact_boundary"'*)
    # Its time follows on its line: ..."subtype":"compact_boundary",...,"timestamp":"..."
    line=${rest%'"compact_boundary"'*} line=${rest:${#line}:2000} stale=1
    [[ ${line%%$'\n'*} =~ \"timestamp\"[[:space:]]*:[[:space:]]*\"([0-9A-Za-z:.+-]{1,40})\" ]] &&
      bound=${BASH_REMATCH[1]}
    ;;
  esac
  [ "${rest:0:8}" = '"usage":' ] || return 1
  # Claude Code writes it compact, in this order: no regex (bash compiles one at every use).
  case ${rest:0:200} in
    '"usage":{"input_tokens":'*',"cache_creation_input_tokens":'*',"cache_read_input_tokens":'*)
      input=${rest#'"usage":{"input_tokens":'} input=${input%%,*}
      creation=${rest#*'"cache_creation_input_tokens":'} creation=${creation%%[,\}]*}
      cached=${rest#*'"cache_read_input_tokens":'} cached=${cached%%[,\}]*}
      if ah_digits "$input" "$creation" "$cached"; then
        length=$((10#$input + 10#$creation + 10#$cached))
        return 0
      fi
      ;;
  esac
  rest=${rest:0:600}
  for name in input_tokens cache_creation_input_tokens cache_read_input_tokens; do
    [[ ! $rest =~ \"$name\"[[:space:]]*:[[:space:]]*([0-9]{1,9}) ]] || sum=$((${sum:-0} + 10#${BASH_REMATCH[1]}))
  done
  length=$sum
  [ -n "$sum" ] # no token count there ("usage":null): no length
}
