"""N envs of one id and config stepped by one call whose loop runs in C++ threads.

Same-step autoreset (Gymnasium 0.29's vector semantics): an env whose episode ends is reset in
the same step; its last observation and info are in ``infos["final_observation"]`` and
``infos["final_info"]`` (with ``"_final_observation"`` marking which rows hold one). Infos are one
numpy array per key. ``copy=False`` (Gymnasium's ``copy`` flag) returns observations as read-only
views of the C++ buffer, valid until the next step. ``reuse_arrays=True`` (EnvPool's habit, off by
default) returns the rewards, flags and info arrays as the same read-only arrays every step,
overwritten by the next one: with ``copy=False`` a step makes no array at all, a few microseconds
less per step; keep what you need with ``.copy()``.
"""

import os

from . import _sysgym, spaces
from .env import _CoreBacked, _check_seed, _core_arguments, _space, gymnasium
from .errors import ConfigError


class VectorEnv(_CoreBacked):
    def __init__(self, env_id, num_envs=8, *, threads=None, copy=True, reuse_arrays=False,
                 **config):
        # The npm package's and `sysgym train --envs`' range: each env holds its own buffers.
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= 4096:
            raise ConfigError(f"num_envs: expected a whole number from 1 to 4096, got {num_envs!r}")
        if threads is None:
            threads = min(num_envs, os.cpu_count() or 1)
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 4096:
            raise ConfigError(f"threads: expected a whole number from 1 to 4096, got {threads!r}")
        self._core = _sysgym.CoreVectorEnv(*_core_arguments(env_id, config), num_envs, threads,
                                           copy, reuse_arrays)
        self.num_envs = num_envs
        self.single_observation_space = _space(self._core.single_observation_space)
        self.single_action_space = _space(self._core.single_action_space)
        if gymnasium is not None:
            batch = gymnasium.vector.utils.batch_space
            self.observation_space = batch(self.single_observation_space, num_envs)
            self.action_space = batch(self.single_action_space, num_envs)
        else:
            self.observation_space = spaces.Batched(self.single_observation_space, num_envs)
            self.action_space = spaces.Batched(self.single_action_space, num_envs)
        self.step = self._core.fast_step()

    def reset(self, *, seed=None, options=None):
        """Env i is reset with a seed derived from (seed, i); options are not supported."""
        if options:
            raise NotImplementedError("a vector env resets without options")
        return self._core.reset(_check_seed(seed))

    def step(self, actions):  # replaced per instance by the core's step
        return self._core.step(actions)

    def __repr__(self):
        return f"<sysgym.VectorEnv {self.num_envs} envs>"
