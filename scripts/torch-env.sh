#!/usr/bin/env bash
# Makes (once) and prints the path of the Python that runs autoac's PyTorch
# door: a virtual environment of Debian's python3 with the pins of
# python/requirements-torch.txt (torch 2.x from PyPI), kept outside the work
# tree and reused while the pins are unchanged.
#   scripts/torch-env.sh            -> prints .../bin/python
# AUTOAC_TORCH_ENV_ROOT (default ~/.cache/autoac) says where environments
# live; each is named by a hash of the pins, so changing a pin makes a new one
# and never breaks an old one.  An environment is used only once it is
# complete (its install finished and its torch imports).
set -euo pipefail
cd "$(dirname "$0")/.."
REQ=python/requirements-torch.txt
ROOT=${AUTOAC_TORCH_ENV_ROOT:-${HOME:-/root}/.cache/autoac}
KEY=$( (cat "$REQ"; /usr/bin/python3 -c 'import sys; print(sys.version)') | sha256sum | cut -c1-16)
ENV="$ROOT/torch-env-$KEY"
if [ -f "$ENV/.complete" ] && "$ENV/bin/python" -c 'import torch' >/dev/null 2>&1; then
  echo "$ENV/bin/python"
  exit 0
fi
if ! /usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  echo "autoac: installing python3-venv" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq python3-venv >/dev/null
fi
mkdir -p "$ROOT"
rm -rf "$ENV"
echo "autoac: making the torch environment $ENV (pins: $REQ)" >&2
/usr/bin/python3 -m venv "$ENV" >&2
"$ENV/bin/python" -m pip install -q --disable-pip-version-check -r "$REQ" >&2
"$ENV/bin/python" -c 'import torch, torchvision' >&2
touch "$ENV/.complete"
echo "$ENV/bin/python"
