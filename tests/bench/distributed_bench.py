"""Distributed training's throughput over 1, 2 and 4 MPI ranks: env steps/s and learner updates/s
of `mpirun -np N sysgym train ... --distributed`, each rank stepping the same number of envs, and
the scaling efficiency of env steps/s against one rank. 4 ranks oversubscribe a 2-core machine.

    python3 tests/bench/distributed_bench.py [RUNS] [--tool build/native-release/sysgym]

PPO (synchronous data parallel) in two cases: memtier at 1024 bins with a small network and one
epoch, where a rank's time goes to its own envs and forward passes (what scales with ranks); and
64 bins with the default network, where it goes to minibatch updates, each ending in an allreduce
of the gradients. DQN (Ape-X: rank 0 learns, every rank acts) in the same two settings: at 1024
bins acting dominates; at 64 bins with the default network the learner's updates do, and more
ranks bring more experience per update rather than more updates. Figures: min / median over the
runs of the rate the tool reports (steps after set-up, divided by the training time); updates/s
are the policy file's learner updates over its training seconds.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

CASES = {
    "PPO, rank-local work (1024 bins, hidden [32], 1 epoch)":
        ["bins=1024", "--agent", "ppo", "--agent-config",
         '{"hidden": [32], "rollout_steps": 64, "epochs": 1}'],
    "PPO, update-bound (64 bins, hidden [128, 128], 4 epochs)":
        ["bins=64", "--agent", "ppo", "--agent-config", '{"rollout_steps": 64}'],
    "DQN Ape-X, acting-bound (1024 bins, hidden [32], train_every 16)":
        ["bins=1024", "--agent", "dqn", "--agent-config",
         '{"hidden": [32], "train_every": 16, "learning_starts": 512, "replay_capacity": 20000}'],
    "DQN Ape-X, learner-bound (64 bins, hidden [128, 128], train_every 4)":
        ["bins=64", "--agent", "dqn", "--agent-config", '{"learning_starts": 512}'],
}


def run(tool, ranks, extra, steps_per_rank, out):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    done = subprocess.run(
        ["mpirun", "--oversubscribe", "-np", str(ranks), tool, "train", "memtier",
         "trace=synth:phased:200000:5:64", "episode_length=64", "--envs", "4",
         "--steps", str(steps_per_rank * ranks), "--distributed", "-o", out] + extra,
        capture_output=True, text=True, env=env, check=True)
    rate = float(re.search(r"([0-9.]+) steps/s", done.stdout).group(1))
    training = json.load(open(out))["training"]
    return rate, training["updates"] / training["seconds"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="?", type=int, default=3)
    parser.add_argument("--tool", default="build/native-release/sysgym")
    parser.add_argument("--steps-per-rank", type=int, default=16384)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "policy.json")
        for name, extra in CASES.items():
            print(f"{name}:")
            print(f"  {'ranks':>5} {'env steps/s min / median':>26} {'updates/s median':>17}"
                  f" {'scaling efficiency':>19}")
            base = None
            for ranks in (1, 2, 4):
                results = [run(args.tool, ranks, extra, args.steps_per_rank, out)
                           for _ in range(args.runs)]
                rates = [r for r, _ in results]
                median = statistics.median(rates)
                base = base or median
                print(f"  {ranks:>5} {min(rates):>12,.0f} / {median:>11,.0f}"
                      f" {statistics.median(u for _, u in results):>17,.1f}"
                      f" {median / (ranks * base):>18.0%}", flush=True)


if __name__ == "__main__":
    main()
