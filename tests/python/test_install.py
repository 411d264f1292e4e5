"""`pip install ./python` into a fresh venv gives a package that works on its own: envs, the
shipped data by name and the native tool's commands, from outside the source tree."""

import os
import pty
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHECK = """
import os, sysgym
assert sysgym.__file__.startswith(os.environ["VIRTUAL_ENV"]), sysgym.__file__
env = sysgym.make("memtier-v0", trace="xz", bins=32)
obs, _ = env.reset(seed=1)
assert obs.shape == env.observation_space.shape
assert sysgym.tools.tool_path().startswith(os.environ["VIRTUAL_ENV"])
shipped = os.path.join(os.environ["SYSGYM_DATA"], "real", "xz.ddr.bin")
assert shipped.startswith(os.environ["VIRTUAL_ENV"]) and sysgym.memtier.inspect(shipped)["duration_ms"] > 0
assert sysgym.make("inline-v0", program="lz4").facts["sites"] > 0
print("ok")
"""


def run_in_terminal(argv):
    """Runs argv with a new pseudo-terminal as its controlling terminal, as a user at a shell
    would: (exit status, everything written to the terminal)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execv(argv[0], argv)
        finally:
            os._exit(127)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: every process holding the terminal has ended
            break
        if not chunk:
            break
        out += chunk
    os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


def test_pip_installs_a_self_contained_package_showing_the_builds_progress(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True)
    status, shown = run_in_terminal([str(venv / "bin" / "pip"), "install", "--no-deps",
                                     "--no-index", os.path.join(ROOT, "python")])
    assert status == 0, shown[-4000:]
    # pip holds the build's output back; the percentage reaches the terminal all the same.
    assert "sysgym: building the core with CMake: 100%" in shown, shown[-4000:]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SYSGYM_DATA")}
    env["VIRTUAL_ENV"] = str(venv)
    done = subprocess.run([str(venv / "bin" / "python"), "-c", CHECK], capture_output=True,
                          text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
