#!/usr/bin/python3
"""gen_consts.py - derives the constants of rt/rt_math*.h (run by hand; the
output is pasted into the headers, so the build needs no Python).

  - the bits of 2/pi (Payne-Hanek reduction) and pi/4 as 64-bit fixed point,
    from mpmath at 1200 decimal digits;
  - near-minimax polynomials (Chebyshev interpolation, mpmath.chebyfit) for
    erf, erfc * exp(x^2), atan and asin, with the degree the smallest whose
    error bound is below the target: 2^-31 relative for float, 2^-58 for
    double.  Each polynomial is in a shifted variable t = x - c so that the
    coefficients stay well conditioned; printed highest degree first (Horner).
"""
import mpmath
from mpmath import mp, mpf

mp.dps = 1200


def words_of_two_over_pi(n):
    v = 2 / mp.pi
    out = []
    for _ in range(n):
        v *= 2**32
        w = int(mpmath.floor(v))
        out.append(w)
        v -= w
    return out


def fit(f, a, b, c, target):
    """Smallest-degree Chebyshev fit of f(t + c) on [a - c, b - c]."""
    mp.dps = 60
    g = lambda t: f(t + c)
    for n in range(2, 40):
        poly, err = mpmath.chebyfit(g, [a - c, b - c], n, error=True)
        scale = min(abs(g(mpf(a - c))), abs(g(mpf(b - c))), abs(g(mpf((a + b) / 2 - c))))
        if err / scale < target:
            mp.dps = 1200
            return poly, float(err / scale)
    raise SystemExit("no fit")


def show(name, poly, err, fmt):
    print("/* %s: %d coefficients, relative error bound %.2e */" % (name, len(poly), err))
    print(", ".join(fmt(p) for p in poly))


def f32(p):
    return "%.9ef" % float(p)


def f64(p):
    return "%.17e" % float(p)


def main():
    w = words_of_two_over_pi(40)
    print("/* 2/pi, 32 bits a word */")
    print(", ".join("0x%08xu" % x for x in w))
    q = mp.pi / 4 * 2**128
    print("/* pi/4 * 2^128 as two 64-bit halves */")
    print("0x%016x 0x%016x" % (int(q) >> 64, int(q) & (2**64 - 1)))
    erf_small = lambda z: mpmath.erf(mpmath.sqrt(z)) / mpmath.sqrt(z) if z > 0 else 2 / mpmath.sqrt(mp.pi)
    erfc_scaled = lambda x: mpmath.erfc(x) * mpmath.exp(x * x)
    atan_small = lambda z: mpmath.atan(mpmath.sqrt(z)) / mpmath.sqrt(z) if z > 0 else mpf(1)
    asin_small = lambda z: mpmath.asin(mpmath.sqrt(z)) / mpmath.sqrt(z) if z > 0 else mpf(1)
    tan8 = float(mpmath.tan(mp.pi / 8) ** 2) * 1.0001
    for tag, target, fmt in (("float", 2.0**-31, f32), ("double", 2.0**-58, f64)):
        print("\n/* ---- %s */" % tag)
        show("erf(x)/x in z = x^2 on [0, 1]", *fit(erf_small, 0, 1, 0, target), fmt)
        cuts = [1, 2.25, 4] if tag == "float" else [1, 1.5, 2, 2.5, 3, 3.75, 4.5, 6]
        for a, b in zip(cuts, cuts[1:]):
            c = (a + b) / 2
            show("erfc(x) exp(x^2) in t = x - %g on [%g, %g]" % (c, a, b),
                 *fit(erfc_scaled, a, b, c, target), fmt)
        show("atan(t)/t in z = t^2 on [0, tan(pi/8)^2]", *fit(atan_small, 0, tan8, 0, target), fmt)
        show("asin(x)/x in z = x^2 on [0, 1/4]", *fit(asin_small, 0, 0.25, 0, target), fmt)


main()
