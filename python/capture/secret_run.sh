#!/usr/bin/env bash
# `profile-gate run` as a user runs it on the GPU box, with a marker secret in the workload's
# environment, then `profile-gate scrub` over its folder: where the marker is before and after.
# Needs .nodebin/node.xz, .nsysdeps/ and the bundled dist/. Writes $OUT/secret_run.log and a tarball.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/secret-out}
mkdir -p "$OUT" /tmp/dw
for f in .nsysdeps/*.deb; do dpkg -x "$f" /tmp/dw; done
export LD_LIBRARY_PATH=/tmp/dw/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
xz -d < .nodebin/node.xz > /tmp/node && chmod +x /tmp/node
MARK=pgmarker7f3c9a1e5b2d4c6a
export HF_TOKEN="hf_$MARK" PG_GATE_SECRET="$MARK" PG_NOT_SECRET=plainvalue1234
WL="python3 python/workloads/llama_decode.py --layers 4 --hidden 2048 --heads 16 --kv-heads 4 --intermediate 5632 --prompt-len 256 --warmup 8 --steps 64"
R=$OUT/secret_run
{
echo "=== profile-gate run (nsys), marker in the environment"
timeout -k 10 400 /tmp/node dist/cli/index.js run --engine command --model llama-4l-secret \
  --run "echo logging in with \$HF_TOKEN >&2; $WL --repeats 2" \
  --profile-run "$WL --repeats 0 --profile cuda-range --profile-steps 8" \
  --profiler nsys --runs 3 --warmup-runs 1 --deep-dive off --timeout-minutes 6 --out "$R"
echo "exit $?"
echo "=== profile-gate scrub"
/tmp/node dist/cli/index.js scrub --out "$OUT/scrubbed" "$R"; echo "exit $?"
echo "=== marker bytes per file (raw run folder)"
( cd "$R" && find . -type f | sort | while read -r f; do n=$( { case "$f" in *.gz) gzip -dc "$f";; *) cat "$f";; esac; } | grep -a -o "$MARK" | wc -l); echo "$n $f"; done )
echo "=== marker bytes per file (scrubbed copy)"
( cd "$OUT/scrubbed" && find . -type f | sort | while read -r f; do n=$( { case "$f" in *.gz) gzip -dc "$f";; *) cat "$f";; esac; } | grep -a -o -e "$MARK" -e plainvalue1234 | wc -l); echo "$n $f"; done )
echo "=== the scrubbed SQLite export analyzed"
S=$(find "$OUT/scrubbed" -name '*.sqlite' | head -1)
/tmp/node dist/cli/index.js analyze "$S" --json "$OUT/scrubbed_sqlite.report.json" > /dev/null; echo "exit $?"
/tmp/node dist/cli/index.js analyze "$R/captures/profile.nsys-stats.csv" --json "$OUT/stats.report.json" > /dev/null; echo "exit $?"
python3 -c "
import json,sys
a=json.load(open('$OUT/scrubbed_sqlite.report.json')); b=json.load(open('$OUT/stats.report.json'))
print('scrubbed sqlite: kernel ns', a['totalKernelNs'], 'kernels', len(a['kernels']))
print('nsys stats csv : kernel ns', b['totalKernelNs'], 'kernels', len(b['kernels']))"
} > "$OUT/secret_run.log" 2>&1
tail -70 "$OUT/secret_run.log"
tar czf "$OUT/secret_run.tgz" -C "$OUT" secret_run scrubbed && rm -rf "$R" "$OUT/scrubbed"
