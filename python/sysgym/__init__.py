"""sysgym: reinforcement-learning environments for systems problems, from one C++ core.

    import sysgym
    env = sysgym.make("memtier-v0", trace="synth:phased:20000:5:32", hbm_capacity="10%")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

    envs = sysgym.make_vec("memtier-v0", num_envs=8)       # stepped in C++ threads
    sysgym.memtier.estimate(input="run.bin", hbm_range="0x7f00:0x7f80")   # the native tool
    policy = sysgym.load_policy("dqn.json"); env = policy.make_env(); policy.act(env)

Every env id the native tool knows is here (``sysgym.envs()``); with ``gymnasium`` importable
each is also registered there as ``sysgym/<id>``.
"""

import json
import os

try:
    from . import _locations
except ImportError:
    _locations = None
if _locations is not None and os.path.isdir(_locations.DATA):
    # The shipped data (trace names such as "xz", inline's programs) for the core and the tool.
    os.environ.setdefault("SYSGYM_DATA", _locations.DATA)

from . import _sysgym, errors, spaces, tools  # noqa: E402
from .env import Env, gymnasium  # noqa: E402
from .errors import (ApiMisuseError, ConfigError, EnvCheckError, Error,  # noqa: E402,F401
                     InvalidActionError, IoError, ToolError, TraceFormatError, UnknownNameError)
from .policy import Policy, load_policy  # noqa: E402,F401
from .vector import VectorEnv  # noqa: E402

__version__ = "0.1.0"


def envs():
    """Every registered env id, sorted."""
    return _sysgym.env_ids()


def spec(env_id):
    """An env's id, summary, example config and config schema (every key, type and default)."""
    return json.loads(_sysgym.spec_json(env_id))


def make(env_id, **config):
    """The env ``env_id`` ("memtier-v0", or "memtier" for its newest version) with ``config``."""
    return Env(env_id, **config)


def make_vec(env_id, num_envs=8, *, threads=None, copy=True, reuse_arrays=False, **config):
    """``num_envs`` envs of one config stepped together on ``threads`` C++ threads (default: one
    per core, at most one per env). ``copy=False``: observations as views of the C++ buffer;
    ``reuse_arrays=True``: the same rewards, flags and info arrays every step (see VectorEnv)."""
    return VectorEnv(env_id, num_envs, threads=threads, copy=copy, reuse_arrays=reuse_arrays,
                     **config)


def policies(env_id):
    """The policies (baselines, heuristics, oracles) that run on ``env_id``."""
    return _sysgym.policy_names(env_id)


def observation_hash(observations, start=0):
    """XXH3-64 chained over float32 observations, as recorded episodes' "observation_hash"."""
    import numpy as np

    value = start
    for observation in observations:
        value = _sysgym.chain_hash(value, np.ascontiguousarray(observation, dtype=np.float32))
    return value


def derive_seed(seed, index):
    """The seed env ``index`` of a vector env reset with ``seed`` is reset with."""
    return _sysgym.derive_seed(seed, index)


def run_tool(*command, **options):
    """Any native command: ``sysgym.run_tool("compare", "memtier", hbm_capacity="10%")``."""
    return tools.run(*command, **options)


def _families():
    return sorted({env_id.rsplit("-v", 1)[0] for env_id in envs()})


def __getattr__(name):
    # sysgym.memtier, sysgym.tensorplace, ...: each family's tools (PEP 562).
    if name in _families():
        return tools.Family(name)
    raise AttributeError(f"module 'sysgym' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + _families())


if gymnasium is not None:
    for _id in envs():
        if f"sysgym/{_id}" not in gymnasium.registry:
            gymnasium.register(id=f"sysgym/{_id}", entry_point="sysgym.env:Env",
                               kwargs={"env_id": _id})
