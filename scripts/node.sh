#!/usr/bin/env bash
# A supported Node.js for this project, from the npm registry (the node-<os>-<arch> packages hold
# the official binaries), kept in .tools/node<major> (git-ignored); prints the line that puts it
# first on PATH. For a shell:   eval "$(bash scripts/node.sh 24)"   (or 22)
set -euo pipefail
major="${1:-24}"
case "$major" in
  22 | 24) ;;
  *) echo "scripts/node.sh: give the Node.js line to use, 22 or 24; got '$major'" >&2; exit 2 ;;
esac
case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  *) echo "scripts/node.sh: no Node.js package for $(uname -s) here; install Node.js $major from nodejs.org" >&2; exit 2 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "scripts/node.sh: no Node.js package for $(uname -m) here; install Node.js $major from nodejs.org" >&2; exit 2 ;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.tools/node$major"
bin="$dir/node_modules/node-$os-$arch/bin"
if [ ! -x "$bin/node" ]; then
  echo "scripts/node.sh: installing Node.js $major (node-$os-$arch@$major from the npm registry) into .tools/node$major ..." >&2
  mkdir -p "$dir"
  # (its own folder and package.json: the project's dependencies are not touched)
  [ -f "$dir/package.json" ] || echo '{ "private": true }' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "node-$os-$arch@$major" >&2
fi
echo "scripts/node.sh: $("$bin/node" --version) in $bin" >&2
printf 'export PATH="%s:$PATH"\n' "$bin"
