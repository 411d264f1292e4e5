"""The same episode natively, in Python and in the npm package (WebAssembly), bit for bit: the
native tool records a random policy's episode; Python and Node replay its actions and must give
the same rewards, infos, observations (the recording's hash) and summary."""

import json
import subprocess

import numpy as np
import pytest

import sysgym

CASES = [
    ("memtier-v0", {"trace": "synth:phased:20000:5:32", "bins": 16, "hbm_capacity": "10%"}, 1),
    ("memtier-v0", {"trace": "synth:stencil:20000:5:32", "bins": 64, "random_start": True,
                    "episode_length": 50, "history": 4}, 2),
    ("looptune-v0", {"kernel": "matmul:64x64x64", "episode_length": 40}, 3),
    ("tensorplace-v0", {"model": "resnet50", "batch": 8, "fast_memory": "50%"}, 4),
    ("inline-v0", {"program": "kernels", "reward": "dense"}, 5),
]

NODE_REPLAY = """
import fs from 'node:fs';
const { load } = await import(process.argv[1] + '/index.mjs');
const sysgym = await load();
const rec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const env = sysgym.make(rec.env, rec.config);
const out = { rewards: [], infos: [], observations: [] };
let r = env.reset({ seed: rec.seed, options: rec.reset_options });
out.observations.push(Array.from(r.observation));
for (const step of rec.steps) {
  r = env.step(step.action.length === 1 ? step.action[0] : step.action);
  out.rewards.push(r.reward);
  out.infos.push(Object.values(r.info));
  out.observations.push(Array.from(r.observation));
}
out.summary = env.summary();
console.log(JSON.stringify(out));
"""


def record(env_id, config, seed, path):
    subprocess.run([sysgym.tools.tool_path(), "run", env_id, "--policy", "random", "--seed",
                    str(seed), "--config", json.dumps(config), "--record", str(path)],
                   check=True, capture_output=True)
    return json.loads(path.read_text())


def replay_in_python(rec):
    env = sysgym.make(rec["env"], **rec["config"])
    discrete = not isinstance(env.action_space, sysgym.spaces.Box)
    obs, _ = env.reset(seed=rec["seed"], options=rec["reset_options"])
    out = {"rewards": [], "infos": [], "observations": [obs]}
    for step in rec["steps"]:
        action = np.array(step["action"], dtype=np.int64 if discrete else np.float32)
        obs, reward, terminated, truncated, info = env.step(action)
        out["rewards"].append(reward)
        out["infos"].append(list(info.values()))
        out["observations"].append(obs)
    assert terminated or truncated
    out["summary"] = env.episode_summary()
    return out


@pytest.mark.parametrize("env_id, config, seed", CASES, ids=[c[0] for c in CASES])
def test_python_replays_the_native_episode_bit_for_bit(tmp_path, env_id, config, seed):
    rec = record(env_id, config, seed, tmp_path / "episode.json")
    py = replay_in_python(rec)
    assert py["rewards"] == [step["reward"] for step in rec["steps"]]
    assert py["infos"] == [step["info"] for step in rec["steps"]]
    assert sysgym.observation_hash(py["observations"]) == int(rec["observation_hash"], 16)
    assert py["summary"] == rec["summary"]


@pytest.mark.parametrize("env_id, config, seed", CASES[:3], ids=[c[0] for c in CASES[:3]])
def test_the_npm_package_replays_it_the_same(tmp_path, wasm_package, env_id, config, seed):
    rec = record(env_id, config, seed, tmp_path / "episode.json")
    py = replay_in_python(rec)
    node = json.loads(subprocess.run(
        ["node", "--input-type=module", "-e", NODE_REPLAY, wasm_package,
         str(tmp_path / "episode.json")], check=True, capture_output=True, text=True).stdout)
    assert node["rewards"] == py["rewards"] and node["infos"] == py["infos"]
    assert len(node["observations"]) == len(py["observations"])
    for js, ours in zip(node["observations"], py["observations"]):
        assert np.array_equal(np.array(js, dtype=np.float32), ours)
    assert node["summary"] == py["summary"]
