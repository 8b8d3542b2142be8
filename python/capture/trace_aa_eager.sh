#!/usr/bin/env bash
# More processes of the host-bound decode (llama_decode.py --graph off, batch 8, 16 layers; PyTorch
# profiler over 8 steps): the spread of a host-bound profiled step between processes, the floor's
# evidence (src/compare/gate-options.ts). Writes $OUT/trace_aa_eager.tar.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/aa-out}
W=/tmp/aae; mkdir -p "$W" "$OUT"
CLEAN=(env -i PATH="$PATH" HOME=/tmp LANG=C.UTF-8 LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}" PYTHONPATH="${PYTHONPATH:-}" PYTHONUNBUFFERED=1)
WL="python3 python/workloads/llama_decode.py --batch 8 --warmup 16 --steps 64 --repeats 3 --profile torch --profile-steps 8 --graph off"
nproc; uptime
for i in 4 5 6 7 8 9 10 11; do
  timeout 120 "${CLEAN[@]}" $WL --out "$W" --name eager_$i > "$W/eager_$i.stdout.jsonl" 2> "$W/eager_$i.stderr.log"
  echo "eager_$i rc=$? $(grep -o '"tok_s": [0-9.]*' "$W/eager_$i.stdout.jsonl" | tr '\n' ' ')"
done
rm -f "$W"/*.kernels.txt
tar -C "$W" -cf "$OUT/trace_aa_eager.tar" .
