#!/usr/bin/python3
"""gen_metadata.py - writes the metadata test modules in TVM v0.26's format.

mod.script(show_meta=True) prints large constants as
metadata["relax.expr.Constant"][i] and the constants themselves as
`metadata = tvm.ir.load_json(<triple-quoted JSON>)` before the module, where JSON is
TVM FFI's object graph (ToJSONGraph, indent 2) with every '"' and '\\'
escaped: {"root_index": r, "nodes": [...], "metadata": {"tvm_version": ...}},
nodes in the order the serializer creates them (children first), the root
an ffi.Map from "relax.expr.Constant" to an ffi.Array of relax.expr.Constant
nodes, each with fields span, ty and data; data an ffi.Tensor node whose
data is the base64 of TVM's tensor format (SaveDLTensor): u64 magic
0xDD5E40F096B4A13F, u64 reserved 0, i32 device type 1 (CPU), i32 device
id 0, i32 ndim, u8 dtype code, u8 bits, u16 lanes, i64 shape[ndim], i64
byte count, then the bytes, all little-endian.  span and ty point to a None
node here (rxc reads neither; TVM writes the span and the tensor type).

Writes tests/script/tvm26_metadata.py (three constants, the section first
as TVM prints it) and tests/script/tvm26_metadata_after.py (the section
after the module).  The values are the VALUES below; tests/unit/test_cli.c
checks that `rxc run` returns them.  Also writes tests/bad/metadata_*.py,
each one defect in an otherwise valid section (BAD below); their .err
files are rxc's diagnostics (tests/unit/test_golden.c; a reference without
any section is tests/bad/metadata_undefined.py).  Run from the repository root:
    /usr/bin/python3 tests/metadata/gen_metadata.py
"""
import base64
import json
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAGIC = 0xDD5E40F096B4A13F
# DLPack dtype codes: int 0, uint 1, float 2, bool 6
DTYPES = {"float32": (2, 32, "<f"), "int64": (0, 64, "<q"), "bool": (6, 8, "<?")}
VALUES = [
    ("float32", (2, 3), [1.5, -2.0, 0.25, 3.0, 4.0, -0.125]),
    ("int64", (4,), [7, -1, 1 << 40, 0]),
    ("bool", (3,), [True, False, True]),
]


def tensor_blob(dtype, shape, values, magic=MAGIC, lanes=1, cut=0):
    code, bits, fmt = DTYPES[dtype]
    data = b"".join(struct.pack(fmt, v) for v in values)
    head = struct.pack("<QQiii", magic, 0, 1, 0, len(shape)) + struct.pack("<BBH", code, bits, lanes)
    blob = head + struct.pack(f"<{len(shape)}q", *shape) + struct.pack("<q", len(data)) + data
    return blob[:len(blob) - cut]


def graph(values, **blob_args):
    nodes = [{"type": "ffi.String", "data": "relax.expr.Constant"}, {"type": "None"}]
    consts = []
    for dtype, shape, vals in values:
        b64 = base64.b64encode(tensor_blob(dtype, shape, vals, **blob_args)).decode()
        nodes.append({"type": "ffi.Tensor", "data": b64})
        nodes.append({"type": "relax.expr.Constant",
                      "data": {"span": 1, "ty": 1, "data": len(nodes) - 1}})
        consts.append(len(nodes) - 1)
    nodes.append({"type": "ffi.Array", "data": consts})
    nodes.append({"type": "ffi.Map", "data": [0, len(nodes) - 1]})
    return {"root_index": len(nodes) - 1, "nodes": nodes, "metadata": {"tvm_version": "0.26.0"}}


def section(values, edit=lambda text: text, **blob_args):
    text = edit(json.dumps(graph(values, **blob_args), indent=2))
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'metadata = tvm.ir.load_json("""{escaped}""")\n'


MODULE = '''# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((2, 3), dtype="float32"):
        return metadata["relax.expr.Constant"][0]

    @R.function
    def ints() -> R.Tensor((4,), dtype="int64"):
        return metadata["relax.expr.Constant"][1]

    @R.function
    def flags(x: R.Tensor((3,), dtype="bool")) -> R.Tensor((3,), dtype="bool"):
        gv: R.Tensor((3,), dtype="bool") = R.logical_and(x, metadata["relax.expr.Constant"][2])
        return gv
'''

ONE = [VALUES[1]]
SMALL = """@R.function
def main() -> R.Tensor((4,), dtype="int64"):
    return metadata[KEY][INDEX]
"""
# name: (what is wrong, the section, the reference)
BAD = {
    "metadata_bad_magic": ("not TVM's tensor magic", section(ONE, magic=MAGIC ^ 1), None),
    "metadata_truncated": ("a tensor blob 8 bytes short", section(ONE, cut=8), None),
    "metadata_lanes": ("a vector dtype (lanes 4)", section(ONE, lanes=4), None),
    "metadata_bad_base64": ("a character outside base64",
                            section(ONE, lambda t: t.replace('"P6G0', '"P6G!')), None),
    "metadata_bad_json": ("a missing comma in the JSON",
                          section(ONE, lambda t: t.replace('"root_index": 5,', '"root_index": 5')),
                          None),
    "metadata_wrong_node": ("a constant whose data names the None node",
                            section(ONE, lambda t: t.replace('"data": 2', '"data": 1')), None),
    "metadata_index": ("index 1 of one constant", section(ONE), '"relax.expr.Constant"][1'),
    "metadata_key": ("a key rxc does not read", section(ONE), '"relax.expr.Var"][0'),
    "metadata_twice": ("two sections", section(ONE) + section(ONE), None),
}

HEADER = "# Generated by tests/metadata/gen_metadata.py (TVM v0.26's metadata section: {}).\n"


def main():
    script = os.path.join(ROOT, "tests", "script")
    with open(os.path.join(script, "tvm26_metadata.py"), "w") as f:
        f.write(HEADER.format("before the module, as TVM prints it") + section(VALUES) + MODULE)
    with open(os.path.join(script, "tvm26_metadata_after.py"), "w") as f:
        f.write(HEADER.format("after the module") + MODULE + "\n" + section(VALUES))
    for name, (what, text, ref) in BAD.items():
        body = SMALL.replace("KEY][INDEX", ref or '"relax.expr.Constant"][0')
        with open(os.path.join(ROOT, "tests", "bad", name + ".py"), "w") as f:
            f.write(f"# {HEADER.format(what)[2:]}{text}{body}")


if __name__ == "__main__":
    main()
