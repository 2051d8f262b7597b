#!/usr/bin/env bash
# Installs authsh's bash, zsh and fish completions (paths as in shared/ANCHORS.md §4.4).
#
#   scripts/install-completions.sh [--user|--system] [--shell bash|zsh|fish]...
#       --user     (default) into your home: bash-completion's user dir, a zsh site-functions
#                  dir under $XDG_DATA_HOME, ~/.config/fish/completions
#       --system   into the system dirs (pkg-config's completionsdir for bash and fish,
#                  /usr/local/share/zsh/site-functions); honours DESTDIR for packaging
#   scripts/install-completions.sh --generate
#       rewrites completions/ from `authsh completion SHELL` (AUTHSH_BIN, default .build/debug/authsh)
#
# The scripts come from completions/ beside this script, or from `authsh completion SHELL`
# when run outside a checkout. One-liners without installing:
#   bash: eval "$(authsh completion bash)"      zsh: source <(authsh completion zsh)
#   fish: authsh completion fish | source
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=user
shells=()
while (($#)); do
  case $1 in
    --user) mode=user ;;
    --system) mode=system ;;
    --generate) mode=generate ;;
    --shell) shift; shells+=("${1:?--shell needs bash, zsh or fish}") ;;
    -h|--help) sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install-completions: unknown option '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
((${#shells[@]})) || shells=(bash zsh fish)

file_for() {
  case $1 in bash) echo authsh.bash ;; zsh) echo _authsh ;; fish) echo authsh.fish ;;
    *) echo "install-completions: unsupported shell '$1'" >&2; exit 64 ;; esac
}

if [[ $mode == generate ]]; then
  bin=${AUTHSH_BIN:-$here/.build/debug/authsh}
  for shell in "${shells[@]}"; do
    "$bin" completion "$shell" > "$here/completions/$(file_for "$shell")"
    echo "wrote completions/$(file_for "$shell")"
  done
  exit 0
fi

script_for() {
  local committed
  committed="$here/completions/$(file_for "$1")"
  if [[ -f $committed ]]; then cat "$committed"; else authsh completion "$1"; fi
}

pkg_dir() { pkg-config --variable=completionsdir "$1" 2>/dev/null || true; }

target_for() {
  local data=${XDG_DATA_HOME:-$HOME/.local/share} config=${XDG_CONFIG_HOME:-$HOME/.config} dir
  case $mode/$1 in
    user/bash) echo "${BASH_COMPLETION_USER_DIR:-$data/bash-completion}/completions/authsh" ;;
    user/zsh) echo "$data/zsh/site-functions/_authsh" ;;
    user/fish) echo "$config/fish/completions/authsh.fish" ;;
    system/bash) dir=$(pkg_dir bash-completion); echo "${DESTDIR:-}${dir:-/usr/share/bash-completion/completions}/authsh" ;;
    system/zsh) echo "${DESTDIR:-}/usr/local/share/zsh/site-functions/_authsh" ;;
    system/fish) dir=$(pkg_dir fish); echo "${DESTDIR:-}${dir:-/usr/share/fish/vendor_completions.d}/authsh.fish" ;;
  esac
}

for shell in "${shells[@]}"; do
  target=$(target_for "$shell")
  mkdir -p "$(dirname "$target")"
  script_for "$shell" > "$target.tmp"
  chmod 0644 "$target.tmp"
  mv "$target.tmp" "$target"
  echo "installed $shell completion: $target"
done

if [[ $mode == user && " ${shells[*]} " == *" zsh "* ]]; then
  echo "zsh: add this to ~/.zshrc before compinit:  fpath=(${XDG_DATA_HOME:-\$HOME/.local/share}/zsh/site-functions \$fpath)"
fi
