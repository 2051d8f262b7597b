#!/usr/bin/env bash
# Installs authsh's bash, zsh and fish completions under one prefix.
#
#   scripts/install-completions.sh [--prefix DIR | --user | --system] [--destdir DIR]
#                                  [--shell bash|zsh|fish]... [--uninstall]
#       --prefix DIR   under DIR (default: $PREFIX, else /usr/local; --system is /usr/local)
#       --user         under ~/.local (same as --prefix ~/.local)
#       --destdir DIR  stage into DIR/PREFIX, for packaging (default: $DESTDIR)
#       --uninstall    remove the files an install with the same options wrote
#   scripts/install-completions.sh --generate
#       rewrites completions/ from `authsh completion SHELL` (AUTHSH_BIN, default .build/debug/authsh)
#
#   PREFIX/share/bash-completion/completions/authsh    (the bash-completion package loads it on
#                                                       demand; without that package, source it
#                                                       from ~/.bashrc)
#   PREFIX/share/zsh/site-functions/_authsh            (on zsh's fpath for /usr and /usr/local)
#   PREFIX/share/fish/vendor_completions.d/authsh.fish (fish reads it for /usr, /usr/local, ~/.local)
#
# One-liners without installing:
#   bash: eval "$(authsh completion bash)"   zsh: source <(authsh completion zsh)
#   fish: authsh completion fish | source
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=${PREFIX:-/usr/local}
destdir=${DESTDIR:-}
action=install
shells=()
while (($#)); do
  case $1 in
    --prefix) shift; prefix=${1:?--prefix needs a directory} ;;
    --prefix=*) prefix=${1#--prefix=} ;;
    --user) prefix=$HOME/.local ;;
    --system) prefix=/usr/local ;;
    --destdir) shift; destdir=${1?--destdir needs a directory} ;;
    --destdir=*) destdir=${1#--destdir=} ;;
    --generate) action=generate ;;
    --uninstall) action=uninstall ;;
    --shell) shift; shells+=("${1:?--shell needs bash, zsh or fish}") ;;
    -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-completions: unknown option '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
((${#shells[@]})) || shells=(bash zsh fish)
case $prefix in /*) ;; *) prefix=$(pwd)/$prefix ;; esac

file_for() {
  case $1 in bash) echo authsh.bash ;; zsh) echo _authsh ;; fish) echo authsh.fish ;;
    *) echo "install-completions: unsupported shell '$1' (bash, zsh or fish)" >&2; exit 64 ;; esac
}

if [[ $action == generate ]]; then
  bin=${AUTHSH_BIN:-$here/.build/debug/authsh}
  for shell in "${shells[@]}"; do
    "$bin" completion "$shell" > "$here/completions/$(file_for "$shell")"
    echo "wrote completions/$(file_for "$shell")"
  done
  exit 0
fi

target_for() {
  case $1 in
    bash) echo "$destdir$prefix/share/bash-completion/completions/authsh" ;;
    zsh) echo "$destdir$prefix/share/zsh/site-functions/_authsh" ;;
    fish) echo "$destdir$prefix/share/fish/vendor_completions.d/authsh.fish" ;;
  esac
}

for shell in "${shells[@]}"; do
  source_file="$here/completions/$(file_for "$shell")"
  target=$(target_for "$shell")
  if [[ $action == uninstall ]]; then
    rm -f "$target" && echo "removed $target"
    continue
  fi
  mkdir -p "$(dirname "$target")"
  if [[ -f $source_file ]]; then cat "$source_file"; else authsh completion "$shell"; fi > "$target.tmp"
  chmod 0644 "$target.tmp"
  mv "$target.tmp" "$target"
  echo "installed $shell completion: $target"
done

if [[ $action == install && -z $destdir && " ${shells[*]} " == *" bash "* ]]; then
  echo "bash: the bash-completion package loads $(target_for bash) (apt install bash-completion, dnf install" \
    "bash-completion, brew install bash-completion@2); without it, add to ~/.bashrc:  source $(target_for bash)"
fi

if [[ $action == install && -z $destdir && " ${shells[*]} " == *" zsh "* ]]; then
  case $prefix in
    /usr | /usr/local) ;;
    *) echo "zsh: add this to ~/.zshrc before compinit:  fpath=($prefix/share/zsh/site-functions \$fpath)" ;;
  esac
fi
