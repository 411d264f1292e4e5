"""With `gymnasium` importable, sysgym registers every id there and returns its space classes
(checked against tests/python/fake_gymnasium, a stand-in with Gymnasium's documented calls: the
real package cannot be installed on the CI machine)."""

import os
import subprocess
import sys

SCRIPT = """
import gymnasium, numpy as np, sysgym
ids = sorted(i for i in gymnasium.registry if i.startswith("sysgym/"))
assert ids == ["sysgym/" + i for i in sysgym.envs()], ids
env = gymnasium.make("sysgym/memtier-v0", trace="synth:phased:5000", bins=8)
assert isinstance(env, gymnasium.Env) and env.spec.id == "sysgym/memtier-v0"
assert type(env.action_space) is gymnasium.spaces.MultiBinary and env.action_space.n == 8
box = env.observation_space
assert type(box) is gymnasium.spaces.Box and box.dtype == np.float32
assert box.shape == env.reset(seed=2)[0].shape and env.np_random is not None
assert type(sysgym.make("inline-v0").action_space) is gymnasium.spaces.Discrete
obs, reward, terminated, truncated, info = env.step(np.ones(8, dtype=np.int8))
assert np.all(obs >= box.low) and np.all(obs <= box.high)
vec = sysgym.make_vec("memtier-v0", num_envs=2, trace="synth:phased:5000", bins=8)
assert vec.action_space == ("batched", vec.single_action_space, 2)
print("ok")
"""


def test_ids_are_registered_with_gymnasium_and_spaces_are_its_classes():
    fake = os.path.join(os.path.dirname(__file__), "fake_gymnasium")
    path = os.pathsep.join([fake, os.environ.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
