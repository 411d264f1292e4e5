"""The errors sysgym raises.

Every one is a ``sysgym.Error`` and also the built-in exception a caller would expect (a bad
action or config is a ``ValueError``, a missing file an ``OSError``), so generic code catches
them without knowing sysgym. The kinds and messages are those of the native tool and the npm
package.
"""


class Error(Exception):
    """Any error sysgym reports."""


class ConfigError(Error, ValueError):
    """A config key is unknown, missing, of the wrong type or out of range."""


class TraceFormatError(Error, ValueError):
    """A trace, program or other input file is malformed (the message names file and place)."""


class UnknownNameError(Error, LookupError):
    """A name (env id, policy, kernel, ...) is not a registered one; the closest is suggested."""


class ApiMisuseError(Error, RuntimeError):
    """Calls out of order: step() before reset(), a closed env used again."""


class InvalidActionError(Error, ValueError):
    """An action's type, dtype, shape or value is not in the env's action space."""


class IoError(Error, OSError):
    """A file could not be opened, read or written."""


class EnvCheckError(Error, AssertionError):
    """An env broke the env contract (check_env names the promise)."""


class ToolError(Error):
    """A family tool (the native command line) failed without a sysgym error kind."""
