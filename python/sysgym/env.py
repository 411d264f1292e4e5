"""One env with Gymnasium's API over the C++ core.

``reset(seed=, options=)`` returns ``(observation, info)`` and ``step(action)`` returns
``(observation, reward, terminated, truncated, info)``: observations are new float32 numpy arrays
(an agent may keep them), infos dicts of the env's declared numbers. When ``gymnasium`` is
importable this class is a ``gymnasium.Env`` and its spaces are Gymnasium's.
"""

import json

from . import _sysgym, spaces
from .errors import ConfigError

try:
    import gymnasium
except ImportError:  # the package's own spaces, with the same interface
    gymnasium = None

_Base = gymnasium.Env if gymnasium is not None else object


def _check_seed(seed):
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ConfigError(f"seed: expected an integer in [0, 2^64), got {seed!r}")
    return seed


def _core_arguments(env_id, config):
    """``env_id`` and ``config`` as the core takes them (the id, the config's JSON text), or a
    ConfigError naming what is wrong, instead of a binding's TypeError."""
    if not isinstance(env_id, str):
        raise ConfigError(f"env_id: expected an env id such as 'memtier-v0' (a str), got {env_id!r}")
    try:
        return env_id, json.dumps(config, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"config: every value must be JSON (str, int, float, bool, None, list, "
                          f"dict): {e}") from None


def _space(core):
    space = spaces.from_core(core)
    return spaces.to_gymnasium(space, gymnasium) if gymnasium is not None else space


class _CoreBacked:
    """What an env and a vector env share: a core object behind them."""

    def close(self):
        self._core.close()

    @property
    def closed(self):
        return self._core.closed

    @property
    def info_keys(self):
        return self._core.info_keys


class Env(_CoreBacked, _Base):
    """An env of the registry, made from its id and config keys (``sysgym.make``)."""

    metadata = {"render_modes": ["arrays"]}

    def __init__(self, env_id, *, render_mode=None, **config):
        if render_mode not in (None, "arrays"):
            raise ConfigError(f"render_mode: expected 'arrays' or None, got {render_mode!r}")
        self._core = _sysgym.CoreEnv(*_core_arguments(env_id, config))
        self.render_mode = render_mode
        self.observation_space = _space(self._core.observation_space)
        self.action_space = _space(self._core.action_space)
        # The core's step is bound directly: a Python frame less per step.
        self.step = self._core.fast_step()

    def reset(self, *, seed=None, options=None):
        seed = _check_seed(seed)
        if gymnasium is not None and seed is not None:
            super().reset(seed=seed)  # Gymnasium's np_random follows the seed too
        return self._core.reset(seed, json.dumps(options) if options else "")

    def step(self, action):  # replaced per instance by the core's step (see __init__)
        return self._core.step(action)

    def render(self):
        """The env's frame: named numpy arrays (memtier: each bin's histogram and residency)."""
        return self._core.render()

    @property
    def id(self):
        return self._core.id

    @property
    def config(self):
        """The resolved config: every key with its effective value."""
        return json.loads(self._core.config_json())

    @property
    def facts(self):
        """Facts derived from config and data (memtier: capacity in bytes, windows)."""
        return json.loads(self._core.facts_json())

    @property
    def observation_layout(self):
        """One name per observation element, e.g. "hist[3]"."""
        return self._core.observation_layout()

    @property
    def primary_metric(self):
        return self._core.primary_metric

    def episode_summary(self):
        """The episode's totals so far (the native tool's run report)."""
        return json.loads(self._core.summary_json())

    def episode_options(self):
        """Reset options that start the current episode again."""
        return json.loads(self._core.episode_options_json())

    def frame_context(self):
        return json.loads(self._core.frame_context_json())

    def __repr__(self):
        return f"<sysgym.Env {self._core.id if not self._core.closed else '(closed)'}>"
