#!/usr/bin/env bash
# Regenerates every journal in Fixtures/ deterministically: running it twice gives byte-identical
# files. Usage: bash Fixtures/regenerate.sh   (from the repository root)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product rewind >/dev/null
rewind=".build/debug/rewind"
out=Fixtures

"$rewind" demo --deterministic --sample counter -o "$out/counter.rewind" >/dev/null
"$rewind" demo --deterministic --sample todo -o "$out/todo.rewind" >/dev/null
"$rewind" demo --deterministic --sample ricemill -o "$out/ricemill.rewind" >/dev/null
"$rewind" demo --deterministic --sample unio -o "$out/unio.rewind" >/dev/null
"$rewind" demo --deterministic --sample flask -o "$out/flask.rewind" >/dev/null
"$rewind" demo --deterministic --sample checkout -o "$out/checkout.rewind" >/dev/null
"$rewind" demo --deterministic -o "$out/demo.rewind" >/dev/null

size() { stat -c %s "$1"; }

# Torn tail: the writer killed in the middle of its last block (no index, a cut block).
cp "$out/todo.rewind" "$out/todo-torn-tail.rewind"
truncate -s $(( $(size "$out/todo.rewind") * 3 / 4 )) "$out/todo-torn-tail.rewind"

# A flipped byte inside the first block's payload (70-byte header + 60-byte frame + 18).
cp "$out/counter.rewind" "$out/counter-flipped-byte.rewind"
printf '\xA5' | dd of="$out/counter-flipped-byte.rewind" bs=1 seek=148 conv=notrunc status=none

# A truncated index: the last 30 bytes (the trailer and the end of the index block) cut off.
cp "$out/demo.rewind" "$out/demo-truncated-index.rewind"
truncate -s $(( $(size "$out/demo.rewind") - 30 )) "$out/demo-truncated-index.rewind"

ls -l "$out"/*.rewind
