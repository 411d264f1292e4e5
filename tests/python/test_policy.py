"""Learned policy files in Python: the contract applied as the native tool applies it, and an
episode acted by the policy equal to the native tool's, bit for bit."""

import json
import os

import pytest

import sysgym

POLICIES = os.path.join(os.environ["SYSGYM_DATA"], "policies")


def shipped(family, name):
    return os.path.join(POLICIES, family, name)


def python_episode(policy, seed, **config):
    env = policy.make_env(**config)
    env.reset(seed=seed)
    total = 0.0
    while True:
        _, reward, terminated, truncated, _ = env.step(policy.act(env))
        total += reward
        if terminated or truncated:
            return total, env.episode_summary()


@pytest.mark.parametrize("family, name, config", [
    ("tensorplace", "ppo-per-operand.json", {"model": "resnet50", "batch": 8, "fast_memory": "50%"}),
    ("memtier", "dqn-swap.json", {"trace": "synth:phased:20000:5:32", "hbm_capacity": "10%"}),
    ("looptune", "looptune-dqn.json", {"kernel": "matmul:200x120x88"}),
    ("looptune", "looptune-imitation.json", {"kernel": "matmul-random-test"}),
])
def test_a_shipped_policy_acts_in_python_as_in_the_native_tool(family, name, config):
    path = shipped(family, name)
    policy = sysgym.load_policy(path)
    total, summary = python_episode(policy, 3, **config)
    native = sysgym.run_tool("run", policy.env_id, *[f"{k}={v}" for k, v in config.items()],
                             policy="learned", policy_config=path, seed=3)
    assert total == native["return"]
    assert summary == {k: native[k] for k in summary}
    assert native["policy_parameters"]["trained_for"] == policy.trained_for


def test_a_policys_contract_is_applied_and_cannot_be_contradicted():
    path = shipped("inline", "fyp-size.json")
    policy = sysgym.load_policy(path)
    assert policy.agent == "imitation"
    assert policy.trained_for["objective"] == "size"
    assert policy.trained_on == ["program=expat,argon2,kernels"]
    assert policy.config(program="lz4")["objective"] == "size"
    assert policy.make_env(program="lz4").config["objective"] == "size"
    with pytest.raises(sysgym.ConfigError) as caught:
        policy.make_env(program="lz4", objective="instructions")
    with pytest.raises(sysgym.ConfigError) as native:  # the native tool says the same words
        sysgym.run_tool("run", "inline", "program=lz4", "objective=instructions",
                        policy="learned", policy_config=path)
    assert str(caught.value) == str(native.value)
    assert "contradicts the learned policy" in str(caught.value)


def test_a_policy_refuses_what_it_cannot_act_on(tmp_path):
    policy = sysgym.load_policy(shipped("tensorplace", "ppo-per-operand.json"))
    with pytest.raises(sysgym.ApiMisuseError, match="made by sysgym.make"):
        policy.act(42)
    other = sysgym.make("memtier-v0", trace="synth:phased:5000")
    other.reset(seed=0)
    with pytest.raises(sysgym.ConfigError):
        policy.act(other)
    with pytest.raises(sysgym.IoError, match="nope.json"):
        sysgym.load_policy(tmp_path / "nope.json")
    (tmp_path / "x.json").write_text(json.dumps({"agent": "dqn"}))
    with pytest.raises(sysgym.ConfigError, match="x.json"):
        sysgym.load_policy(tmp_path / "x.json")
    with pytest.raises(sysgym.ConfigError, match="path of a policy file"):
        sysgym.load_policy(3)
