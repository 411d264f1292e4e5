"""The native tool's commands as Python calls: ``sysgym.memtier.estimate(input="x.bin")`` runs
``sysgym memtier estimate --input x.bin --json`` and returns its parsed report.

Keyword arguments become flags (``hbm_range="a:b"`` is ``--hbm-range a:b``; True is a bare flag,
False and None leave it out, a list repeats it); positional arguments are passed as they are.
Commands with a ``--json`` flag return its JSON, others their text. A failure raises the
``sysgym.Error`` subclass the tool named ("sysgym: ConfigError: ...").
"""

import functools
import json
import re
import subprocess

from . import errors

try:
    from . import _locations
except ImportError:  # a package without a tool (never the case for the build's or pip's)
    _locations = None


def tool_path():
    """The native ``sysgym`` executable this package runs its commands with."""
    if _locations is None:
        raise errors.ToolError("this sysgym package has no native tool")
    return _locations.TOOL


def _flags(options):
    argv = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value is False or value is None:
            continue
        elif isinstance(value, (list, tuple)):
            for item in value:
                argv += [flag, str(item)]
        elif isinstance(value, dict):
            argv += [flag, json.dumps(value)]
        else:
            argv += [flag, str(value)]
    return argv


@functools.lru_cache(maxsize=None)
def _help(command):
    done = subprocess.run([tool_path(), *command, "--help"], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else ""


def _raise_tool_error(command, done):
    lines = done.stderr.strip().splitlines()
    for line in reversed(lines):
        match = re.match(r"sysgym: (\w+): (.*)", line)
        if match and hasattr(errors, match.group(1)):
            raise getattr(errors, match.group(1))(match.group(2))
    # A usage error: CLI11's message, without its pointer to --help.
    message = "; ".join(line for line in lines if not line.startswith("Run with --help"))
    raise errors.ToolError(f"sysgym {' '.join(command)}: {message or f'exit status {done.returncode}'}")


def run(*command, **options):
    """Runs ``sysgym COMMAND... [args] --flags`` and returns its JSON report or its text.

    ``command`` holds the command's words and then its positional arguments, e.g.
    ``run("compare", "memtier", "hbm_capacity=10%")``.
    """
    words = [str(word) for word in command]
    argv = words + _flags(options)
    json_flag = "json" not in options and "--json" in _help(tuple(words[:2]))
    if json_flag:
        argv.append("--json")
    done = subprocess.run([tool_path(), *argv], capture_output=True, text=True)
    if done.returncode != 0:
        _raise_tool_error(words[:2], done)
    return json.loads(done.stdout) if json_flag or options.get("json") else done.stdout


class Family:
    """A family's tools, by attribute: ``sysgym.tensorplace.sweep(model="resnet50")``."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, tool):
        if tool.startswith("_"):
            raise AttributeError(tool)
        return functools.partial(run, self._name, tool.replace("_", "-"))

    def __dir__(self):
        return sorted(self.tools())

    def tools(self):
        """The family's command names (from ``sysgym FAMILY --help``)."""
        text = _help((self._name,))
        section = text.split("Subcommands:", 1)[1] if "Subcommands:" in text else ""
        return [m.group(1).replace("-", "_") for m in re.finditer(r"^  (\S+)", section, re.M)]

    def __repr__(self):
        return f"<sysgym tools of {self._name}: {', '.join(self.tools())}>"
