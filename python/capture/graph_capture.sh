#!/usr/bin/env bash
# CUDA-graph captures in the PyTorch profiler: each trace holds one fresh capture of the decode
# step (ops and launches on the CPU side) and a few replays of it (kernels with no CPU op).
#   bash python/capture/graph_capture.sh OUTDIR
set -u
out=${1:?OUTDIR}
mkdir -p "$out"
W=python/workloads/llama_decode.py
common="--graph on --profile torch-capture --profile-steps 4 --steps 16 --warmup 4 --repeats 2 --out $out"
run() {
  local name=$1; shift
  echo "== $name: python3 $W $* $common --name $name"
  timeout 300 python3 $W "$@" $common --name "$name" > "$out/$name.stdout.jsonl" 2> "$out/$name.stderr.txt"
  echo "rc=$? $(tail -c 300 "$out/$name.stderr.txt")"
  ls -la "$out" | grep "$name"
}
run graphcap_repeatkv_stack --attention repeat-kv --profile-stack
run graphcap_sdpa --attention sdpa
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/env.txt"
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)" >> "$out/env.txt"
