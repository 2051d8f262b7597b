#!/usr/bin/env bash
# Benchmarks of the interactive shell against their targets (release build):
#   time from start to the first prompt (pty, median of N runs)   target ≤ 50 ms
#   resident memory of an idle shell (VmRSS)                       target ≤ 40 MB
#   `authsh --version` process time vs `curl --version` (hyperfine) target ≤ 3 × curl
# Usage: bench/repl.sh [RUNS]   (AUTHSH_BIN overrides the binary; default: release build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
bin=${AUTHSH_BIN:-}
if [[ -z $bin ]]; then
  if ! log=$(swift build -c release --product authsh 2>&1); then echo "$log" >&2; exit 1; fi
  bin=$(swift build -c release --show-bin-path)/authsh
fi
python=python3
[[ -x .venv/bin/python ]] && python=.venv/bin/python

echo "authsh shell benchmarks ($bin, $runs runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
results=$("$python" bench/repl_startup.py "$bin" "$runs")
prompt=$(awk '$1 == "prompt_median" {print $2}' <<<"$results")
rss=$(awk '$1 == "rss_median" {print $2}' <<<"$results")
harness=$(awk '$1 == "harness_median" {print $2}' <<<"$results")
spread=$(awk '$1 == "prompt_min" {min=$2} $1 == "prompt_max" {max=$2} END {print min "–" max}' <<<"$results")

json=$(mktemp)
trap 'rm -f "$json"' EXIT
hyperfine -N --warmup 5 --runs 50 --export-json "$json" "$bin --version" "curl --version" >/dev/null
read -r ours curl < <("$python" -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(r[0]["median"] * 1000, r[1]["median"] * 1000)' "$json")

verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t ? "ok" : "OVER") }'; }
ratio=$(awk -v a="$ours" -v b="$curl" 'BEGIN { printf "%.2f", a / b }')
printf '%-40s %12s %14s %s\n' "measure" "value" "target" "verdict"
printf '%-40s %9.1f ms %11s ms %s\n' "start → first prompt (median; $spread)" "$prompt" 50 "$(verdict "$prompt" 50)"
printf '%-40s %9.1f ms %14s\n' "  of which pty harness (sh printing '> ')" "$harness" ""
printf '%-40s %9.1f MB %11s MB %s\n' "idle shell resident memory (VmRSS)" "$rss" 40 "$(verdict "$rss" 40)"
printf '%-40s %9.1f ms %14s\n' "authsh --version (median)" "$ours" ""
printf '%-40s %9.1f ms %14s\n' "curl --version (median)" "$curl" ""
printf '%-40s %10s × %12s × %s\n' "authsh --version / curl --version" "$ratio" 3 "$(verdict "$ratio" 3)"
