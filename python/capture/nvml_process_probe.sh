#!/usr/bin/env bash
# Does NVML, seen from the job's container, list a neighbour's compute process apart from the job's
# own? Starts python/workloads/noisy_neighbour.py and a decode of our own, then probes NVML
# (python/capture/nvml_process_probe.py) while both run, and once with the neighbour alone.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/probe-out}; mkdir -p "$OUT"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
python3 python/workloads/noisy_neighbour.py --seed 7 --duration 60 > "$OUT/neighbour.jsonl" 2>&1 &
NB=$!
sleep 8
python3 python/capture/nvml_process_probe.py samples=4 neighbour=$NB phase=neighbour-alone > "$OUT/probe-alone.jsonl" 2>&1
python3 python/workloads/llama_decode.py --batch 8 --warmup 4 --steps 256 --repeats 40 --out /tmp/probe-wl --name probe > "$OUT/workload.jsonl" 2> "$OUT/workload.err" &
WL=$!
sleep 15
python3 python/capture/nvml_process_probe.py samples=8 neighbour=$NB workload=$WL phase=both > "$OUT/probe-both.jsonl" 2>&1
nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv > "$OUT/smi-apps.csv" 2>&1
wait $WL; echo "workload rc=$?"
kill -TERM $NB; wait $NB
python3 python/capture/nvml_process_probe.py samples=2 phase=after > "$OUT/probe-after.jsonl" 2>&1
head -c 3000 "$OUT/probe-both.jsonl"; echo; cat "$OUT/smi-apps.csv"; tail -3 "$OUT/workload.jsonl" | cut -c1-300
