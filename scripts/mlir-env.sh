#!/usr/bin/env bash
# Makes (once) and prints the path of the Python that runs the torch-mlir and
# IREE flows (docs/flows.md): a virtual environment holding the pins of
# python/requirements-mlir.txt (torch-mlir, iree-base-compiler,
# iree-base-runtime) layered on the torch 2.x environment of
# scripts/torch-env.sh, whose packages (torch, numpy, pytest, ...) it sees
# through a .pth file instead of installing torch a second time.
#   scripts/mlir-env.sh            -> prints .../bin/python
# Kept outside the work tree (AUTOAC_TORCH_ENV_ROOT, default ~/.cache/autoac),
# named by a hash of the pins and of the torch environment it sits on, used
# only once complete (its install finished and torch_mlir, iree.compiler and
# iree.runtime import).  The torch environment itself is not changed.
set -euo pipefail
cd "$(dirname "$0")/.."
REQ=python/requirements-mlir.txt
TORCH_PY=$(scripts/torch-env.sh)
TORCH_ENV=$(dirname "$(dirname "$TORCH_PY")")
ROOT=${AUTOAC_TORCH_ENV_ROOT:-${HOME:-/root}/.cache/autoac}
KEY=$( (cat "$REQ"; echo "$TORCH_ENV") | sha256sum | cut -c1-16)
ENV="$ROOT/mlir-env-$KEY"
CHECK='import torch, torch_mlir.fx, iree.compiler, iree.runtime'
if [ -f "$ENV/.complete" ] && "$ENV/bin/python" -c "$CHECK" >/dev/null 2>&1; then
  echo "$ENV/bin/python"
  exit 0
fi
mkdir -p "$ROOT"
rm -rf "$ENV"
echo "autoac: making the torch-mlir/IREE environment $ENV (pins: $REQ, on $TORCH_ENV)" >&2
/usr/bin/python3 -m venv "$ENV" >&2
SITE=$("$ENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
TORCH_SITE=$("$TORCH_PY" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
# Appended after the environment's own site-packages: its pins win.
echo "$TORCH_SITE" > "$SITE/autoac-torch-env.pth"
"$ENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQ" >&2
"$ENV/bin/python" -c "$CHECK" >&2
touch "$ENV/.complete"
echo "$ENV/bin/python"
