#!/usr/bin/env python3
"""Registers of width-N device derivatives as lanes and as vectors.

Compiles a program twice, with -gpuad-batch-mapping=lanes and =vector, for
NVPTX (ptxas -v, sm_90 by default) and AMDGPU (gfx90a), and prints for each
width-W kernel `<name>Lanes<W>` its registers and spills in both forms next
to the width-1 kernel `<name>One` of the same program, with the lanes form's
ratio to width 1 and whether it meets the target: registers at most 1.5x
the width-1 derivative's and no spilled registers.  The program's kernels
follow that naming (kernels/cuda/bench/lane_jacobian.cu).
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import resource_report as rr  # noqa: E402

TARGET = 1.5


def compile_both(compile_one, tmp):
    """{mapping: {demangled kernel: row}} for the lanes and vector forms."""
    out = {}
    for mapping in ("lanes", "vector"):
        sub = os.path.join(tmp, mapping)
        os.makedirs(sub, exist_ok=True)
        rows, err = compile_one(sub, ["-mllvm",
                                      f"-gpuad-batch-mapping={mapping}"])
        if rows is None:
            return None, err
        names = rr.demangle(list(rows))
        out[mapping] = {rr.short(n): rows[k] for k, n in zip(rows, names)}
    return out, None


def table(title, forms, reg, spill_keys):
    print(f"\n{title}:")
    print(f"  {'request':20}{'W':>4}  {'lanes':>6}{'spills':>8}  "
          f"{'vector':>7}{'spills':>8}  {'width 1':>8}{'spills':>8}  "
          f"{'lanes/w1':>9}  target")
    missed = []
    lanes, vector = forms["lanes"], forms["vector"]
    for kernel in sorted(lanes, key=lambda k: (k.split("<")[0],
                                               int(re.sub(r"\D", "", k) or 0))):
        m = re.match(r"(\w+)Lanes<(\d+)>$", kernel)
        if not m:
            continue
        base, width = m.group(1), int(m.group(2))
        one = lanes.get(f"{base}One", {})

        def spills(row):
            return sum(int(row.get(k, "0")) for k in spill_keys
                       if row.get(k, "0").isdigit())
        lr, vr, orr = lanes[kernel], vector.get(kernel, {}), one
        ratio = int(lr[reg]) / max(int(orr.get(reg, "1")), 1)
        ok = ratio <= TARGET and spills(lr) == 0
        if not ok:
            missed.append(f"{kernel} x{ratio:.2f}, {spills(lr)} B spilled")
        print(f"  {base:20}{width:>4}  {lr[reg]:>6}{spills(lr):>8}  "
              f"{vr.get(reg, '?'):>7}{spills(vr):>8}  {orr.get(reg, '?'):>8}"
              f"{spills(orr):>8}  {ratio:>8.2f}x  {'met' if ok else 'MISSED'}")
    print(f"  lanes target (registers <= {TARGET}x width 1, no spills): "
          f"{'missed: ' + '; '.join(missed) if missed else 'met'}")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--cc", required=True, help="path of gpuad-cc")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--amdgpu-arch", default="gfx90a")
    p.add_argument("source")
    a = p.parse_args()
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    with tempfile.TemporaryDirectory() as tmp:
        if os.path.exists(ptxas):
            forms, err = compile_both(
                lambda d, extra: rr.nvptx(a.cc, a.source, a.arch, ptxas, d,
                                          extra), tmp + "/nvptx")
            if forms is None:
                print(f"NVPTX {a.arch}: compile failed:\n{err}")
                return 1
            table(f"NVPTX {a.arch} (ptxas -v; spills: store + load bytes)",
                  forms, "regs", ("spill_st", "spill_ld"))
        else:
            print("\nNVPTX: ptxas not found (CUDA toolkit missing); skipped")
        forms, err = compile_both(
            lambda d, extra: rr.amdgpu(a.cc, a.source, a.amdgpu_arch, d,
                                       extra), tmp + "/amdgpu")
        if forms is None:
            print(f"\nAMDGPU {a.amdgpu_arch}: not compiled: " +
                  (err.strip().splitlines()[-1] if err.strip() else ""))
        else:
            table(f"AMDGPU {a.amdgpu_arch} (VGPRs; spills: spilled registers)",
                  forms, "vgpr", ("spills",))
    return 0


if __name__ == "__main__":
    sys.exit(main())
