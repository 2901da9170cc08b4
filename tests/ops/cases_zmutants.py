"""cases_zmutants.py - cases that kill planted bugs of tests/mutate/
catalogue.py no other case noticed (issue 33).  Named to sort last among
the cases_*.py files, so that the inputs drawn for the earlier cases do
not move."""
from cases import *  # noqa: F401,F403


def CASES():
    c = []
    # ops-argmax-ties-last: float ties keep the first index (the other
    # argmax cases draw floats from a continuous range: no ties)
    c.append(Case("argmax_f32_ties", "R.argmax(x, axis=1)", [x_((4, 6), F32, "smallint")],
                  lambda x: refs.argmax(x, 1)))
    c.append(Case("argmin_f32_ties", "R.argmin(x, axis=0)", [x_((6, 4), F32, "smallint")],
                  lambda x: np.argmin(x, axis=0).astype(np.int64)))
    # ops-pool-ceil-last-window: a stride wider than the window, so that
    # ceil_mode's last window would start exactly at the input's end and is
    # dropped ((out - 1) * stride == size + padding before)
    for k, s, n in ((1, 2, 4), (2, 3, 6)):
        c.append(Case(f"max_pool2d_ceil_drop_k{k}_s{s}",
                      f"R.nn.max_pool2d(x, pool_size=[{k}, {k}], strides=[{s}, {s}], ceil_mode=True)",
                      [x_((1, 2, n, n))],
                      lambda x, k=k, s=s: refs.pool2d(x, "max", [k, k], [s, s], ceil_mode=True)))
    c.append(Case("avg_pool2d_ceil_drop_k1_s2",
                  "R.nn.avg_pool2d(x, pool_size=[1, 1], strides=[2, 2], ceil_mode=True)",
                  [x_((1, 1, 4, 5))],
                  lambda x: refs.pool2d(x, "avg", [1, 1], [2, 2], ceil_mode=True)))
    return c
