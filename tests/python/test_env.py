"""One env through Gymnasium's API, for every registered id."""

import json

import numpy as np
import pytest

import sysgym
from conftest import SMALL_MEMTIER, example_env


@pytest.mark.parametrize("env_id", sysgym.envs())
def test_every_env_follows_gymnasiums_api(env_id):
    env = example_env(env_id)
    obs, info = env.reset(seed=3)
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32
    assert obs.shape == env.observation_space.shape
    assert env.observation_space.contains(obs)
    assert list(info) == env.info_keys and all(isinstance(v, float) for v in info.values())
    env.action_space.seed(3)
    for _ in range(200):
        action = env.action_space.sample()
        assert env.action_space.contains(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs.shape == env.observation_space.shape and env.observation_space.contains(obs)
        assert isinstance(reward, float) and np.isfinite(reward)
        assert isinstance(terminated, bool) and isinstance(truncated, bool)
        assert list(info) == env.info_keys
        if terminated or truncated:
            break
    json.dumps(env.episode_summary())  # plain JSON values
    env.close()


def test_the_same_seed_and_actions_give_the_same_episode():
    def episode(seed):
        env = sysgym.make("memtier-v0", **SMALL_MEMTIER)
        env.action_space.seed(7)
        obs, _ = env.reset(seed=seed)
        observations, rewards = [obs], []
        while True:
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            observations.append(obs)
            rewards.append(reward)
            if terminated or truncated:
                return np.stack(observations), rewards

    first, second = episode(5), episode(5)
    assert np.array_equal(first[0], second[0]) and first[1] == second[1]
    assert len(first[1]) > 10


def test_observations_are_the_callers_to_keep(memtier):
    first, _ = memtier.reset(seed=1)
    kept = first.copy()
    memtier.step(np.ones(16, dtype=np.int8))
    assert np.array_equal(first, kept)  # a new array per step, never a view that changes


def test_spaces_sample_the_same_members_for_the_same_seed(memtier):
    space = memtier.action_space
    space.seed(42)
    a = [space.sample() for _ in range(5)]
    space.seed(42)
    b = [space.sample() for _ in range(5)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert space.n == 16 and space.shape == (16,) and space.dtype == np.int8
    assert not space.contains(np.full(16, 2)) and not space.contains(np.zeros(15, dtype=int))
    inline = sysgym.make("inline-v0").action_space
    assert 1 in inline and 2 not in inline and 1.0 not in inline


def test_box_bounds_and_discrete_attributes():
    env = sysgym.make("looptune-v0")
    box = env.observation_space
    assert box.shape == (203,) and box.low.shape == (203,) and box.is_bounded()
    assert np.all(box.low == 0) and np.all(box.high == 1)
    assert env.action_space.n == 12 and env.action_space.start == 0
    assert isinstance(env.action_space.sample(), int)


def test_render_returns_the_frame_arrays(memtier):
    memtier.reset(seed=0)
    frame = memtier.render()
    assert set(frame) == {"histogram", "resident"}
    assert frame["histogram"].shape == (16,) and frame["resident"].shape == (16,)
    memtier.step(np.ones(16, dtype=np.int64))
    assert np.all(memtier.render()["resident"] >= 0)


def test_describing_an_env(memtier):
    assert memtier.id == "memtier-v0"
    assert memtier.config["bins"] == 16
    assert memtier.facts["windows"] > 0
    assert len(memtier.observation_layout) == memtier.observation_space.shape[0]
    assert "lru" in sysgym.policies("memtier")
    spec = sysgym.spec("memtier")
    assert spec["id"] == "memtier-v0" and any(k["name"] == "bins" for k in spec["schema"])


def test_reset_options_start_the_episode_where_asked():
    env = sysgym.make("memtier-v0", **SMALL_MEMTIER)
    env.reset(seed=0, options={"start": 3})
    assert env.episode_options() == {"start": 3}
    _, _, _, _, info = env.step(np.zeros(16, dtype=int))
    assert info["window"] == 3
