"""Shared fixtures of the Python package's tests (run by ctest: `python` in tests/CMakeLists.txt,
against build/<preset>/python-test, the package plus the test families)."""

import os

import pytest

import sysgym

SMALL_MEMTIER = {"trace": "synth:phased:20000:5:32", "bins": 16, "hbm_capacity": "10%"}


@pytest.fixture
def memtier():
    env = sysgym.make("memtier-v0", **SMALL_MEMTIER)
    yield env
    env.close()


@pytest.fixture(scope="session")
def wasm_package():
    """The npm package's folder (build/wasm/package); the parity test needs it and Node."""
    path = os.environ.get("SYSGYM_WASM_PACKAGE", "")
    if not os.path.isfile(os.path.join(path, "index.mjs")):
        pytest.skip(f"the npm package is not built in {path!r} (cmake --build --preset wasm)")
    return path


def example_env(env_id):
    return sysgym.make(env_id, **sysgym.spec(env_id)["example_config"])
