"""The routines on NumPy arrays (the host-resident path) against SciPy, in
the four types and both memory orders, on the default context (the ctest
runs this file with HYLA_DEVICES=cpu:1 and cpu:3)."""

import os

import numpy as np
import pytest
import scipy.linalg as sl

import hyla
from helpers import (DTYPES, THRESHOLD, close, garbage_triangle, hermitian, ordered, random,
                     solve_residual)

N = 37  # odd, not a multiple of any block size


@pytest.fixture
def rng():
    return np.random.default_rng(2024)


def test_default_context_has_the_devices_of_hyla_devices():
    spec = os.environ.get("HYLA_DEVICES", "cpu")
    expected = int(spec.split(":")[1]) if ":" in spec else 1
    assert len(hyla.default_context().devices) == expected
    assert all(d.kind == "cpu" for d in hyla.default_context().devices)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
@pytest.mark.parametrize("lower", [True, False])
def test_eigh(rng, dtype, order, lower):
    h = hermitian(rng, N, dtype)
    a = ordered(garbage_triangle(h, lower, rng), order)
    before = a.copy()
    w, v = hyla.eigh(a, lower=lower)
    assert w.dtype == np.finfo(dtype).dtype and v.dtype == dtype and v.shape == (N, N)
    ref = sl.eigh(h.astype(np.complex128), eigvals_only=True)
    assert close(w, ref, h, dtype, N) < THRESHOLD
    h64, v64 = h.astype(np.complex128), v.astype(np.complex128)
    assert close(h64 @ v64, v64 * w, h, dtype, N) < THRESHOLD
    assert close(v64.conj().T @ v64, np.eye(N), np.eye(N), dtype, N) < THRESHOLD
    np.testing.assert_array_equal(a, before)  # not overwritten without overwrite_a
    assert close(hyla.eigvalsh(a, lower=lower), ref, h, dtype, N) < THRESHOLD


@pytest.mark.parametrize("order", "CF")
def test_eigh_overwrite_a_works_in_place(rng, order):
    h = hermitian(rng, N, np.float64)
    a = ordered(h.copy(), order)
    w, v = hyla.eigh(a, overwrite_a=True)
    assert np.shares_memory(v, a)
    assert close(h @ v, v * w, h, np.float64, N) < THRESHOLD


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
@pytest.mark.parametrize("lower", [True, False])
def test_cholesky(rng, dtype, order, lower):
    h = hermitian(rng, N, dtype, shift=3 * N ** 0.5)
    a = ordered(garbage_triangle(h, lower, rng), order)
    c = hyla.cholesky(a, lower=lower)
    ref = sl.cholesky(h.astype(np.complex128), lower=lower)
    assert c.dtype == dtype
    assert close(c, ref, h, dtype, N) < THRESHOLD
    other = np.triu(c, 1) if lower else np.tril(c, -1)
    assert not other.any()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("nrhs", [None, 3])
def test_cho_factor_cho_solve(rng, dtype, order, lower, nrhs):
    h = hermitian(rng, N, dtype, shift=3 * N ** 0.5)
    a = ordered(garbage_triangle(h, lower, rng), order)
    b = random(rng, (N,) if nrhs is None else (N, nrhs), dtype)
    c, low = hyla.cho_factor(a, lower=lower)
    assert low == lower
    x = hyla.cho_solve((c, low), b)
    assert x.shape == b.shape and x.dtype == dtype
    assert solve_residual(h, x, b) < THRESHOLD


@pytest.mark.parametrize("order", "CF")
def test_cho_factor_overwrite_a_factors_in_place(rng, order):
    """A C-order symmetric matrix is factored as its transpose with the
    other triangle: no copy."""
    h = hermitian(rng, N, np.complex128, shift=3 * N ** 0.5)
    a = ordered(h.copy(), order)
    c, lower = hyla.cho_factor(a, lower=True, overwrite_a=True)
    assert c is a
    np.testing.assert_allclose(np.tril(c), sl.cholesky(h, lower=True), atol=1e-12)


def test_cholesky_not_positive_definite_raises_with_info():
    a = np.diag([4.0, 1.0, -1.0, 2.0])
    with pytest.raises(np.linalg.LinAlgError) as err:
        hyla.cholesky(a)
    assert isinstance(err.value, hyla.LinAlgError) and err.value.info == 3
    with pytest.raises(hyla.LinAlgError) as err:
        hyla.solve(a, np.ones(4), assume_a="pos")
    assert err.value.info == 3


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
@pytest.mark.parametrize("shape", [(N, N), (N + 8, N), (N, N - 9)])
def test_lu_factor_as_scipy(rng, dtype, order, shape):
    a = ordered(random(rng, shape, dtype), order)
    lu, piv = hyla.lu_factor(a)
    ref_lu, ref_piv = sl.lu_factor(a.astype(np.complex128))
    np.testing.assert_array_equal(piv, ref_piv)
    assert close(lu, ref_lu, a, dtype, max(shape)) < THRESHOLD


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trans", [0, 1, 2])
@pytest.mark.parametrize("b_order", "CF")
def test_lu_solve(rng, dtype, trans, b_order):
    a = random(rng, (N, N), dtype)
    b = ordered(random(rng, (N, 4), dtype), b_order)
    x = hyla.lu_solve(hyla.lu_factor(a), b, trans=trans)
    op = [a, a.T, a.conj().T][trans]
    assert solve_residual(op, x, b) < THRESHOLD
    # SciPy's factors solve the same
    x_ref = hyla.lu_solve(sl.lu_factor(a), b, trans=trans)
    assert close(x, x_ref, x, dtype, N) < THRESHOLD * 10


def test_lu_factor_singular_warns_as_scipy():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.warns(hyla.LinAlgWarning, match="Diagonal number 2"):
        hyla.lu_factor(a)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
@pytest.mark.parametrize("assume_a", ["gen", "pos"])
@pytest.mark.parametrize("transposed", [False, True])
@pytest.mark.parametrize("nrhs", [None, 2])
def test_solve(rng, dtype, order, assume_a, transposed, nrhs):
    if assume_a == "pos":
        h = hermitian(rng, N, dtype, shift=3 * N ** 0.5)
        a = ordered(garbage_triangle(h, False, rng), order)
    else:
        h = random(rng, (N, N), dtype)
        a = ordered(h, order)
    b = random(rng, (N,) if nrhs is None else (N, nrhs), dtype)
    before = a.copy(), b.copy()
    x = hyla.solve(a, b, assume_a=assume_a, transposed=transposed)
    assert x.shape == b.shape and x.dtype == dtype
    assert solve_residual(h.T if transposed else h, x, b) < THRESHOLD
    np.testing.assert_array_equal(a, before[0])
    np.testing.assert_array_equal(b, before[1])


def test_solve_c_order_overwrite_a_factors_in_place(rng):
    """solve(assume_a="gen") on a C-order matrix factors the transpose in
    its own memory and solves transposed."""
    a = np.ascontiguousarray(random(rng, (N, N), np.float64))
    a0 = a.copy()
    b = random(rng, (N, 2), np.float64)
    x = hyla.solve(a, b, overwrite_a=True)
    assert solve_residual(a0, x, b) < THRESHOLD
    lu, piv = sl.lu_factor(a0.T)
    np.testing.assert_allclose(a.T, lu, atol=1e-12)


def test_solve_singular_raises():
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(np.linalg.LinAlgError, match="singular") as err:
        hyla.solve(a, np.ones(2))
    assert err.value.info == 2


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
def test_solve_rbt(rng, dtype, order):
    a = ordered(random(rng, (N, N), dtype) + 4 * np.eye(N, dtype=dtype), order)
    b = random(rng, (N, 3), dtype)
    a0 = a.copy()
    x, info = hyla.solve_rbt(a, b, seed=7, full_output=True)
    assert solve_residual(a0, x, b) < THRESHOLD
    assert info.fallback == 0 and info.depth == 2
    assert info.berr < np.finfo(dtype).eps * N ** 0.5
    np.testing.assert_array_equal(a, a0)
    assert solve_residual(a0, hyla.solve_rbt(a, b[:, 0], seed=7), b[:, 0]) < THRESHOLD


def test_solve_rbt_falls_back_on_a_permutation(rng):
    """The anti-diagonal permutation has structural zeros a depth-1
    butterfly cannot remove: a zero pivot, and the partial-pivoting
    fallback solves it, as the info says."""
    p = np.eye(8)[::-1].copy()
    b = random(rng, (8,), np.float64)
    x, info = hyla.solve_rbt(p, b, depth=1, seed=1, full_output=True)
    np.testing.assert_allclose(x, b[::-1])
    assert (info.fallback, info.fallback_reason, info.depth) == (1, 1, 1)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("trans_a", [0, 1, 2])
@pytest.mark.parametrize("trans_b", [0, 1, 2])
@pytest.mark.parametrize("orders", ["CC", "CF", "FC", "FF"])
def test_gemm(rng, dtype, trans_a, trans_b, orders):
    m, n, k = 13, 11, 9
    ops = [lambda x: x, lambda x: x.T, lambda x: x.conj().T]
    a = ordered(ops[trans_a](random(rng, (m, k), dtype)).copy(), orders[0])
    b = ordered(ops[trans_b](random(rng, (k, n), dtype)).copy(), orders[1])
    c = random(rng, (m, n), dtype)
    alpha, beta = (1.5 - 0.5j, 0.25 + 1j) if np.dtype(dtype).kind == "c" else (1.5, 0.25)
    ref = alpha * (ops[trans_a](a).astype(np.complex128) @ ops[trans_b](b)) + beta * c
    got = hyla.gemm(alpha, a, b, beta, c, trans_a=trans_a, trans_b=trans_b)
    assert got.dtype == dtype
    assert close(got, ref, ref, dtype, k) < THRESHOLD
    prod = hyla.gemm(alpha, a, b, trans_a=trans_a, trans_b=trans_b)
    assert close(prod, ref - beta * c, ref, dtype, k) < THRESHOLD


def test_matmul_keeps_numpy_order(rng):
    a, b = random(rng, (20, 30), np.float64), random(rng, (30, 10), np.float64)
    c = hyla.matmul(a, b)
    assert c.flags.c_contiguous
    np.testing.assert_allclose(c, a @ b, rtol=1e-12, atol=1e-12)
    assert hyla.matmul(np.asfortranarray(a), b).flags.f_contiguous


def test_layout_tricks_make_no_copies(rng, monkeypatch):
    """Operands in C order, or strided sub-matrices, reach the library
    without a copy wherever the algebra allows."""
    copies = []
    real_copy = hyla._arrays.NumpyArrays.copy
    monkeypatch.setattr(hyla._arrays.NumpyArrays, "copy",
                        staticmethod(lambda x, order: copies.append(order) or real_copy(x, order)))
    big = random(rng, (40, 40), np.complex128)
    for a in (big[:20, :30], np.asfortranarray(big)[:20, :30]):
        for b in (big[:30, :10], np.asfortranarray(big)[5:35, 3:13]):
            # transposes (1) of C-order or strided sub-matrices, and the
            # conjugate transpose (2) of a column-major one (b.T, b in C order)
            b_c_order = b.strides[1] == b.itemsize
            for ta, tb in ((0, 0), (1, 1), (1, 0), (0, 2 if b_c_order else 1)):
                x = a if ta == 0 else a.T
                y = b if tb == 0 else b.T
                copies.clear()
                got = hyla.gemm(1.0, x, y, trans_a=ta, trans_b=tb)
                assert copies == []
                np.testing.assert_allclose(got, a @ (b.conj() if tb == 2 else b), atol=1e-12)
    h = hermitian(rng, N, np.complex128, shift=3 * N ** 0.5)
    copies.clear()
    hyla.cho_factor(h, overwrite_a=True)
    hyla.eigh(hermitian(rng, N, np.float64), overwrite_a=True)
    hyla.eigvalsh(hermitian(rng, N, np.complex128))
    assert copies == []


def test_array_likes_and_other_types_are_converted():
    w = hyla.eigvalsh([[2, 1], [1, 2]])
    assert w.dtype == np.float64
    np.testing.assert_allclose(w, [1, 3])
    assert hyla.cholesky(np.eye(3, dtype=np.float16)).dtype == np.float32
    with pytest.raises(ValueError, match="unsupported dtype"):
        hyla.eigh(np.eye(2, dtype=np.longdouble))


def test_bad_arguments_raise_value_error(rng):
    a = random(rng, (4, 4), np.float64)
    with pytest.raises(ValueError, match="square"):
        hyla.eigh(np.ones((3, 4)))
    with pytest.raises(ValueError, match="incompatible"):
        hyla.solve(a, np.ones(5))
    with pytest.raises(ValueError, match="assume_a"):
        hyla.solve(a, np.ones(4), assume_a="skew")
    with pytest.raises(ValueError, match="trans"):
        hyla.lu_solve(hyla.lu_factor(a), np.ones(4), trans=3)
    with pytest.raises(ValueError, match="op"):
        hyla.matmul(a, np.ones((5, 2)))
    with pytest.raises(ValueError, match="infs or NaNs"):
        hyla.eigh(np.full((3, 3), np.nan))


@pytest.mark.parametrize("bad", [np.nan, np.inf])
@pytest.mark.parametrize("order", ["C", "F"])
def test_check_finite_every_routine_and_layout(bad, order):
    """SciPy's check_finite, the default: NaN or Inf anywhere in an input,
    in either layout (also in the triangle a routine does not read), is a
    ValueError before any work, and the inputs are left as passed."""
    n = 5
    spd = np.array(np.eye(n) * n + 1, order=order)
    b = np.ones(n)
    lu = hyla.lu_factor(spd)
    cho = hyla.cho_factor(spd)
    a = spd.copy(order=order)
    a[n - 1, 0] = bad  # below the diagonal: the upper triangle alone is finite
    calls = {
        "eigh": lambda: hyla.eigh(a, lower=False),
        "eigvalsh": lambda: hyla.eigvalsh(a),
        "cholesky": lambda: hyla.cholesky(a),
        "cho_factor": lambda: hyla.cho_factor(a, lower=False),
        "cho_solve": lambda: hyla.cho_solve((a, cho[1]), b),
        "lu_factor": lambda: hyla.lu_factor(a),
        "lu_solve": lambda: hyla.lu_solve((a, lu[1]), b),
        "solve gen": lambda: hyla.solve(a, b),
        "solve pos": lambda: hyla.solve(a, b, assume_a="pos"),
        "solve b": lambda: hyla.solve(spd, np.full(n, bad)),
    }
    for name, call in calls.items():
        before = a.copy()
        with pytest.raises(ValueError, match="infs or NaNs"):
            call()
        assert np.array_equal(a, before, equal_nan=True), name


def test_check_finite_off_is_lapack():
    """check_finite=False: the library's own policy (hyla.h), LAPACK's way:
    the factorizations let NaN through to the factor (lu_factor) or report
    it as a pivot (cholesky); the solvers and eigh still refuse NaN in
    what they read."""
    a = np.eye(4) * 4 + 1
    a[2, 1] = np.nan
    lu, piv = hyla.lu_factor(a, check_finite=False)
    assert np.isnan(lu).any()
    with pytest.raises(hyla.LinAlgError):
        hyla.cholesky(a, lower=True, check_finite=False)
    with pytest.raises(ValueError, match="infs or NaNs"):
        hyla.eigh(a, lower=True, check_finite=False)
    # the triangle not read may hold anything without the check
    w = hyla.eigvalsh(a, lower=False, check_finite=False)
    assert np.allclose(w, np.linalg.eigvalsh(np.triu(a) + np.triu(a, 1).T))


def test_empty_matrices():
    w, v = hyla.eigh(np.zeros((0, 0)))
    assert w.shape == (0,) and v.shape == (0, 0)
    assert hyla.solve(np.zeros((0, 0)), np.zeros(0)).shape == (0,)
    assert hyla.matmul(np.zeros((3, 0)), np.zeros((0, 2))).tolist() == [[0, 0]] * 3


def test_scipy_signatures_eigh(rng):
    a = rng.standard_normal((30, 30))
    s = a + a.T
    ref = sl.eigh(s, eigvals_only=True)
    for driver in (None, "evd", "ev", "evr"):
        np.testing.assert_allclose(hyla.eigh(s, driver=driver, eigvals_only=True), ref,
                                   atol=1e-12 * np.abs(ref).max())
    np.testing.assert_allclose(hyla.eigvalsh(s, lower=False, type=1), ref,
                               atol=1e-12 * np.abs(ref).max())
    # a part of a generalized problem (B = I here: the standard one's values)
    np.testing.assert_allclose(hyla.eigvalsh(s, np.eye(30), subset_by_index=(0, 3)), ref[:4],
                               atol=1e-12 * np.abs(ref).max())
    np.testing.assert_allclose(hyla.eigh(s, np.eye(30), driver="gvx", eigvals_only=True), ref,
                               atol=1e-12 * np.abs(ref).max())
    with pytest.raises(ValueError, match="driver must be"):
        hyla.eigh(s, driver="qr")
    with pytest.raises(ValueError, match="requires b"):
        hyla.eigh(s, driver="gvd")
    with pytest.raises(ValueError, match="takes no b"):
        hyla.eigh(s, np.eye(30), driver="evd")
    with pytest.raises(ValueError, match="type must be"):
        hyla.eigh(s, np.eye(30), type=4)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("itype", [1, 2, 3])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("order", ["F", "C"])
def test_eigh_generalized_as_scipy(rng, dtype, itype, lower, order):
    n = 40
    a = hermitian(rng, n, dtype)
    m = random(rng, (n, n), dtype)
    b = m @ m.conj().T + n * np.eye(n, dtype=dtype)
    a, b = ordered(a, order), ordered(b, order)
    a0, b0 = a.copy(), b.copy()
    w, v = hyla.eigh(a, b, type=itype, lower=lower)
    wr = sl.eigh(a0, b0, type=itype, lower=lower, eigvals_only=True)
    tol = (1e-3 if np.dtype(dtype).char in "fF" else 1e-10) * np.abs(wr).max()
    np.testing.assert_allclose(w, wr, atol=tol)
    np.testing.assert_array_equal(a, a0)  # not overwritten
    np.testing.assert_array_equal(b, b0)
    ab = {1: a0 @ v - b0 @ v * w, 2: a0 @ (b0 @ v) - v * w, 3: b0 @ (a0 @ v) - v * w}[itype]
    scale = np.linalg.norm(a0) * np.linalg.norm(b0) * np.linalg.norm(v) * n
    assert np.linalg.norm(ab) / scale < 60 * np.finfo(w.dtype).eps
    norm = v.conj().T @ (np.linalg.solve(b0, v) if itype == 3 else b0 @ v)
    assert np.linalg.norm(norm - np.eye(n)) < 1e3 * n * np.finfo(w.dtype).eps
    np.testing.assert_allclose(hyla.eigvalsh(a0, b0, type=itype, lower=lower), w, atol=tol)


def test_eigh_generalized_b_not_positive_definite():
    b = np.eye(5)
    b[2, 2] = -1
    with pytest.raises(np.linalg.LinAlgError, match="leading minor of order 3") as e:
        hyla.eigh(np.eye(5), b)
    assert e.value.info == 5 + 3
    with pytest.raises(ValueError, match="same order"):
        hyla.eigh(np.eye(5), np.eye(4))
    with pytest.raises(ValueError, match="infs or NaNs"):
        hyla.eigh(np.eye(3), np.full((3, 3), np.nan))


@pytest.mark.parametrize("assume_a", ["sym", "symmetric", "her", "hermitian", "upper triangular",
                                      "lower triangular", "diagonal", "tridiagonal", "banded",
                                      "gen", "general", "pos", "positive definite"])
@pytest.mark.parametrize("lower", [False, True])
def test_solve_assume_a_as_scipy(rng, assume_a, lower):
    n = 25
    dtype = np.complex128 if assume_a in ("her", "hermitian") else np.float64
    a = rng.standard_normal((n, n)) + n * np.eye(n)
    if dtype == np.complex128:
        a = a + 1j * rng.standard_normal((n, n))
    if assume_a in ("pos", "positive definite"):
        a = a @ a.conj().T
    if assume_a == "tridiagonal":
        a = np.triu(np.tril(a, 1), -1)
    if assume_a == "banded":
        a = np.triu(np.tril(a, 2), -3)
    b = rng.standard_normal((n, 2))
    x = hyla.solve(a, b, assume_a=assume_a, lower=lower)
    # the matrix SciPy's solver reads (newer SciPy names included, which an
    # older SciPy does not know): a triangle made Hermitian, a triangle, the
    # diagonal, or all of a
    t = np.tril(a) if lower else np.triu(a)
    if assume_a in ("sym", "symmetric"):
        m = t + (np.tril(t, -1) if lower else np.triu(t, 1)).T
    elif assume_a in ("her", "hermitian"):
        m = t + (np.tril(t, -1) if lower else np.triu(t, 1)).conj().T
        m[np.diag_indices(n)] = m.diagonal().real
    elif assume_a == "upper triangular":
        m = np.triu(a)
    elif assume_a == "lower triangular":
        m = np.tril(a)
    elif assume_a == "diagonal":
        m = np.diag(np.diag(a))
    elif assume_a in ("pos", "positive definite"):
        m = t + (np.tril(t, -1) if lower else np.triu(t, 1)).conj().T
    else:
        m = a
    ref = np.linalg.solve(m, b)
    assert np.linalg.norm(x - ref) <= 1e-10 * np.linalg.norm(ref), assume_a
    if assume_a in ("sym", "her", "pos", "gen"):  # the names every SciPy knows
        ref2 = sl.solve(a, b, assume_a=assume_a, lower=lower)
        assert np.linalg.norm(x - ref2) <= 1e-10 * np.linalg.norm(ref2), assume_a


def test_solve_unknown_assume_a(rng):
    with pytest.raises(ValueError, match="assume_a must be one of"):
        hyla.solve(np.eye(3), np.ones(3), assume_a="orthogonal")


@pytest.mark.parametrize("dtype,want", [(np.bool_, np.float32), (np.int8, np.float32),
                                        (np.uint16, np.float32), (np.int32, np.float64),
                                        (np.int64, np.float64), (np.float16, np.float32)])
def test_integer_and_bool_types_as_scipy(dtype, want):
    a = (np.eye(4) * 2).astype(dtype)
    assert hyla.eigvalsh(a).dtype == want
    assert hyla.cholesky(a).dtype == want


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("order", ["F", "C"])
def test_eigh_subset_as_scipy(rng, dtype, lower, order):
    n = 60
    a = ordered(hermitian(rng, n, dtype), order)
    a0 = a.copy()
    wall = sl.eigh(a0, eigvals_only=True)
    tol = (1e-3 if np.dtype(dtype).char in "fF" else 1e-10) * np.abs(wall).max()
    eps = np.finfo(wall.dtype).eps
    for lo, hi in ((0, 5), (20, 39), (59, 59)):
        w, v = hyla.eigh(a, lower=lower, subset_by_index=(lo, hi))
        np.testing.assert_array_equal(a, a0)
        np.testing.assert_allclose(w, wall[lo:hi + 1], atol=tol)
        assert v.shape == (n, hi - lo + 1)
        assert np.linalg.norm(a0 @ v - v * w) < 60 * n * eps * np.abs(wall).max()
        assert np.linalg.norm(v.conj().T @ v - np.eye(hi - lo + 1)) < 60 * n * eps
        np.testing.assert_allclose(hyla.eigvalsh(a, lower=lower, subset_by_index=[lo, hi]), w,
                                   atol=tol)
    vl, vu = (wall[9] + wall[10]) / 2, (wall[29] + wall[30]) / 2
    w, v = hyla.eigh(a, lower=lower, subset_by_value=(vl, vu))
    np.testing.assert_allclose(w, wall[10:30], atol=tol)
    assert np.linalg.norm(a0 @ v - v * w) < 60 * n * eps * np.abs(wall).max()
    w = hyla.eigh(a, lower=lower, driver="evx", eigvals_only=True)
    np.testing.assert_allclose(w, wall, atol=tol)
    empty = hyla.eigvalsh(a, subset_by_value=(wall[-1] + 1, wall[-1] + 2))
    assert empty.shape == (0,)
    with pytest.raises(ValueError, match="subset_by_index"):
        hyla.eigh(a, subset_by_index=(3, 2))
    with pytest.raises(ValueError, match="subset_by_value"):
        hyla.eigh(a, subset_by_value=(1, 1))
    with pytest.raises(ValueError, match="not both"):
        hyla.eigh(a, subset_by_index=(0, 1), subset_by_value=(0, 1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("itype", [1, 2, 3])
def test_eigh_generalized_subset(rng, dtype, itype):
    """eigh(a, b, subset_by_index / subset_by_value): scipy's eigenvalues
    of the same part, the generalized residual and B-normalization of the
    vectors; the subset by value holds exactly the pairs of its interval."""
    n = 41
    cplx = np.dtype(dtype).kind == "c"
    x = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if cplx else 0)
    y = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if cplx else 0)
    a = ((x + x.conj().T) / 2).astype(dtype)
    b = (y @ y.conj().T + n * np.eye(n)).astype(dtype)
    ref = sl.eigh(a.astype(np.complex128 if cplx else np.float64),
                  b.astype(np.complex128 if cplx else np.float64), type=itype, eigvals_only=True)
    single = np.dtype(dtype) in (np.float32, np.complex64)
    tol = (1e-3 if single else 1e-10) * np.abs(ref).max()
    lo, hi = 5, 14
    w, v = hyla.eigh(a, b, type=itype, subset_by_index=(lo, hi))
    np.testing.assert_allclose(w, ref[lo:hi + 1], atol=tol)
    assert v.shape == (n, hi - lo + 1)
    a64, b64, v64 = (m.astype(np.complex128) for m in (a, b, v))
    if itype == 1:
        r = a64 @ v64 - b64 @ v64 * w
        norm = v64.conj().T @ b64 @ v64
    elif itype == 2:
        r = a64 @ b64 @ v64 - v64 * w
        norm = v64.conj().T @ b64 @ v64
    else:
        r = b64 @ a64 @ v64 - v64 * w
        norm = v64.conj().T @ np.linalg.inv(b64) @ v64
    scale = np.linalg.norm(a64) * np.linalg.norm(b64) * max(np.linalg.norm(v64), 1)
    assert np.linalg.norm(r) / scale < (1e-4 if single else 1e-12)
    assert np.abs(norm - np.eye(hi - lo + 1)).max() < (1e-3 if single else 1e-10)
    # by value: the interval around ref[lo..hi]
    vl, vu = (ref[lo - 1] + ref[lo]) / 2, (ref[hi] + ref[hi + 1]) / 2
    wv = hyla.eigvalsh(a, b, type=itype, subset_by_value=(vl, vu))
    np.testing.assert_allclose(wv, ref[lo:hi + 1], atol=tol)


def test_eigh_generalized_subset_errors(rng):
    a = np.eye(6)
    b = np.eye(6)
    b[2, 2] = -1
    with pytest.raises(hyla.LinAlgError, match="leading minor of order 3") as e:
        hyla.eigh(a, b, subset_by_index=(0, 1))
    assert e.value.info == 6 + 3
    with pytest.raises(ValueError, match="subset_by_index"):
        hyla.eigh(a, np.eye(6), subset_by_index=(3, 2))
    with pytest.raises(ValueError, match="subset_by_value"):
        hyla.eigh(a, np.eye(6), subset_by_value=(1, 1))
    with pytest.raises(ValueError, match="the same order"):
        hyla.eigh(a, np.eye(5), subset_by_index=(0, 1))
    # an interval holding no eigenvalue
    w, v = hyla.eigh(np.diag([1.0, 2, 3]), np.eye(3), subset_by_value=(5, 6))
    assert w.shape == (0,) and v.shape == (3, 0)
