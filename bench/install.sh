#!/usr/bin/env bash
# The installed (static Swift runtime) binary against the dynamically linked one and curl:
#   `--version` process time (hyperfine)          target: static ≤ 2 × curl --version
#   start → first prompt of the shell (pty)       target: ≤ 50 ms
#   file size (stripped, as installed)            target: static ≤ 40 MB
# Usage: bench/install.sh [RUNS]   (release builds; the two link modes share objects, so the
# second build only relinks)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
python=python3
[[ -x .venv/bin/python ]] && python=.venv/bin/python
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() {
  if ! log=$(swift build -c release --product authsh "$@" 2>&1); then echo "$log" >&2; exit 1; fi
}
build
cp .build/release/authsh "$work/authsh-dynamic"
build --static-swift-stdlib
cp .build/release/authsh "$work/authsh-static"
strip "$work/authsh-dynamic" "$work/authsh-static"

echo "install benchmarks ($runs runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
json=$work/h.json
hyperfine -N --warmup 5 --runs 50 --export-json "$json" \
  "$work/authsh-static --version" "$work/authsh-dynamic --version" "curl --version" >/dev/null
read -r static dynamic curl < <("$python" -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(*(x["median"] * 1000 for x in r))' "$json")
prompt() { "$python" bench/repl_startup.py "$1" "$runs" | awk '$1 == "prompt_median" {print $2}'; }
prompt_static=$(prompt "$work/authsh-static")
prompt_dynamic=$(prompt "$work/authsh-dynamic")
size() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1048576 }'; }
ratio=$(awk -v a="$static" -v b="$curl" 'BEGIN { printf "%.2f", a / b }')
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t ? "ok" : "OVER") }'; }

printf '%-36s %10s %10s %10s\n' "measure" "static" "dynamic" "curl"
printf '%-36s %7.1f ms %7.1f ms %7.1f ms\n' "--version (median)" "$static" "$dynamic" "$curl"
printf '%-36s %7.1f ms %7.1f ms %10s\n' "start → first prompt (median)" "$prompt_static" "$prompt_dynamic" "-"
printf '%-36s %7s MB %7s MB %10s\n' "stripped size" "$(size "$work/authsh-static")" "$(size "$work/authsh-dynamic")" "-"
printf '%-36s %9s × (target ≤ 2 ×: %s)\n' "static --version / curl --version" "$ratio" "$(verdict "$ratio" 2)"
printf '%-36s %9s ms (target ≤ 50 ms: %s)\n' "static first prompt" "$prompt_static" "$(verdict "$prompt_static" 50)"
printf '%-36s %9s MB (target ≤ 40 MB: %s)\n' "static stripped size" "$(size "$work/authsh-static")" "$(verdict "$(size "$work/authsh-static")" 40)"
