# Sourced by scripts/run and scripts/test: make .venv (once) and install the project into it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  if ! "$PY" -m venv .venv 2>/dev/null; then
    # Debian's python3 needs its venv package; we are root on a fresh machine.
    rm -rf .venv
    if command -v apt-get >/dev/null; then
      apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
    fi
    "$PY" -m venv .venv
  fi
  .venv/bin/python -m pip install -q --upgrade pip
fi
