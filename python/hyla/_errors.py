"""hyla's info codes as Python exceptions.

Numerical failures (info > 0) are LinAlgError (a numpy.linalg.LinAlgError)
carrying `info`, raised by each routine with its own message; bad arguments
and NaN/Inf input are ValueError; library failures (info <= -100) are
hyla.Error carrying `code`, a MemoryError too when memory ran out.
"""

import numpy as np

from . import _lib

_NO_MEMORY = -101
_DEVICE_MEMORY = -102
_NO_DEVICE = -105
_DEVICE_SPEC = -106
_INVALID = -110
_NAN = -112


class LinAlgError(np.linalg.LinAlgError):
    """A numerical failure; `info` is the routine's LAPACK info (> 0)."""

    def __init__(self, message, info):
        super().__init__(message)
        self.info = info


class LinAlgWarning(RuntimeWarning):
    """A result computed in spite of a numerical problem (as SciPy's)."""


class Error(RuntimeError):
    """A library failure (device, BLAS, unsupported in this build ...);
    `code` is the HYLA_ERR_* value."""

    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


class OutOfMemoryError(Error, MemoryError):
    """Host, pinned or device memory ran out (or the problem does not fit a
    device's memory cap)."""


def check(routine, code, arg_names=None):
    """Raises for a code < 0; returns code (0, or a numerical info > 0).
    arg_names: the routine's C arguments after ctx (argument i is
    arg_names[i - 1]), to name a bad one."""
    if code >= 0:
        return code
    message = f"{routine}: {_lib.strerror(code)}"
    if code == _NAN:
        raise ValueError("array must not contain infs or NaNs")
    if code > -100:
        i = -code
        name = f" ({arg_names[i - 1]})" if arg_names and i <= len(arg_names) else ""
        raise ValueError(f"{routine}: argument {i}{name} is invalid")
    if code in (_NO_DEVICE, _DEVICE_SPEC, _INVALID):
        raise ValueError(message)
    if code in (_NO_MEMORY, _DEVICE_MEMORY):
        raise OutOfMemoryError(message, code)
    raise Error(message, code)
