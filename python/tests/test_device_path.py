"""The device-resident path (DLPack arrays, the _gpu entry points) run on a
virtual host device, whose device memory is host memory.

DeviceArray stands for a torch or CuPy array: a NumPy array that says it
lives in the memory of virtual host device 0 and is read through its
DLPack export, with an adapter that does the array operations the way
torch's and CuPy's do them. The routines then take the path a CUDA tensor
takes (address, strides and type from DLPack, the hyla_*_gpu routines on
the device of the context that holds the array, the results in the
caller's type), and their results are compared with SciPy's."""

import numpy as np
import pytest
import scipy.linalg as sl

import hyla
from hyla import _arrays
from helpers import DTYPES, THRESHOLD, close, hermitian, ordered, random, solve_residual

N = 29


class DeviceArray:
    """A NumPy array presented as an array in virtual device 0's memory."""

    def __init__(self, a):
        self.a = a

    shape = property(lambda self: self.a.shape)
    ndim = property(lambda self: self.a.ndim)
    T = property(lambda self: DeviceArray(self.a.T))

    def __getitem__(self, index):
        return DeviceArray(self.a[index])

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


class DeviceArrays(_arrays.DLPackArrays):
    """DeviceArray's adapter: every operation makes a DeviceArray."""

    @staticmethod
    def device(x):
        return ("cpu", 0)

    @staticmethod
    def dtype(x):
        return x.a.dtype

    @staticmethod
    def astype(x, dtype):
        return DeviceArray(x.a.astype(dtype))

    @staticmethod
    def copy(x, order):
        return DeviceArray(np.array(x.a, order=order, copy=True))

    @staticmethod
    def empty(shape, dtype, order, like):
        return DeviceArray(np.empty(shape, dtype=dtype, order=order))

    @staticmethod
    def tril(x):
        return DeviceArray(np.tril(x.a))

    @staticmethod
    def triu(x):
        return DeviceArray(np.triu(x.a))

    @staticmethod
    def conj(x):
        return DeviceArray(np.conj(x.a))

    @staticmethod
    def conj_inplace(x):
        np.conjugate(x.a, out=x.a)

    @staticmethod
    def from_host(h, like):
        return DeviceArray(np.array(h))

    @staticmethod
    def to_host(x):
        return np.array(x.a)


@pytest.fixture(autouse=True)
def device_arrays(monkeypatch):
    monkeypatch.setitem(_arrays.ADAPTERS, __name__.split(".")[0], DeviceArrays)


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def on_device(a):
    return DeviceArray(a)


def test_dlpack_export_is_read_as_numpy_sees_it(rng):
    a = np.asfortranarray(random(rng, (5, 7), np.complex64))[1:4, 2:6]
    mem = _arrays.dlpack_memory(a)
    assert mem.address == a.ctypes.data and mem.shape == (3, 4) and mem.dtype == np.complex64
    assert mem.strides == tuple(s // a.itemsize for s in a.strides)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
def test_eigh_on_a_device(rng, dtype, order):
    h = hermitian(rng, N, dtype)
    w, v = hyla.eigh(on_device(ordered(h, order)))
    assert isinstance(w, DeviceArray) and isinstance(v, DeviceArray)
    ref = sl.eigh(h.astype(np.complex128), eigvals_only=True)
    assert close(w.a, ref, h, dtype, N) < THRESHOLD
    assert close(h.astype(np.complex128) @ v.a, v.a * w.a, h, dtype, N) < THRESHOLD
    assert close(hyla.eigvalsh(on_device(ordered(h, order))).a, ref, h, dtype, N) < THRESHOLD


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
@pytest.mark.parametrize("lower", [True, False])
def test_cholesky_and_solves_on_a_device(rng, dtype, order, lower):
    h = hermitian(rng, N, dtype, shift=3 * N ** 0.5)
    a = on_device(ordered(h, order))
    c = hyla.cholesky(a, lower=lower)
    assert isinstance(c, DeviceArray)
    assert close(c.a, sl.cholesky(h.astype(np.complex128), lower=lower), h, dtype, N) < THRESHOLD
    b = random(rng, (N, 2), dtype)
    x = hyla.cho_solve(hyla.cho_factor(a, lower=lower), on_device(b))
    assert isinstance(x, DeviceArray) and solve_residual(h, x.a, b) < THRESHOLD
    x = hyla.solve(a, on_device(b[:, 0]), assume_a="pos", lower=lower)
    assert x.shape == (N,) and solve_residual(h, x.a, b[:, 0]) < THRESHOLD


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("order", "CF")
def test_lu_and_general_solves_on_a_device(rng, dtype, order):
    a = ordered(random(rng, (N, N), dtype), order)
    b = random(rng, (N, 3), dtype)
    lu, piv = hyla.lu_factor(on_device(a))
    assert isinstance(lu, DeviceArray) and isinstance(piv, DeviceArray)
    np.testing.assert_array_equal(piv.a, sl.lu_factor(a.astype(np.complex128))[1])
    x = hyla.lu_solve((lu, piv), on_device(b), trans=2)
    assert solve_residual(a.conj().T, x.a, b) < THRESHOLD
    x = hyla.solve(on_device(a), on_device(b))
    assert solve_residual(a, x.a, b) < THRESHOLD
    x = hyla.solve_rbt(on_device(a + 4 * np.eye(N, dtype=dtype)), on_device(b))
    assert solve_residual(a + 4 * np.eye(N, dtype=dtype), x.a, b) < THRESHOLD


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("orders", ["CC", "FC", "CF"])
def test_gemm_on_a_device(rng, dtype, orders):
    a = ordered(random(rng, (9, 6), dtype), orders[0])
    b = ordered(random(rng, (9, 5), dtype), orders[1])
    c = hyla.gemm(2.0, on_device(a), on_device(b), trans_a=2)
    assert isinstance(c, DeviceArray)
    assert close(c.a, 2.0 * a.conj().T @ b, a, dtype, 9) < THRESHOLD


def test_numerical_failure_on_a_device_raises():
    with pytest.raises(hyla.LinAlgError) as err:
        hyla.cholesky(on_device(np.diag([1.0, -1.0])))
    assert err.value.info == 2


def test_mixing_host_and_device_arrays_raises():
    with pytest.raises(ValueError, match="one type on one device"):
        hyla.solve(on_device(np.eye(2)), np.ones(2))
