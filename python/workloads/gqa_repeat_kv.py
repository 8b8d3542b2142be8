"""GQA decode attention that repeats its KV heads every step (the `repeat_kv` of Hugging Face Llama
models: expand, then reshape, which materializes a strided copy of the whole cache), then SDPA.

Made to capture the copy that dominates such a step with nsys and ncu on one GPU. Random tensors,
no model weights. `--steps` decode steps after `--warmup` steps; cudaProfilerStart/Stop bracket the
measured steps so an nsys capture range covers the steady state only.
"""
import argparse
import time

import torch


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    b, kvh, s, d = x.shape
    return x[:, :, None, :, :].expand(b, kvh, n_rep, s, d).reshape(b, kvh * n_rep, s, d)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--heads", type=int, default=32)
    parser.add_argument("--kv-heads", type=int, default=8)
    parser.add_argument("--seq", type=int, default=2048)
    parser.add_argument("--head-dim", type=int, default=128)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args()
    dev, dt = "cuda", torch.bfloat16
    q = torch.randn(args.batch, args.heads, 1, args.head_dim, device=dev, dtype=dt)
    k = torch.randn(args.batch, args.kv_heads, args.seq, args.head_dim, device=dev, dtype=dt)
    v = torch.randn_like(k)
    n_rep = args.heads // args.kv_heads

    def step() -> torch.Tensor:
        return torch.nn.functional.scaled_dot_product_attention(q, repeat_kv(k, n_rep), repeat_kv(v, n_rep))

    for _ in range(args.warmup):
        step()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    start = time.perf_counter()
    for _ in range(args.steps):
        step()
    torch.cuda.synchronize()
    elapsed = time.perf_counter() - start
    torch.cuda.cudart().cudaProfilerStop()
    print(f"gqa_repeat_kv: {args.steps} steps in {elapsed * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
