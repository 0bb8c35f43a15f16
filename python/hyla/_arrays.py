"""The array types hyla takes, each behind one adapter.

NumPy arrays (and any array in host memory, viewed as NumPy) go to the
host-resident routines, which use every device of the context. Arrays in a
device's memory (torch CUDA tensors, CuPy arrays) go to the device-resident
``_gpu`` routines on that device: their address, shape, strides and type are
read from their DLPack export, and the few array operations the routines
need (a copy, an empty result, a triangle, a conjugate) are done by the
array's own library, so results come back in the caller's type on the
caller's device. torch and CuPy are imported only when such an array is
passed.

An adapter is found by the top-level module of the array's type in
ADAPTERS.
"""

import contextlib
import ctypes
import importlib

import numpy as np

# DLPack's C structures (dlpack.h, the unversioned "dltensor" capsule).


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_DL_CPU, _DL_CUDA, _DL_CUDA_MANAGED = 1, 2, 13
_DL_FLOAT, _DL_COMPLEX = 2, 5
_DL_TYPES = {(_DL_FLOAT, 32): np.float32, (_DL_FLOAT, 64): np.float64,
             (_DL_COMPLEX, 64): np.complex64, (_DL_COMPLEX, 128): np.complex128}

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


class Memory:
    """Where an array's elements are: address, shape, strides in elements,
    dtype; `owner` keeps the exporter's handle (a DLPack capsule) alive."""

    def __init__(self, address, shape, strides, dtype, owner):
        self.address, self.shape, self.strides = address, shape, strides
        self.dtype, self.owner = np.dtype(dtype), owner


def dlpack_memory(x):
    """Memory of any array that exports DLPack (__dlpack__)."""
    capsule = x.__dlpack__()
    t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
    dtype = _DL_TYPES.get((t.dtype.code, t.dtype.bits))
    if dtype is None or t.dtype.lanes != 1:
        raise ValueError(f"unsupported DLPack type (code {t.dtype.code}, {t.dtype.bits} bits)")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        strides = tuple(t.strides[i] for i in range(t.ndim))
    else:  # compact row-major
        strides, step = [], 1
        for extent in reversed(shape):
            strides.insert(0, step)
            step *= extent
        strides = tuple(strides)
    return Memory((t.data or 0) + t.byte_offset, shape, strides, dtype, capsule)


class NumpyArrays:
    """NumPy: the host-resident path."""

    @staticmethod
    def device(x):
        return None

    @staticmethod
    def plain(x):
        return x

    @staticmethod
    def dtype(x):
        return x.dtype

    @staticmethod
    def astype(x, dtype):
        return x.astype(dtype)

    @staticmethod
    def memory(x):
        """None when the strides are not whole elements or x is unaligned
        (a copy is then needed)."""
        size = x.dtype.itemsize
        if not x.flags.aligned or any(s % size for s in x.strides) or not x.dtype.isnative:
            return None
        return Memory(x.ctypes.data, x.shape, tuple(s // size for s in x.strides), x.dtype, x)

    @staticmethod
    def copy(x, order):
        return np.array(x, order=order, copy=True)

    @staticmethod
    def empty(shape, dtype, order, like):
        return np.empty(shape, dtype=dtype, order=order)

    @staticmethod
    def tril(x):
        return np.tril(x)

    @staticmethod
    def triu(x):
        return np.triu(x)

    @staticmethod
    def conj(x):
        return np.conj(x)

    @staticmethod
    def conj_inplace(x):
        np.conjugate(x, out=x)

    @staticmethod
    def from_host(h, like):
        return h

    @staticmethod
    def to_host(x):
        return np.asarray(x)

    @staticmethod
    def synchronize(x):
        pass

    @staticmethod
    def all_finite(x):
        """No NaN or Inf in x (complex: in either part)."""
        return bool(np.isfinite(x).all())


class DLPackArrays(NumpyArrays):
    """The operations every device array library shares through DLPack;
    each library's adapter supplies the rest."""

    module_name = None  # the library, imported on first use

    @classmethod
    def module(cls):
        return importlib.import_module(cls.module_name)

    @staticmethod
    def current(x):
        """Where operations on x run: a context that makes its device current."""
        return contextlib.nullcontext()

    @classmethod
    def tril(cls, x):
        with cls.current(x):
            return cls.module().tril(x)

    @classmethod
    def triu(cls, x):
        with cls.current(x):
            return cls.module().triu(x)

    @staticmethod
    def memory(x):
        return dlpack_memory(x)

    @staticmethod
    def device(x):
        """("cuda", ordinal) for device memory, None for host memory."""
        kind, ordinal = x.__dlpack_device__()
        if kind in (_DL_CUDA, _DL_CUDA_MANAGED):
            return ("cuda", int(ordinal))
        if kind == _DL_CPU:
            return None
        raise ValueError(f"arrays on DLPack device type {int(kind)} are not supported")

    @classmethod
    def all_finite(cls, x):
        """Checked on a host copy; the adapters below check on the device."""
        return bool(np.isfinite(cls.to_host(x)).all())


class TorchArrays(DLPackArrays):
    """torch tensors: CUDA tensors on the device path, CPU tensors through
    NumPy views."""

    module_name = "torch"

    @staticmethod
    def plain(x):
        # no autograd graph, and the conjugate / negative bits applied: a
        # tensor carrying them cannot be exported through DLPack
        return x.detach().resolve_conj().resolve_neg()

    @staticmethod
    def dtype(x):
        t = TorchArrays.module()
        if x.is_complex():
            return np.dtype(np.complex128 if x.dtype == t.complex128 else np.complex64)
        if x.is_floating_point():
            return np.dtype(np.float64 if x.dtype == t.float64 else np.float32)
        return np.dtype(np.int64)

    @staticmethod
    def _tdtype(dtype):
        t = TorchArrays.module()
        return {np.dtype(np.float32): t.float32, np.dtype(np.float64): t.float64,
                np.dtype(np.complex64): t.complex64, np.dtype(np.complex128): t.complex128}[dtype]

    @staticmethod
    def astype(x, dtype):
        return x.to(TorchArrays._tdtype(np.dtype(dtype)))

    @staticmethod
    def copy(x, order):
        t = TorchArrays.module()
        if order == "K" or x.dim() < 2:
            return x.clone(memory_format=t.preserve_format)
        if order == "F":
            return x.t().clone(memory_format=t.contiguous_format).t()
        return x.clone(memory_format=t.contiguous_format)

    @staticmethod
    def empty(shape, dtype, order, like):
        t = TorchArrays.module()
        tdtype = TorchArrays._tdtype(np.dtype(dtype))
        if order == "F" and len(shape) == 2:
            return t.empty(tuple(reversed(shape)), dtype=tdtype, device=like.device).t()
        return t.empty(tuple(shape), dtype=tdtype, device=like.device)

    @staticmethod
    def conj(x):
        return TorchArrays.module().conj_physical(x)

    @staticmethod
    def conj_inplace(x):
        x.conj_physical_()

    @staticmethod
    def from_host(h, like):
        return TorchArrays.module().from_numpy(h).to(like.device)

    @staticmethod
    def to_host(x):
        return x.detach().cpu().resolve_conj().resolve_neg().numpy()

    @staticmethod
    def synchronize(x):
        if x.device.type == "cuda":
            TorchArrays.module().cuda.current_stream(x.device).synchronize()

    @staticmethod
    def all_finite(x):
        return bool(TorchArrays.module().isfinite(x).all().item())


class CupyArrays(DLPackArrays):
    """CuPy arrays; each operation runs with the array's device current."""

    module_name = "cupy"

    @staticmethod
    def current(x):
        return x.device

    @staticmethod
    def copy(x, order):
        with CupyArrays.current(x):
            return x.copy(order=order)

    @staticmethod
    def astype(x, dtype):
        with CupyArrays.current(x):
            return x.astype(dtype)

    @staticmethod
    def empty(shape, dtype, order, like):
        with CupyArrays.current(like):
            return CupyArrays.module().empty(shape, dtype=dtype, order=order)

    @staticmethod
    def conj(x):
        with CupyArrays.current(x):
            return CupyArrays.module().conj(x)

    @staticmethod
    def conj_inplace(x):
        with CupyArrays.current(x):
            CupyArrays.module().conjugate(x, out=x)

    @staticmethod
    def from_host(h, like):
        with CupyArrays.current(like):
            return CupyArrays.module().asarray(h)

    @staticmethod
    def to_host(x):
        return CupyArrays.module().asnumpy(x)

    @staticmethod
    def synchronize(x):
        with CupyArrays.current(x):
            CupyArrays.module().cuda.get_current_stream().synchronize()

    @staticmethod
    def all_finite(x):
        with CupyArrays.current(x):
            return bool(CupyArrays.module().isfinite(x).all())


ADAPTERS = {"numpy": NumpyArrays, "torch": TorchArrays, "cupy": CupyArrays}


def adapter(x):
    """The adapter of x's type; NumPy's for anything else (array-likes
    that numpy.asarray takes)."""
    if isinstance(x, np.ndarray):
        return NumpyArrays
    return ADAPTERS.get(type(x).__module__.split(".")[0], NumpyArrays)
