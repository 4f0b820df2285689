#!/usr/bin/env bash
# Opt-in (GSW_C4_6X6=DIR, label slow): the 6x6 strong solution, gsw strong
# build connect4:6x6 --memory GSW_C4_6X6_MEMORY (default 20) into DIR.
# About 2 hours on 2 cores and 14.4 GB at most (2026-11-30); it resumes by
# ply, so a run stopped (Ctrl-C, ctest's timeout) goes on the next time.
# Checked: every ply's won, drawn and lost add up to its positions, whose
# sum is the published count 69,173,028,785; the empty board is lost for
# the side to move (a second-player win, as Tromp's and Steininger's
# tables say) and strong best finds the loss in 36 plies; strong query
# gives every first move as a loss.
# Skipped (77) without GSW_C4_6X6.
[ -n "${GSW_C4_6X6:-}" ] || { echo "skipped: set GSW_C4_6X6=DIR to solve 6x6 (hours, 15 GB)"; exit 77; }
gsw=${GSW_BIN:?}
mkdir -p "$GSW_C4_6X6" || exit 1
"$gsw" strong build connect4:6x6 --memory "${GSW_C4_6X6_MEMORY:-20}" --dir "$GSW_C4_6X6" --json >"$GSW_C4_6X6/strong.json" || exit 1
python3 - "$GSW_C4_6X6/strong.json" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
rows = {r["ply"]: r for r in j["plies"]}
bad = [p for p in range(37) if p not in rows or rows[p]["won"] + rows[p]["drawn"] + rows[p]["lost"] != rows[p]["total"]]
total = sum(r["total"] for r in j["plies"])
if bad or total != 69173028785 or (rows[0]["won"], rows[0]["drawn"], rows[0]["lost"]) != (0, 0, 1):
    print("6x6: plies", bad, "do not add up; total", total, "; ply 0", rows.get(0))
    sys.exit(1)
print("6x6: 37 plies add up to 69,173,028,785 positions; the empty board is lost for the side to move")
PY
"$gsw" strong best connect4:6x6 "" --dir "$GSW_C4_6X6" --json >"$GSW_C4_6X6/best.json" || exit 1
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
if d["value"] != "loss" or d["plies"] != 36: sys.exit("6x6 strong best: %r, not a loss in 36 plies" % d)
print("6x6: strong best: a loss in 36 plies (best defence %s)" % d["best"])' "$GSW_C4_6X6/best.json" || exit 1
"$gsw" strong query connect4:6x6 "" --dir "$GSW_C4_6X6" --json >"$GSW_C4_6X6/query.json" || exit 1
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
moves = d.get("moves", [])
if d["value"] != "loss" or len(moves) != 6 or any(m["value"] != "loss" for m in moves):
    sys.exit("6x6 strong query: %r" % d)
print("6x6: strong query: every first move loses")' "$GSW_C4_6X6/query.json"
