# lib/say.sh: the two ways a hook speaks: to the model (ah_say) and to the log (ah_log).
# agenthooks-owned:7d2f9c1e template=hooks/lib/say.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. Loaded by pre_task.sh's quiet path and by ah_runtime; writes through lib/io.sh.

# ah_log MESSAGE: one line "[TIME] HOOK FRAMEWORK SESSION: MESSAGE" in .agent/log/memory.log;
# when the log cannot be written, one warning on stderr per run instead.
ah_log() {
  local msg=$* now line
  msg=${msg//[[:cntrl:]]/ }
  if [ "$AH_MODE" = show ]; then
    # --show writes nothing, not even the log: warnings go to stderr.
    printf 'agenthooks[%s]: %s\n' "$AH_HOOK" "$msg" >&2
    return 0
  fi
  ah_now now
  printf -v line '[%s] %s %s %s: %s\n' "$now" "$AH_HOOK" "$AH_FRAMEWORK" "$AH_SESSION" "$msg"
  [ -d "$AH_AGENT/log" ] && ah_append "$AH_LOGFILE" "$line" && return 0
  [ "$AH_WARNED" = 1 ] || { AH_WARNED=1 && printf 'agenthooks[%s]: %s (log not writable)\n' "$AH_HOOK" "$msg" >&2; }
  return 0
}
# ah_now VAR: VAR = the local time, for the log.
ah_now() { printf -v "$1" '%(%Y-%m-%d %H:%M:%S)T' -1; }

# ah_event VAR: VAR = the hook event the payload names (looked up once), else the one the
# registration passed as --event= (Copilot CLI's camelCase payloads name none).
ah_event() {
  local found
  if [ "$AH_EVENT" = '?' ]; then
    ah_json found hook_event_name hookName agent_action_name || true
    AH_EVENT=${found//[!A-Za-z_]/}
    [ -n "$AH_EVENT" ] || AH_EVENT=${AH_EVENT_ARG//[!A-Za-z_]/}
  fi
  printf -v "$1" '%s' "$AH_EVENT"
}
# ah_jstr VAR TEXT: VAR = TEXT as the inside of a JSON string.
ah_jstr() {
  local _bs=\\ _text
  _text=${2//"$_bs"/"$_bs$_bs"}
  _text=${_text//\"/"$_bs\""}
  _text=${_text//$'\n'/"${_bs}n"}
  _text=${_text//$'\t'/"${_bs}t"}
  printf -v "$1" '%s' "${_text//$'\r'/}"
}
# ah_say EVENT TEXT: print TEXT where the framework shows it to the model: inside the JSON
# its framework module declares (templates/frameworks/NAME/envelope.sh.j2), else as it is.
ah_say() {
  local event pre='' post='' text=$2
  ah_event event
  event=${event:-$1}
  case $AH_FRAMEWORK in
    claude-code) pre='{"hookSpecificOutput":{"hookEventName":"'$event'","additionalContext":"' post='"}}' ;;
  esac
  [ -z "$pre" ] || ah_jstr text "$text"
  { printf '%s%s%s\n' "$pre" "$text" "$post"; } 2>/dev/null || true # a closed stdout is not an error
}
