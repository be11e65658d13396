#!/usr/bin/env bash
# Installs the Debian packages zest needs to build, test and benchmark,
# skipping those already present. Needs root (or sudo) only when something
# is missing.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev
          libgtest-dev googletest libzstd-dev zstd libxxhash-dev binutils
          zlib1g-dev liblzma-dev liblz4-dev   # the CLI's other formats (each optional)
          gzip xz-utils lz4)                  # their tools, for the CLI's interop tests
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
