"""libhyla through ctypes: where the library is found, the C types of
include/hyla.h the package uses, and the prototypes of its entry points.

Every routine is reached by (name, dtype, resident): the precision letter
and, for arrays in a device's memory, the ``_gpu`` variant, whose argument
list is the host routine's with ``int dev`` after the context.

ctypes releases the GIL for the whole of each call into a CDLL (only PyDLL
keeps it), so other Python threads run while hyla computes.
"""

import ctypes
import ctypes.util
import os
import pathlib

import numpy as np

# Matrices, vectors and handles cross as plain addresses.
_P = ctypes.c_void_p
_I64 = ctypes.c_int64
_INT = ctypes.c_int
_CH = ctypes.c_char


class ComplexFloat(ctypes.Structure):
    """float _Complex by value. On x86-64 and AArch64 a C complex is passed
    exactly as a struct of its two parts (both classified as two floating
    point members), so ctypes' struct passing is the C99 type's."""
    _fields_ = [("re", ctypes.c_float), ("im", ctypes.c_float)]


class ComplexDouble(ctypes.Structure):
    """double _Complex by value (see ComplexFloat)."""
    _fields_ = [("re", ctypes.c_double), ("im", ctypes.c_double)]


class DeviceInfo(ctypes.Structure):
    """hyla_device_info."""
    _fields_ = [("kind", ctypes.c_int), ("ordinal", ctypes.c_int), ("name", ctypes.c_char * 128),
                ("memory_bytes", _I64), ("compute_major", ctypes.c_int),
                ("compute_minor", ctypes.c_int), ("multiprocessors", ctypes.c_int)]


class BackendInfo(ctypes.Structure):
    """hyla_backend_info (hyla.h)"""
    _fields_ = [("name", ctypes.c_char * 16), ("kind", ctypes.c_int), ("available", ctypes.c_int),
                ("devices", ctypes.c_int), ("detail", ctypes.c_char * 256)]


class RbtOpts(ctypes.Structure):
    """hyla_rbt_opts."""
    _fields_ = [("depth", ctypes.c_int), ("max_refine", ctypes.c_int), ("dev", ctypes.c_int),
                ("seed", ctypes.c_uint64)]


class RbtInfo(ctypes.Structure):
    """hyla_rbt_info."""
    _fields_ = [("fallback", ctypes.c_int), ("fallback_reason", ctypes.c_int),
                ("refine_steps", ctypes.c_int), ("depth", ctypes.c_int), ("n_padded", _I64),
                ("berr", ctypes.c_double), ("berr_rbt", ctypes.c_double),
                ("t_random", ctypes.c_double), ("t_factor", ctypes.c_double),
                ("t_solve", ctypes.c_double), ("t_refine", ctypes.c_double),
                ("t_copy", ctypes.c_double), ("t_fallback", ctypes.c_double),
                ("t_total", ctypes.c_double)]


DEVICE_HOST = 0
DEVICE_CUDA = 1

# The four types: their letter, the scalar passed by value, the real type.
PREC = {
    np.dtype(np.float32): ("s", ctypes.c_float),
    np.dtype(np.float64): ("d", ctypes.c_double),
    np.dtype(np.complex64): ("c", ComplexFloat),
    np.dtype(np.complex128): ("z", ComplexDouble),
}

# Argument lists after the context (the _gpu variants insert `int dev`
# first); "S" is the type's scalar. Names whose real and complex routines
# differ ("syevd" / "heevd") give both.
_ROUTINES = {
    "gemm": ("{p}gemm", [_CH, _CH, _I64, _I64, _I64, "S", _P, _I64, _P, _I64, "S", _P, _I64]),
    "potrf": ("{p}potrf", [_CH, _I64, _P, _I64]),
    "potrs": ("{p}potrs", [_CH, _I64, _I64, _P, _I64, _P, _I64]),
    "posv": ("{p}posv", [_CH, _I64, _I64, _P, _I64, _P, _I64]),
    "getrf": ("{p}getrf", [_I64, _I64, _P, _I64, _P]),
    "getrs": ("{p}getrs", [_CH, _I64, _I64, _P, _I64, _P, _P, _I64]),
    "gesv": ("{p}gesv", [_I64, _I64, _P, _I64, _P, _P, _I64]),
    "gesv_rbt": ("{p}gesv_rbt", [_I64, _I64, _P, _I64, _P, _I64, _P, _P]),
    "syevd": ("{p}{sy}evd", [_CH, _CH, _I64, _P, _I64, _P]),
    "sygvd": ("{p}{sy}gvd", [_INT, _CH, _CH, _I64, _P, _I64, _P, _I64, _P]),
    "syevdx": ("{p}{sy}evdx", [_CH, _CH, _CH, _I64, _P, _I64, "R", "R", _I64, _I64, _P, _P, _P,
                               _I64]),
    "sygvdx": ("{p}{sy}gvdx", [_INT, _CH, _CH, _CH, _I64, _P, _I64, _P, _I64, "R", "R", _I64, _I64,
                               _P, _P, _P, _I64]),
}

# The C arguments' names (hyla.h; after ctx, and after dev in the _gpu
# variants, which number them the same): a bad argument's error names it.
ARG_NAMES = {
    "gemm": ("transa", "transb", "m", "n", "k", "alpha", "A", "lda", "B", "ldb", "beta", "C", "ldc"),
    "potrf": ("uplo", "n", "A", "lda"),
    "potrs": ("uplo", "n", "nrhs", "L", "lda", "B", "ldb"),
    "posv": ("uplo", "n", "nrhs", "A", "lda", "B", "ldb"),
    "getrf": ("m", "n", "A", "lda", "ipiv"),
    "getrs": ("trans", "n", "nrhs", "LU", "lda", "ipiv", "B", "ldb"),
    "gesv": ("n", "nrhs", "A", "lda", "ipiv", "B", "ldb"),
    "gesv_rbt": ("n", "nrhs", "A", "lda", "B", "ldb", "opts", "info"),
    "syevd": ("jobz", "uplo", "n", "A", "lda", "w"),
    "sygvd": ("itype", "jobz", "uplo", "n", "A", "lda", "B", "ldb", "w"),
    "syevdx": ("jobz", "range", "uplo", "n", "A", "lda", "vl", "vu", "il", "iu", "m", "w", "Z",
               "ldz"),
    "sygvdx": ("itype", "jobz", "range", "uplo", "n", "A", "lda", "B", "ldb", "vl", "vu", "il", "iu",
               "m", "w", "Z", "ldz"),
}


def _library_path():
    """HYLA_LIBRARY, else the libhyla.so installed beside this package, else
    the system's (ld.so's search path)."""
    env = os.environ.get("HYLA_LIBRARY")
    if env:
        return env
    beside = pathlib.Path(__file__).with_name("libhyla.so")
    if beside.exists():
        return str(beside)
    found = ctypes.util.find_library("hyla")
    if found:
        return found
    raise ImportError("libhyla.so not found: install the package with pip, or set HYLA_LIBRARY "
                      "to the library's path")


lib = ctypes.CDLL(_library_path())

lib.hyla_strerror.restype = ctypes.c_char_p
lib.hyla_strerror.argtypes = [_INT]
lib.hyla_version.restype = ctypes.c_char_p
lib.hyla_version.argtypes = []
lib.hyla_create.argtypes = [ctypes.POINTER(_P), ctypes.c_char_p]
lib.hyla_destroy.restype = None
lib.hyla_destroy.argtypes = [ctypes.POINTER(_P)]
lib.hyla_device_count.argtypes = [_P]
lib.hyla_get_device_info.argtypes = [_P, _INT, ctypes.POINTER(DeviceInfo)]
lib.hyla_backend_count.argtypes = []
lib.hyla_device_list_help.restype = ctypes.c_char_p
lib.hyla_device_list_help.argtypes = []
lib.hyla_get_backend_info.argtypes = [_INT, ctypes.POINTER(BackendInfo)]

_cache = {}


def routine(name, dtype, resident):
    """The ctypes function of routine `name` for `dtype` (one of PREC's),
    its _gpu variant when `resident` (the array is in a device's memory)."""
    key = (name, dtype, resident)
    fn = _cache.get(key)
    if fn is None:
        pattern, args = _ROUTINES[name]
        p, scalar = PREC[dtype]
        cname = "hyla_" + pattern.format(p=p, sy="he" if p in "cz" else "sy")
        args = [scalar if a == "S" else ctypes.c_double if a == "R" and p in "dz"
                else ctypes.c_float if a == "R" else a for a in args]
        if resident:
            cname += "_gpu"
            args = [_INT] + args
        fn = getattr(lib, cname)
        fn.restype = _INT
        fn.argtypes = [_P] + args
        _cache[key] = fn
    return fn


def strerror(code):
    return lib.hyla_strerror(code).decode()


def version():
    return lib.hyla_version().decode()
