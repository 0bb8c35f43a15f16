"""hyla: dense linear algebra on CPU cores and NVIDIA GPUs, called as
scipy.linalg.

    import hyla
    w, v = hyla.eigh(a)          # a: NumPy array, torch CUDA tensor or CuPy array

A thin ctypes binding of libhyla (include/hyla.h): the routines are
hyla's; this package lays arrays out for them, picks the host-resident or
device-resident entry point and turns info codes into exceptions. See
hyla.linalg for the routines and hyla.Context for devices and interrupts.
"""

from ._context import Backend, Context, Device, backends, default_context
from ._errors import Error, LinAlgError, LinAlgWarning, OutOfMemoryError
from ._lib import version
from .linalg import (RbtInfo, cho_factor, cho_solve, cholesky, eigh, eigvalsh, gemm, lu_factor,
                     lu_solve, matmul, solve, solve_rbt)

__version__ = version()

__all__ = ["Backend", "Context", "Device", "backends", "default_context", "Error", "LinAlgError",
           "LinAlgWarning", "OutOfMemoryError", "RbtInfo", "cho_factor", "cho_solve", "cholesky", "eigh",
           "eigvalsh", "gemm", "lu_factor", "lu_solve", "matmul", "solve", "solve_rbt", "version"]
