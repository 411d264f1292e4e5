"""The Python API's rows of the bad-input catalogue: each call is a mistake a user makes, must
raise a sysgym.Error subclass that is also the built-in a caller expects (ValueError, LookupError,
RuntimeError, OSError), in at most 400 characters, and leave the interpreter usable. The table
in docs/hardening.md is rendered from these rows and the errors they raise; a changed message
fails here until `./sysgym.sh catalogue` (SYSGYM_UPDATE_CATALOGUE=1) rewrites it."""

import os
import pathlib
import tempfile

import numpy as np
import pytest

import sysgym
from conftest import SMALL_MEMTIER

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "hardening.md"
BEGIN = "<!-- python-bad-inputs: generated from tests/python by `./sysgym.sh catalogue` -->\n"
END = "<!-- python-bad-inputs: end -->\n"
BUILT_INS = (ValueError, LookupError, RuntimeError, OSError)


def memtier(reset=True):
    env = sysgym.make("memtier-v0", **SMALL_MEMTIER)
    if reset:
        env.reset(seed=0)
    return env


def closed_env():
    env = memtier()
    env.close()
    return env


def with_file(name, text, call):
    """call(name) in a scratch folder holding the file: messages name it as the user wrote it."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="sysgym-catalogue-") as folder:
        os.chdir(folder)
        try:
            pathlib.Path(name).write_text(text, encoding="utf-8")
            return call(name)
        finally:
            os.chdir(here)


# (call as a user writes it, what is wrong, the call). No unknown env id: its message lists the
# envs, which in the tests' module include the test families.
ROWS = [
    ('make(123)', "an env id that is not a str", lambda: sysgym.make(123)),
    ('make("memtier-v0", binz=16, ...)', "an unknown config key",
     lambda: sysgym.make("memtier-v0", trace="synth:phased:5000", binz=16)),
    ('make("memtier-v0", bins=100000, ...)', "a value out of its range",
     lambda: sysgym.make("memtier-v0", trace="synth:phased:5000", bins=100000)),
    ('make("memtier-v0", hbm_capacity=float("nan"))', "a value JSON cannot hold",
     lambda: sysgym.make("memtier-v0", hbm_capacity=float("nan"))),
    ('make("memtier-v0", trace="no-such.bin")', "a trace file that does not exist",
     lambda: sysgym.make("memtier-v0", trace="no-such.bin")),
    ('make("inline-v0", program="bad.json")', "a program file cut short",
     lambda: with_file("bad.json", '{"kind": "sysgym-inline-program"',
                       lambda name: sysgym.make("inline-v0", program=name))),
    ('make("tensorplace-v0", model="vgg20")', "an unknown model",
     lambda: sysgym.make("tensorplace-v0", model="vgg20")),
    ('make("looptune-v0", kernel="matmul:100000x64x64")', "a size over the limit",
     lambda: sysgym.make("looptune-v0", kernel="matmul:100000x64x64")),
    ('make("looptune-v0", problem="p.json")', "a problem file with a variable it does not declare",
     lambda: with_file("p.json", '{"format": "sysgym-looptune-problem", "version": 1, "name": "p", '
                       '"vars": [{"name": "m", "size": 8}], "a": {"name": "A", "dims": [["m"]]}, '
                       '"b": {"name": "B", "dims": [["q"]]}, "out": {"name": "C", "dims": [["m"]]}}',
                       lambda name: sysgym.make("looptune-v0", problem=name))),
    ('make("inline-v0", render_mode="human")', "a render mode the env lacks",
     lambda: sysgym.make("inline-v0", render_mode="human")),
    ('make_vec("memtier-v0", num_envs=10**9)', "more envs than the limit",
     lambda: sysgym.make_vec("memtier-v0", num_envs=10**9)),
    ('make_vec("memtier-v0", num_envs="8")', "a count that is not a number",
     lambda: sysgym.make_vec("memtier-v0", num_envs="8")),
    ('make_vec("inline-v0", num_envs=2, threads=0)', "no threads",
     lambda: sysgym.make_vec("inline-v0", num_envs=2, threads=0)),
    ("env.step(action)", "before reset", lambda: memtier(reset=False).step(np.zeros(16, dtype=np.int64))),
    ("env.step(np.zeros(16))", "float actions for a MultiBinary space",
     lambda: memtier().step(np.zeros(16))),
    ("env.step(np.zeros(15, dtype=int))", "an action of the wrong shape",
     lambda: memtier().step(np.zeros(15, dtype=np.int64))),
    ("env.step(np.full(16, 2))", "an action outside the space", lambda: memtier().step(np.full(16, 2))),
    ("env.reset(seed=-1)", "a negative seed", lambda: memtier(reset=False).reset(seed=-1)),
    ('env.reset(seed="1")', "a seed that is not an integer", lambda: memtier(reset=False).reset(seed="1")),
    ("env.reset()", "a closed env", lambda: closed_env().reset()),
]


def outcome(call):
    try:
        call()
    except sysgym.Error as caught:
        return caught
    return None


def cell(text):
    text = text.replace("|", "\\|")
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def render():
    lines = ["| call | bad input | error |", "|---|---|---|"]
    for call, what, feed in ROWS:
        caught = outcome(feed)
        lines.append(f"| {cell(call)} | {what} | {cell(type(caught).__name__)} {cell(str(caught))} |")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("call, what, feed", ROWS, ids=[row[1] for row in ROWS])
def test_every_row_raises_a_sysgym_error_that_is_also_a_built_in(call, what, feed):
    caught = outcome(feed)
    assert caught is not None, f"{call} ({what}) raised nothing"
    assert isinstance(caught, BUILT_INS), f"{type(caught).__name__} is not a built-in kind of error"
    assert 0 < len(str(caught)) <= 400, str(caught)[:200]


def test_the_hardening_pages_python_table_is_current():
    page = DOC.read_text(encoding="utf-8")
    assert BEGIN in page and END in page, f"{DOC} has no lines {BEGIN!r} ... {END!r}"
    start = page.index(BEGIN) + len(BEGIN)
    end = page.index(END, start)
    table = render()
    if os.environ.get("SYSGYM_UPDATE_CATALOGUE"):
        DOC.write_text(page[:start] + table + page[end:], encoding="utf-8")
        return
    assert page[start:end] == table, "the Python table of docs/hardening.md is stale: run ./sysgym.sh catalogue"
