"""torch tensors and CuPy arrays, where those libraries are installed: CPU
tensors through the host path, CUDA arrays through the device path on a
context of the GPUs (skipped where there is none), against SciPy and
torch.linalg."""

import numpy as np
import pytest
import scipy.linalg as sl

import hyla
from helpers import DTYPES, THRESHOLD, close, hermitian, random, solve_residual

N = 65


def _torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    return torch


@pytest.fixture(scope="module")
def gpus():
    try:
        ctx = hyla.Context("cuda")
    except (ValueError, hyla.Error) as err:
        pytest.skip(f"no CUDA context: {err}")
    yield ctx
    ctx.close()


def _makers():
    """(name, to the array type, back to NumPy, context fixture or None)."""
    yield "torch-cpu", lambda a: __import__("torch").from_numpy(a), lambda t: t.numpy(), None
    yield ("torch-cuda", lambda a: __import__("torch").from_numpy(a).cuda(),
           lambda t: t.cpu().numpy(), "gpus")
    yield ("cupy", lambda a: __import__("cupy").asarray(a), lambda x: __import__("cupy").asnumpy(x),
           "gpus")


@pytest.fixture(params=list(_makers()), ids=lambda m: m[0])
def kind(request):
    name, to, back, ctx_fixture = request.param
    pytest.importorskip(name.split("-")[0])
    if name == "torch-cuda":
        _torch_cuda()
    ctx = request.getfixturevalue(ctx_fixture) if ctx_fixture else None
    return name, to, back, ctx


@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh(kind, dtype):
    name, to, back, ctx = kind
    rng = np.random.default_rng(5)
    h = hermitian(rng, N, dtype)
    w, v = hyla.eigh(to(h.copy()), ctx=ctx)
    assert type(w) is type(to(h)) and type(v) is type(to(h))
    ref = sl.eigh(h.astype(np.complex128), eigvals_only=True)
    assert close(back(w), ref, h, dtype, N) < THRESHOLD
    assert close(h.astype(np.complex128) @ back(v), back(v) * back(w), h, dtype, N) < THRESHOLD


@pytest.mark.parametrize("dtype", DTYPES)
def test_solves_and_gemm(kind, dtype):
    name, to, back, ctx = kind
    rng = np.random.default_rng(6)
    h = hermitian(rng, N, dtype, shift=3 * N ** 0.5)
    a = random(rng, (N, N), dtype)
    b = random(rng, (N, 4), dtype)
    c = back(hyla.cholesky(to(h.copy()), lower=True, ctx=ctx))
    assert close(c, sl.cholesky(h.astype(np.complex128), lower=True), h, dtype, N) < THRESHOLD
    x = back(hyla.solve(to(h.copy()), to(b.copy()), assume_a="pos", ctx=ctx))
    assert solve_residual(h, x, b) < THRESHOLD
    x = back(hyla.solve(to(a.copy()), to(b.copy()), ctx=ctx))
    assert solve_residual(a, x, b) < THRESHOLD
    x = back(hyla.lu_solve(hyla.lu_factor(to(a.copy()), ctx=ctx), to(b.copy()), ctx=ctx))
    assert solve_residual(a, x, b) < THRESHOLD
    x = back(hyla.solve_rbt(to(a + 8 * np.eye(N, dtype=dtype)), to(b.copy()), ctx=ctx))
    assert solve_residual(a + 8 * np.eye(N, dtype=dtype), x, b) < THRESHOLD
    p = back(hyla.matmul(to(a.copy()), to(b.copy()), ctx=ctx))
    assert close(p, a.astype(np.complex128) @ b, a, dtype, N) < THRESHOLD


def test_torch_eigh_agrees_with_torch_linalg(gpus):
    torch = _torch_cuda()
    g = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(500, 500, device="cuda", dtype=torch.float64, generator=g)
    a = a + a.T
    w, v = hyla.eigh(a, ctx=gpus)
    assert w.device == a.device and v.device == a.device
    torch.testing.assert_close(w, torch.linalg.eigvalsh(a), rtol=0, atol=1e-10)
    torch.testing.assert_close(a @ v, v * w, rtol=0, atol=1e-9)
