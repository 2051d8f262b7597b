#!/usr/bin/env bash
# `authsh user confirm --from FILE --yes` over 10,000 unconfirmed accounts of the emulator, whole
# process, beside the official admin SDKs doing the same work with 8 threads: supabase-auth
# `admin.update_user_by_id(id, {"email_confirm": True})` and firebase-admin
# `auth.update_user(uid, email_verified=True)`. The SDKs are given the ids (read beforehand, not
# timed: neither admin API finds an account by e-mail in one call that these SDKs expose for this);
# authsh is timed from e-mails (it looks each account up) and, on Supabase, from ids too (a third
# set of accounts, "c", so each run confirms accounts that were not confirmed yet).
# Prints time and rate side by side (target: authsh within 1.5× of the SDK's time).
#   COUNT=10000 JOBS=8 AUTHSH_BIN=.build/debug/authsh bench/bulk.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-10000}
jobs=${JOBS:-8}
if [ -z "${AUTHSH_BIN:-}" ]; then
  swift build -c release --product authsh >/dev/null
  AUTHSH_BIN="$PWD/.build/release/authsh"
fi
bin=$AUTHSH_BIN
python=${PYTHON:-.venv/bin/python}
work=$(mktemp -d)
export HOME=$work XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config
"$python" bench/bulk_clients.py seed "$count" "$work/seed.jsonl"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" emulator --port "$port" --seed "$work/seed.jsonl" --print-env >"$work/env" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
# Seeding 4 × COUNT accounts takes a while: the environment lines come once it listens.
for _ in $(seq 6000); do grep -q '^SUPABASE_SERVICE_ROLE_KEY=' "$work/env" 2>/dev/null && break; sleep 0.1; done
grep -q '^SUPABASE_SERVICE_ROLE_KEY=' "$work/env" || { echo "the emulator did not start: $(head -3 "$work/env")" >&2; exit 1; }
set -a; . "$work/env"; set +a
unset GOOGLE_APPLICATION_CREDENTIALS

now() { python3 -c 'import time; print(time.time())'; }
elapsed() { python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.2f}")' "$1" "$2"; }
rate() { python3 -c 'import sys; print(f"{int(sys.argv[1]) / max(float(sys.argv[2]), 0.001):.0f}/s")' "$count" "$1"; }
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / max(float(sys.argv[2]), 0.001):.2f}")' "$1" "$2"; }

for provider in supabase firebase; do
  "$python" bench/bulk_clients.py ids "$provider" b "$work/$provider.b.ids"
  start=$(now)
  "$python" bench/bulk_clients.py "$provider" "$work/$provider.b.ids"
  sdk_s=$(elapsed "$start" "$(now)")
  sdk_done=$("$python" bench/bulk_clients.py check "$provider" b)

  start=$(now)
  "$bin" --provider "$provider" user confirm --from "$work/seed.jsonl.emails" --yes --jobs "$jobs" >/dev/null 2>"$work/err" \
    || { tail -3 "$work/err"; exit 1; }
  authsh_s=$(elapsed "$start" "$(now)")
  authsh_done=$("$python" bench/bulk_clients.py check "$provider" a)
  same=""
  if [ "$provider" = supabase ]; then
    # The SDK's input, ids, on accounts not confirmed yet ("c"): GoTrue's e-mail lookup is a filtered list.
    "$python" bench/bulk_clients.py ids "$provider" c "$work/$provider.c.ids"
    start=$(now)
    "$bin" --provider "$provider" user confirm --from "$work/$provider.c.ids" --yes --jobs "$jobs" >/dev/null 2>"$work/err" \
      || { tail -3 "$work/err"; exit 1; }
    ids_s=$(elapsed "$start" "$(now)")
    same="; authsh from ids: ${ids_s} s, $(rate "$ids_s") ($("$python" bench/bulk_clients.py check "$provider" c) confirmed), $(ratio "$ids_s" "$sdk_s")×"
  fi
  client=$([ "$provider" = supabase ] && echo "supabase-auth update_user_by_id" || echo "firebase-admin update_user")
  echo "$provider: $count accounts — authsh user confirm --from (e-mails) --jobs $jobs: ${authsh_s} s, $(rate "$authsh_s") ($authsh_done confirmed);" \
       "$client, 8 threads (ids): ${sdk_s} s, $(rate "$sdk_s") ($sdk_done confirmed); authsh/SDK time $(ratio "$authsh_s" "$sdk_s")×$same   (target: ≤ 1.5×)"
done
