"""The routines, named and called as scipy.linalg's where SciPy has them.

Each takes NumPy arrays (the host-resident routines, every device of the
context) or arrays in a device's memory (torch CUDA tensors, CuPy arrays:
the device-resident routines on that device), and returns its results in
the type and on the device of its first array argument. float32, float64,
complex64 and complex128 are computed in their own precision; other
numeric types are converted first (integers to float64, half precision to
float32), as SciPy does.

Layouts. hyla is column-major; a C-ordered matrix is the column-major
matrix of its transpose, and is used as that where the algebra allows,
without a copy: a symmetric or Hermitian matrix in C order is the same
matrix (conjugated) with the other triangle (eigh, cholesky, cho_factor,
solve with assume_a="pos"), a GEMM operand is its transpose with the other
`trans`, and solve with assume_a="gen" factors the transpose and solves
with it transposed. Inputs a routine overwrites are copied unless
overwrite_*=True permits using them in place; a copy is also made where no
layout trick applies (the factor passed to lu_solve, the matrix of
solve_rbt, a right-hand side in C order) and for strides BLAS cannot
express. Keyword `ctx` picks the context: a hyla.Context, a device list
such as "cpu:2" (_context.resolve), or None for default_context().
"""

import collections
import ctypes
import warnings

import numpy as np

from . import _lib
from ._arrays import NumpyArrays, adapter
from ._context import resolve
from ._errors import LinAlgError, LinAlgWarning, check

_WORKING = {np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128)}


def _working_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype in _WORKING:
        return dtype
    # as SciPy's LAPACK dispatch: bool and integers of one or two bytes in
    # single precision, wider integers in double
    if dtype.kind == "b" or (dtype.kind in "iu" and dtype.itemsize <= 2):
        return np.dtype(np.float32)
    if dtype.kind in "iu":
        return np.dtype(np.float64)
    if dtype.kind == "f" and dtype.itemsize < 4:
        return np.dtype(np.float32)
    if dtype.kind == "c" and dtype.itemsize < 8:
        return np.dtype(np.complex64)
    raise ValueError(f"unsupported dtype {dtype}: hyla computes in float32, float64, "
                     f"complex64 and complex128")


class _Mem(collections.namedtuple("_Mem", "address ld transposed owner")):
    """A 2-D array as BLAS sees it: the column-major matrix at `address`
    with leading dimension `ld` is the array, or its transpose when
    `transposed` (C order); `owner` keeps the export alive."""


def _blas_layout(memory):
    """The _Mem of an array's memory, None when BLAS cannot address it."""
    if memory is None:
        return None
    shape, strides = memory.shape, memory.strides
    if len(shape) == 1:
        shape, strides = (shape[0], 1), (strides[0], max(1, shape[0]))
    rows, cols = shape
    s0, s1 = strides
    if rows == 0 or cols == 0:  # nothing addressed, any strides
        return _Mem(memory.address, max(1, rows), False, memory.owner)
    if (rows <= 1 or s0 == 1) and (cols <= 1 or s1 >= max(1, rows)):
        return _Mem(memory.address, s1 if cols > 1 else max(1, rows), False, memory.owner)
    if (cols <= 1 or s1 == 1) and (rows <= 1 or s0 >= max(1, cols)):
        return _Mem(memory.address, s0 if rows > 1 else max(1, cols), True, memory.owner)
    return None


class _Job:
    """One call: the context, the path (host, or device `dev`), the working
    dtype, the adapter of the working arrays and how results go back to the
    caller's type."""

    def __init__(self, ctx, arrays, scalars=(), check_finite=False):
        self.ctx = resolve(ctx)
        prepared, where = [], None
        self.wrap = None
        for x in arrays:
            xp = adapter(x)
            x = np.asarray(x) if xp is NumpyArrays else xp.plain(x)
            place = xp.device(x)
            if place is None and xp is not NumpyArrays:
                # host memory of another library: its NumPy view, results back
                self.wrap = self.wrap or (xp, x)
                x, xp = xp.to_host(x), NumpyArrays
            if where is None:
                where = (xp, place)
            elif where != (xp, place):
                raise ValueError("all arrays of a call must be of one type on one device")
            prepared.append(x)
        self.xp, place = where
        self.like = prepared[0]
        self.dev = None if place is None else self.ctx.device_index(*place)
        dtype = np.result_type(*(self.xp.dtype(x) for x in prepared))
        dtype = _working_dtype(dtype)
        if dtype.kind == "f" and any(complex(s).imag != 0 for s in scalars):
            dtype = np.result_type(dtype, np.complex64)
        self.dtype = dtype
        self.real = np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
        self.arrays = [x if self.xp.dtype(x) == dtype else self.xp.astype(x, dtype)
                       for x in prepared]
        # SciPy's check_finite: every input whole, whatever its layout or
        # the part the routine reads, before any work
        if check_finite and not all(self.xp.all_finite(x) for x in self.arrays):
            raise ValueError("array must not contain infs or NaNs")

    def blas(self, x, writable=False, overwrite=False, fortran=False):
        """x in a layout BLAS takes (column-major when `fortran`), and its
        _Mem: x itself where it can be, else a copy; a `writable` x is
        copied unless `overwrite` permits writing it."""
        if writable and not overwrite:
            x = self.xp.copy(x, "F" if fortran else "K")
        mem = _blas_layout(self.xp.memory(x))
        if mem is None or (fortran and mem.transposed):
            x = self.xp.copy(x, "F")
            mem = _blas_layout(self.xp.memory(x))
        return x, mem

    def run(self, name, *args, keep):
        """Calls routine `name` (its _gpu variant on a device) and returns
        its info (>= 0); raises for the codes below 0."""
        fn = _lib.routine(name, self.dtype, self.dev is not None)
        if self.dev is not None:
            args = (self.dev,) + args
            self.xp.synchronize(self.like)
        return check(fn.__name__, self.ctx.call(fn, *args, keep=keep), _lib.ARG_NAMES.get(name))

    def result(self, x):
        """An array of the working type, as the caller's type."""
        if self.wrap is not None:
            xp, like = self.wrap
            return xp.from_host(x, like)
        return x

    def host_result(self, h):
        """A NumPy array, moved to the caller's device and type."""
        return self.result(h if self.dev is None else self.xp.from_host(h, self.like))


def _square(x, name):
    if x.ndim != 2 or x.shape[0] != x.shape[1]:
        raise ValueError(f"expected a square matrix for {name}, got shape {tuple(x.shape)}")
    return x.shape[0]


def _rhs(b, n):
    """b (n or n x nrhs) as a matrix, and whether it was a vector."""
    if b.ndim not in (1, 2) or b.shape[0] != n:
        raise ValueError(f"incompatible dimensions: b of shape {tuple(b.shape)} for a matrix of "
                         f"order {n}")
    return (b[:, None], True) if b.ndim == 1 else (b, False)


def _uplo(lower):
    return b"L" if lower else b"U"


def _not_pd(info):
    return LinAlgError(f"{info}-th leading minor of the array is not positive definite", info)


# ------------------------------------------------------------ eigensolver


_EIGH_DRIVERS = (None, "evd", "ev", "evr")


def _subset_args(n, by_index, by_value):
    """(range, vl, vu, il, iu) of hyla_?syevdx / ?sygvdx for scipy's
    subset_by_index (lo, hi: 0-based, inclusive) or subset_by_value (lo,
    hi], or every eigenvalue."""
    if by_index is not None:
        lo, hi = (int(x) for x in by_index)
        if not (0 <= lo <= hi < n):
            raise ValueError(f"subset_by_index: 0 <= lo <= hi < n = {n} needed; got ({lo}, {hi})")
        return b"I", 0.0, 0.0, lo + 1, hi + 1
    if by_value is not None:
        vl, vu = (float(x) for x in by_value)
        if not vl < vu:
            raise ValueError(f"subset_by_value: lo < hi needed; got ({vl}, {vu})")
        return b"V", vl, vu, 1, max(n, 1)
    return b"A", 0.0, 0.0, 1, n


def _eigh_subset(a, b, lower, eigvals_only, overwrite_a, overwrite_b, itype, check_finite,
                 by_index, by_value, ctx):
    """eigh with subset_by_index or subset_by_value (see _subset_args):
    hyla_?syevdx / ?heevdx, or with b hyla_?sygvdx / ?hegvdx, on host
    copies in column-major order (arrays in GPU memory through the host)."""
    job = _Job(ctx, [a] if b is None else [a, b], check_finite=check_finite)
    a = job.arrays[0]
    n = _square(a, "a")
    if b is not None:
        b = job.arrays[1]
        if _square(b, "b") != n:
            raise ValueError(f"a is {n} x {n} but b is {b.shape[0]} x {b.shape[1]}: the same "
                             "order is needed")
    rng, vl, vu, il, iu = _subset_args(n, by_index, by_value)
    host = job
    if job.dev is not None:
        a = np.array(job.xp.to_host(a))
        b = None if b is None else np.array(job.xp.to_host(b))
        overwrite_a = overwrite_b = True
        host = _Job(job.ctx, [a] if b is None else [a, b])
    a, amem = host.blas(a, writable=True, overwrite=overwrite_a, fortran=True)
    w = np.empty(max(n, 1), dtype=host.real)
    z = np.empty((n, max(n, 1)), dtype=host.dtype, order="F")
    m = ctypes.c_int64(0)
    jobz = b"N" if eigvals_only else b"V"
    if b is None:
        info = host.run("syevdx", jobz, rng, _uplo(lower), n, amem.address, amem.ld, vl, vu, il,
                        iu, ctypes.addressof(m), w.ctypes.data, z.ctypes.data, max(n, 1),
                        keep=(a, amem, w, z, m))
    else:
        b, bmem = host.blas(b, writable=True, overwrite=overwrite_b, fortran=True)
        info = host.run("sygvdx", itype, jobz, rng, _uplo(lower), n, amem.address, amem.ld,
                        bmem.address, bmem.ld, vl, vu, il, iu, ctypes.addressof(m), w.ctypes.data,
                        z.ctypes.data, max(n, 1), keep=(a, amem, b, bmem, w, z, m))
        if info > n:
            raise _not_pd_b(info, n)
    if info > 0:
        raise LinAlgError(f"bisection or inverse iteration did not converge for {info} "
                          "eigenvalues", info)
    w = w[:m.value]
    w = job.host_result(w) if job.dev is not None else job.result(w)
    if eigvals_only:
        return w
    z = np.asfortranarray(z[:, :m.value])
    return w, job.host_result(z) if job.dev is not None else job.result(z)


def _not_pd_b(info, n):
    """LinAlgError for info = n + k (LAPACK's ?sygvd: B's leading minor of
    order k is not positive definite), info kept as SciPy's."""
    return LinAlgError(f"The leading minor of order {info - n} of B is not positive definite. "
                       "The factorization of B could not be completed and no eigenvalues or "
                       "eigenvectors were computed.", info)


def _eigh_generalized(a, b, lower, eigvals_only, overwrite_a, overwrite_b, itype, check_finite,
                      ctx):
    """eigh(a, b): hyla_?sygvd / ?hegvd on host copies in column-major
    order (arrays in GPU memory go through the host: there is no
    device-resident generalized solver), results in the caller's type."""
    job = _Job(ctx, [a, b], check_finite=check_finite)
    a, b = job.arrays
    n = _square(a, "a")
    if _square(b, "b") != n:
        raise ValueError(f"a is {n} x {n} but b is {b.shape[0]} x {b.shape[1]}: the same order "
                         "is needed")
    host = job
    if job.dev is not None:
        a, b = (np.array(job.xp.to_host(x)) for x in (a, b))
        overwrite_a = overwrite_b = True
        host = _Job(job.ctx, [a, b])
    a, amem = host.blas(a, writable=True, overwrite=overwrite_a, fortran=True)
    b, bmem = host.blas(b, writable=True, overwrite=overwrite_b, fortran=True)
    w = np.empty(n, dtype=host.real)
    info = host.run("sygvd", itype, b"N" if eigvals_only else b"V", _uplo(lower), n, amem.address,
                    amem.ld, bmem.address, bmem.ld, w.ctypes.data, keep=(a, amem, b, bmem, w))
    if info > n:
        raise _not_pd_b(info, n)
    if info > 0:
        raise LinAlgError(f"the eigensolver did not converge (info {info})", info)
    w = job.host_result(w) if job.dev is not None else job.result(w)
    if eigvals_only:
        return w
    v = job.host_result(a) if job.dev is not None else job.result(a)
    return w, v


def eigh(a, b=None, *, lower=True, eigvals_only=False, overwrite_a=False, overwrite_b=False,
         type=1, check_finite=True, subset_by_index=None, subset_by_value=None, driver=None,
         ctx=None):
    """Eigenvalues w (ascending) and eigenvectors v (columns) of the
    symmetric / Hermitian `a`, from its lower (or upper) triangle:
    a @ v = v * w. Returns w, or (w, v). hyla_?syevd / ?heevd: the
    two-stage solver, or the backend's one-stage solver below its crossover
    (small orders on a GPU; real types with eigenvectors on the host).
    scipy.linalg.eigh's signature: with b, the generalized problem of
    `type` 1 (a v = b v w), 2 (a b v = v w) or 3 (b a v = v w), b Hermitian
    positive definite (hyla_?sygvd / ?hegvd; v normalized as SciPy's;
    LinAlgError when b is not positive definite). driver None, "evd", "ev",
    "evr" (no b) or "gv", "gvd" (with b) all compute every eigenpair, as
    SciPy's do without a subset; subset_by_index (lo, hi) or
    subset_by_value (lo, hi] (and driver "evx", or "gvx" with b) take a
    part of the spectrum by hyla_?syevdx / ?heevdx (with b hyla_?sygvdx /
    ?hegvdx), at a cost that drops with its size.
    LinAlgError when the tridiagonal solver does not converge;
    ValueError for NaN or Inf in a (check_finite, as SciPy; without it,
    in the triangle read), or an unknown driver."""
    if driver not in _EIGH_DRIVERS + ("evx", "gv", "gvd", "gvx"):
        raise ValueError(f"driver must be one of 'evd', 'ev', 'evr', 'evx', 'gv', 'gvd', 'gvx' "
                         f"or None; got {driver!r}")
    if type not in (1, 2, 3):
        raise ValueError(f"type must be 1, 2 or 3; got {type!r}")
    if b is None and driver in ("gv", "gvd", "gvx"):
        raise ValueError(f"driver {driver!r} requires b (a generalized problem)")
    if b is not None and driver in ("ev", "evd", "evr", "evx"):
        raise ValueError(f"driver {driver!r} takes no b (a standard problem)")
    subset = subset_by_index is not None or subset_by_value is not None
    if subset_by_index is not None and subset_by_value is not None:
        raise ValueError("either subset_by_index or subset_by_value, not both")
    if subset or driver in ("evx", "gvx"):
        return _eigh_subset(a, b, lower, eigvals_only, overwrite_a, overwrite_b, type,
                            check_finite, subset_by_index, subset_by_value, ctx)
    if b is not None:
        return _eigh_generalized(a, b, lower, eigvals_only, overwrite_a, overwrite_b, type,
                                 check_finite, ctx)
    job = _Job(ctx, [a], check_finite=check_finite)
    (a,) = job.arrays
    n = _square(a, "a")
    # eigenvalues alone on the host leave A unwritten
    writable = not eigvals_only or job.dev is not None
    a, mem = job.blas(a, writable=writable, overwrite=overwrite_a)
    w = np.empty(n, dtype=job.real)
    info = job.run("syevd", b"N" if eigvals_only else b"V", _uplo(lower != mem.transposed), n,
                   mem.address, mem.ld, w.ctypes.data, keep=(a, mem, w))
    if info > 0:
        raise LinAlgError(f"the eigensolver did not converge (info {info})", info)
    w = job.host_result(w)
    if eigvals_only:
        return w
    if mem.transposed:
        # the solver saw a's transpose, conj(a): its eigenvectors are conj(v)
        if job.dtype.kind == "c":
            job.xp.conj_inplace(a)
        a = a.T
    return w, job.result(a)


def eigvalsh(a, b=None, *, lower=True, overwrite_a=False, overwrite_b=False, type=1,
             check_finite=True, subset_by_index=None, subset_by_value=None, driver=None,
             ctx=None):
    """The eigenvalues of eigh(a), ascending (scipy.linalg.eigvalsh's
    signature; eigh says which arguments hyla does not take yet)."""
    return eigh(a, b, lower=lower, eigvals_only=True, overwrite_a=overwrite_a,
                overwrite_b=overwrite_b, type=type, check_finite=check_finite,
                subset_by_index=subset_by_index, subset_by_value=subset_by_value, driver=driver,
                ctx=ctx)


# ------------------------------------------------------------ Cholesky


def _potrf(job, a, lower, overwrite_a):
    _square(a, "a")
    a, mem = job.blas(a, writable=True, overwrite=overwrite_a)
    # in C order the routine factors conj(a) from the other triangle; the
    # array's triangle then holds a's factor itself
    info = job.run("potrf", _uplo(lower != mem.transposed), a.shape[0], mem.address, mem.ld,
                   keep=(a, mem))
    if info > 0:
        raise _not_pd(info)
    return a


def cholesky(a, lower=False, overwrite_a=False, check_finite=True, *, ctx=None):
    """The Cholesky factor of the Hermitian positive definite `a`: U with
    a = U^H U, or L with a = L L^H when `lower`, the other triangle zero.
    LinAlgError (info = k) when the leading minor of order k is not
    positive definite. ValueError for NaN or Inf in a (check_finite)."""
    job = _Job(ctx, [a], check_finite=check_finite)
    c = _potrf(job, job.arrays[0], lower, overwrite_a)
    return job.result(job.xp.tril(c) if lower else job.xp.triu(c))


def cho_factor(a, lower=False, overwrite_a=False, check_finite=True, *, ctx=None):
    """(c, lower) for cho_solve: c holds the factor in its `lower` (or
    upper) triangle, the other triangle is a's."""
    job = _Job(ctx, [a], check_finite=check_finite)
    return job.result(_potrf(job, job.arrays[0], lower, overwrite_a)), lower


def _rhs_work(job, b, n, overwrite_b):
    """b (n or n x nrhs) as a column-major matrix the solver may overwrite,
    its _Mem, and whether b was a vector."""
    b2, vector = _rhs(b, n)
    b2, mem = job.blas(b2, writable=True, overwrite=overwrite_b, fortran=True)
    return b2, mem, vector


def _solved(job, b2, vector):
    return job.result(b2[:, 0] if vector else b2)


def _pos_solve(job, name, a, amem, lower, b, overwrite_b, transposed=False):
    """potrs or posv of a (as laid out in amem) with b: x with a x = b, or
    a^T x = b when `transposed`. The routine sees conj(a) for a in C order,
    and a^T = conj(a): where it sees the conjugate of the matrix wanted,
    conj(a) conj(x) = conj(b) gives x."""
    n = a.shape[0]
    b2, bmem, vector = _rhs_work(job, b, n, overwrite_b)
    flip = amem.transposed != transposed and job.dtype.kind == "c"
    if flip:
        job.xp.conj_inplace(b2)
    info = job.run(name, _uplo(lower != amem.transposed), n, b2.shape[1], amem.address, amem.ld,
                   bmem.address, bmem.ld, keep=(a, amem, b2, bmem))
    if info > 0:
        raise _not_pd(info)
    if flip:
        job.xp.conj_inplace(b2)
    return _solved(job, b2, vector)


def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True, *, ctx=None):
    """x with a x = b, from (c, lower) = cho_factor(a)."""
    c, lower = c_and_lower
    job = _Job(ctx, [c, b], check_finite=check_finite)
    c, b = job.arrays
    _square(c, "c")
    c, cmem = job.blas(c)
    return _pos_solve(job, "potrs", c, cmem, lower, b, overwrite_b)


# ------------------------------------------------------------ LU


def lu_factor(a, overwrite_a=False, check_finite=True, *, ctx=None):
    """(lu, piv): the LU factorization with partial pivoting of the m x n
    `a`, a = P L U, L (unit diagonal) and U in lu; row i was interchanged
    with row piv[i] (0-based, as SciPy). A zero pivot gives a
    LinAlgWarning, as SciPy. ValueError for NaN or Inf in a (check_finite;
    without it they propagate to the factor, LAPACK's way)."""
    job = _Job(ctx, [a], check_finite=check_finite)
    (a,) = job.arrays
    if a.ndim != 2:
        raise ValueError(f"expected a matrix, got shape {tuple(a.shape)}")
    m, n = a.shape
    a, mem = job.blas(a, writable=True, overwrite=overwrite_a, fortran=True)
    ipiv = np.empty(min(m, n), dtype=np.int64)
    info = job.run("getrf", m, n, mem.address, mem.ld, ipiv.ctypes.data, keep=(a, mem, ipiv))
    if info > 0:
        warnings.warn(f"Diagonal number {info} is exactly zero. Singular matrix.", LinAlgWarning,
                      stacklevel=2)
    return job.result(a), job.host_result((ipiv - 1).astype(np.int32))


def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True, *, ctx=None):
    """x with op(a) x = b from (lu, piv) = lu_factor(a); trans 0: a x = b,
    1: a^T x = b, 2: a^H x = b."""
    lu, piv = lu_and_piv
    if trans not in (0, 1, 2):
        raise ValueError(f"trans must be 0, 1 or 2, not {trans!r}")
    job = _Job(ctx, [lu, b], check_finite=check_finite)
    lu, b = job.arrays
    n = _square(lu, "lu")
    ipiv = np.asarray(adapter(piv).to_host(piv), dtype=np.int64).ravel() + 1
    if ipiv.shape != (n,):
        raise ValueError(f"piv must have {n} entries, not {ipiv.size}")
    lu, lmem = job.blas(lu, fortran=True)
    b2, bmem, vector = _rhs_work(job, b, n, overwrite_b)
    job.run("getrs", b"NTC"[trans:trans + 1], n, b2.shape[1], lmem.address, lmem.ld,
            ipiv.ctypes.data, bmem.address, bmem.ld, keep=(lu, lmem, ipiv, b2, bmem))
    return _solved(job, b2, vector)


# ------------------------------------------------------------ solvers

# SciPy's assume_a names: gen and pos have solvers of their own; the others
# are solved by LU on the matrix they describe (the triangle `lower` picks for
# sym and her, the triangle or diagonal named, the whole for the band kinds),
# which reads what SciPy's solver reads and gives its answer up to rounding
_ASSUME = {"gen": "gen", "general": "gen", "pos": "pos", "positive definite": "pos",
           "sym": "sym", "symmetric": "sym", "her": "her", "hermitian": "her",
           "upper triangular": "upper", "lower triangular": "lower", "diagonal": "diagonal",
           "tridiagonal": "gen", "banded": "gen"}


def _described(job, a, kind, lower):
    """The square matrix that assume_a `kind` says a stands for, as a new
    array of a's kind: the Hermitian (symmetric) matrix of a's lower or
    upper triangle, a triangle, or the diagonal."""
    h = np.array(job.xp.to_host(a), copy=True)
    if kind in ("sym", "her"):
        t = np.tril(h) if lower else np.triu(h)
        rest = np.tril(t, -1) if lower else np.triu(t, 1)
        h = t + (rest.conj() if kind == "her" else rest).T
        if kind == "her" and np.iscomplexobj(h):
            h[np.diag_indices_from(h)] = h.diagonal().real
    elif kind == "upper":
        h = np.triu(h)
    elif kind == "lower":
        h = np.tril(h)
    else:
        h = np.diag(np.diag(h))
    return h if job.dev is None else job.xp.from_host(h, a)


def solve(a, b, lower=False, overwrite_a=False, overwrite_b=False, check_finite=True,
          assume_a="gen", transposed=False, *, ctx=None):
    """x with a x = b (a^T x = b when `transposed`) for a square `a` and b
    of n or n x nrhs. assume_a "gen" (LU with partial pivoting, hyla_?gesv)
    or "pos" (Hermitian positive definite, Cholesky from the `lower` or
    upper triangle, hyla_?posv); SciPy's other names ("sym", "her": the
    `lower` or upper triangle; "upper triangular", "lower triangular",
    "diagonal"; "tridiagonal", "banded": the whole a) by LU on the matrix
    they describe. LinAlgError: an exactly singular a (LU), one not
    positive definite ("pos"). ValueError for NaN or Inf in a or b
    (check_finite, as SciPy, whatever the layout), or an unknown
    assume_a."""
    kind = _ASSUME.get("gen" if assume_a is None else assume_a)
    if kind is None:
        raise ValueError(f"assume_a must be one of {', '.join(repr(k) for k in _ASSUME)}; "
                         f"got {assume_a!r}")
    job = _Job(ctx, [a, b], check_finite=check_finite)
    a, b = job.arrays
    n = _square(a, "a")
    _rhs(b, n)  # checked before a is copied
    if kind not in ("gen", "pos"):
        a, overwrite_a = _described(job, a, kind, lower), True
    a, amem = job.blas(a, writable=True, overwrite=overwrite_a)
    if kind == "pos":
        return _solve_pos(job, a, amem, lower, b, overwrite_b, transposed)
    b2, bmem, vector = _rhs_work(job, b, n, overwrite_b)
    keep = (a, amem, b2, bmem)
    ipiv = np.empty(n, dtype=np.int64)
    if amem.transposed or transposed or job.dev is not None:
        # factor the column-major matrix as it is (a or a^T), then solve
        # with whichever of it or its transpose is op(a)
        info = job.run("getrf", n, n, amem.address, amem.ld, ipiv.ctypes.data,
                       keep=keep + (ipiv,))
        if info == 0:
            job.run("getrs", b"T" if amem.transposed != transposed else b"N", n, b2.shape[1],
                    amem.address, amem.ld, ipiv.ctypes.data, bmem.address, bmem.ld,
                    keep=keep + (ipiv,))
    else:
        info = job.run("gesv", n, b2.shape[1], amem.address, amem.ld, ipiv.ctypes.data,
                       bmem.address, bmem.ld, keep=keep + (ipiv,))
    if info > 0:
        raise LinAlgError("Matrix is singular.", info)
    return _solved(job, b2, vector)


def _solve_pos(job, a, amem, lower, b, overwrite_b, transposed):
    if job.dev is None:
        return _pos_solve(job, "posv", a, amem, lower, b, overwrite_b, transposed)
    # no device-resident posv: potrf, then potrs
    info = job.run("potrf", _uplo(lower != amem.transposed), a.shape[0], amem.address, amem.ld,
                   keep=(a, amem))
    if info > 0:
        raise _not_pd(info)
    return _pos_solve(job, "potrs", a, amem, lower, b, overwrite_b, transposed)


RbtInfo = collections.namedtuple("RbtInfo", [f for f, _ in _lib.RbtInfo._fields_])
RbtInfo.__doc__ = "What solve_rbt did (hyla_rbt_info): fallback = 1 when partial pivoting ran."


def solve_rbt(a, b, *, depth=2, max_refine=10, seed=0, overwrite_b=False, full_output=False,
              ctx=None):
    """x with a x = b by the random butterfly transformation: a transformed
    by two random butterflies of `depth`, factored without pivoting,
    refined (at most `max_refine` steps) and checked; when its backward
    error is not small it is solved again with partial pivoting
    (hyla_?gesv_rbt). `a` is not modified. Returns x, or (x, RbtInfo)
    with `full_output`. LinAlgError when the fallback finds a singular."""
    job = _Job(ctx, [a, b])
    a, b = job.arrays
    n = _square(a, "a")
    a, amem = job.blas(a, fortran=True)
    b2, bmem, vector = _rhs_work(job, b, n, overwrite_b)
    opts = _lib.RbtOpts(depth=depth, max_refine=max_refine if max_refine else -1, dev=0,
                        seed=seed)
    info = _lib.RbtInfo()
    code = job.run("gesv_rbt", n, b2.shape[1], amem.address, amem.ld, bmem.address, bmem.ld,
                   ctypes.addressof(opts), ctypes.addressof(info), keep=(a, amem, b2, bmem, opts, info))
    if code > 0:
        raise LinAlgError("Matrix is singular.", code)
    x = _solved(job, b2, vector)
    if full_output:
        return x, RbtInfo(*(getattr(info, f) for f in RbtInfo._fields))
    return x


# ------------------------------------------------------------ GEMM

# op(x) as an op of x^T, and as an op of conj(x); "conj" is the conjugate
# without transpose
_FLIP = {"N": "T", "T": "N", "C": "conj", "conj": "C"}
_CONJ = {"N": "conj", "T": "C", "C": "T", "conj": "N"}


def _gemm_operand(job, x, op):
    """(x, _Mem, trans) such that BLAS's trans of the column-major matrix
    at _Mem is op(x) (op: N, T, C or "conj")."""
    x, mem = job.blas(x)
    trans = _FLIP[op] if mem.transposed else op  # the memory holds x^T
    if trans == "conj":  # BLAS has no conjugate without transpose
        return _gemm_operand(job, job.xp.conj(x), _CONJ[op])
    return x, mem, trans.encode()


def _c_order(job, x):
    mem = _blas_layout(job.xp.memory(x))
    return mem is not None and mem.transposed


def gemm(alpha, a, b, beta=0.0, c=None, trans_a=0, trans_b=0, overwrite_c=False, *, ctx=None):
    """alpha op(a) op(b) + beta c, as scipy.linalg.blas.?gemm: trans 0
    (the matrix), 1 (transpose), 2 (conjugate transpose); c is not read
    when beta is 0 or c is None. Every device of the context shares the
    tiles (hyla_?gemm); on a device, one call of its BLAS."""
    ops = {0: "N", 1: "T", 2: "C"}
    if trans_a not in ops or trans_b not in ops:
        raise ValueError("trans_a and trans_b must be 0, 1 or 2")
    arrays = [a, b] if c is None else [a, b, c]
    job = _Job(ctx, arrays, scalars=(alpha, beta))
    a, b = job.arrays[:2]
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("gemm multiplies matrices (2-D arrays)")
    op_a, op_b = ops[trans_a], ops[trans_b]
    if job.dtype.kind == "f":
        op_a, op_b = op_a.replace("C", "T"), op_b.replace("C", "T")
    m, k = a.shape if op_a == "N" else a.shape[::-1]
    kb, n = b.shape if op_b == "N" else b.shape[::-1]
    if k != kb:
        raise ValueError(f"gemm: op(a) is {m} x {k} but op(b) is {kb} x {n}")
    if c is None:
        beta = 0.0
        # C order when both factors are (NumPy's habit), else column-major
        order = "C" if _c_order(job, a) and _c_order(job, b) else "F"
        c = job.xp.empty((m, n), job.dtype, order, job.like)
        c, cmem = job.blas(c)
    else:
        c = job.arrays[2]
        if tuple(c.shape) != (m, n):
            raise ValueError(f"c has shape {tuple(c.shape)}, the product is {m} x {n}")
        c, cmem = job.blas(c, writable=True, overwrite=overwrite_c)
    if cmem.transposed:  # C^T = op(b)^T op(a)^T
        first, second, rows, cols = (b, _FLIP[op_b]), (a, _FLIP[op_a]), n, m
    else:
        first, second, rows, cols = (a, op_a), (b, op_b), m, n
    x, xmem, xt = _gemm_operand(job, *first)
    y, ymem, yt = _gemm_operand(job, *second)
    scalar = _lib.PREC[job.dtype][1]
    job.run("gemm", xt, yt, rows, cols, k, _scalar(scalar, alpha), xmem.address, xmem.ld,
            ymem.address, ymem.ld, _scalar(scalar, beta), cmem.address, cmem.ld,
            keep=(x, xmem, y, ymem, c, cmem))
    return job.result(c)


def _scalar(ctype, value):
    value = complex(value)
    if ctype in (_lib.ComplexFloat, _lib.ComplexDouble):
        return ctype(value.real, value.imag)
    return ctype(value.real)


def matmul(a, b, *, ctx=None):
    """a @ b for matrices (gemm with alpha 1)."""
    return gemm(1.0, a, b, ctx=ctx)
