#!/usr/bin/env bash
# Builds authsh as a release binary with the Swift runtime linked in (no Swift toolchain needed
# where it runs) and installs it with its man page and bash, zsh and fish completions.
#
#   scripts/install.sh [--prefix DIR] [--user] [--destdir DIR] [--no-build] [--uninstall]
#       --prefix DIR   install under DIR (default: $PREFIX, else /usr/local)
#       --user         install under ~/.local (same as --prefix ~/.local)
#       --destdir DIR  stage into DIR/PREFIX (for packaging; default: $DESTDIR)
#       --no-build     install the binary already built in .build/release
#       --uninstall    remove what an install with the same prefix put there
#
#   PREFIX/bin/authsh
#   PREFIX/share/man/man1/authsh.1
#   PREFIX/share/bash-completion/completions/authsh
#   PREFIX/share/zsh/site-functions/_authsh
#   PREFIX/share/fish/vendor_completions.d/authsh.fish
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

prefix=${PREFIX:-/usr/local}
destdir=${DESTDIR:-}
build=1
action=install
while (($#)); do
  case $1 in
    --prefix) shift; prefix=${1:?--prefix needs a directory} ;;
    --prefix=*) prefix=${1#--prefix=} ;;
    --user) prefix=$HOME/.local ;;
    --destdir) shift; destdir=${1:?--destdir needs a directory} ;;
    --destdir=*) destdir=${1#--destdir=} ;;
    --no-build) build=0 ;;
    --uninstall) action=uninstall ;;
    -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install: unknown option '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac
root="$destdir$prefix"

files=(bin/authsh share/man/man1/authsh.1)
if [[ $action == uninstall ]]; then
  for f in "${files[@]}"; do rm -f "$root/$f" && echo "removed $root/$f"; done
  "$here/scripts/install-completions.sh" --prefix "$prefix" --destdir "$destdir" --uninstall
  exit 0
fi

if ((build)); then
  (cd "$here" && swift build -c release --static-swift-stdlib --product authsh)
fi
binary="$here/.build/release/authsh"
[[ -x $binary ]] || { echo "install: $binary is missing; run without --no-build" >&2; exit 1; }

install -d "$root/bin" "$root/share/man/man1"
install -m 0755 "$binary" "$root/bin/authsh.tmp"
strip "$root/bin/authsh.tmp" 2>/dev/null || true
mv "$root/bin/authsh.tmp" "$root/bin/authsh"
echo "installed $root/bin/authsh"
install -m 0644 "$here/man/authsh.1" "$root/share/man/man1/authsh.1"
echo "installed $root/share/man/man1/authsh.1"
"$here/scripts/install-completions.sh" --prefix "$prefix" --destdir "$destdir"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on PATH" ;; esac
