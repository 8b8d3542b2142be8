#!/usr/bin/env python3
"""Llama-style decoder with random weights, in JAX: the twin of llama_decode.py for comparing stacks.

The same shape and arithmetic as python/workloads/llama_decode.py (defaults: 16 layers, hidden 4096,
32 query heads, 8 KV heads, MLP 11008, vocab 32000, bf16, static KV cache, greedy argmax), so a
profile of each can be read side by side: the same decode should get the same verdict whichever
stack ran it.

Differences from the PyTorch twin, none of which changes the work of a decode step:
  - the KV cache is filled with random values up to the prompt length instead of by a real prefill
    (a decode step reads the cache; its contents do not change the kernels or their lengths);
  - attention is jax.nn.dot_product_attention (cuDNN's fused kernel when --attention cudnn is
    accepted, else XLA's own), with the visible cache length given as key_value_seq_lengths.

Modes:
  --jit on    the decode step is one jitted XLA program (XLA replays it as CUDA graphs): GPU-bound
  --jit off   every jnp operation is dispatched on its own from Python (jax.disable_jit): host-bound
Profiles:
  --profile cuda-range  cudaProfilerStart/Stop (libcudart through ctypes) around --profile-steps steps,
                        for `nsys profile --capture-range=cudaProfilerApi --capture-range-end=stop`
  --profile jax         jax.profiler over --profile-steps steps (TensorBoard profile plus a Perfetto trace)

Prints one JSON line per timed run ({"kind":"run",...,"tok_s":...}) and a final summary line
({"kind":"summary",...}), which is also written to <out>/<name>.summary.json.
"""
import argparse
import ctypes
import ctypes.util
import glob
import json
import os
import time


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--jit", choices=["on", "off"], default="on")
    p.add_argument("--attention", choices=["cudnn", "xla"], default="cudnn",
                   help="implementation of jax.nn.dot_product_attention (cudnn falls back to xla if refused)")
    p.add_argument("--steps", type=int, default=64, help="decode steps per timed run")
    p.add_argument("--warmup", type=int, default=16, help="untimed decode steps before timing")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--prompt-len", type=int, default=512, help="cache slots already written when decoding starts")
    p.add_argument("--repeats", type=int, default=5, help="timed runs; one JSON line each")
    p.add_argument("--profile", choices=["cuda-range", "jax", "none"], default="none")
    p.add_argument("--profile-steps", type=int, default=8)
    p.add_argument("--out", default=".")
    p.add_argument("--name", default=None)
    p.add_argument("--layers", type=int, default=16)
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--kv-heads", type=int, default=8)
    p.add_argument("--intermediate", type=int, default=11008)
    p.add_argument("--vocab", type=int, default=32000)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.hidden % args.heads or args.heads % args.kv_heads:
        p.error("--hidden must divide by --heads, and --heads by --kv-heads")
    if args.name is None:
        args.name = "jax_decode_jit-%s_b%d" % (args.jit, args.batch)
    return args


def emit(record):
    print(json.dumps(record), flush=True)


def load_cudart():
    """libcudart for cudaProfilerStart/Stop: the system's, or the one a CUDA wheel installed."""
    names = [ctypes.util.find_library("cudart")] + ["libcudart.so.13", "libcudart.so.12", "libcudart.so"]
    try:
        import nvidia  # the CUDA wheels JAX installs put their libraries under nvidia/*/lib
        for root in getattr(nvidia, "__path__", []):
            names += sorted(glob.glob(os.path.join(root, "cuda_runtime", "lib", "libcudart.so*")))
    except ImportError:
        pass
    names += sorted(glob.glob("/usr/local/cuda/lib64/libcudart.so*"))
    for name in names:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise SystemExit("--profile cuda-range: no libcudart found for cudaProfilerStart/Stop")


def main(argv=None):
    a = parse_args(argv)
    import jax
    import jax.numpy as jnp

    os.makedirs(a.out, exist_ok=True)
    dtype = jnp.bfloat16
    hd = a.hidden // a.heads
    reach = max(a.steps, a.warmup, a.profile_steps, 3) + 1
    cache_len = -(-(a.prompt_len + reach) // 64) * 64  # rounded up to 64, as in llama_decode.py
    key = jax.random.PRNGKey(a.seed)

    def normal(shape):
        nonlocal key
        key, sub = jax.random.split(key)
        return (jax.random.normal(sub, shape, jnp.float32) * 0.02).astype(dtype)

    t_setup = time.perf_counter()
    qkv_out = (a.heads + 2 * a.kv_heads) * hd
    params = {
        "embed": normal((a.vocab, a.hidden)),
        "lm_head": normal((a.hidden, a.vocab)),
        "final_norm": jnp.ones((a.hidden,), dtype),
        "layers": [{
            "norm1": jnp.ones((a.hidden,), dtype), "wqkv": normal((a.hidden, qkv_out)),
            "wo": normal((a.heads * hd, a.hidden)), "norm2": jnp.ones((a.hidden,), dtype),
            "w_gate_up": normal((a.hidden, 2 * a.intermediate)), "w_down": normal((a.intermediate, a.hidden)),
        } for _ in range(a.layers)],
    }
    n_params = sum(int(x.size) for x in jax.tree_util.tree_leaves(params))
    # Layout of jax.nn.dot_product_attention: [batch, seq, kv_heads, head_dim].
    caches_k = [normal((a.batch, cache_len, a.kv_heads, hd)) for _ in range(a.layers)]
    caches_v = [normal((a.batch, cache_len, a.kv_heads, hd)) for _ in range(a.layers)]

    inv_freq = 1.0 / (10000.0 ** (jnp.arange(0, hd, 2, dtype=jnp.float32) / hd))

    def rms_norm(x, w):
        xf = x.astype(jnp.float32)
        return (xf * jax.lax.rsqrt(jnp.mean(xf * xf, axis=-1, keepdims=True) + 1e-6)).astype(dtype) * w

    def rope(x, pos):  # x [B, n, hd]; rotate halves, as llama_decode.py does
        ang = pos.astype(jnp.float32) * inv_freq
        cos, sin = jnp.cos(ang).astype(dtype), jnp.sin(ang).astype(dtype)
        cos, sin = jnp.concatenate([cos, cos]), jnp.concatenate([sin, sin])
        x1, x2 = x[..., : hd // 2], x[..., hd // 2:]
        return x * cos + jnp.concatenate([-x2, x1], axis=-1) * sin

    attention_used = {"impl": a.attention}

    def attend(q, k, v, lengths):
        try:
            return jax.nn.dot_product_attention(q, k, v, key_value_seq_lengths=lengths,
                                                implementation=attention_used["impl"])
        except Exception as error:  # cuDNN refuses some shapes or versions: say so and use XLA's
            if attention_used["impl"] != "cudnn":
                raise
            emit({"kind": "note", "message": "cudnn attention refused: %s" % str(error)[:200]})
            attention_used["impl"] = "xla"
            return jax.nn.dot_product_attention(q, k, v, key_value_seq_lengths=lengths, implementation="xla")

    def step(params, caches_k, caches_v, tok, pos):
        b = tok.shape[0]
        x = params["embed"][tok]  # [B, D]
        lengths = jnp.full((b,), pos + 1, jnp.int32)
        new_k, new_v = [], []
        for layer, ck, cv in zip(params["layers"], caches_k, caches_v):
            h = rms_norm(x, layer["norm1"])
            qkv = h @ layer["wqkv"]
            q = qkv[:, : a.heads * hd].reshape(b, a.heads, hd)
            k = qkv[:, a.heads * hd: (a.heads + a.kv_heads) * hd].reshape(b, a.kv_heads, hd)
            v = qkv[:, (a.heads + a.kv_heads) * hd:].reshape(b, a.kv_heads, hd)
            q, k = rope(q, pos), rope(k, pos)
            ck = jax.lax.dynamic_update_slice(ck, k[:, None], (0, pos, 0, 0))
            cv = jax.lax.dynamic_update_slice(cv, v[:, None], (0, pos, 0, 0))
            new_k.append(ck)
            new_v.append(cv)
            o = attend(q[:, None], ck, cv, lengths).reshape(b, a.heads * hd)
            x = x + o @ layer["wo"]
            h = rms_norm(x, layer["norm2"])
            gu = h @ layer["w_gate_up"]
            x = x + (jax.nn.silu(gu[:, : a.intermediate]) * gu[:, a.intermediate:]) @ layer["w_down"]
        logits = rms_norm(x, params["final_norm"]) @ params["lm_head"]
        return jnp.argmax(logits, axis=-1).astype(jnp.int32), new_k, new_v, pos + 1

    def build_step():
        if a.jit == "on":
            return jax.jit(step, donate_argnums=(1, 2))

        def eager_step(*args):
            with jax.disable_jit():
                return step(*args)
        return eager_step

    run_step = build_step()

    tok0 = jax.random.randint(jax.random.PRNGKey(a.seed + 1), (a.batch,), 10, a.vocab - 10, jnp.int32)
    state = {"k": caches_k, "v": caches_v}

    start_pos = jax.device_put(jnp.int32(a.prompt_len))

    def decode(n):
        # Each run restarts at the prompt's end; the position stays on the device, as the token does.
        tok, pos = tok0, start_pos
        for _ in range(n):
            tok, state["k"], state["v"], pos = run_step(params, state["k"], state["v"], tok, pos)
        return tok

    try:
        decode(3).block_until_ready()  # compiles (jit on) or warms the op caches (jit off)
    except Exception as error:  # cuDNN may refuse the shape only when the program is compiled
        if attention_used["impl"] != "cudnn":
            raise
        emit({"kind": "note", "message": "cudnn attention failed to compile: %s" % str(error)[:200]})
        attention_used["impl"] = "xla"
        run_step = build_step()
        decode(3).block_until_ready()
    setup_s = time.perf_counter() - t_setup
    decode(a.warmup).block_until_ready()

    per_run = []
    for r in range(a.repeats):
        wall0, t0 = time.time(), time.perf_counter()
        decode(a.steps).block_until_ready()
        dt = time.perf_counter() - t0
        tok_s = a.steps * a.batch / dt
        per_run.append(tok_s)
        emit({"kind": "run", "run": r, "steps": a.steps, "batch": a.batch, "tokens": a.steps * a.batch,
              "seconds": round(dt, 6), "tok_s": round(tok_s, 3), "t_start": round(wall0, 3),
              "t_end": round(wall0 + dt, 3)})

    profile_window = None
    profile_dir = None
    if a.profile != "none":
        # The step count of the profiled window, in the words profile-gate reads (time per step).
        emit({"metric": "profile_steps", "value": a.profile_steps})
        wall0 = time.time()
        if a.profile == "cuda-range":
            cudart = load_cudart()
            cudart.cudaProfilerStart()
            decode(a.profile_steps).block_until_ready()
            cudart.cudaProfilerStop()
        else:
            profile_dir = os.path.join(a.out, a.name + ".jax-profile")
            jax.profiler.start_trace(profile_dir, create_perfetto_trace=True)
            decode(a.profile_steps).block_until_ready()
            jax.profiler.stop_trace()
        profile_window = [round(wall0, 3), round(time.time(), 3)]

    median = sorted(per_run)[len(per_run) // 2] if per_run else None
    summary = {
        "kind": "summary", "workload": "jax_decode", "name": a.name, "jit": a.jit, "batch": a.batch,
        "attention": attention_used["impl"], "attention_requested": a.attention,
        "prompt_len": a.prompt_len, "steps": a.steps, "warmup": a.warmup, "repeats": a.repeats,
        "layers": a.layers, "hidden": a.hidden, "heads": a.heads, "kv_heads": a.kv_heads,
        "intermediate": a.intermediate, "vocab": a.vocab, "dtype": "bfloat16", "params": n_params,
        "cache_len": cache_len, "setup_s": round(setup_s, 3),
        "per_run_tok_s": [round(x, 3) for x in per_run], "tok_s_median": median and round(median, 3),
        "profile": a.profile, "profile_steps": a.profile_steps if a.profile != "none" else None,
        "profile_dir": profile_dir, "profile_window": profile_window,
        "device": str(jax.devices()[0]), "jax": jax.__version__,
    }
    emit(summary)
    with open(os.path.join(a.out, a.name + ".summary.json"), "w") as f:
        json.dump(summary, f, indent=1)


if __name__ == "__main__":
    main()
