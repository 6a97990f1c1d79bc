#!/bin/sh
# The dynamic symbols libautoac.so and the plugin define: the public C API
# (ac*) only, plus mlirGetPassPluginInfo in the plugin; in particular no
# mlir*/llvm* names from the MLIR C API archives linked into them, nor C++
# symbols.  The names Python's ctypes bindings call must be there.
# Usage: exported_symbols.sh LIBAUTOAC_SO PLUGIN_SO
set -eu
lib=$1 plugin=$2
status=0
names() { nm -D --defined-only "$1" | awk 'NF == 3 { print $3 }' | sort -u; }

bad=$(names "$lib" | grep -v '^ac' || true)
if [ -n "$bad" ]; then
  echo "exported_symbols: FAIL: $lib exports names other than ac*:" >&2
  echo "$bad" | head -20 >&2
  status=1
fi
bad=$(names "$plugin" | grep -v -e '^ac' -e '^mlirGetPassPluginInfo$' || true)
if [ -n "$bad" ]; then
  echo "exported_symbols: FAIL: $plugin exports more than ac* and the plugin entry:" >&2
  echo "$bad" | head -20 >&2
  status=1
fi
for n in acPlanMlirText acFree acOptionsCreate acOptionsSet acOptionsDestroy acRunOnModule \
         acStatusName acRegisterPasses acParseSize; do
  names "$lib" | grep -qx "$n" || { echo "exported_symbols: FAIL: $lib lacks $n" >&2; status=1; }
done
names "$plugin" | grep -qx mlirGetPassPluginInfo ||
  { echo "exported_symbols: FAIL: $plugin lacks mlirGetPassPluginInfo" >&2; status=1; }
[ $status = 0 ] && echo "exported_symbols: $(names "$lib" | wc -l) names, all ac*"
exit $status
