#!/usr/bin/env python3
"""Summarize a PyTorch profiler (Kineto) Chrome trace: kernel count and time, ProfilerStep
markers, the GPU span they cover, and the top kernels by total time. Standard library only, so it
runs anywhere; used to check captures and to get expected numbers independently of the importer.

usage: trace_summary.py TRACE.json[.gz] [--top N]   -> one JSON object on stdout
"""
import argparse
import collections
import gzip
import json
import sys

KERNEL_CATS = {"kernel", "Kernel"}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def summarize(trace, top):
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    kernels = [e for e in events if e.get("ph") == "X" and e.get("cat") in KERNEL_CATS]
    by_name = collections.defaultdict(lambda: [0, 0.0])
    for k in kernels:
        by_name[k["name"]][0] += 1
        by_name[k["name"]][1] += float(k.get("dur", 0))
    total_us = sum(v[1] for v in by_name.values())
    steps_cpu = [e for e in events if e.get("cat") == "user_annotation" and str(e.get("name", "")).startswith("ProfilerStep#")]
    steps_gpu = [e for e in events if e.get("cat") == "gpu_user_annotation" and str(e.get("name", "")).startswith("ProfilerStep#")]
    span_us = None
    if kernels:
        start = min(float(k["ts"]) for k in kernels)
        end = max(float(k["ts"]) + float(k.get("dur", 0)) for k in kernels)
        span_us = end - start
    ranked = sorted(by_name.items(), key=lambda kv: -kv[1][1])[:top]
    return {
        "kernel_events": len(kernels),
        "distinct_kernels": len(by_name),
        "kernel_time_us": round(total_us, 3),
        "kernel_span_us": None if span_us is None else round(span_us, 3),
        "busy_fraction_of_span": None if not span_us else round(total_us / span_us, 4),
        "profiler_steps_cpu": sorted(e["name"] for e in steps_cpu),
        "profiler_steps_gpu": len(steps_gpu),
        "graph_launches": sum(1 for e in events if e.get("name") in ("cudaGraphLaunch", "cudaGraphLaunch_v10000")),
        "memcpy_events": sum(1 for e in events if e.get("cat") in ("gpu_memcpy", "Memcpy")),
        "top": [{"name": n[:160], "count": c, "total_us": round(t, 3),
                 "share": round(t / total_us, 4) if total_us else None} for n, (c, t) in ranked],
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("trace")
    p.add_argument("--top", type=int, default=10)
    a = p.parse_args()
    print(json.dumps(dict(file=a.trace, **summarize(load(a.trace), a.top)), indent=1))


if __name__ == "__main__":
    sys.exit(main())
