"""hyla.Context: a hyla_t and the one thread that runs its calls.

Every call into the library runs on the context's worker thread while the
calling thread waits for it in short, interruptible waits. A KeyboardInterrupt
(Ctrl-C) thus reaches the caller at once, whichever thread the signal hit,
while the library call goes on to its end in the background: hyla has no
way to stop a routine half-way without leaving its queues and cached
workspaces undefined. Calls on a context run one at a time in the order
they were made, so a call made after an interrupted one starts when that one
ends, and the context stays valid. The arrays an interrupted call writes
are its own copies, except those passed with overwrite_*=True, which keep
changing until it ends (Context.wait() waits for it). The interpreter
waits for an interrupted call before it exits.
"""

import atexit
import collections
import concurrent.futures
import ctypes
import os
import threading

from . import _lib
from ._errors import check

_INVALID = -110  # HYLA_ERR_INVALID: from hyla_create, an option's variable
_UNSUPPORTED = -107  # HYLA_ERR_UNSUPPORTED: from hyla_create, a backend not available
_DEVICE_SPEC = -106  # HYLA_ERR_DEVICE_SPEC: from hyla_create, a malformed device list


def _bad_option_message():
    """hyla_create's HYLA_ERR_INVALID: an option's environment variable
    (HYLA_<ID>, hyla_options.h: integers in a range) holds a bad value; names
    the variables that are not integers, else those set."""
    skip = {"HYLA_DEVICES", "HYLA_LIBRARY", "HYLA_CUDA_BACKEND"}
    env = {k: v for k, v in os.environ.items()
           if k.startswith("HYLA_") and k not in skip and not k.startswith("HYLA_LAPACK_")
           and not k.startswith("HYLA_TEST")}

    def integer(v):
        try:
            int(v, 10)
            return True
        except ValueError:
            return False

    bad = [f"{k}={v!r} is not an integer" for k, v in sorted(env.items()) if not integer(v)]
    if bad:
        return "hyla_create: " + "; ".join(bad) + " (options: hyla_options.h)"
    named = ", ".join(f"{k}={v!r}" for k, v in sorted(env.items())) or "none set"
    return ("hyla_create: an option's environment variable (HYLA_<ID>) is out of its range "
            f"(hyla_options.h): {named}")


Device = collections.namedtuple("Device", "kind ordinal name memory_bytes")
Device.__doc__ = """A device of a context: kind "cuda" or "cpu" (a virtual host device),
its ordinal (the CUDA ordinal, or the virtual device's index), name and the
memory hyla may use on it, in bytes."""

Backend = collections.namedtuple("Backend", "name available devices detail")
Backend.__doc__ = """A backend of the loaded libhyla (hyla_get_backend_info): its name in
device lists ("cpu", "cuda"), whether a device list may name it in this
process, its devices (GPUs found; for "cpu" the most virtual devices a list
may ask for) and the versions it runs on, or why it is not available (the
CUDA backend, libhyla_cuda.so beside libhyla.so, is loaded at run time and
left out where it or the CUDA libraries are missing)."""


def backends():
    """The backends of the loaded libhyla, as Backend tuples, host first."""
    out = []
    for i in range(_lib.lib.hyla_backend_count()):
        b = _lib.BackendInfo()
        if _lib.lib.hyla_get_backend_info(i, ctypes.byref(b)) == 0:
            out.append(Backend(b.name.decode(), bool(b.available), b.devices,
                               b.detail.decode(errors="replace")))
    return out


# How often a waiting caller wakes to let Python run its signal handlers.
_POLL_S = 0.05


class Context:
    """A set of devices and the workspaces hyla keeps on them between calls.

    devices: "cuda" (every GPU), "cuda:0,1", "cpu" or "cpu:3" (virtual host
    devices), with an optional "@SIZE" memory cap ("cpu:3@64M"); None reads
    HYLA_DEVICES, and if that is unset takes every GPU, or one virtual host
    device when there is none. Raises ValueError for a malformed list, a
    device that does not exist, or a backend that is not available
    (hyla.backends() says why).

    Usable as a context manager; close() (or leaving the with block) waits
    for its calls and frees it.
    """

    def __init__(self, devices=None):
        self._pool = None
        handle = ctypes.c_void_p()
        spec = None if devices is None else str(devices).encode()
        code = _lib.lib.hyla_create(ctypes.byref(handle), spec)
        if code == _INVALID:
            raise ValueError(_bad_option_message())
        if code == _DEVICE_SPEC:
            raise ValueError(f"hyla_create: {devices!r}: malformed device list; a device list "
                             f"is {_lib.lib.hyla_device_list_help().decode()}")
        if code == _UNSUPPORTED:
            why = "; ".join(f"{b.name}: {b.detail}" for b in backends() if not b.available)
            raise ValueError(f"hyla_create: {devices!r} names a backend that is not available "
                             f"({why or 'not built'})")
        check("hyla_create", code)
        self._handle = handle
        self._spec = devices
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                                           thread_name_prefix="hyla")
        self.devices = tuple(self._device(i) for i in range(_lib.lib.hyla_device_count(handle)))

    def _device(self, i):
        info = _lib.DeviceInfo()
        check("hyla_get_device_info", _lib.lib.hyla_get_device_info(self._handle, i,
                                                                   ctypes.byref(info)))
        kind = "cuda" if info.kind == _lib.DEVICE_CUDA else "cpu"
        return Device(kind, info.ordinal, info.name.decode(errors="replace"), info.memory_bytes)

    def __repr__(self):
        state = "closed" if self._pool is None else ", ".join(
            f"{d.kind}:{d.ordinal}" for d in self.devices)
        return f"hyla.Context({state})"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def close(self):
        """Waits for the calls in flight, then frees the context. Idempotent."""
        pool, self._pool = getattr(self, "_pool", None), None
        if pool is None:
            return
        pool.shutdown(wait=True)
        _lib.lib.hyla_destroy(ctypes.byref(self._handle))

    def device_index(self, kind, ordinal):
        """The index in this context of device (kind, ordinal), or ValueError."""
        for i, d in enumerate(self.devices):
            if d.kind == kind and d.ordinal == ordinal:
                return i
        raise ValueError(f"the array is on {kind}:{ordinal}, which is not a device of {self!r}")

    def wait(self):
        """Returns when every call made on this context so far has ended
        (the one an interrupt left running, too)."""
        self._wait(self._submit(lambda: None))

    def call(self, fn, *args, keep=()):
        """Runs fn(handle, *args) on the worker thread and returns its code.
        `keep` holds the arrays whose addresses are among args: the pending
        call owns a reference to them until it ends, so an interrupt that
        unwinds the caller cannot free memory the library still writes."""
        return self._wait(self._submit(lambda: fn(self._handle, *args), keep))

    def _submit(self, work, keep=()):
        if self._pool is None:
            raise ValueError("the context is closed")
        return self._pool.submit(_run, work, keep)

    @staticmethod
    def _wait(future):
        while True:
            try:
                return future.result(timeout=_POLL_S)
            except concurrent.futures.TimeoutError:
                continue


def _run(work, keep):
    """The worker's side of Context.call: the work item holds `keep` among
    its arguments until this returns."""
    return work()


_default = None
_default_lock = threading.Lock()


def default_context():
    """The context that routines use when given none: made on first use
    with Context(None) (HYLA_DEVICES, else every GPU, else one virtual host
    device) and freed at exit."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Context(None)
            atexit.register(_default.close)
        return _default


_by_spec = {}


def resolve(ctx):
    """The context a routine's ctx= names: None (the default context), a
    Context, or a device list such as "cpu:2" or "cuda:0,1" (a context made
    on first use for that list, kept for later calls with it and freed at
    exit). Raises TypeError for anything else."""
    if ctx is None:
        return default_context()
    if isinstance(ctx, Context):
        return ctx
    if isinstance(ctx, str):
        with _default_lock:
            c = _by_spec.get(ctx)
            if c is None:
                c = Context(ctx)
                _by_spec[ctx] = c
                atexit.register(c.close)
            return c
    raise TypeError(f"ctx must be None, a hyla.Context or a device list such as 'cpu:2', "
                    f"not {type(ctx).__name__}")
