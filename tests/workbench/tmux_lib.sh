# Sourced by the tmux tests (test_tui.sh, test_tui_screens.sh): a private tmux
# server in a temporary folder, gsw's window "g", and waits on its screen
# (never blind sleeps: under load or ASan a screen changes late). Sets gsw,
# tmp, fail; skips the test (exit 77) without tmux.
gsw=${GSW_BIN:?}
. "$(dirname "${BASH_SOURCE[0]}")/tmux_window.sh"
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
sock="$tmp/tmux.sock"
T() { tmux -S "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; echo "--- screen:"; T capture-pane -p -t g; fail=1; }
screen() { T capture-pane -p -t g; }
keys() { T send-keys -t g "$@"; }
# open_window W H CMD: CMD in a fresh window g (see tmux_window.sh)
open_window() { tmux_window "$sock" "$@"; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT (a grep pattern)
wait_for() {
  local i n=$(( ${2:-60} * 10 ))
  for ((i = 0; i < n; i++)); do
    screen 2>/dev/null | grep -q -- "$1" && return 0
    T has-session -t g 2>/dev/null || { echo "FAIL: gsw's window is gone ($(cat "$tmp/exit" 2>/dev/null))"; exit 1; }
    sleep 0.1
  done
  return 1
}
# wait_gone TEXT [SECONDS]: until the screen no longer shows TEXT
wait_gone() {
  local i n=$(( ${2:-20} * 10 ))
  for ((i = 0; i < n; i++)); do
    screen 2>/dev/null | grep -q -- "$1" || return 0
    sleep 0.1
  done
  return 1
}
# start_wh W H ARGS...: gsw ARGS in a fresh window g of W x H, on a cache and
# a history in $tmp (its exit status goes to $tmp/exit)
start_wh() {
  local w=$1 h=$2
  shift 2
  rm -f "$tmp/exit"
  open_window "$w" "$h" \
    "env GSW_DB='$tmp/cache.sqlite' GSW_HISTORY='$tmp/history' LANG=C.UTF-8 TERM=xterm-256color '$gsw' $* --threads 1 --hash 16; echo \"exit=\$?\" >'$tmp/exit'; sleep 30"
}
# quit_gsw WHAT: q (and y if asked), and gsw must exit 0
quit_gsw() {
  local w
  keys q
  sleep 0.3
  screen | grep -q "quit?" && keys y
  for ((w = 0; w < 100; w++)); do [ -f "$tmp/exit" ] && break; sleep 0.1; done
  [ "$(cat "$tmp/exit" 2>/dev/null)" = "exit=0" ] || bad "$1 did not quit cleanly: $(cat "$tmp/exit" 2>/dev/null)"
}
