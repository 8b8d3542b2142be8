#!/usr/bin/env python3
"""Summarize GPU utilization samples (gpu_snapshot.py JSON lines): mean/peak utilization, SM clock,
power, and how many samples carried each clock-event reason. With --runs, the same statistics over
the timed window only (first run's t_start to last run's t_end, from llama_decode.py's run lines).
Standard library only.

usage: util_summary.py SAMPLES.jsonl [--runs WORKLOAD_STDOUT.jsonl] [--device 0]
"""
import argparse
import collections
import json
import statistics
import sys


def read_jsonl(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    rows.append(json.loads(line))
                except ValueError:
                    pass
    return rows


def stats(samples):
    if not samples:
        return {"samples": 0}
    util = [s["gpu_util"] for s in samples]
    clocks = [s["sm_clock_mhz"] for s in samples if s.get("sm_clock_mhz") is not None]
    power = [s["power_w"] for s in samples if s.get("power_w") is not None]
    reasons = collections.Counter(r for s in samples for r in s.get("reasons", []))
    hw = collections.Counter(r for s in samples for r in s.get("hw_throttle", []))
    return {
        "samples": len(samples),
        "seconds": round(samples[-1]["t"] - samples[0]["t"], 3),
        "gpu_util_mean": round(statistics.fmean(util), 2),
        "gpu_util_median": statistics.median(util),
        "gpu_util_peak": max(util),
        "gpu_util_min": min(util),
        "sm_clock_mhz": None if not clocks else {"min": min(clocks), "median": statistics.median(clocks), "max": max(clocks)},
        "power_w": None if not power else {"mean": round(statistics.fmean(power), 1), "max": round(max(power), 1)},
        "reasons": dict(reasons),
        "hw_throttle": dict(hw),
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("samples")
    p.add_argument("--runs", help="workload stdout with {\"kind\":\"run\",\"t_start\":..,\"t_end\":..} lines")
    p.add_argument("--device", type=int, default=0)
    a = p.parse_args()
    rows = read_jsonl(a.samples)
    samples = [r for r in rows if r.get("kind") == "sample" and r.get("device", 0) == a.device
               and r.get("gpu_util") is not None]
    out = {"file": a.samples, "header": next((r for r in rows if r.get("kind") == "gpu-snapshot"), None),
           "all": stats(samples)}
    if a.runs:
        runs = [r for r in read_jsonl(a.runs) if r.get("kind") == "run"]
        if runs:
            t0, t1 = runs[0]["t_start"], runs[-1]["t_end"]
            out["timed_window"] = dict(start=t0, end=t1, **stats([s for s in samples if t0 <= s["t"] <= t1]))
            if len(runs) > 1:  # without the first timed run, which is known to be slower
                t0b = runs[1]["t_start"]
                out["timed_window_after_first"] = dict(start=t0b, end=t1,
                                                       **stats([s for s in samples if t0b <= s["t"] <= t1]))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    sys.exit(main())
