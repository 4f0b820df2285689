#!/bin/bash
# run_fuzz.sh FUZZER CORPUS REGRESS [libFuzzer options...]: runs FUZZER from
# a scratch copy of CORPUS (so the repository's corpus is not changed) plus
# the regression inputs in REGRESS (read only); a crash input is left in the
# scratch folder's crashes/ and named in the output.
set -u
fuzzer=$1 corpus=$2 regress=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/gsw-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/crashes"
cp -r "$corpus/." "$work/corpus/" 2>/dev/null
dirs=("$work/corpus")
[ -d "$regress" ] && dirs+=("$regress")
"$fuzzer" -artifact_prefix="$work/crashes/" "$@" "${dirs[@]}"
rc=$?
if [ $rc -ne 0 ]; then
    for f in "$work"/crashes/*; do
        [ -f "$f" ] || continue
        keep="${TMPDIR:-/tmp}/$(basename "$f")"
        cp "$f" "$keep" && echo "run_fuzz.sh: input kept as $keep (add it to $regress)"
    done
fi
exit $rc
