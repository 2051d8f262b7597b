#!/usr/bin/env bash
# The installed binary stays lean: stripped, it is at most 40 MB, and it carries neither
# Foundation proper nor ICU's data (one call of an NSString method such as `range(of:)` or
# `String(format:)`, in authsh or in a dependency, links both: 44 MB). Reads the release build.
# Usage: scripts/check-binary.sh [BINARY]   (default .build/release/authsh)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/authsh}
limit_mb=40
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
strip -o "$work/authsh" "$binary"
bytes=$(stat -c %s "$work/authsh")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "check-binary: stripped size $mb MB (limit $limit_mb MB)"
# $s10Foundation… is a symbol of the module Foundation itself (FoundationEssentials is $s20…).
nm "$binary" > "$work/symbols"
awk '$NF ~ /^icudt[0-9]+_dat$/ || $NF ~ /^\$s10Foundation/ { print $NF; if (++n == 5) exit }' "$work/symbols" > "$work/foreign"
if [ -s "$work/foreign" ]; then
  echo "check-binary: the binary links Foundation proper or ICU, for example:" >&2
  swift demangle < "$work/foreign" >&2 || cat "$work/foreign" >&2
  echo "check-binary: find the call with: nm -u on the objects of .build/release/*.build" >&2
  exit 1
fi
if [ "$bytes" -gt $((limit_mb * 1048576)) ]; then
  echo "check-binary: $mb MB is over $limit_mb MB" >&2
  exit 1
fi
