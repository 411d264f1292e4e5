"""Spaces with Gymnasium's interface: ``sample``, ``contains``, ``seed``, ``shape``, ``dtype``.

Sampling and membership run in the core, so a space seeded with s draws the same members here as
in the native tool and the npm package. When the ``gymnasium`` package is importable, envs
return Gymnasium's own space classes instead (see ``sysgym.env``), built from the same bounds.
"""

import json
import secrets

import numpy as np


class Space:
    """A core space: its members, a generator of its own, and its bounds as attributes."""

    def __init__(self, core):
        self._core = core
        self._json = json.loads(core.json)

    def seed(self, seed=None):
        """Seeds the space's generator (a random seed when None); returns [seed]."""
        if seed is None:
            seed = secrets.randbits(64)
        self._core.seed(seed)
        return [seed]

    def sample(self, mask=None):
        """A uniformly drawn member (an int for Discrete, a numpy array otherwise)."""
        if mask is not None:
            raise NotImplementedError("sysgym spaces do not sample with a mask")
        return self._core.sample()

    def contains(self, x):
        return self._core.contains(x)

    def __contains__(self, x):
        return self.contains(x)

    def __eq__(self, other):
        return isinstance(other, Space) and self._json == other._json

    def __hash__(self):
        return hash(self._core.json)

    def __repr__(self):
        return str(self._core)

    @property
    def is_np_flattenable(self):
        return True

    def to_json(self):
        """The space as the core describes it (the npm package's and `sysgym describe`'s JSON)."""
        return dict(self._json)


class Discrete(Space):
    dtype = np.dtype(np.int64)
    shape = ()

    @property
    def n(self):
        return self._json["n"]

    @property
    def start(self):
        return self._json["start"]


class MultiBinary(Space):
    dtype = np.dtype(np.int8)

    @property
    def n(self):
        return self._json["n"]

    @property
    def shape(self):
        return (self._json["n"],)


class MultiDiscrete(Space):
    dtype = np.dtype(np.int64)

    @property
    def nvec(self):
        return np.array(self._json["nvec"], dtype=np.int64)

    @property
    def shape(self):
        return (len(self._json["nvec"]),)


def _bound(values, infinity):
    return np.array([infinity if v is None else v for v in values], dtype=np.float32)


class Box(Space):
    dtype = np.dtype(np.float32)

    @property
    def shape(self):
        return tuple(self._json["shape"])

    @property
    def low(self):
        return _bound(self._json["low"], -np.inf).reshape(self.shape)

    @property
    def high(self):
        return _bound(self._json["high"], np.inf).reshape(self.shape)

    def is_bounded(self, manner="both"):
        below = all(v is not None for v in self._json["low"])
        above = all(v is not None for v in self._json["high"])
        return {"both": below and above, "below": below, "above": above}[manner]


_KINDS = {"Discrete": Discrete, "MultiBinary": MultiBinary, "MultiDiscrete": MultiDiscrete,
          "Box": Box}


def from_core(core):
    """The space class for a core space (Space itself for kinds without attributes here)."""
    return _KINDS.get(json.loads(core.json)["type"], Space)(core)


def to_gymnasium(space, gymnasium):
    """The same space as Gymnasium's class (bounds and sizes taken from the core's JSON)."""
    spec = space.to_json()
    kind = spec["type"]
    if kind == "Discrete":
        return gymnasium.spaces.Discrete(spec["n"], start=spec["start"])
    if kind == "MultiBinary":
        return gymnasium.spaces.MultiBinary(spec["n"])
    if kind == "MultiDiscrete":
        return gymnasium.spaces.MultiDiscrete(np.array(spec["nvec"], dtype=np.int64))
    if kind == "Box":
        return gymnasium.spaces.Box(space.low, space.high, shape=space.shape, dtype=np.float32)
    raise NotImplementedError(f"no Gymnasium space for {kind}")


class Batched:
    """``num`` copies of ``single`` (a vector env's spaces when Gymnasium is absent)."""

    def __init__(self, single, num):
        self.single = single
        self.num = num
        self.shape = (num,) + tuple(single.shape)
        self.dtype = single.dtype

    def seed(self, seed=None):
        return self.single.seed(seed)

    def sample(self):
        return np.array([self.single.sample() for _ in range(self.num)], dtype=self.dtype)

    def contains(self, x):
        rows = np.asarray(x)
        return rows.shape == self.shape and all(self.single.contains(row) for row in rows)

    def __contains__(self, x):
        return self.contains(x)

    def __repr__(self):
        return f"Batched({self.single!r}, {self.num})"
