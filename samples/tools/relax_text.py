"""relax_text.py - write a Relax main function as TVMScript, one op at a time.

A Builder records each binding with its result shape (computed here, the
way operator inference would) and each weight parameter with its shape, so
one description of a model gives both the TVMScript text (in the style
TVM's printer uses: every binding annotated, one dataflow block) and the
parameter list that gen_weights.py fills.  Shapes are tuples whose entries
are ints or symbolic names (str); only the batch or sequence dim is
symbolic, and ops that would compute on it keep it as it is.
"""


def dims_text(shape):
    """A shape as it appears inside R.Tensor((...)) in a binding."""
    if len(shape) == 1:
        return "(%s,)" % shape[0]
    return "(" + ", ".join(str(d) for d in shape) + ")"


def sig_dims_text(shape):
    """A shape in a signature: symbolic names are quoted."""
    quoted = ['"%s"' % d if isinstance(d, str) else str(d) for d in shape]
    if len(quoted) == 1:
        return "(%s,)" % quoted[0]
    return "(" + ", ".join(quoted) + ")"


def tensor_text(shape, sig=False):
    dims = sig_dims_text(shape) if sig else dims_text(shape)
    return 'R.Tensor(%s, dtype="float32")' % dims


def conv_out(size, kernel, stride, pad_lo, pad_hi):
    return (size + pad_lo + pad_hi - kernel) // stride + 1


class Builder:
    """Collects the input, the weights and the bindings of main."""

    def __init__(self, comment, input_name, input_shape, bounds=None):
        self.comment = comment
        self.input = (input_name, tuple(input_shape))
        self.bounds = bounds or {}
        self.params = []  # (name, shape, kind): kind says how to seed it
        self.lines = []
        self.count = 0

    # -- bookkeeping --------------------------------------------------------
    def param(self, name, shape, kind):
        self.params.append((name, tuple(shape), kind))
        return (name, tuple(shape))

    def bind(self, value_text, shape, final=False):
        name = "gv" if final else ("lv" if self.count == 0 else "lv%d" % self.count)
        if not final:
            self.count += 1
        self.lines.append("%s: %s = %s" % (name, tensor_text(shape), value_text))
        return (name, tuple(shape))

    # -- operators ------------------------------------------------------------
    def conv2d(self, x, name, cout, kernel, stride=1, pad=0, groups=1, bias=True):
        """NCHW conv2d with an OIHW weight `name`_weight and, when bias,
        a bias `name`_bias reshaped to (1, C, 1, 1) and added."""
        n, cin, h, w = x[1]
        kh, kw = kernel if isinstance(kernel, tuple) else (kernel, kernel)
        sh, sw = stride if isinstance(stride, tuple) else (stride, stride)
        pads = pad if isinstance(pad, tuple) else (pad, pad, pad, pad)  # top left bottom right
        weight = self.param(name + "_weight", (cout, cin // groups, kh, kw), "conv")
        out = (n, cout, conv_out(h, kh, sh, pads[0], pads[2]), conv_out(w, kw, sw, pads[1], pads[3]))
        y = self.bind(
            "R.nn.conv2d(%s, %s, strides=[%d, %d], padding=[%d, %d, %d, %d], dilation=[1, 1], "
            'groups=%d, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")'
            % (x[0], weight[0], sh, sw, pads[0], pads[1], pads[2], pads[3], groups), out)
        if not bias:
            return y
        b = self.param(name + "_bias", (cout,), "bias")
        b4 = self.bind("R.reshape(%s, R.shape([1, %d, 1, 1]))" % (b[0], cout), (1, cout, 1, 1))
        return self.add(y, b4)

    def dense(self, x, name, cout, final=False):
        """x @ weight.T + bias with a torch-style (out, in) weight."""
        cin = x[1][-1]
        weight = self.param(name + "_weight", (cout, cin), "dense")
        b = self.param(name + "_bias", (cout,), "bias")
        wt = self.bind("R.permute_dims(%s, axes=None)" % weight[0], (cin, cout))
        y = self.bind('R.matmul(%s, %s, out_dtype="void")' % (x[0], wt[0]), x[1][:-1] + (cout,))
        return self.bind("R.add(%s, %s)" % (y[0], b[0]), y[1], final)

    def add(self, a, b, final=False):
        shape = a[1] if len(a[1]) >= len(b[1]) else b[1]
        return self.bind("R.add(%s, %s)" % (a[0], b[0]), shape, final)

    def multiply_const(self, x, value):
        return self.bind('R.multiply(%s, R.const(%s, "float32"))' % (x[0], value), x[1])

    def relu(self, x):
        return self.bind("R.nn.relu(%s)" % x[0], x[1])

    def relu6(self, x):
        return self.bind("R.clip(%s, R.prim_value(0), R.prim_value(6))" % x[0], x[1])

    def gelu(self, x):
        return self.bind("R.nn.gelu(%s)" % x[0], x[1])

    def softmax(self, x, final=False):
        return self.bind("R.nn.softmax(%s, axis=-1)" % x[0], x[1], final)

    def pool2d(self, x, op, size, stride):
        n, c, h, w = x[1]
        out = (n, c, conv_out(h, size[0], stride[0], 0, 0), conv_out(w, size[1], stride[1], 0, 0))
        return self.bind(
            "R.nn.%s(%s, pool_size=[%d, %d], strides=[%d, %d], dilation=[1, 1], padding=[0, 0, 0, 0], "
            'ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")'
            % (op, x[0], size[0], size[1], stride[0], stride[1]), out)

    def global_avg_pool(self, x):
        n, c = x[1][0], x[1][1]
        return self.bind('R.nn.adaptive_avg_pool2d(%s, output_size=[1, 1], layout="NCHW", out_layout="NCHW")'
                         % x[0], (n, c, 1, 1))

    def reshape(self, x, shape):
        return self.bind("R.reshape(%s, R.shape([%s]))" % (x[0], ", ".join(str(d) for d in shape)), shape)

    def permute(self, x, axes):
        shape = tuple(x[1][a] for a in axes)
        return self.bind("R.permute_dims(%s, axes=[%s])" % (x[0], ", ".join(str(a) for a in axes)), shape)

    def matmul(self, a, b):
        shape = a[1][:-1] + (b[1][-1],)
        return self.bind('R.matmul(%s, %s, out_dtype="void")' % (a[0], b[0]), shape)

    def layer_norm(self, x, name):
        c = x[1][-1]
        g = self.param(name + "_weight", (c,), "ones")
        b = self.param(name + "_bias", (c,), "zeros")
        return self.bind("R.nn.layer_norm(%s, %s, %s, axes=[-1], epsilon=1.0000000000000001e-05, "
                         "center=True, scale=True)" % (x[0], g[0], b[0]), x[1])

    # -- text -----------------------------------------------------------------
    def text(self, result, header=""):
        """The module: header comment lines, then main returning result."""
        name, shape = self.input
        params = ["%s: %s" % (name, tensor_text(shape, sig=True))]
        params += ["%s: %s" % (p, tensor_text(s, sig=True)) for p, s, _ in self.params]
        out = [header] if header else []
        out += ["# " + line if line else "#" for line in self.comment.strip().split("\n")]
        out += ["# from tvm.script import ir as I", "# from tvm.script import tir as T",
                "# from tvm.script import relax as R", "", "@I.ir_module", "class Module:",
                "    @R.function",
                "    def main(%s) -> %s:" % (", ".join(params), tensor_text(result[1], sig=True))]
        for var in sorted(self.bounds):
            out.append("        %s = T.int64()" % var)
        attrs = '"num_input": 1'
        if self.bounds:
            inner = ", ".join('"%s": %d' % (v, self.bounds[v]) for v in sorted(self.bounds))
            attrs += ', "tir_var_upper_bound": {%s}' % inner
        out.append("        R.func_attr({%s})" % attrs)
        out.append("        with R.dataflow():")
        lines = list(self.lines)
        last = lines[-1].split(":", 1)[0]
        if last != result[0] or last != "gv":
            assert last == result[0], "the result must be the last binding"
            lines[-1] = "gv" + lines[-1][len(last):]
        out += ["            " + line for line in lines]
        out.append("            R.output(gv)")
        out.append("        return gv")
        return "\n".join(out) + "\n"
