#!/bin/sh
# Installs an autoac build into a temporary prefix and uses it from outside:
# configures, builds and runs test/install/consumer through find_package
# (autoac::autoac), builds the same program through pkg-config (autoac.pc),
# runs the installed ac-opt and loads the installed plugin into mlir-opt.
# Usage: check.sh CMAKE BUILD_DIR CONSUMER_SRC LLVM_TOOLS_DIR
# Writes only under a temporary directory, removed on exit.
set -eu
cmake=$1 build=$2 src=$3 llvmbin=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/autoac-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix=$tmp/prefix
input=$src/step.mlir
# step.mlir (test/lit/planner/peak-by-hand.mlir): peak 1310728 bytes.
peak=1310728

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log"
for f in include/autoac/autoac.h include/autoac/export.h lib/libautoac.so \
         lib/AutoACPlugin.so bin/ac-opt lib/cmake/autoac/autoacConfig.cmake \
         lib/cmake/autoac/autoacConfigVersion.cmake lib/pkgconfig/autoac.pc; do
  [ -e "$prefix/$f" ] || { echo "check.sh: FAIL: $f not installed" >&2; exit 1; }
done

# find_package(autoac) + autoac::autoac.  No CMAKE_PREFIX_PATH pointing into
# the build tree: only the prefix.
"$cmake" -S "$src" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
"$cmake" --build "$tmp/build" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
"$tmp/build/consumer" "$input" 24GB "$peak"

plugin=$(sed -n 1p "$tmp/build/installed.txt")
acopt=$(sed -n 2p "$tmp/build/installed.txt")
case $plugin in "$prefix"/*) ;; *) echo "check.sh: FAIL: plugin $plugin not in the prefix" >&2; exit 1;; esac
case $acopt in "$prefix"/*) ;; *) echo "check.sh: FAIL: ac-opt $acopt not in the prefix" >&2; exit 1;; esac

# pkg-config, when it is there.
if command -v pkg-config >/dev/null 2>&1; then
  PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  export PKG_CONFIG_PATH
  [ "$(pkg-config --modversion autoac)" = "$(sed -n 3p "$tmp/build/installed.txt")" ] ||
    { echo "check.sh: FAIL: autoac.pc version" >&2; exit 1; }
  # shellcheck disable=SC2046
  cc -std=c11 -o "$tmp/consumer-pc" "$src/consumer.c" $(pkg-config --cflags --libs autoac)
  LD_LIBRARY_PATH=$(pkg-config --variable=libdir autoac) "$tmp/consumer-pc" "$input" 24GB "$peak"
fi

# The installed driver and plugin plan the same module to the same peak.
"$acopt" "$input" --ac-report="$tmp/r.json" -o "$tmp/out.mlir"
grep -q '"peak_bytes": *1310728' "$tmp/r.json" || { echo "check.sh: FAIL: ac-opt report" >&2; cat "$tmp/r.json" >&2; exit 1; }
"$llvmbin/mlir-opt" "$input" --allow-unregistered-dialect --load-pass-plugin="$plugin" \
  --pass-pipeline="builtin.module(auto-ac{budget=24GB report=$tmp/p.json})" -o "$tmp/p.mlir"
grep -q '"peak_bytes": *1310728' "$tmp/p.json" || { echo "check.sh: FAIL: plugin report" >&2; exit 1; }
echo "check.sh: installed autoac works from outside"
