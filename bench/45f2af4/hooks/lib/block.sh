# lib/block.sh: build the memory block with lib/block.awk, publish it, print it.
# agenthooks-owned:7d2f9c1e template=hooks/lib/block.sh@9
# shellcheck shell=bash disable=SC2153 # the AH_ names are set by each hook's start
# Definitions only. Loaded by pre_task.sh and on_compact.sh when memory must be printed anew.
# The hooks never create .agent/memory/ or its files ('agenthooks install' does): what is
# missing is said in the block and in the log.

# ah_memory_gone EVENT: is memory/ missing? Then say so, in the block and in the log.
ah_memory_gone() {
  [ ! -d "$AH_MEMORY" ] || return 1
  local text
  text='agenthooks: .agent/memory/ is missing right now (renamed, or a git checkout under way); project '
  text+='memory was not loaded: read .agent/memory/ once it is back ('"'"'agenthooks install'"'"' restores it).'
  ah_say "$1" "$text"
  ah_log "memory/ is missing (renamed, checked out, never installed?): not created; told the agent"
}
# ah_whole FILE: is FILE under 256 KB and 64 NULs (BusyBox awk: a record each)? No fork.
ah_whole() {
  local chunk bytes=0 records=0
  while IFS= read -r -d '' -n $((262144 - bytes)) chunk; do
    bytes=$((bytes + ${#chunk} + 1)) records=$((records + 1))
    [ "$bytes" -lt 262144 ] && [ "$records" -lt 64 ] || return 1
  done 2>/dev/null <"$1"
}
# ah_outside PATH: does PATH (memory/, or a memory file) resolve outside the repository, the
# folder that holds .agent/? Links are followed to their end (readlink, only for a linked file).
ah_outside() {
  local _path=$1 _root _dir _target _i
  _root=$(cd -P -- "${AH_AGENT%/*}" 2>/dev/null && pwd -P) || return 0
  for _i in 1 2 3 4 5 6 7 8 9; do
    if [ ! -L "$_path" ] || [ -d "$_path" ]; then break; fi
    _target=$(exec readlink -- "$_path" 2>/dev/null) || return 0
    case $_target in /*) _path=$_target ;; *) _path=${_path%/*}/$_target ;; esac
  done
  [ ! -L "$_path" ] || [ -d "$_path" ] || return 0 # a chain too long: outside, to be safe
  if [ -d "$_path" ]; then
    _dir=$(cd -P -- "$_path" 2>/dev/null && pwd -P) || return 0
  else
    _dir=$(cd -P -- "${_path%/*}" 2>/dev/null && pwd -P) || return 0
  fi
  case $_dir/ in "$_root"/*) return 1 ;; esac
}
# ah_source VAR NAME: VAR = the path awk reads for memory/NAME.md: the file, or /dev/null when
# it is missing or unreadable (1), or resolves outside the repository (2).
ah_source() {
  local _file=$AH_MEMORY/$2.md
  printf -v "$1" '%s' /dev/null
  # A link on the way may point out of the repository: a file it leads outside is not read.
  if { [ -L "$AH_AGENT" ] || [ -L "$AH_MEMORY" ] || [ -L "$_file" ]; } && ah_outside "$_file"; then
    return 2
  fi
  [ -f "$_file" ] && [ -r "$_file" ] || return 1
  printf -v "$1" '%s' "$_file"
}
# ah_twins USER_RULES: log/state/mtime.N take the memory files' times (ah_fresh compares them).
ah_twins() {
  local i j
  local -a src=("$AH_MEMORY/tattoo.md" "$AH_MEMORY/snapshot.md" "$AH_MEMORY/notes.md" ${1:+"$1"}) twins
  for ((i = 0; i < ${#src[@]}; i++)); do
    if [ ! -f "${src[i]}" ] || ah_same "${src[i]}" "$AH_STATE/mtime.$i"; then
      continue
    fi
    twins=() # one touch for every twin of the same time
    for ((j = i; j < ${#src[@]}; j++)); do
      ! ah_same "${src[j]}" "${src[i]}" || ah_same "${src[j]}" "$AH_STATE/mtime.$j" || twins+=("$AH_STATE/mtime.$j")
    done
    ah_touch_as "${src[i]}" "${twins[@]}" || return 1
  done
}
# ah_settled USER_RULES: has each memory file still the time its twin (log/state/mtime.N) took
# just before awk read it? An editor that rewrites a file in place (truncate, then write) while
# awk reads it changes that time; a file with a time in the future does not.
ah_settled() {
  local _file _i=0
  for _file in "$AH_MEMORY/tattoo.md" "$AH_MEMORY/snapshot.md" "$AH_MEMORY/notes.md" ${1:+"$1"}; do
    [ ! -f "$_file" ] || ah_same "$_file" "$AH_STATE/mtime.$_i" || return 1
    _i=$((_i + 1))
  done
}
# ah_block EVENT NOTICE [WORKING]: build the block from memory (WORKING=1, after a compaction:
# and the session's working set), print it for EVENT, and publish it (injected_context.txt and
# its figures, for the quiet path and for status).
ah_block() {
  local notice=$2 user budget file rc missing='' outside='' said='' told cut='' keys='' i name out figures block
  local current='' stats='' stamp='' log='' same log_bytes try published='' edited=/dev/null request=/dev/null
  local -a files
  ah_budget budget
  ah_user_rules user
  files=(kind=user_rules "${user:-/dev/null}")
  for name in tattoo snapshot notes; do
    rc=0
    ah_source file "$name" || rc=$?
    case $rc in 1) missing="$missing $name.md" ;; 2) outside="$outside $name.md" ;; esac
    files+=("kind=$name" "$file")
  done
  [ -z "${3-}" ] || ah_working_set edited request
  files+=(kind=files "$edited" kind=request "$request")
  missing=${missing# } outside=${outside# }
  # A file awk cannot read whole (over 256 KB, or NULs) is read in part, and said so.
  for i in 1 3 5 7; do
    [ "${files[i]}" = /dev/null ] || ah_whole "${files[i]}" || cut="$cut $i" keys="$keys ${files[i - 1]#kind=}"
  done
  [ ! -f "$AH_LOGFILE" ] || log=$AH_LOGFILE
  if [ -n "$missing" ]; then
    said='agenthooks: .agent/memory/ has no %s: not loaded ('"'"'agenthooks install'"'"' restores it).'
    # shellcheck disable=SC2059 # the format is the message above
    printf -v said "$said" "$missing"
  fi
  if [ -n "$outside" ]; then
    name='agenthooks: not loaded: .agent/memory/ %s, a symbolic link out of this repository (the hooks '
    name+='read nothing outside it).'
    # shellcheck disable=SC2059 # the format is the message above
    printf -v name "$name" "$outside"
    said=$said${said:+$'\n'}$name
    ah_log "memory/$outside resolves outside the repository (a link): not read; told the agent"
  fi
  # An editor may rewrite a file in place (truncate, then write) while awk reads it: a file
  # whose time changed during the build may have been read half-written. Built once more;
  # when it changed again, the block last published stands in if it tells what this one
  # tells (another hook's may carry a compaction notice, or lack this one's), and the log says so.
  told=$2${said:+${2:+$'\n'}$said}
  for try in 1 2; do
    ah_publishable current stats stamp "$user"
    AGENTHOOKS_NOTICE=$told AGENTHOOKS_CURRENT=$current AGENTHOOKS_LOG=$log \
      AGENTHOOKS_CUT="256$keys" ah_awk out "$budget" "$cut" "${files[@]}" || out=
    if [ -z "$stamp" ] || ah_settled "$user"; then
      break
    elif [ "$try" = 1 ]; then
      ah_remove "$AH_TMPFILE" || true
      AH_TMPFILE=''
    elif [ -n "$current" ] &&
      { IFS= read -r -d '' published || [ -n "$published" ]; } 2>/dev/null <"$current" &&
      ah_tells "$published" "$told"; then
      ah_remove "$AH_TMPFILE" || true
      AH_TMPFILE=''
      ah_log "memory loaded: the block last published (memory changed while it was read, twice)"
      ah_say "$1" "${published%$'\n'}"
      return 0
    fi
  done
  figures=${out%%$'\n'*} block=${out#*$'\n'}
  if [ "${figures%% *}" != figures ]; then
    # The block could not be built: one line that says so, rather than half a block.
    [ -z "$AH_TMPFILE" ] || ah_remove "$AH_TMPFILE" || true
    AH_TMPFILE=''
    said='agenthooks: the memory block could not be built this time; read .agent/memory/tattoo.md and '
    said+='snapshot.md yourself.'
    ah_say "$1" "$said"
    ah_log "could not build the memory block (awk failed, or lib/block.awk is missing or not release 9)"
    return 0
  fi
  figures=${figures#figures }
  for name in $keys; do
    [ "$name" = user_rules ] && name=\~/.agent/memory/tattoo || name=memory/$name
    ah_log "$name.md is over 256 KB or binary: read 256 KB of it (notes.md: its end), NUL bytes dropped"
  done
  ah_say "$1" "$block"
  [ "$AH_MODE" = run ] || return 0
  # shellcheck disable=SC2086 # the figures: numbers
  set -- $figures
  same=${12} log_bytes=${11}
  ah_publish "$block" "$figures" "$same" "$stats" "$stamp" "$notice" "$budget" "$user"
  ah_loaded "$figures" "${missing:+ $missing (agenthooks install restores them)}"
  ah_rotate_log "$log_bytes"
  ah_prune
}
# ah_working_set FILES REQUEST: the session's working set, for awk: FILES = log/state/SESSION.files
# (the files it edited), REQUEST = log/state/SESSION.request (the user's latest prompt); each
# /dev/null when there is none (or working_set_files is 0).
ah_working_set() {
  local _name _file
  printf -v "$1" '%s' /dev/null
  printf -v "$2" '%s' /dev/null
  [ "$AH_WORKING" -gt 0 ] || return 0
  for _name in files request; do
    _file=$AH_STATE/$AH_SESSION.$_name
    if [ -f "$_file" ] && [ ! -L "$_file" ] && [ -r "$_file" ]; then
      [ "$_name" = files ] && printf -v "$1" '%s' "$_file" || printf -v "$2" '%s' "$_file"
    fi
  done
}
# ah_tells BLOCK NOTICE: does BLOCK carry NOTICE right after its header line (no NOTICE: does
# its memory start there, at a heading)?
ah_tells() {
  local _rest=${1#*$'\n'*$'\n'}
  if [ -n "$2" ]; then
    case $_rest in "$2"$'\n'*) return 0 ;; esac
  else
    case $_rest in '## '*) return 0 ;; esac
  fi
  return 1
}
# ah_publishable CURRENT STATS STAMP USER_RULES: where this run publishes. AH_TMPFILE = the temp
# file the block is renamed from (none for --show, or when the file is a link or a folder);
# CURRENT = the published block, for awk to compare; STATS and STAMP = block.stats and this
# session's build stamp, when figures can be kept.
ah_publishable() {
  local _file=$AH_AGENT/injected_context.txt _stats=$AH_STATE/block.stats _stamp=$AH_STATE/$AH_SESSION.built
  AH_TMPFILE=''
  printf -v "$1" '%s' ''
  printf -v "$2" '%s' ''
  printf -v "$3" '%s' ''
  [ "$AH_MODE" = run ] && [ -w "$AH_AGENT" ] && ah_file "$_file" || return 0
  ah_sweep
  AH_TMPFILE=$AH_AGENT/.injected_context.txt.$$.$RANDOM
  [ ! -f "$_file" ] || printf -v "$1" '%s' "$_file"
  # Figures only from a build no change came after: the stamp marks when awk read memory.
  [ -d "$AH_STATE" ] && ah_file "$_stats" && ah_put "$_stamp" '' && ah_twins "$4" || return 0
  printf -v "$2" '%s' "$_stats"
  printf -v "$3" '%s' "$_stamp"
}
# ah_sweep: the temp files of hooks that were killed outright (SIGKILL runs no trap; the builder,
# in its own process group, may outlive the hook) go, once the hook named in each has ended.
ah_sweep() {
  local _old _pid
  for _old in "$AH_AGENT"/.injected_context.txt.*.*; do
    if [ ! -f "$_old" ] || [ -L "$_old" ]; then continue; fi
    _pid=${_old##*/.injected_context.txt.} _pid=${_pid%%.*}
    ! ah_digits "$_pid" || kill -0 "$_pid" 2>/dev/null || ah_remove "$_old" || true
  done
}
# ah_awk VAR BUDGET CUT FILE...: VAR = the figures line and the block, from lib/block.awk of this
# release over the memory files; each file numbered in CUT read through head (notes.md: tail).
# A run that publishes builds in the background, in a process group of its own, into its temp
# file: bash runs a trap only after a foreground command ends, while it runs one at once in
# wait, so a TERM, INT or HUP ends the builder and every process it started, then the hook.
# --show writes nothing: it builds in the foreground, as at a terminal, where Ctrl-C reaches
# every process of the job.
ah_awk() {
  local _var=$1 _text='' _pid _rc=0
  ah_release memory.awk && ah_release clean.awk && ah_release block.awk || return 1
  shift
  if [ -z "$AH_TMPFILE" ]; then
    _text=$(ah_build "$@") || return 1
  else
    set -m
    # None of the hook's own streams: a builder that outlives a killed hook holds no pipe of the host's.
    ah_into "$AH_TMPFILE" ah_build "$@" >/dev/null 2>&1 </dev/null &
    _pid=$!
    set +m
    # shellcheck disable=SC2064 # the pid is known now
    trap "kill -TERM -- -$_pid 2>/dev/null; exit" TERM INT HUP
    wait "$_pid" || _rc=$?
    trap - TERM INT HUP
    [ "$_rc" = 0 ] && { IFS= read -r -d '' _text || [ -n "$_text" ]; } 2>/dev/null <"$AH_TMPFILE" || _text=''
    _text=${_text%$'\n'}
    # A full disk cuts the output short (or fails it): then the block is built in the foreground.
    case $_text in *'===== AGENT MEMORY END =====') ;; *) _text=$(ah_build "$@") || return 1 ;; esac
  fi
  printf -v "$_var" '%s' "$_text"
}
# ah_build BUDGET CUT FILE...: lib/block.awk's output (ah_awk); run in a subshell.
ah_build() {
  local _budget=$1 _cut=$2 _i _tool
  shift 2
  local -a _files=("$@")
  for _i in $_cut; do
    _tool='head' && [ "$_i" != 7 ] || _tool='tail'
    # A fixed fd for each file: bash 3.2 has no {fd} redirection.
    case $_i in
      1) exec 3< <("$_tool" -c 262144 -- "${_files[1]}" 2>/dev/null | tr -d '\000' 2>/dev/null) ;;
      3) exec 4< <("$_tool" -c 262144 -- "${_files[3]}" 2>/dev/null | tr -d '\000' 2>/dev/null) ;;
      5) exec 5< <("$_tool" -c 262144 -- "${_files[5]}" 2>/dev/null | tr -d '\000' 2>/dev/null) ;;
      7) exec 6< <("$_tool" -c 262144 -- "${_files[7]}" 2>/dev/null | tr -d '\000' 2>/dev/null) ;;
    esac
    _files[_i]=/dev/fd/$((_i / 2 + 3))
  done
  exec awk -v budget="$_budget" -v nnotes="$AH_NOTES" -v nfiles="$AH_WORKING" -f "$AH_HOOKS/lib/memory.awk" \
    -f "$AH_HOOKS/lib/clean.awk" -f "$AH_HOOKS/lib/block.awk" "${_files[@]}" 2>/dev/null
}
# ah_publish BLOCK FIGURES SAME STATS STAMP NOTICE BUDGET USER_RULES: injected_context.txt by
# rename (unless awk found it holds this block: SAME=1), last.block, and block.stats when the
# build was plain (no notice) and nothing changed since the stamp.
ah_publish() {
  local block=$1 figures=$2 same=$3 stats=$4 stamp=$5 notice=$6 budget=$7 user=$8 fresh=0 line
  [ -z "$stats" ] || [ -n "$notice" ] || ! ah_fresh "$stamp" "$user" || fresh=1
  # The temp file holds awk's output until the block is written over it.
  if [ "$same" = 1 ]; then
    ah_remove "$AH_TMPFILE" || true
    AH_TMPFILE=''
  fi
  if [ -n "$AH_TMPFILE" ] && ! { ah_put "$AH_TMPFILE" "$block"$'\n' &&
    ah_rename "$AH_TMPFILE" "$AH_AGENT/injected_context.txt"; }; then
    ah_remove "$AH_TMPFILE" || true
    stats=''
    ah_log "could not publish injected_context.txt"
  fi
  AH_TMPFILE=''
  [ -n "$stats" ] || return 0
  printf -v line '%s %s\n' "$budget" "$figures"
  ah_put "$AH_STATE/last.block" "$line" || true
  # Figures for this block, or none: a block that is not current must not be reused.
  line=''
  [ "$fresh" = 0 ] || printf -v line 'block-v2 %s %s %s %s %s\n' $((${#block} + 1)) $((${#user} > 0)) \
    "$budget" "$AH_NOTES" "$figures"
  ah_put "$stats" "$line" || true
}
# ah_prune: log/state/ kept bounded: past 800 files (about 120 sessions), the state of each session
# idle for 30 days goes. Run after a block is built, never on a quiet path: a glob, and one find
# when there are that many.
ah_prune() {
  local -a _files
  [ -d "$AH_STATE" ] || return 0
  _files=("$AH_STATE"/*)
  [ "${#_files[@]}" -gt 800 ] || return 0
  ah_remove_idle "$AH_STATE" 30 || true
}
