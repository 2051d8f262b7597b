#!/usr/bin/env bash
# Installs the .deb into a clean Debian root that has never seen Swift (debootstrap minbase, the
# Debian release of this machine) with apt resolving its Depends, then runs the installed authsh
# there: --version, the smoke example on the embedded emulator, and its completion and man files.
# Needs root (debootstrap, chroot). Usage: scripts/test-deb.sh [out/authsh_VERSION_ARCH.deb]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deb=${1:-$(ls "$here"/out/authsh_*.deb 2>/dev/null | tail -1)}
[[ -f $deb ]] || { echo "test-deb: no .deb (run scripts/package-deb.sh first)" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || { echo "test-deb: needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null

. /etc/os-release
suite=${VERSION_CODENAME:-bookworm}
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}

root=$(mktemp -d /tmp/authsh-debroot.XXXXXX)
chmod 755 "$root"   # apt in the root drops to _apt for downloads
cleanup() { umount -R "$root/proc" "$root/dev" 2>/dev/null || true; rm -rf "$root"; }
trap cleanup EXIT
start=$(date +%s)
echo "test-deb: debootstrap --variant=minbase $suite ($mirror)"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$root.log" 2>&1 || { tail -20 "$root.log" >&2; exit 1; }
rm -f "$root.log"
echo "test-deb: root ready in $(($(date +%s) - start)) s"

if [[ -e $root/opt/swift || -n $(find "$root" -name 'libswiftCore*' -print -quit) ]]; then
  echo "test-deb: the clean root has a Swift runtime; the test would prove nothing" >&2
  exit 1
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/authsh.deb"
cp "$here/examples/smoke.auth" "$root/tmp/smoke.auth"

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp/home LANG=C.UTF-8 "$@"; }
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
in_root apt-get update -qq
# Without its Recommends first: libsecret is loaded at run time, so authsh works without it
# (sessions in the 0600 file, with the notice) and names it when the keyring is asked for.
DEBIAN_FRONTEND=noninteractive in_root apt-get install -y -qq --no-install-recommends /tmp/authsh.deb >/dev/null
echo "test-deb: installed; Depends pulled in: $(in_root dpkg-query -W -f='${Depends}' authsh)"
[[ $(in_root dpkg-query -W -f='${Recommends}' authsh) == *libsecret-1-0* ]] || { echo "test-deb: no Recommends: libsecret-1-0" >&2; exit 1; }
[[ $(in_root dpkg-query -W -f='${Recommends}' authsh) == *libpq5* ]] || { echo "test-deb: no Recommends: libpq5" >&2; exit 1; }
mkdir -p "$root/tmp/home"
in_root authsh --version
in_root authsh run --emulator /tmp/smoke.auth
if in_root sh -c 'authsh secret list' 2>"$root/tmp/secret.err"; then
  echo "test-deb: secret list worked without libsecret" >&2
  exit 1
fi
grep -q 'libsecret-1.so.0 could not be loaded' "$root/tmp/secret.err" || { cat "$root/tmp/secret.err" >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive in_root apt-get install -y -qq libsecret-1-0 >/dev/null
# `user export --db` goes through libpq, loaded at run time (a Recommends, so not there yet): the
# error names the package; with it, libpq runs and finds the closed port refused.
db_export() { in_root sh -c 'authsh user export --provider supabase --db "postgres://u:p@127.0.0.1:9/postgres?sslmode=disable"' >/dev/null 2>"$root/tmp/db.err"; }
status=0; db_export || status=$?
[[ $status -eq 3 ]] && grep -q 'libpq.so.5 could not be loaded' "$root/tmp/db.err" && grep -q 'apt install libpq5' "$root/tmp/db.err" \
  || { echo "test-deb: --db without libpq (exit $status):" >&2; cat "$root/tmp/db.err" >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive in_root apt-get install -y -qq libpq5 >/dev/null
status=0; db_export || status=$?
[[ $status -eq 3 ]] && grep -q 'connection refused' "$root/tmp/db.err" || { echo "test-deb: --db with libpq (exit $status):" >&2; cat "$root/tmp/db.err" >&2; exit 1; }
in_root authsh run --emulator /tmp/smoke.auth
# https:// goes through libcurl, loaded on the first TLS request: a Depends of the package (a
# closed port answers as refused, so libcurl was found and ran); without it, the error says what to install.
[[ $(in_root dpkg-query -W -f='${Depends}' authsh) == *libcurl4* ]] || { echo "test-deb: no Depends: libcurl4" >&2; exit 1; }
https_login() { in_root sh -c 'SUPABASE_URL=https://127.0.0.1:9 SUPABASE_ANON_KEY=k PW=correct-horse-1 authsh login ada@example.com --password-env PW' 2>"$root/tmp/https.err"; }
status=0; https_login || status=$?
[[ $status -eq 3 ]] && grep -q 'connection refused' "$root/tmp/https.err" || { echo "test-deb: https with libcurl (exit $status):" >&2; cat "$root/tmp/https.err" >&2; exit 1; }
in_root dpkg --remove --force-depends libcurl4 >/dev/null 2>&1
status=0; https_login || status=$?
[[ $status -eq 3 ]] && grep -q 'apt install libcurl4' "$root/tmp/https.err" || { echo "test-deb: https without libcurl (exit $status):" >&2; cat "$root/tmp/https.err" >&2; exit 1; }
DEBIAN_FRONTEND=noninteractive in_root apt-get install -y -qq libcurl4 >/dev/null
for f in /usr/share/man/man1/authsh.1.gz /usr/share/bash-completion/completions/authsh \
  /usr/share/zsh/vendor-completions/_authsh /usr/share/fish/vendor_completions.d/authsh.fish \
  /usr/share/doc/authsh/README.md.gz /usr/share/doc/authsh/docs/moving-accounts.md.gz; do
  [[ -s $root$f ]] || { echo "test-deb: $f is missing" >&2; exit 1; }
done
if in_root sh -c 'ldd /usr/bin/authsh' | grep -E 'libswift|libFoundation|not found'; then
  echo "test-deb: the installed binary needs libraries the root does not have" >&2
  exit 1
fi
echo "test-deb: ok in $(($(date +%s) - start)) s"
