"""`pip install ./python`: builds the extension module and the native tool with the project's
CMake preset (native-release, shared with ./sysgym.sh build) and packs them with the shipped data
the env names read (the npm package's set plus the trained policies).

Offline: pip builds through build_backend.py (pyproject.toml), which checks the installing
interpreter and runs this file with Debian's python3, its setuptools and wheel:
    /usr/bin/python3 -m venv --system-site-packages .venv && .venv/bin/pip install ./python
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.path.join(ROOT, "build", "native-release")
# What the package carries from data/: the files env configs and tools name.
SHIPPED = ["real/*.bin", "synth/*", "inline/*.json", "policies/**/*.json"]

LOCATIONS = '''"""Where this installed package's tool and shipped data are (written by setup.py)."""
import os

TOOL = os.path.join(os.path.dirname(__file__), "bin", "sysgym")
DATA = os.path.join(os.path.dirname(__file__), "data")
'''


os.makedirs(os.path.join(ROOT, "build", "python-setuptools"), exist_ok=True)


def build_with_progress(command):
    """Runs the build with its output passed on (`pip -v` shows it) and its percentage, every
    tenth, written to the terminal: pip holds a build's output back until it ends, and a fresh
    checkout compiles for minutes. Without a terminal (CI, a pipe) nothing more is written."""
    try:
        terminal = open("/dev/tty", "w", encoding="utf-8")  # pylint: disable=consider-using-with
    except OSError:
        terminal = None
    shown = -1
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as build:
        for line in build.stdout:
            sys.stdout.write(line)
            done = re.match(r"\[\s*(\d+)%\]", line)
            if terminal and done and int(done.group(1)) // 10 > shown:
                shown = int(done.group(1)) // 10
                terminal.write(f"\nsysgym: building the core with CMake: {done.group(1)}%")
                terminal.flush()
    if terminal:
        terminal.write("\n")
        terminal.close()
    if build.returncode != 0:
        sys.exit(f"sysgym: the build failed (exit {build.returncode}): `pip -v` shows its output")


class CMakeBuild(build_ext):
    """Builds through CMake and copies its outputs into the package being built."""

    def build_extension(self, ext):
        if shutil.which("cmake") is None:
            sys.exit("sysgym: cmake is missing: run ./sysgym.sh setup in the source tree first")
        subprocess.run(["cmake", "--preset", "native-release"], cwd=ROOT, check=True)
        build_with_progress(["cmake", "--build", BUILD, "-j", str(os.cpu_count() or 2), "--target",
                             "sysgym_python", "sysgym"])
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = glob.glob(os.path.join(BUILD, "python", "sysgym", "_sysgym*.so"))
        if not built[0].endswith(suffix):
            sys.exit(f"sysgym: the module was built for {os.path.basename(built[0])}, this "
                     f"interpreter loads *{suffix}: install with the interpreter CMake found "
                     "(Debian's python3, or a venv made from it)")
        package = os.path.join(self.build_lib, "sysgym")
        os.makedirs(os.path.join(package, "bin"), exist_ok=True)
        shutil.copy2(built[0], self.get_ext_fullpath(ext.name))
        shutil.copy2(os.path.join(BUILD, "sysgym"), os.path.join(package, "bin", "sysgym"))
        for pattern in SHIPPED:
            for path in glob.glob(os.path.join(ROOT, "data", pattern), recursive=True):
                target = os.path.join(package, "data", os.path.relpath(path, os.path.join(ROOT, "data")))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(path, target)
        with open(os.path.join(package, "_locations.py"), "w", encoding="utf-8") as out:
            out.write(LOCATIONS)


setup(
    name="sysgym",
    version="0.1.0",
    description="Reinforcement-learning environments for systems problems (Gymnasium API)",
    long_description="See the README of the sysgym source tree.",
    python_requires=">=3.9",
    install_requires=["numpy"],
    packages=["sysgym"],
    ext_modules=[Extension("sysgym._sysgym", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # setuptools' own files under build/, not beside the sources.
    options={"build": {"build_base": os.path.join(ROOT, "build", "python-setuptools")},
             "egg_info": {"egg_base": os.path.join(ROOT, "build", "python-setuptools")}},
)
