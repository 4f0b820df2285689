#!/usr/bin/env bash
# The build commands the lessons give (issue 53): each, as written in a
# say: line, is a command gsw takes (run with --plan: what it would build,
# nothing built), names its position (no "--for this position"), and the
# memory the line states ("about N GB of memory without --memory", what
# --memory holds it to, "N GB of memory at most") is what the plan says.
# Needs GSW_BIN.
set -u
gsw=${GSW_BIN:?}
lessons="$(dirname "$0")/../../lessons"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
bad() { echo "FAIL: $*"; fail=1; }
# plan_gb CMD...: the memory gsw's plan for the build command says, in GB
plan_gb() { "$gsw" "$@" --plan --dir "$tmp/eg" 2>&1 | sed -n 's/.*needs about \([0-9.]*\) GB of memory.*/\1/p'; }
# near GOT SAID: the plan's GOT rounded to as many decimals as the lesson's SAID
near() { [ -n "$1" ] && [ "$(printf "%.$(printf '%s' "$2" | sed -n 's/^[0-9]*\.\([0-9]*\)$/\1/p' | tr -d '\n' | wc -c)f" "$1")" = "$2" ]; }
while IFS= read -r line; do
  cmd=$(printf '%s\n' "$line" | grep -o 'gsw egdb build [^)]*' | sed 's/ *$//')
  [ -n "$cmd" ] || continue
  n=$((n + 1))
  eval "set -- ${cmd#gsw }"
  "$gsw" "$@" --plan --dir "$tmp/eg" >"$tmp/out" 2>&1 || { bad "not a command gsw takes: $cmd: $(cat "$tmp/out")"; continue; }
  without=$(printf '%s\n' "$line" | sed -n 's/.*about \([0-9.]*\) GB of memory without --memory.*/\1/p')
  mem=$(printf '%s\n' "$line" | sed -n 's/.*--memory \([0-9.]*\) holds it to \([0-9.]*\) GB.*/\1 \2/p')
  if [ -n "$without" ]; then
    args=() skip=0
    for a in "$@"; do
      [ "$skip" = 1 ] && { skip=0; continue; }
      [ "$a" = --memory ] && { skip=1; continue; }
      args+=("$a")
    done
    got=$(plan_gb "${args[@]}")
    near "$got" "$without" || bad "$cmd: the lesson says about $without GB without --memory, the plan $got"
  fi
  atmost=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9.]*\) GB of memory at most.*/\1/p')
  if [ -n "$atmost" ]; then
    got=$(plan_gb "$@")
    near "$got" "$atmost" || bad "$cmd: the lesson says $atmost GB at most, the plan $got"
  fi
  if [ -n "$mem" ]; then
    set -- $mem
    printf '%s\n' "$cmd" | grep -q -- "--memory $1\( \|$\)" || bad "$cmd: the line's --memory $1 is not the command's"
    got=$(eval "plan_gb ${cmd#gsw }")
    near "$got" "$2" || bad "$cmd: the lesson says $2 GB with --memory $1, the plan $got"
  fi
done < <(grep -h '^say:.*gsw egdb build' "$lessons"/*.lesson)
grep -h '^say:.*gsw egdb build.*--for this' "$lessons"/*.lesson && bad "a build command without its position"
[ "$n" -ge 3 ] || bad "only $n build commands found in the lessons"
exit $fail
