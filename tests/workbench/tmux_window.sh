# Sourced by every test that drives gsw under tmux (tmux_lib.sh, and the
# crash tests' workbench parts).
# tmux_window SOCK W H CMD: CMD in a fresh window "g" of W x H on the private
# tmux server at SOCK. A tmux server can die while it starts ("server exited
# unexpectedly": seen under the load of a parallel ASan run, and when the
# server of the last window closed is still exiting), so this checks that
# the window is there and starts another server until it is, for up to 10 s.
# The window's command runs once: a server that died took it along.
tmux_window() {
  local sock=$1 w=$2 h=$3 cmd=$4 i err
  err=$(mktemp)
  tmux -S "$sock" kill-session -t g 2>/dev/null
  for ((i = 0; i < 50; i++)); do
    tmux -S "$sock" new-session -d -s g -x "$w" -y "$h" "$cmd" 2>"$err"
    tmux -S "$sock" has-session -t g 2>/dev/null && { rm -f "$err"; return 0; }
    sleep 0.2
  done
  echo "FAIL: tmux would not open a window: $(cat "$err")"
  rm -f "$err"
  exit 1
}
