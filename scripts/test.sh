#!/usr/bin/env bash
# Runs every test of the workspace. Creates .venv with the official A2A Python
# SDK (a2a-sdk==0.3.26, from PyPI) first, for the interop tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! .venv/bin/python -c "import a2a, httpx" 2>/dev/null; then
    echo "Setting up .venv with a2a-sdk==0.3.26 …"
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check a2a-sdk==0.3.26
fi
export ECCLESIA_PYTHON="$PWD/.venv/bin/python"
export ECCLESIA_REQUIRE_INTEROP=1

cargo test --workspace "$@"
