"""The PEP 517 backend of `pip install ./python`, written so that no interpreter needs the
network: pip builds in an isolated environment and would otherwise fetch setuptools and wheel
into it. This backend needs none of them itself: it checks that the installing interpreter can
run the package (numpy importable, the extension's ABI), then builds the wheel with Debian's
python3 and its setuptools, as setup.py always has. Anything else is an error that says what to
run instead."""

import os
import subprocess
import sys
import sysconfig

HERE = os.path.dirname(os.path.abspath(__file__))
DEBIAN_PYTHON = "/usr/bin/python3"
INSTEAD = (f"install it with Debian's python3: `{DEBIAN_PYTHON} -m pip install ./python`, or into a "
           f"venv made from it: `{DEBIAN_PYTHON} -m venv --system-site-packages .venv && "
           ".venv/bin/pip install ./python`")


class BuildError(SystemExit):
    """What went wrong and what to run instead: printed as one message, no traceback (pip shows
    the backend's output and its exit status)."""

    def __init__(self, message):
        print(message, file=sys.stderr, flush=True)
        super().__init__(1)


def _clean_env():
    # The isolated build's variables would hide Debian's site-packages from its python3.
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME", "PIP_BUILD_TRACKER")}


def _check_interpreter():
    if not os.path.exists(DEBIAN_PYTHON):
        raise BuildError(f"sysgym: the Python package builds with Debian's python3 ({DEBIAN_PYTHON}), "
                         "which this machine lacks: run ./sysgym.sh setup in the source tree first")
    debian_suffix = subprocess.run(
        [DEBIAN_PYTHON, "-c", "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))"],
        capture_output=True, text=True, env=_clean_env(), check=True).stdout.strip()
    mine = sysconfig.get_config_var("EXT_SUFFIX")
    if mine != debian_suffix:
        raise BuildError(f"sysgym: this interpreter ({sys.executable}) loads *{mine} modules, the "
                         f"package is built for Debian's python3 (*{debian_suffix}): {INSTEAD}")
    # The installing interpreter as it runs outside pip's isolation: does it see numpy?
    numpy = subprocess.run([sys.executable, "-c", "import numpy"], capture_output=True,
                           env=_clean_env(), cwd="/")
    if numpy.returncode != 0:
        raise BuildError(f"sysgym: numpy is not importable by {sys.executable} (the package's "
                         f"arrays need it, and Debian's python3-numpy is what the build links): {INSTEAD}")


def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _check_interpreter()
    print("sysgym: building the core with CMake (minutes on a fresh checkout; its percentage goes "
          "to the terminal, `pip -v` shows the compiler's output)", file=sys.stderr, flush=True)
    before = set(os.listdir(wheel_directory))
    subprocess.run([DEBIAN_PYTHON, "setup.py", "-q", "bdist_wheel", "--dist-dir",
                    os.path.abspath(wheel_directory)], cwd=HERE, env=_clean_env(), check=True)
    built = [f for f in os.listdir(wheel_directory) if f.endswith(".whl") and f not in before]
    if len(built) != 1:
        raise BuildError(f"sysgym: setup.py bdist_wheel left {built or 'no wheel'} in {wheel_directory}")
    return built[0]
