#!/usr/bin/env python3
"""A noisy neighbour on a shared GPU: random bf16 matmul bursts with random pauses, as another job on
the same card would run. Seeded, so a recorded session can be run again.

Each burst multiplies square bf16 matrices of a random size (--min-n to --max-n, multiples of 256)
a random number of times (1 to --max-reps), synchronizes, then sleeps a random pause (0 to
--max-pause-ms). Runs for --duration seconds or until SIGTERM/SIGINT. Prints one JSON line when it
starts and one when it stops ({"kind":"neighbour", "bursts": N, "busy_s": ..., "seconds": ...}).
"""
import argparse
import json
import random
import signal
import time

import torch


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--duration", type=float, default=600.0)
    p.add_argument("--min-n", type=int, default=1024)
    p.add_argument("--max-n", type=int, default=8192)
    p.add_argument("--max-reps", type=int, default=40)
    p.add_argument("--max-pause-ms", type=float, default=300.0)
    a = p.parse_args()
    rng = random.Random(a.seed)
    stop = {"now": False}

    def on_signal(signum, frame):
        stop["now"] = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    dev = torch.device("cuda")
    sizes = list(range(a.min_n, a.max_n + 1, 256))
    mats = {}
    t0 = time.time()
    print(json.dumps({"kind": "neighbour-start", "seed": a.seed, "t": round(t0, 3)}), flush=True)
    bursts, busy = 0, 0.0
    while not stop["now"] and time.time() - t0 < a.duration:
        n = rng.choice(sizes)
        if n not in mats:
            g = torch.Generator(device=dev).manual_seed(n)
            mats[n] = torch.randn(n, n, device=dev, dtype=torch.bfloat16, generator=g)
        m = mats[n]
        b0 = time.time()
        for _ in range(rng.randint(1, a.max_reps)):
            torch.matmul(m, m)
        torch.cuda.synchronize()
        busy += time.time() - b0
        bursts += 1
        time.sleep(rng.uniform(0.0, a.max_pause_ms) / 1e3)
    print(json.dumps({"kind": "neighbour", "seed": a.seed, "bursts": bursts, "busy_s": round(busy, 3),
                      "seconds": round(time.time() - t0, 3)}), flush=True)


if __name__ == "__main__":
    main()
