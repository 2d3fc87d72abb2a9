# lib/lock.sh: the portable lock, where flock is missing (macOS, Git Bash) or fails (BusyBox).
# agenthooks-owned:7d2f9c1e template=hooks/lib/lock.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. A lock file made only where none is (noclobber) holds the pid of the hook
# that has it. Loaded by ah_lock (lib/runtime.sh) when it needs it, in every render.

# ah_lock_portable: AH_LOCK=portable once log/.lock.pid is ours; 1 after lock_timeout_seconds.
ah_lock_portable() {
  local file=$AH_AGENT/log/.lock.pid end=$((SECONDS + AH_LOCK_TIMEOUT)) holder checked=-1 age now mtime
  while ah_plain "$file"; do
    if ah_create "$file" "$$"$'\n'; then
      # shellcheck disable=SC2034 # read by ah_unlock and ah_exit
      AH_LOCK=portable
      return 0
    fi
    [ "$SECONDS" -lt "$end" ] || return 1
    holder=
    { IFS= read -r holder <"$file"; } 2>/dev/null || true
    case $holder in
      '' | *[!0-9]*) ;;
      *)
        kill -0 "$holder" 2>/dev/null ||
          { ah_break_lock "$holder" "removed a stale lock left by process $holder" && continue; }
        ;;
    esac
    # Once a second: a live-looking holder past the stale timeout is a reused pid or a hung
    # hook; a lock file seconds old holding no pid was left by a hook killed right after
    # creating it (the pid is written microseconds later), or is garbage.
    if [ "$checked" != "$SECONDS" ] && ah_mtime mtime "$file"; then
      ah_epoch now
      checked=$SECONDS age=$((now - mtime))
      if [ "$age" -gt $((AH_LOCK_TIMEOUT * 4 + 10)) ] || { [ -z "${holder##*[!0-9]*}" ] && [ "$age" -gt 2 ]; }; then
        ah_break_lock "$holder" "removed a lock held for ${age}s" && continue
      fi
    fi
    sleep 0.05 2>/dev/null || sleep 1
  done
  return 1
}
# ah_break_lock HOLDER MESSAGE: remove the lock file only if it still names HOLDER; 1 if it was
# not removed. A second noclobber file admits one breaker at a time, so two hooks that saw the
# same stale lock cannot remove the fresh lock the faster one took after it.
ah_break_lock() {
  local file=$AH_AGENT/log/.lock.pid breaker=$AH_AGENT/log/.lock.pid.break holder='' rc=1 now mtime
  ah_plain "$breaker" || return 1
  if ah_create "$breaker" "$$"$'\n'; then
    { IFS= read -r holder <"$file"; } 2>/dev/null || true
    [ "$holder" = "$1" ] && ah_remove "$file" && ah_log "$2" && rc=0
    ah_remove "$breaker" || true
    return $rc
  fi
  # Another hook is breaking it, or one was killed doing so: clear its file once it is gone.
  { IFS= read -r holder <"$breaker"; } 2>/dev/null || true
  case $holder in
    '' | *[!0-9]*)
      ah_mtime mtime "$breaker" && ah_epoch now && [ $((now - mtime)) -gt 2 ] && ah_remove "$breaker"
      ;;
    *) kill -0 "$holder" 2>/dev/null || ah_remove "$breaker" ;;
  esac
  return 1
}
