"""Bad input through Python: a clear sysgym.Error subclass (also the built-in a caller expects),
naming the space, key or file, and the env still usable afterwards."""

import subprocess

import numpy as np
import pytest

import sysgym
from conftest import SMALL_MEMTIER


@pytest.mark.parametrize("action, reason", [
    (np.zeros(16, dtype=np.float64), "expected integers, got dtype float64"),
    (np.zeros(15, dtype=np.int64), "expected shape (16,), got (15,)"),
    (np.zeros((2, 16), dtype=np.int64), "expected shape (16,), got (2, 16)"),
    ("0101", "expected integers, got dtype <U4"),
    (None, "expected integers, got dtype object"),
    (np.full(16, 2), "element 0 is 2, expected 0 or 1"),
])
def test_a_wrong_action_is_a_value_error_naming_the_space(memtier, action, reason):
    memtier.reset(seed=0)
    with pytest.raises(sysgym.InvalidActionError) as caught:
        memtier.step(action)
    assert isinstance(caught.value, ValueError)
    assert "MultiBinary(16)" in str(caught.value) and reason in str(caught.value)
    memtier.step(np.zeros(16, dtype=np.int64))  # nothing was lost: the episode goes on


@pytest.mark.parametrize("action", [1.0, np.float32(1), 2, -1, np.array([0, 1]), 2**70])
def test_a_discrete_env_takes_integers_of_its_range(action):
    env = sysgym.make("inline-v0")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"Discrete\(2\)"):
        env.step(action)
    for good in (1, np.int64(0), np.array(1), np.array([0]), True):
        env.step(good)


def test_calls_out_of_order_and_on_a_closed_env(memtier):
    with pytest.raises(sysgym.ApiMisuseError, match="call reset"):
        memtier.step(np.zeros(16, dtype=int))
    memtier.close()
    assert memtier.closed
    for call in (lambda: memtier.reset(), lambda: memtier.step(np.zeros(16, dtype=int)),
                 lambda: memtier.render(), lambda: memtier.config):
        with pytest.raises(sysgym.ApiMisuseError, match="closed"):
            call()


def native_error(*args):
    done = subprocess.run([sysgym.tools.tool_path(), *args], capture_output=True, text=True)
    assert done.returncode == 1
    return done.stderr.strip()


def test_a_bad_config_raises_the_cores_message_as_the_tool_prints_it():
    with pytest.raises(sysgym.ConfigError) as caught:
        sysgym.make("memtier-v0", trace="synth:phased:5000", bins=100000)
    assert isinstance(caught.value, ValueError)
    printed = native_error("describe", "memtier", "trace=synth:phased:5000", "bins=100000")
    assert printed == f"sysgym: ConfigError: {caught.value}"


def test_unknown_names_suggest_the_closest():
    with pytest.raises(sysgym.UnknownNameError, match="did you mean 'memtier'"):
        sysgym.make("memtire")
    with pytest.raises(sysgym.ConfigError, match="bins"):
        sysgym.make("memtier-v0", trace="synth:phased:5000", binz=16)


def test_a_missing_or_malformed_file_names_it(tmp_path):
    with pytest.raises(sysgym.Error, match="no-such.bin"):
        sysgym.make("memtier-v0", trace=str(tmp_path / "no-such.bin"))
    bad = tmp_path / "bad.json"
    bad.write_text("{\"kind\": \"sysgym-inline-program\"")
    with pytest.raises(sysgym.Error, match="bad.json"):
        sysgym.make("inline-v0", program=str(bad))


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "1", True])
def test_seeds_are_integers_of_64_bits(memtier, seed):
    with pytest.raises(sysgym.ConfigError, match="seed"):
        memtier.reset(seed=seed)


def test_render_mode_and_vector_sizes_are_checked():
    with pytest.raises(sysgym.ConfigError, match="render_mode"):
        sysgym.make("inline-v0", render_mode="human")
    with pytest.raises(sysgym.ConfigError, match="num_envs"):
        sysgym.make_vec("inline-v0", num_envs=0)
    with pytest.raises(sysgym.ConfigError, match="threads"):
        sysgym.make_vec("inline-v0", num_envs=2, threads=0)


@pytest.mark.parametrize("call, said", [
    (lambda: sysgym.make(123), "env_id: expected an env id such as 'memtier-v0' (a str), got 123"),
    (lambda: sysgym.make("memtier-v0", trace=object()), "config: every value must be JSON"),
    (lambda: sysgym.make("memtier-v0", hbm_capacity=float("nan")), "config: every value must be JSON"),
    (lambda: sysgym.make_vec("memtier-v0", num_envs=10**9), "num_envs: expected a whole number from 1 to 4096, got 1000000000"),
    (lambda: sysgym.make_vec("memtier-v0", num_envs=0), "num_envs: expected a whole number from 1 to 4096, got 0"),
    (lambda: sysgym.make_vec("memtier-v0", num_envs="8"), "num_envs: expected a whole number from 1 to 4096, got '8'"),
    (lambda: sysgym.make_vec("memtier-v0", num_envs=2, threads=0), "threads: expected a whole number from 1 to 4096, got 0"),
    (lambda: sysgym.make_vec(None), "env_id: expected an env id"),
])
def test_arguments_of_the_wrong_kind_or_size_are_config_errors_naming_them(call, said):
    # Before, make(123) was a pybind11 TypeError naming an internal class, and
    # num_envs=10**9 allocated until the kernel killed the process.
    with pytest.raises(sysgym.ConfigError) as caught:
        call()
    assert said in str(caught.value)
