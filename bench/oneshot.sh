#!/usr/bin/env bash
# One-shot latency of the installed (static release) binary against curl, in one run (hyperfine):
#   `authsh whoami` on a saved session against `authsh emulator`   target ≤ 2 × curl doing the same GET
#   `authsh --version`                                            target ≤ 1.2 × `curl --version`
# The shell's own session is a file store in a scratch $HOME with a config.toml profile, so the
# command reads what a user's would (config, session file); curl sends the same GET /user with
# the same token.
# Usage: bench/oneshot.sh [RUNS]   (AUTHSH_BIN overrides the binary; default: the static release
# build, built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-100}
bin=${AUTHSH_BIN:-.build/release/authsh}
command -v hyperfine >/dev/null || { echo "bench/oneshot.sh: hyperfine is not installed" >&2; exit 1; }
if [[ ! -x $bin ]]; then
  if ! log=$(swift build -c release --static-swift-stdlib --product authsh 2>&1); then echo "$log" >&2; exit 1; fi
fi
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

BIN=$bin
. bench/start-emulator.sh
work=$WORK port=$PORT emulator=$EMULATOR_PID
base="http://127.0.0.1:$port"

export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_STATE_HOME=$work/home/.local/state
unset AUTHSH_CONFIG_DIR AUTHSH_PROFILE AUTHSH_CREDENTIAL_STORE SUPABASE_URL SUPABASE_ANON_KEY
mkdir -p "$XDG_CONFIG_HOME/authsh"
cat >"$XDG_CONFIG_HOME/authsh/config.toml" <<TOML
default_profile = "bench"

[profiles.bench]
provider = "supabase"
url = "$base"
key = "bench-anon-key"
credential_store = "file"
TOML
chmod 600 "$XDG_CONFIG_HOME/authsh/config.toml"
printf 'bench-password-1\n' | "$bin" signup "bench-$$@example.com" --name Bench --password-stdin >/dev/null
token=$("$bin" whoami --json --show-tokens | python3 -c 'import json, sys; print(json.load(sys.stdin)["session"]["access_token"])')
"$bin" whoami >/dev/null

json=$work/h.json
hyperfine -N --warmup 10 --runs "$runs" --export-json "$json" \
  "$bin whoami" \
  "curl -fsS -o /dev/null -H apikey:bench-anon-key -H 'Authorization: Bearer $token' $base/auth/v1/user" \
  "$bin --version" "curl --version" >/dev/null
read -r whoami curl_get version curl_version < <(python3 -c '
import json, sys
print(*(r["median"] * 1000 for r in json.load(open(sys.argv[1]))["results"]))' "$json")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t ? "ok" : "OVER") }'; }
w=$(ratio "$whoami" "$curl_get")
v=$(ratio "$version" "$curl_version")
echo "one-shot latency ($bin, medians of $runs runs, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
printf '  %-22s %9s %9s %8s %8s %s\n' "measure" "authsh" "curl" "ratio" "target" "verdict"
printf '  %-22s %6.2f ms %6.2f ms %7s× %7s× %s\n' "whoami / GET /user" "$whoami" "$curl_get" "$w" 2 "$(verdict "$w" 2)"
printf '  %-22s %6.2f ms %6.2f ms %7s× %7s× %s\n' "--version" "$version" "$curl_version" "$v" 1.2 "$(verdict "$v" 1.2)"
