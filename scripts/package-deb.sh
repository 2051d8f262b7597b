#!/usr/bin/env bash
# Builds out/authsh_VERSION_amd64.deb: the release binary (Swift runtime linked in), the man page
# and the bash, zsh and fish completions in Debian's paths. `Depends:` is computed from the
# binary's real shared-library needs with dpkg-shlibdeps, so it names libedit2, libsqlite3-0 and
# libc6, never the Swift toolchain; libcurl4 (https://, loaded on the first TLS request) is added
# by name. libsecret (the Secret Service keyring) and libpq (`user export --db`) are loaded at run
# time when present, so they are only recommended: without libsecret sessions stay in 0600 files;
# without libpq `--db` says to install libpq5 and everything else works.
#
#   scripts/package-deb.sh [--no-build] [--out DIR]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$here/out
build_flag=()
while (($#)); do
  case $1 in
    --no-build) build_flag=(--no-build) ;;
    --out) shift; out=${1:?--out needs a directory} ;;
    -h|--help) sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package-deb: unknown option '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
for tool in dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "package-deb: $tool is missing (apt-get install dpkg-dev)" >&2; exit 1; }
done

version=$(sed -n 's/.*current = "\(.*\)".*/\1/p' "$here/Sources/AuthCore/Support/Version.swift")
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/stage

"$here/scripts/install.sh" --prefix /usr --destdir "$stage" "${build_flag[@]}" >/dev/null
# Debian's paths: zsh reads vendor completions from vendor-completions; man pages are gzipped.
mkdir -p "$stage/usr/share/zsh/vendor-completions"
mv "$stage/usr/share/zsh/site-functions/_authsh" "$stage/usr/share/zsh/vendor-completions/_authsh"
rmdir "$stage/usr/share/zsh/site-functions"
gzip -9n "$stage/usr/share/man/man1/authsh.1"
install -d "$stage/usr/share/doc/authsh"
gzip -9nc "$here/README.md" > "$stage/usr/share/doc/authsh/README.md.gz"
# The topic pages README links to (docs/*.md), beside it as README expects them.
install -d "$stage/usr/share/doc/authsh/docs"
for page in "$here"/docs/*.md; do
  gzip -9nc "$page" > "$stage/usr/share/doc/authsh/docs/$(basename "$page").gz"
done

# dpkg-shlibdeps wants a source package around the binary.
mkdir -p "$work/src/debian"
printf 'Source: authsh\n\nPackage: authsh\nArchitecture: any\n' > "$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O "$stage/usr/bin/authsh" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[[ -n $depends ]] || { echo "package-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
if [[ $depends == *libsecret* || $depends == *libcurl* || $depends == *libpq* ]]; then
  echo "package-deb: the binary links libsecret, libcurl or libpq; it must load them at run time" >&2
  exit 1
fi
# libcurl carries https:// (loaded on the first TLS request, so dpkg-shlibdeps cannot see it).
depends="$depends, libcurl4 | libcurl3-gnutls"

install -d "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<EOF
Package: authsh
Version: $version
Architecture: $arch
Maintainer: authsh developers <authsh@example.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Recommends: libsecret-1-0, libpq5, libargon2-1
Section: utils
Priority: optional
Homepage: https://github.com/authsh/authsh
Description: shell, scripts and emulator for Supabase Auth and Firebase Authentication
 authsh signs users in, up and out and resets passwords on Supabase Auth (GoTrue) and
 Firebase Authentication from one-shot commands, an interactive line-edited shell for
 support staff, and .auth scripts with assertions for CI smoke tests. An embedded
 emulator of both backends makes it work offline.
EOF

mkdir -p "$out"
deb="$out/authsh_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "$deb"
echo "Depends: $depends" >&2
