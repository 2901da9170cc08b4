"""A minimal protobuf writer for ONNX files, so that the hostile corpus
can hold what onnx.helper refuses to write (malformed varints, truncated
messages, wrong wire types) and needs no onnx package.  Field numbers are
onnx.proto's."""
import struct


def varint(n):
    n &= (1 << 64) - 1  # negative int64 as ten bytes, as protobuf does
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def i(field, n):
    """An int field (int32, int64, enum: wire type 0)."""
    return key(field, 0) + varint(n)


def f32(field, x):
    return key(field, 5) + struct.pack("<f", x)


def ld(field, data):
    """A length-delimited field: bytes, a string or a message."""
    if isinstance(data, str):
        data = data.encode()
    return key(field, 2) + varint(len(data)) + data


def cat(*parts):
    return b"".join(parts)


# ---- onnx.proto messages ------------------------------------------------

def tensor(name, dtype, dims, raw=None, floats=None, int64s=None, external=None,
           location=None):
    out = cat(*[i(1, d) for d in dims], i(2, dtype), ld(8, name))
    if floats is not None:
        out += ld(4, b"".join(struct.pack("<f", x) for x in floats))
    if int64s is not None:
        out += ld(7, b"".join(varint(x) for x in int64s))
    if raw is not None:
        out += ld(9, raw)
    for k, v in (external or []):
        out += ld(13, cat(ld(1, k), ld(2, v)))
    if location is not None:
        out += i(14, location)
    return out


def attr_i(name, v):
    return cat(ld(1, name), i(3, v), i(20, 2))


def attr_ints(name, vs):
    return cat(ld(1, name), *[i(8, v) for v in vs], i(20, 7))


def attr_s(name, s):
    return cat(ld(1, name), ld(4, s), i(20, 3))


def attr_f(name, x):
    return cat(ld(1, name), f32(2, x), i(20, 1))


def attr_t(name, t):
    return cat(ld(1, name), ld(5, t), i(20, 4))


def attr_g(name, g):
    return cat(ld(1, name), ld(6, g), i(20, 5))


def node(op, inputs, outputs, name=None, attrs=(), domain=None):
    out = cat(*[ld(1, x) for x in inputs], *[ld(2, y) for y in outputs])
    if name is not None:
        out += ld(3, name)
    out += ld(4, op)
    out += cat(*[ld(5, a) for a in attrs])
    if domain is not None:
        out += ld(7, domain)
    return out


def tensor_type(elem, dims):
    """A TypeProto of a tensor; a dim is an int (dim_value) or a str (dim_param)."""
    shape = b""
    if dims is not None:
        shape = ld(2, cat(*[ld(1, i(1, d) if isinstance(d, int) else ld(2, d)) for d in dims]))
    return ld(1, cat(i(1, elem), shape))


def value_info(name, elem=1, dims=(2,), type_proto=None):
    return cat(ld(1, name), ld(2, type_proto if type_proto is not None else tensor_type(elem, dims)))


def graph(nodes, inputs, outputs, inits=(), name="g"):
    return cat(*[ld(1, n) for n in nodes], ld(2, name), *[ld(5, t) for t in inits],
               *[ld(11, v) for v in inputs], *[ld(12, v) for v in outputs])


def model(g, opsets=(("", 13),), ir_version=8):
    out = i(1, ir_version)
    for dom, ver in opsets:
        out += ld(8, cat(ld(1, dom), i(2, ver)))
    return out + ld(2, "pb.py") + ld(7, g)
