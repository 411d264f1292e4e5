"""The vector env: N envs stepped by one call in C++ threads, same-step autoreset."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import sysgym

CONFIG = {"trace": "synth:phased:20000:5:32", "bins": 16, "hbm_capacity": "10%",
          "random_start": True, "episode_length": 12}


def run(envs, steps, seed=3):
    obs, _ = envs.reset(seed=seed)
    trajectory = [obs.copy()]
    rng = np.random.default_rng(0)
    for _ in range(steps):
        actions = rng.integers(0, 2, size=(envs.num_envs, 16))
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        trajectory.append((obs.copy(), rewards, terminated, truncated, infos["window"]))
    return trajectory


def same(a, b):
    if isinstance(a, tuple):
        return all(same(x, y) for x, y in zip(a, b))
    return np.array_equal(a, b)


def test_rows_are_single_envs_reset_with_derived_seeds_and_autoreset():
    envs = sysgym.make_vec("memtier-v0", num_envs=3, threads=2, **CONFIG)
    obs, infos = envs.reset(seed=9)
    assert obs.shape == (3, envs.single_observation_space.shape[0]) and infos["window"].shape == (3,)
    singles = [sysgym.make("memtier-v0", **CONFIG) for _ in range(3)]
    expected = [env.reset(seed=sysgym.derive_seed(9, i))[0] for i, env in enumerate(singles)]
    assert np.array_equal(obs, np.stack(expected))
    ended = 0
    for step in range(30):
        actions = np.array([[(step + i + b) % 2 for b in range(16)] for i in range(3)])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i, env in enumerate(singles):
            o, r, te, tr, _ = env.step(actions[i])
            assert rewards[i] == r and terminated[i] == te and truncated[i] == tr
            if te or tr:
                ended += 1
                assert infos["_final_observation"][i]
                assert np.array_equal(infos["final_observation"][i], o)
                assert infos["final_info"][i]["episode_summary"] == env.episode_summary()
                o, _ = env.reset()
            assert np.array_equal(obs[i], o)
    assert ended >= 6  # episodes of 12 steps: every env ended twice


def test_threads_and_views_do_not_change_the_results():
    one = run(sysgym.make_vec("memtier-v0", num_envs=4, threads=1, **CONFIG), 40)
    two = run(sysgym.make_vec("memtier-v0", num_envs=4, threads=2, **CONFIG), 40)
    views = run(sysgym.make_vec("memtier-v0", num_envs=4, threads=2, copy=False, **CONFIG), 40)
    assert all(same(a, b) and same(a, c) for a, b, c in zip(one, two, views))


def test_copy_false_gives_read_only_views_of_the_next_step():
    envs = sysgym.make_vec("memtier-v0", num_envs=2, copy=False, **CONFIG)
    obs, _ = envs.reset(seed=1)
    assert not obs.flags.writeable
    before = obs.copy()
    after, *_ = envs.step(np.ones((2, 16), dtype=int))
    assert np.shares_memory(obs, after) and not np.array_equal(obs, before)


def test_reused_arrays_are_the_same_read_only_arrays_refilled_every_step():
    plain = sysgym.make_vec("memtier-v0", num_envs=3, **CONFIG)
    reused = sysgym.make_vec("memtier-v0", num_envs=3, copy=False, reuse_arrays=True, **CONFIG)
    plain.reset(seed=4)
    reused.reset(seed=4)
    kept = None
    for step in range(30):
        actions = np.array([[(step * i + b) % 2 for b in range(16)] for i in range(3)])
        expected = plain.step(actions)
        got = reused.step(actions)
        # The values are the plain env's, ended episodes' final rows included.
        assert same(tuple(expected[:4]), tuple(got[:4]))
        assert set(got[4]) == set(expected[4])
        for key, value in expected[4].items():
            if not key.startswith("final"):
                assert np.array_equal(got[4][key], value), key
        if kept is None:
            kept = got
        else:  # the same arrays, overwritten in place; the dict is the step's own
            assert all(a is b for a, b in zip(kept[1:4], got[1:4]))
            assert got[4]["window"] is kept[4]["window"] and got[4] is not kept[4]
    assert not any(a.flags.writeable for a in (got[1], got[2], got[3], got[4]["window"]))
    with pytest.raises(ValueError, match="read-only"):
        got[1][0] = 1.0


def test_bad_actions_name_the_space_and_touch_no_env():
    envs = sysgym.make_vec("memtier-v0", num_envs=2, **CONFIG)
    _, started = envs.reset(seed=1)
    with pytest.raises(sysgym.InvalidActionError, match=r"expected one row per env, shape \(2, 16\)"):
        envs.step(np.ones(16, dtype=int))
    bad = np.ones((2, 16), dtype=int)
    bad[1, 3] = 5
    with pytest.raises(sysgym.InvalidActionError, match="env 1 action"):
        envs.step(bad)
    _, _, _, _, infos = envs.step(np.ones((2, 16), dtype=int))
    assert list(infos["window"]) == list(started["window"] + 1)  # each took exactly one step
    envs.close()
    with pytest.raises(sysgym.ApiMisuseError, match="closed"):
        envs.reset()


def test_ctrl_c_during_a_long_step_returns_promptly_and_reset_recovers():
    # slowwalk-v0 (the tests' module only): every env step takes 50 ms; 40 envs on 2 threads
    # make a step of about a second.
    envs = sysgym.make_vec("slowwalk-v0", num_envs=40, threads=2)
    envs.reset(seed=1)
    start = time.perf_counter()
    envs.step(np.full(40, 2))
    whole = time.perf_counter() - start
    threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        envs.step(np.full(40, 2))
    assert time.perf_counter() - start < whole / 2
    with pytest.raises(sysgym.ApiMisuseError, match="interrupted"):
        envs.step(np.full(40, 2))
    obs, _ = envs.reset(seed=1)
    obs, *_ = envs.step(np.full(40, 2))
    assert np.all(obs[:, 0] == obs[0, 0])  # every env took its step
