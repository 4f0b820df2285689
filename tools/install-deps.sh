#!/usr/bin/env bash
# Installs the Debian packages gsw needs to build, test and run, when any is
# missing. Safe to repeat: it does nothing when everything is there.
set -euo pipefail
pkgs=(build-essential cmake pkg-config clang libclang-rt-14-dev
      libncurses-dev libreadline-dev libsqlite3-dev sqlite3 libbdd-dev libzstd-dev libssl-dev libfathom-dev
      libcmocka-dev libopenmpi-dev openmpi-bin tmux python3 jq stockfish)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
