#!/usr/bin/python3
"""architecture.py - the lines of README.md's "Architecture" that the code
states: the road's stages, in api/road.h's order (the RxcStage enum), and
the -O2 pipeline as rxc runs it (`rxc opt -O2 --time-passes` names each
pass it runs, in order).  readme.py compares them with README.md's
`<!-- output of tests/readme/architecture.py -->` block.

Usage: architecture.py   (rxc is $RXC, else build/rxc; run from the root)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RXC = os.environ.get("RXC") or os.path.join(ROOT, "build", "rxc")


def stages():
    text = open(os.path.join(ROOT, "api", "road.h"), encoding="utf-8").read()
    enum = re.search(r"typedef enum \{(.*?)\} RxcStage;", text, re.S).group(1)
    return re.findall(r"RXC_STAGE_(\w+)", enum)


def pipeline():
    out = subprocess.run([RXC, "opt", "-O2", "--time-passes",
                          os.path.join(ROOT, "samples", "digits_mlp.py")],
                         capture_output=True, text=True, check=True)
    return [m.group(1) for m in re.finditer(r"^rxc: (\w+) ", out.stderr, re.M)]


def main():
    print("The road's stages (`api/road.h`): " + " → ".join(stages()) + ".")
    print()
    print("The -O2 pipeline (`opt/pipeline.c`), in order: " + " → ".join(pipeline()) + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main())
