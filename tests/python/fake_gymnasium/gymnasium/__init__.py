"""A stand-in for the `gymnasium` package (not installable on the CI machine), with the parts of
its documented API that sysgym uses: Env, register/registry/make, spaces, vector.utils."""

import importlib

import numpy as np

from . import spaces, vector  # noqa: F401

registry = {}


class EnvSpec:
    def __init__(self, id, entry_point, kwargs):
        self.id, self.entry_point, self.kwargs = id, entry_point, kwargs


def register(id, entry_point, kwargs=None):
    if id in registry:
        raise ValueError(f"{id} registered twice")
    registry[id] = EnvSpec(id, entry_point, dict(kwargs or {}))


def make(id, **kwargs):
    spec = registry[id]
    module, name = spec.entry_point.split(":")
    env = getattr(importlib.import_module(module), name)(**{**spec.kwargs, **kwargs})
    env.spec = spec
    return env


class Env:
    spec = None
    _np_random = None

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._np_random = np.random.default_rng(seed)

    @property
    def np_random(self):
        return self._np_random

    @property
    def unwrapped(self):
        return self
