"""Matrices and LAPACK's scaled error measures for the package's tests."""

import numpy as np

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
# LAPACK's threshold on the scaled measures (sep.in)
THRESHOLD = 60


def eps(dtype):
    return np.finfo(np.dtype(dtype)).eps


def random(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def hermitian(rng, n, dtype, shift=0.0):
    """A random Hermitian matrix, shifted by shift * I (positive definite
    for shift > 2 sqrt(n) or so)."""
    x = random(rng, (n, n), dtype)
    return ((x + x.conj().T) / 2 + shift * np.eye(n)).astype(dtype)


def garbage_triangle(a, lower, rng):
    """a with the triangle a routine must not read (strictly above the
    diagonal when `lower`) overwritten by unrelated values."""
    a = a.copy()
    n = a.shape[0]
    mask = np.triu(np.ones((n, n), bool), 1) if lower else np.tril(np.ones((n, n), bool), -1)
    a[mask] = 1e3 * random(rng, (n, n), a.dtype)[mask]
    return a


def ordered(a, order):
    return np.asfortranarray(a) if order == "F" else np.ascontiguousarray(a)


def norm(x):
    """The 1-norm of a vector or matrix."""
    return np.linalg.norm(np.asarray(x, dtype=np.complex128), 1)


def solve_residual(a, x, b):
    """||b - a x|| / (||a|| ||x|| n eps), LAPACK's measure."""
    a64, x64, b64 = (np.asarray(v, np.complex128) for v in (a, x, b))
    n = a.shape[0]
    r = b64 - a64 @ x64
    return norm(r) / (norm(a64) * max(norm(x64), 1e-300) * n * eps(a.dtype))


def close(x, ref, scale, dtype, n):
    """max |x - ref| / (n ||scale|| eps)."""
    d = np.abs(np.asarray(x, np.complex128) - np.asarray(ref, np.complex128)).max(initial=0)
    return d / (max(n, 1) * max(norm(scale), 1e-300) * eps(dtype))
