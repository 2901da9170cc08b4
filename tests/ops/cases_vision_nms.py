"""cases_vision_nms.py - R.vision.all_class_non_max_suppression and
R.vision.non_max_suppression.

The references follow TOPI's algorithm (python/tvm/topi/vision/nms.py)
step by step in float64: a stable descending sort with NaN first, TOPI's
binary search for the candidates above score_threshold, the greedy loop
with its -1 marks (a candidate at or below 0 is never suppressed), and
calculate_overlap's IoU.  Boxes of small integers make IoUs that equal the
threshold exactly, and scores of small integers make ties.
"""
from cases import *  # noqa: F401,F403


def _f32(v):
    return float(np.float32(v))


def nms_order(s, n=None):
    """Positions of s[:n] sorted descending, stably, NaN first; the rest
    keep their places."""
    n = len(s) if n is None else n
    keys = [(0, 0.0, i) if np.isnan(s[i]) else (1, -float(s[i]), i) for i in range(n)]
    return [k[2] for k in sorted(keys)] + list(range(n, len(s)))


def _mn(a, b):
    return a if a < b else b


def _mx(a, b):
    return a if a > b else b


def nms_iou(a, b):
    """TOPI's calculate_overlap (min/max as TIR's a < b ? a : b)."""
    al, at, ar, ab = _mn(a[0], a[2]), _mn(a[1], a[3]), _mx(a[0], a[2]), _mx(a[1], a[3])
    bl, bt, br, bb = _mn(b[0], b[2]), _mn(b[1], b[3]), _mx(b[0], b[2]), _mx(b[1], b[3])
    w = _mx(0.0, _mn(ar, br) - _mx(al, bl))
    h = _mx(0.0, _mn(ab, bb) - _mx(at, bt))
    area = h * w
    u = (ar - al) * (ab - at) + (br - bl) * (bb - bt) - area
    return 0.0 if u <= 0.0 else area / u


def _search_above(s, thr):
    lo, hi = 0, len(s)
    while lo < hi:
        mid = (lo + hi) >> 1
        if s[mid] > thr:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _select_class(box, order, s, max_boxes, iou_thr, score_thr):
    """The (position, score) pairs one class selects."""
    valid, sel = _search_above(s, score_thr), []
    if not (iou_thr > 0.0) or valid <= 0:
        return sel
    for j in range(valid):
        if not (s[j] > -1.0 and len(sel) < max_boxes and s[j] > score_thr):
            continue
        sel.append((order[j], s[j]))
        for q in range(j + 1, valid):
            if s[q] > 0.0 and nms_iou(box[order[j]], box[order[q]]) >= iou_thr:
                s[q] = -1.0
    return sel


def all_class_nms_ref(fmt, max_boxes=None, iou=0.5, score=0.0):
    """max_boxes None: the third input holds it."""
    iou, score = _f32(iou), _f32(score)

    def ref(boxes, scores, *rest):
        k = int(rest[0].reshape(-1)[0]) if max_boxes is None else max_boxes
        B, N, _ = boxes.shape
        if scores.ndim == 1:  # "nan" scores come flat
            scores = scores.reshape(B, -1, N)
        C = scores.shape[1]
        bx, sc = boxes.astype(np.float64).tolist(), scores.astype(np.float64)
        rows = np.zeros((B * C * N, 3), np.int64)
        tf_idx, tf_sc = np.zeros((B, C * N, 2), np.int64), np.zeros((B, C * N), np.float32)
        tf_cnt, total = np.zeros(B, np.int64), 0
        for b in range(B):
            off = 0
            for c in range(C):
                order = nms_order(sc[b, c])
                s = [float(sc[b, c, i]) for i in order]
                for pos, val in _select_class(bx[b], order, s, k, iou, score):
                    rows[total] = (b, c, pos)
                    tf_idx[b, off], tf_sc[b, off] = (c, pos), val
                    total, off = total + 1, off + 1
            tf_cnt[b] = off
        if fmt == "onnx":
            return [rows, np.array([total], np.int64)]
        return [tf_idx, tf_sc, tf_cnt]
    return ref


def _acnms_call(max_boxes, iou, score, fmt):
    mx = "m" if max_boxes is None else f'R.const({max_boxes}, "int64")'
    return (f'R.vision.all_class_non_max_suppression(b, s, {mx}, R.const({iou}, "float32"), '
            f'R.const({score}, "float32"), output_format="{fmt}")')


def all_class_nms_cases():
    def ac(name, B, C, N, max_boxes, iou, score, fmt="onnx", bkind="smallint", skind="normal",
           dtype=F32, sym=False, extra=()):
        bsig, ssig = ((B, "n", 4), (B, C, "n")) if sym else (None, None)
        sinp, pre = inp("s", (B, C, N), dtype, skind, ssig), []
        if skind == "nan":  # drawn flat: [nan, 1, -nan, 2]
            sinp, pre = inp("t", (4,), dtype, skind), [f"s = R.reshape(t, R.shape([{B}, {C}, {N}]))"]
        ins = [inp("b", (B, N, 4), dtype, bkind, bsig), sinp, *extra]
        return Case("all_class_non_max_suppression_" + name, _acnms_call(max_boxes, iou, score, fmt), ins,
                    all_class_nms_ref(fmt, max_boxes, iou, score), tuple_out=True,
                    upper={"n": 8} if sym else None, pre=pre)
    return [
        ac("onnx", 2, 3, 6, 2, 0.5, 0.0),
        # max past N, tied scores, negative ones kept (score_threshold < 0), IoU == 0.5 ties
        ac("onnx_ties_max_large", 2, 2, 7, 10, 0.5, -2.5, skind="smallint"),
        ac("onnx_none_suppressed", 1, 2, 5, 5, 1.5, -10.0),
        ac("onnx_all_below_score", 1, 2, 5, 3, 0.5, 9.0),
        ac("onnx_iou_zero_selects_nothing", 1, 1, 4, 3, 0.0, 0.0),
        ac("onnx_max_input", 2, 2, 5, None, 0.4, 0.1, extra=[inp("m", (1,), I64, "index7")]),
        ac("onnx_nan_scores", 1, 1, 4, 4, 0.5, 0.0, skind="nan"),
        ac("onnx_f16_sym", 2, 2, 6, 3, 0.3, 0.2, dtype=F16, sym=True),
        ac("onnx_empty", 1, 2, 0, 3, 0.5, 0.0),
        ac("tensorflow", 2, 3, 5, 3, 0.5, 0.0, fmt="tensorflow"),
        ac("tensorflow_ties", 1, 2, 6, 6, 0.5, -2.5, fmt="tensorflow", skind="smallint"),
    ]


def all_class_nms_errors():
    call = _acnms_call(2, 0.5, 0.1, "onnx")
    b, s = inp("b", (2, 5, 4)), inp("s", (2, 3, 5))
    return [
        ErrorCase("all_class_non_max_suppression_box_width", call, [inp("b", (2, 5, 5)), s], ["4)"]),
        ErrorCase("all_class_non_max_suppression_num_boxes", call, [b, inp("s", (2, 3, 6))], ["num_boxes"]),
        ErrorCase("all_class_non_max_suppression_batch", call, [b, inp("s", (1, 3, 5))], ["batch"]),
        ErrorCase("all_class_non_max_suppression_float_max",
                  'R.vision.all_class_non_max_suppression(b, s, R.const(2.0, "float32"), '
                  'R.const(0.5, "float32"), R.const(0.1, "float32"))', [b, s], ["integer"]),
        ErrorCase("all_class_non_max_suppression_threshold_rank",
                  'R.vision.all_class_non_max_suppression(b, s, R.const(2, "int64"), '
                  'R.const([[0.5]], "float32"), R.const(0.1, "float32"))', [b, s], ["scalar"]),
    ]


def nms_ref(max_out=-1, iou=0.5, force=False, top_k=-1, cs=2, si=1, ii=0, ret=True, bottom=False,
            sigma=0.0, sth=0.0, vc=None):
    """TOPI's classic NMS: the outputs the op returns, as a list.  vc:
    valid_count when the call holds it as a constant."""
    def ref(data, *rest):
        v, ix = (vc, rest[0]) if vc is not None else rest
        rnd = lambda v: float(np.asarray(v).astype(data.dtype))  # noqa: E731
        B, N, L = data.shape
        out, obi, cnt = np.zeros((B, N, L)), np.zeros((B, N), np.int32), np.zeros((B, 1), np.int32)
        iou_thr, thresh = rnd(iou), rnd(np.float32(sth))
        scale = rnd(np.float32(-0.5 / sigma)) if sigma > 0 else 0.0
        for b in range(B):
            valid = max(0, int(v[b]))
            order = nms_order(data[b, :, si].astype(np.float64), valid)
            nkeep = top_k if 0 < top_k < valid else valid
            rows = [[float(v) for v in data[b, order[j]]] if j < nkeep else [-1.0] * L for j in range(N)]
            ob = [order[j] if j < nkeep else -1 for j in range(N)]

            def sup(j, q):
                return force or ii < 0 or rows[j][ii] == rows[q][ii]

            def ov(j, q):
                return nms_iou(rows[j][cs:cs + 4], rows[q][cs:cs + 4])
            nv = 0
            if sigma > 0:
                for _ in range(nkeep):
                    if max_out > 0 and nv >= max_out:
                        continue
                    best, bs = -1, thresh
                    for j in range(nv, nkeep):
                        if ob[j] >= 0 and rows[j][si] > bs:
                            best, bs = j, rows[j][si]
                    if best < 0:
                        continue
                    ob[nv], ob[best] = ob[best], ob[nv]
                    rows[nv], rows[best] = rows[best], rows[nv]
                    for j in range(nv + 1, nkeep):
                        if ob[j] >= 0 and rows[j][si] > thresh and sup(nv, j):
                            o = ov(nv, j)
                            if o >= iou_thr:
                                ob[j] = -1
                            if o < iou_thr:
                                rows[j][si] = rnd(rows[j][si] * np.exp(scale * o * o))
                                if rows[j][si] <= thresh:
                                    ob[j] = -1
                    nv += 1
            else:
                for j in range(nkeep):
                    if rows[j][si] > 0 and (nv < max_out if max_out > 0 else True):
                        nv += 1
                        for q in range(j + 1, nkeep):
                            if rows[q][si] > 0 and sup(j, q) and ov(j, q) >= iou_thr:
                                rows[q][si], ob[q] = -1.0, -1
                    else:
                        rows[j], ob[j] = [-1.0] * L, -1
            if ret and sigma <= 0:
                sel = [int(ix[b, p]) for p in ob if p >= 0]
                ob, nv = sel + [-1] * (N - len(sel)), len(sel)
            elif ret:
                ob = [int(ix[b, p]) for p in ob[:nv]] + [-1] * (N - nv)
                rows = rows[:nv] + [[-1.0] * L] * (N - nv)
            else:
                if sigma > 0:
                    rows = rows[:nv] + [[-1.0] * L] * (N - nv)
                if bottom:
                    up = [r for r in rows if r[si] >= 0]
                    rows = up + [[-1.0] * L] * (N - len(up))
            out[b], obi[b], cnt[b, 0] = np.reshape(rows, (N, L)), ob, nv
        out = out.astype(data.dtype)
        if not ret:
            return out
        return [out, obi, cnt] if sigma > 0 else [obi, cnt]
    return ref


def nms_cases():
    def nm(name, B, N, L, text, kind="smallint", dtype=F32, sym=False, vc=None, **kw):
        """vc: valid_count as a constant (else drawn in [0, N])."""
        ins = [inp("d", (B, N, L), dtype, kind, (B, "n", L) if sym else None),
               inp("v", (B,), I32, f"index{N + 1}"), inp("i", (B, N), I32, "distinct", (B, "n") if sym else None)]
        v = "v"
        if vc is not None:
            ins, v = [ins[0], ins[2]], f'R.const({list(vc)}, "int32")'
        call = f"R.vision.non_max_suppression(d, {v}, i" + (", " + text if text else "") + ")"
        ret = kw.get("ret", True)
        # valid_count is drawn for N: the symbolic edges (n = 1) would put it past n
        return Case("non_max_suppression_" + name, call, ins, nms_ref(vc=vc, **kw), tuple_out=ret,
                    upper={"n": 8} if sym else None, at_edges=not sym)
    return [
        nm("hard", 2, 8, 6, "", vc=(8, 6)),
        nm("hard_force_topk_max", 2, 7, 6, "max_output_size=2, iou_threshold=0.3, force_suppress=True, top_k=4",
           kind="normal", vc=(7, -2), max_out=2, iou=0.3, force=True, top_k=4),
        nm("data_in_place", 2, 6, 6, "iou_threshold=0.4, return_indices=False", vc=(6, 5), iou=0.4, ret=False),
        nm("data_to_bottom_no_id", 1, 7, 5,
           "coord_start=1, score_index=0, id_index=-1, return_indices=False, invalid_to_bottom=True",
           vc=(7,), cs=1, si=0, ii=-1, ret=False, bottom=True),
        nm("soft", 2, 6, 6, "iou_threshold=0.7, force_suppress=True, soft_nms_sigma=0.5, score_threshold=0.1",
           kind="pos", vc=(6, 4), iou=0.7, force=True, sigma=0.5, sth=0.1),
        nm("soft_data_max", 1, 6, 6, "max_output_size=3, id_index=-1, return_indices=False, "
           "soft_nms_sigma=1.0, score_threshold=0.6", kind="pos", vc=(6,), max_out=3, ii=-1, ret=False,
           sigma=1.0, sth=0.6),
        nm("f16", 2, 5, 6, "iou_threshold=0.3", dtype=F16, kind="normal", vc=(5, 5), iou=0.3),
        nm("sym", 2, 6, 6, "", sym=True),
        nm("empty", 1, 0, 6, "", vc=(0,)),
    ]


def nms_errors():
    d, v, i = inp("d", (2, 5, 6)), inp("v", (2,), I32), inp("i", (2, 5), I32)
    call = "R.vision.non_max_suppression(d, v, i)"
    return [
        ErrorCase("non_max_suppression_rank", call, [inp("d", (5, 6)), v, i], ["3-D"]),
        ErrorCase("non_max_suppression_valid_count_dtype", call, [d, inp("v", (2,), I64), i], ["int32"]),
        ErrorCase("non_max_suppression_indices_shape", call, [d, v, inp("i", (2, 4), I32)], ["indices"]),
        ErrorCase("non_max_suppression_valid_count_batch", call, [d, inp("v", (3,), I32), i], ["valid_count"]),
        ErrorCase("non_max_suppression_score_index", "R.vision.non_max_suppression(d, v, i, score_index=6)",
                  [d, v, i], ["elem_length"]),
        ErrorCase("non_max_suppression_coord_start", "R.vision.non_max_suppression(d, v, i, coord_start=3)",
                  [d, v, i], ["elem_length"]),
        ErrorCase("non_max_suppression_id_index", "R.vision.non_max_suppression(d, v, i, id_index=-2)",
                  [d, v, i], ["id_index"]),
    ]


def CASES():
    return all_class_nms_cases() + nms_cases()


def ERROR_CASES():
    return all_class_nms_errors() + nms_errors()


def RUN_ERROR_CASES():
    # a valid_count past num_anchors (the last batch's): the generated C
    # refuses it too, before it writes
    ins = [inp("d", (2, 5, 6)), inp("v", (2,), I32, "oob6"), inp("i", (2, 5), I32, "distinct")]
    return [RunErrorCase("non_max_suppression_run_err_valid_count", "R.vision.non_max_suppression(d, v, i)",
                         ins, {}, ["past num_anchors"])]
