import numpy as np


class Space:
    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, np.dtype(dtype)


class Discrete(Space):
    def __init__(self, n, start=0):
        super().__init__((), np.int64)
        self.n, self.start = n, start


class MultiBinary(Space):
    def __init__(self, n):
        super().__init__((n,), np.int8)
        self.n = n


class MultiDiscrete(Space):
    def __init__(self, nvec):
        super().__init__(np.shape(nvec), np.int64)
        self.nvec = np.asarray(nvec)


class Box(Space):
    def __init__(self, low, high, shape=None, dtype=np.float32):
        super().__init__(tuple(shape), dtype)
        self.low, self.high = low, high
