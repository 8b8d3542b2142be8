#!/usr/bin/env python3
"""A stand-in workload whose speed is set: each call is the next timed run of its side.

Prints one metric line {"kind": "run", "tok_s": N} (the shape tiny_command_workload.py prints), where
N is --tok-s times a seeded jitter, and a stalled run (--stall-runs, counted from 1 over every call
with the same --counter file) loses --stall of it, like a run beside a competing process.
"""
import argparse
import json
import os
import random


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tok-s", type=float, required=True)
    parser.add_argument("--counter", required=True, help="a file holding how many runs this side made")
    parser.add_argument("--jitter", type=float, default=0.001, help="relative sd of the run-to-run noise")
    parser.add_argument("--stall-runs", default="", help="comma-separated run numbers that stall")
    parser.add_argument("--stall", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run = 1
    if os.path.exists(args.counter):
        with open(args.counter) as handle:
            run = int(handle.read().strip() or 0) + 1
    with open(args.counter, "w") as handle:
        handle.write(str(run))
    value = args.tok_s * (1 + random.Random(args.seed * 1000 + run).gauss(0, args.jitter))
    if str(run) in [r for r in args.stall_runs.split(",") if r]:
        value *= 1 - args.stall
    print(json.dumps({"kind": "run", "tok_s": round(value, 3)}))


if __name__ == "__main__":
    main()
