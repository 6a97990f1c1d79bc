#!/usr/bin/env bash
# Installs what autoac needs on Debian 12 (as root) and builds it.
#   scripts/setup.sh [build-dir] [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS="cmake make gcc g++ clang pkg-config libclang-rt-14-dev
      libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
      libjansson-dev libglpk-dev libjemalloc-dev python3 python3-dev python3-venv python3-pytest python3-numpy python3-pip python3-setuptools
      python3-torch python3-torchvision python3-matplotlib python3-networkx
      universal-ctags"
missing=""
for p in $PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "autoac: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq $missing >/dev/null
fi
BUILD=${1:-build}
shift || true
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
echo "autoac: built in $BUILD"
