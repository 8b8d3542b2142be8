#!/usr/bin/env bash
# A W8A8 decode (llama_decode.py --linear int8: activations quantized per token in plain PyTorch ops,
# then torch._int_mm) under the PyTorch profiler with Python stacks, and its bf16 twin, for the
# quant-prep-heavy rule's real capture. Writes $OUT/int8.tgz.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/int8-out}
D=$OUT/int8
mkdir -p "$D"
SHAPE="--layers 4 --hidden 2048 --heads 16 --kv-heads 4 --intermediate 5632 --prompt-len 128 --batch 32 --warmup 4 --steps 32"
for lin in int8 bf16; do
  timeout 240 python3 python/workloads/llama_decode.py $SHAPE --linear $lin --graph off --repeats 2 \
    --profile torch --profile-stack --profile-steps 4 --out "$D" --name w8a8_$lin > "$D/$lin.log" 2>&1
  echo "$lin rc=$? $(grep -o '"tok_s_median": [0-9.]*' "$D/$lin.log" | tail -1)"
  tail -2 "$D/$lin.log" | cut -c1-300
done
ls -la "$D"
tar czf "$OUT/int8.tgz" -C "$OUT" int8 && rm -rf "$D"
