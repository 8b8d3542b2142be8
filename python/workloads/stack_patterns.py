#!/usr/bin/env python3
"""Windows that are not a steady decode, made on purpose, each around a cudaProfilerStart/Stop range
(for `nsys profile --capture-range=cudaProfilerApi`) with one NVTX range per step:

  --pattern prefill     one eager forward of a long prompt (batch 1) and its sampling: a prefill-only
                        step, no decode loop in the window
  --pattern graph-decode  an eager prefill, then --steps decode steps, each one replay of a CUDA graph
                        holding the whole forward, with the sampling (argmax, token copy, position add)
                        launched eagerly after it, as serving engines do. Under nsys's default
                        graph-level tracing the replayed kernels are not in the kernel table; with
                        --cuda-graph-trace=node they are
  --pattern autotune    a decode loop of Triton GEMVs whose launch configuration is tuned by
                        triton.autotune on first use inside the window: the tuner's benchmark launches
                        (each candidate many times, an L2-clearing fill between them) precede the steady
                        steps

The model is llama_decode.py's Decoder (random bf16 weights). One JSON summary line on stdout.
"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import llama_decode  # noqa: E402


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pattern", choices=["prefill", "graph-decode", "autotune"], required=True)
    p.add_argument("--prompt-len", type=int, default=1024)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--steps", type=int, default=64, help="decode steps inside the window")
    p.add_argument("--layers", type=int, default=16)
    p.add_argument("--hidden", type=int, default=4096)
    return p.parse_args(argv)


def decoder_args(a):
    # llama_decode's own defaults, with this run's sizes.
    return llama_decode.parse_args(["--layers", str(a.layers), "--hidden", str(a.hidden), "--batch", str(a.batch),
                                    "--prompt-len", str(a.prompt_len), "--steps", str(a.steps)])


def window(fn, steps_named="step"):
    import torch.cuda.profiler as cuda_profiler
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    cuda_profiler.start()
    fn()
    torch.cuda.synchronize()
    cuda_profiler.stop()
    return time.perf_counter() - t0


def prefill(a):
    da = decoder_args(a)
    model = llama_decode.Decoder(da, torch.device("cuda"), a.prompt_len + 64)
    model.alloc_cache(a.batch)
    prompt = torch.randint(10, da.vocab - 10, (a.batch, a.prompt_len), device="cuda")
    model.probe_attention(a.batch, a.prompt_len, a.prompt_len, masked=False)  # picks the SDPA backend per shape
    with torch.no_grad():
        model.forward(prompt, model.positions[:a.prompt_len], None, write_cache=True)  # warm-up, outside
        torch.cuda.synchronize()

        def body():
            torch.cuda.nvtx.range_push("prefill")
            logits = model.forward(prompt, model.positions[:a.prompt_len], None, write_cache=True)
            logits.argmax(-1)
            torch.cuda.nvtx.range_pop()
        seconds = window(body)
    return {"prefill_tokens": a.batch * a.prompt_len, "window_s": round(seconds, 6)}


def graph_decode(a):
    da = decoder_args(a)
    max_len = -(-(a.prompt_len + a.steps + 8) // 64) * 64
    m = llama_decode.Decoder(da, torch.device("cuda"), max_len)
    m.alloc_cache(a.batch)
    prompt = torch.randint(10, da.vocab - 10, (a.batch, a.prompt_len), device="cuda")
    m.probe_attention(a.batch, a.prompt_len, a.prompt_len, masked=False)  # picks the SDPA backend per shape
    m.probe_attention(a.batch, 1, max_len, masked=True)
    pos = torch.zeros(1, dtype=torch.long, device="cuda")
    tok = torch.zeros(a.batch, 1, dtype=torch.long, device="cuda")

    def forward():
        visible = m.positions <= pos
        mask = torch.where(visible, 0.0, float("-inf")).to(m.dtype).view(1, 1, 1, -1)
        return m.forward(tok, pos, mask, write_cache=True)

    with torch.no_grad():
        m.forward(prompt, m.positions[:a.prompt_len], None, write_cache=True)
        pos.fill_(a.prompt_len)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                forward()
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            logits = forward()
        torch.cuda.synchronize()

        def body():
            torch.cuda.nvtx.range_push("prefill")
            first = m.forward(prompt, m.positions[:a.prompt_len], None, write_cache=True)
            tok.copy_(first.argmax(-1, keepdim=True))
            pos.fill_(a.prompt_len)
            torch.cuda.nvtx.range_pop()
            for i in range(a.steps):
                torch.cuda.nvtx.range_push("decode_step_%d" % i)
                graph.replay()
                tok.copy_(logits.argmax(-1, keepdim=True))  # sampling outside the graph
                pos.add_(1)
                torch.cuda.nvtx.range_pop()
        seconds = window(body)
    return {"prefill_tokens": a.batch * a.prompt_len, "decode_steps": a.steps, "window_s": round(seconds, 6),
            "decode_tokens": a.steps * a.batch}


def autotune(a):
    import triton
    import triton.language as tl

    configs = [triton.Config({"BLOCK_N": n, "BLOCK_K": k}, num_warps=w)
               for n, k, w in [(32, 128, 4), (64, 128, 4), (64, 256, 8), (128, 64, 4), (128, 128, 8), (16, 512, 4)]]

    @triton.autotune(configs=configs, key=["N", "K"])
    @triton.jit
    def gemv_kernel(x_ptr, w_ptr, y_ptr, N, K, M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
        pid = tl.program_id(0)
        cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
        for m in range(M):
            acc = tl.zeros([BLOCK_N], dtype=tl.float32)
            for k0 in range(0, K, BLOCK_K):
                ks = k0 + tl.arange(0, BLOCK_K)
                x = tl.load(x_ptr + m * K + ks, mask=ks < K, other=0.0)
                w = tl.load(w_ptr + cols[:, None] * K + ks[None, :], mask=(cols[:, None] < N) & (ks[None, :] < K), other=0.0)
                acc += tl.sum(w.to(tl.float32) * x[None, :].to(tl.float32), axis=1)
            tl.store(y_ptr + m * N + cols, acc.to(tl.bfloat16), mask=cols < N)

    d, layers, m_rows = a.hidden, a.layers, a.batch
    g = torch.Generator(device="cuda").manual_seed(0)
    ws = [(torch.empty(4 * d, d, device="cuda", dtype=torch.bfloat16).normal_(0, 0.02, generator=g),
           torch.empty(d, 4 * d, device="cuda", dtype=torch.bfloat16).normal_(0, 0.02, generator=g)) for _ in range(layers)]
    head = torch.empty(32000, d, device="cuda", dtype=torch.bfloat16).normal_(0, 0.02, generator=g)
    x0 = torch.randn(m_rows, d, device="cuda", dtype=torch.bfloat16)

    def gemv(x, w):
        n, k = w.shape
        y = torch.empty(m_rows, n, device="cuda", dtype=torch.bfloat16)
        gemv_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK_N"]),)](x, w, y, n, k, M=m_rows)
        return y

    def step(x):
        for up, down in ws:
            x = x + gemv(F.silu(gemv(x, up)), down)
            x = F.rms_norm(x, (d,), eps=1e-5)
        return F.linear(x, head).argmax(-1)

    with torch.no_grad():
        def body():
            x = x0
            for i in range(a.steps):
                torch.cuda.nvtx.range_push("decode_step_%d" % i)
                step(x)
                torch.cuda.nvtx.range_pop()
        seconds = window(body)
    best = {str(k): str(v) for k, v in gemv_kernel.cache.items()}
    return {"decode_steps": a.steps, "window_s": round(seconds, 6), "tuned": best, "candidates": len(configs)}


def main(argv=None):
    a = parse_args(argv)
    run = {"prefill": prefill, "graph-decode": graph_decode, "autotune": autotune}[a.pattern]
    out = run(a)
    print(json.dumps({"kind": "summary", "workload": "stack_patterns", "pattern": a.pattern, "batch": a.batch,
                      "prompt_len": a.prompt_len, "layers": a.layers, "hidden": a.hidden,
                      "device": torch.cuda.get_device_name(0), "torch": torch.__version__, **out}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
