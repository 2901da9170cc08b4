"""compare.py - one comparison of an output array with its expected value,
shared by the Python test runners (tests/onnx/run_onnx.py, onnx_cases.py,
samples/tools/check_digits.py) so that each one fails on the same things.

    import sys, os
    sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
    from compare import compare

    why = compare(got, want, rtol=1e-3, atol=1e-7)
    if why:                      # None when got matches want
        print("FAIL output 0:", why)

compare(got, want, rtol, atol) -> None or a one-line message saying why not.
got and want are numpy arrays (anything np.asarray takes).
  - the shape must be the same, exactly;
  - the dtype must be the same, exactly: float32 is not float64, float16
    is not float32 (a runner that wants a looser rule converts first);
  - integers and bools must be equal;
  - floats (float16/32/64): |got - want| <= atol + rtol * |want|, computed
    in float64; a NaN matches only a NaN, an infinity only the same
    infinity, and a NaN or infinity where want is finite is a failure
    (NaN > tolerance is false in numpy, so a plain tolerance test would
    let a NaN pass);
  - complex: the real and imaginary parts as two floats;
  - anything else (strings, objects): equal.
The message names the number of differing elements, the first one
(index, got, want) and, for floats, the largest error in units in the
last place of want's type and in absolute terms.
"""
import numpy as np

__all__ = ["compare"]


def compare(got, want, rtol=1e-3, atol=1e-7):
    """None when got matches want (see the file's comment), else why not."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return "shape %s, expected %s" % (got.shape, want.shape)
    if got.dtype != want.dtype:
        return "dtype %s, expected %s" % (got.dtype, want.dtype)
    kind = want.dtype.kind
    if kind == "c":
        return (_floats(got.real, want.real, rtol, atol, "real part ")
                or _floats(got.imag, want.imag, rtol, atol, "imaginary part "))
    if kind == "f":
        return _floats(got, want, rtol, atol, "")
    bad = got != want
    if not np.any(bad):
        return None
    detail = ""
    if kind in "iu":
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        detail = ", max difference %d" % diff.max()
    return "%s%s" % (_first(got, want, bad), detail)


def _floats(got, want, rtol, atol, part):
    """compare() for two float arrays of one dtype."""
    g, w = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        near = np.abs(g - w) <= atol + rtol * np.abs(w)
    ok = np.where(np.isnan(w), np.isnan(g),
                  np.where(np.isinf(w), g == w, near & np.isfinite(g)))
    if ok.all():
        return None
    bad = ~ok
    with np.errstate(invalid="ignore"):
        worst = np.max(np.abs(g - w)[bad])
    return "%s%s, max error %s ULP (%.3g absolute)" % (
        part, _first(got, want, bad), _ulp_error(got, want, bad), worst)


def _first(got, want, bad):
    """'N of M elements differ, first at (i, j): got X, expected Y'."""
    where = tuple(int(i) for i in np.argwhere(bad)[0]) if bad.ndim else ()
    return "%d of %d elements differ, first at %s: got %r, expected %r" % (
        int(np.count_nonzero(bad)), bad.size, where, got[where].item(), want[where].item())


def _ulp_error(got, want, bad):
    """The largest |got - want| over bad, in units in the last place of
    want's float type ('inf' when a NaN or infinity is involved)."""
    g, w = got[bad], want[bad]
    if not (np.isfinite(g).all() and np.isfinite(w).all()):
        return "inf"
    ibits = {2: np.int16, 4: np.int32, 8: np.int64}[want.dtype.itemsize]

    def ordered(a):
        i = a.view(ibits).astype(np.int64)
        return np.where(i < 0, np.iinfo(ibits).min - i, i)

    # int64 differences of ordered float64 bits can overflow; float64 keeps
    # the magnitude, which is all the message needs.
    d = np.abs(ordered(g).astype(np.float64) - ordered(w).astype(np.float64))
    return "%d" % d.max()
