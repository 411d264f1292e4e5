"""Learned policy files (``sysgym train``'s output, or the shipped ones in data/policies/).

A policy file is a contract: the env settings that shaped its network and the task it was
trained for. ``make_env`` applies them, and a setting that contradicts one is a ConfigError, as
in the native tool and the npm package::

    policy = sysgym.load_policy("data/policies/tensorplace/ppo-per-operand.json")
    env = policy.make_env(model="resnet50", fast_memory="50%")
    obs, info = env.reset(seed=0)
    while True:
        obs, reward, terminated, truncated, info = env.step(policy.act(env))
        if terminated or truncated:
            break
"""

import json
import os

from . import _sysgym
from .env import Env, _core_arguments
from .errors import ConfigError


class Policy:
    """A learned policy file: what it was trained for and on, and its actions."""

    def __init__(self, path):
        if not isinstance(path, (str, os.PathLike)):
            raise ConfigError(f"policy: expected the path of a policy file, got {path!r}")
        self._core = _sysgym.CorePolicy(os.fspath(path))
        self._parameters = json.loads(self._core.parameters_json())

    @property
    def env_id(self):
        """The env it was trained on ("memtier-v0", ...)."""
        return self._core.env_id

    @property
    def agent(self):
        """"dqn", "ppo" or "imitation"."""
        return self._parameters["agent"]

    @property
    def trained_for(self):
        """The settings its file holds an env to: the keys that shape its network and its task."""
        return self._parameters["trained_for"]

    @property
    def trained_on(self):
        """What it was trained on, as ``sysgym train --vary`` named it ("trace=lammps,xz")."""
        return self._parameters["trained_on"]

    def config(self, **config):
        """The env config it runs on: ``config`` over its contract (a ConfigError names a key
        that contradicts it)."""
        _, text = _core_arguments(self.env_id, config)
        return json.loads(self._core.config_json(text))

    def make_env(self, **config):
        """An env of its id with ``config`` over its contract."""
        return Env(self.env_id, **self.config(**config))

    def act(self, env):
        """Its action for ``env``'s current observation (after reset() or a step). The env must
        have the layout and spaces it was trained on (make_env gives one)."""
        return self._core.act(getattr(env, "_core", env))

    def __repr__(self):
        settings = " ".join(f"{k}={v}" for k, v in self.trained_for.items())
        return f"<sysgym.Policy {self.agent} for {self.env_id}: {settings}>"


def load_policy(path):
    """The policy file at ``path`` (``Policy``)."""
    return Policy(path)
