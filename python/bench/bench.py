"""Python env steps/s against the same loop in C++, both measured in one process and one run.

    PYTHONPATH=build/native-release/python python3 python/bench/bench.py [RUNS] [--steps N]

Cases: memtier-v0 at 64 and 1024 bins (the native env benchmark's config: a 1 M-sample phased
trace, ~100 samples per window), one env and a vector env of 8 on one thread and on one thread
per core, the vector env as made by default and with copy=False, reuse_arrays=True (no array made
per step). Each run
times the Python loop and then the C++ loop (VectorEnv on a thread pool); the table gives
min / median steps/s over the runs and the median of the per-run ratios. Goals (issue 23): one
env >= 50 % of C++ at 64 bins, the vector env of 8 >= 80 %.
"""

import argparse
import json
import os
import statistics
import time

import numpy as np

import sysgym
from sysgym import _sysgym


def config(bins):
    return {"trace": "synth:phased:1000000:1", "bins": bins, "hbm_capacity": "25%",
            "window_len": 2e6}


def python_single(cfg, steps):
    env = sysgym.make("memtier-v0", **cfg)
    env.reset(seed=1)
    env.action_space.seed(1)
    actions = [env.action_space.sample() for _ in range(256)]
    step, reset = env.step, env.reset
    start = time.perf_counter()
    for i in range(steps):
        _, _, terminated, truncated, _ = step(actions[i & 255])
        if terminated or truncated:
            reset()
    return time.perf_counter() - start


def python_vector(cfg, steps, count, threads, reuse):
    envs = sysgym.make_vec("memtier-v0", num_envs=count, threads=threads, copy=not reuse,
                           reuse_arrays=reuse, **cfg)
    envs.reset(seed=1)
    envs.single_action_space.seed(1)
    batches = [np.stack([envs.single_action_space.sample() for _ in range(count)])
               for _ in range(64)]
    step = envs.step
    start = time.perf_counter()
    for i in range(steps):
        step(batches[i & 63])
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="?", type=int, default=5)
    parser.add_argument("--steps", type=int, default=100_000, help="env steps per timed loop")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    cases = [(bins, count, threads, reuse) for bins in (64, 1024)
             for count, threads, reuse in ((1, 1, False), (8, 1, False), (8, cores, False),
                                           (8, 1, True), (8, cores, True))]
    print(f"{'case':<40} {'Python steps/s min / median':>28} {'C++ steps/s min / median':>26}"
          f" {'Python / C++':>13}")
    for bins, count, threads, reuse in cases:
        cfg = config(bins)
        steps = args.steps // (8 if bins == 1024 else 1) // count
        py_rates, cpp_rates, ratios = [], [], []
        for _ in range(args.runs):
            if count == 1:
                py = python_single(cfg, steps)
            else:
                py = python_vector(cfg, steps, count, threads, reuse)
            cpp = _sysgym.time_native_steps("memtier-v0", json.dumps(cfg), steps, count, threads)
            py_rates.append(steps * count / py)
            cpp_rates.append(steps * count / cpp)
            ratios.append(cpp / py)
        name = f"{bins} bins, " + ("1 env" if count == 1 else
                                   f"{count} envs on {threads} thread{'s' if threads > 1 else ''}")
        name += ", reused arrays" if reuse else ""
        print(f"{name:<40} {min(py_rates):>13,.0f} / {statistics.median(py_rates):>12,.0f}"
              f" {min(cpp_rates):>12,.0f} / {statistics.median(cpp_rates):>11,.0f}"
              f" {statistics.median(ratios):>12.0%}", flush=True)


if __name__ == "__main__":
    main()
