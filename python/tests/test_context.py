"""Contexts: devices, errors, the GIL released during a call, and a call
interrupted by Ctrl-C (SIGINT) leaving its context usable."""

import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import hyla


def test_context_devices_and_close():
    with hyla.Context("cpu:2") as ctx:
        assert [(d.kind, d.ordinal) for d in ctx.devices] == [("cpu", 0), ("cpu", 1)]
        assert all(d.memory_bytes > 0 for d in ctx.devices)
        np.testing.assert_allclose(hyla.eigvalsh(np.diag([3.0, 1.0, 2.0]), ctx=ctx), [1, 2, 3])
    with pytest.raises(ValueError, match="closed"):
        hyla.eigvalsh(np.eye(2), ctx=ctx)
    ctx.close()  # idempotent


def test_memory_cap_is_part_of_the_device_list():
    with hyla.Context("cpu:1@1M") as ctx:
        assert ctx.devices[0].memory_bytes == 1 << 20


@pytest.mark.parametrize("spec", ["cpu:x", "tpu", "cpu:2@lots"])
def test_bad_device_list_raises_value_error(spec):
    with pytest.raises(ValueError, match="malformed device list"):
        hyla.Context(spec)


def test_array_on_a_device_outside_the_context_raises():
    with hyla.Context("cpu:1") as ctx:
        with pytest.raises(ValueError, match="cuda:3"):
            ctx.device_index("cuda", 3)


def test_gil_is_released_during_a_call():
    """Another Python thread keeps running while hyla computes."""
    rng = np.random.default_rng(1)
    # an order whose solve outlasts 0.1 s on two cores (LAPACK's one-stage
    # solver, which the host backend takes for real types with vectors:
    # about 0.1 s at 700)
    a = rng.standard_normal((1200, 1200))
    a = a + a.T
    ticks, done = [], threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.002)

    with hyla.Context("cpu:1") as ctx:
        hyla.eigvalsh(np.eye(2), ctx=ctx)  # the worker thread started
        t = threading.Thread(target=tick)
        t.start()
        start = time.monotonic()
        hyla.eigh(a, ctx=ctx)
        end = time.monotonic()
        done.set()
        t.join()
    during = [x for x in ticks if start < x < end]
    # a thread starved of the GIL would tick once at most
    assert end - start > 0.1 and len(during) > 10


_INTERRUPTED = textwrap.dedent("""
    import os, signal, threading, time
    import numpy as np
    import hyla

    ctx = hyla.Context("cpu:1")
    rng = np.random.default_rng(3)
    # an order whose solve lasts about 4 s on this machine (n^3 from a
    # timed n = 400; at least 1500), so that the interrupt at 0.3 s comes
    # mid-call even where the timing ran on a busy machine
    m = 400
    b = rng.standard_normal((m, m))
    t0 = time.monotonic()
    hyla.eigh(np.asfortranarray(b + b.T), ctx=ctx)
    per = max(time.monotonic() - t0, 1e-4) / m**3
    n = int(min(max((4.0 / per) ** (1 / 3), 1500), 8000))
    a = rng.standard_normal((n, n))
    a = np.asfortranarray(a + a.T)
    h = a.copy()
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    start = time.monotonic()
    try:
        hyla.eigh(a, overwrite_a=True, ctx=ctx)
        print("not interrupted")
    except KeyboardInterrupt:
        print("interrupted after", round(time.monotonic() - start, 3))
    start = time.monotonic()
    ctx.wait()
    print("call ended", round(time.monotonic() - start, 3), "s later")
    # the interrupted call finished its work in a: eigenvectors
    v = a
    print("orthogonality", np.abs(v.T @ v - np.eye(n)).max())
    w = np.einsum("ij,ij->j", v, h @ v)
    print("residual", np.abs(h @ v - v * w).max())
    # the context goes on
    b = rng.standard_normal(n)
    x = hyla.solve(h, b, ctx=ctx)
    print("next call residual", np.abs(h @ x - b).max())
""")


def test_interrupt_returns_at_once_and_leaves_the_context_usable():
    env = dict(os.environ, OMP_NUM_THREADS="2", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", _INTERRUPTED], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    interrupted_after = float(lines["interrupted"].split()[1])
    ended_later = float(lines["call"].split()[1])
    assert interrupted_after < 0.3 + 0.25  # the caller got Ctrl-C within one poll
    assert ended_later > 0.1  # ... while the library call was still running
    assert float(lines["orthogonality"]) < 1e-10
    assert float(lines["residual"]) < 1e-9
    assert float(lines["next"].split()[-1]) < 1e-8


def test_ctx_as_a_device_list():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((40, 40))
    s = a + a.T
    w, v = hyla.eigh(s, ctx="cpu:2")
    np.testing.assert_allclose(w, np.linalg.eigvalsh(s), atol=1e-10 * np.abs(w).max())
    assert np.linalg.norm(s @ v - v * w) < 1e-10 * 40 * np.abs(w).max()
    from hyla import _context
    assert _context.resolve("cpu:2") is _context.resolve("cpu:2")  # made once, kept
    assert [d.kind for d in _context.resolve("cpu:2").devices] == ["cpu", "cpu"]
    with pytest.raises(TypeError, match="ctx must be"):
        hyla.eigh(s, ctx=2)
    with pytest.raises(ValueError, match="malformed device list"):
        hyla.eigh(s, ctx="cpu:x")


def test_bad_argument_error_names_the_argument():
    from hyla import _errors, _lib
    with pytest.raises(ValueError, match=r"hyla_dpotrf: argument 4 \(lda\) is invalid"):
        _errors.check("hyla_dpotrf", -4, _lib.ARG_NAMES["potrf"])
    with pytest.raises(ValueError, match=r"argument 9 is invalid"):  # beyond the names
        _errors.check("hyla_dpotrf", -9, _lib.ARG_NAMES["potrf"])
    # every routine's names match its C arguments one for one
    for name, (_, args) in _lib._ROUTINES.items():
        assert len(_lib.ARG_NAMES[name]) == len(args), name


def test_bad_option_variable_is_named():
    code = textwrap.dedent("""
        import hyla
        try:
            hyla.Context("cpu:1")
        except ValueError as e:
            print("ValueError:", e)
    """)
    env = dict(os.environ, HYLA_POTRF_NB="abc")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert "ValueError: hyla_create: HYLA_POTRF_NB='abc' is not an integer" in out.stdout, \
        out.stdout + out.stderr


def test_backends_name_the_host_first_and_say_why_cuda_is_missing(monkeypatch):
    bs = hyla.backends()
    assert [b.name for b in bs][:2] == ["cpu", "cuda"]
    host = bs[0]
    assert host.available and host.devices == 64
    cuda = bs[1]
    assert isinstance(cuda.available, bool) and cuda.devices >= 0
    if not cuda.available:
        assert cuda.devices == 0 and cuda.detail  # why it is not there
        with pytest.raises(ValueError):
            hyla.Context("cuda")


def test_a_malformed_device_list_is_explained_by_its_grammar():
    with pytest.raises(ValueError, match="malformed device list.*cpu:COUNT"):
        hyla.Context("cuda:x")
