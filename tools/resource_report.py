#!/usr/bin/env python3
"""Resource usage of the kernels of a CUDA program, primal and derivative.

Compiles the device code with gpuad-cc for NVPTX (ptxas -v for each --arch)
and, when ROCm's device libraries are present, for AMDGPU, and prints per
kernel: registers, spill stores/loads and stack frame (NVPTX), VGPRs, SGPRs
and scratch bytes (AMDGPU).  Missing toolchains are reported, not hidden.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def demangle(names):
    tool = shutil.which("llvm-cxxfilt") or "/usr/lib/llvm-22/bin/llvm-cxxfilt"
    if not os.path.exists(tool):
        return names
    r = run([tool] + names)
    return r.stdout.split("\n")[: len(names)] if r.returncode == 0 else names


def nvptx(cc, src, arch, ptxas, tmp):
    ptx = os.path.join(tmp, f"k-{arch}.ptx")
    r = run([cc, "--cuda-device-only", f"--cuda-gpu-arch={arch}", "-O2", "-S",
             src, "-o", ptx])
    if r.returncode:
        return None, r.stderr
    r = run([ptxas, f"-arch={arch}", "-v", ptx, "-o", os.devnull])
    if r.returncode:
        return None, r.stderr
    rows, kernel = {}, None
    for line in r.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            kernel = m.group(1)
            rows[kernel] = {}
            continue
        if kernel is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, "
                      r"(\d+) bytes spill loads", line)
        if m and "stack" not in rows[kernel]:
            rows[kernel].update(stack=m.group(1), spill_st=m.group(2),
                                spill_ld=m.group(3))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            rows[kernel]["regs"] = m.group(1)
    return rows, None


def amdgpu(cc, src, arch, tmp):
    asm = os.path.join(tmp, f"k-{arch}.s")
    r = run([cc, "-x", "hip", "-include", "hip/hip_runtime.h",
             f"--offload-arch={arch}", "--cuda-device-only", "-O2", "-S", src,
             "-o", asm])
    if r.returncode:
        return None, r.stderr
    rows, kernel = {}, None
    for line in open(asm):
        m = re.match(r"\s+\.amdhsa_kernel (\S+)", line)
        if m:
            kernel = m.group(1)
            rows[kernel] = {}
        m = re.match(r"\s+\.amdhsa_next_free_vgpr (\S+)", line)
        if m and kernel:
            rows[kernel]["vgpr"] = m.group(1)
        m = re.match(r"\s+\.amdhsa_next_free_sgpr (\S+)", line)
        if m and kernel:
            rows[kernel]["sgpr"] = m.group(1)
        m = re.match(r"\s+\.amdhsa_private_segment_fixed_size (\S+)", line)
        if m and kernel:
            rows[kernel]["scratch"] = m.group(1)
    # The sizes are symbolic (.set) in LLVM 22 output; resolve them.
    sets = {}
    for line in open(asm):
        m = re.match(r"\s*\.set (\S+), (\S+)$", line.strip())
        if m:
            sets[m.group(1)] = m.group(2)
    for k in rows.values():
        for key, v in k.items():
            for _ in range(4):
                v = sets.get(v, v)
            k[key] = v
    return rows, None


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--cc", required=True, help="path of gpuad-cc")
    p.add_argument("--arch", action="append", default=None,
                   help="NVPTX architecture (repeatable); default sm_75, sm_90 (CUDA 13 dropped sm_70)")
    p.add_argument("--amdgpu-arch", default="gfx90a")
    p.add_argument("source")
    a = p.parse_args()
    archs = a.arch or ["sm_75", "sm_90"]
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    with tempfile.TemporaryDirectory() as tmp:
        if os.path.exists(ptxas):
            for arch in archs:
                rows, err = nvptx(a.cc, a.source, arch, ptxas, tmp)
                print(f"\nNVPTX {arch} (ptxas -v):")
                if rows is None:
                    print("  compile failed:\n" + err)
                    return 1
                names = demangle(list(rows))
                print(f"  {'kernel':40} {'regs':>5} {'spill st':>9} "
                      f"{'spill ld':>9} {'stack':>6}")
                for n, k in zip(names, rows.values()):
                    print(f"  {n[:40]:40} {k.get('regs', '?'):>5} "
                          f"{k.get('spill_st', '?'):>9} {k.get('spill_ld', '?'):>9} "
                          f"{k.get('stack', '?'):>6}")
        else:
            print("\nNVPTX: ptxas not found (CUDA toolkit missing); skipped")
        rows, err = amdgpu(a.cc, a.source, a.amdgpu_arch, tmp)
        print(f"\nAMDGPU {a.amdgpu_arch}:")
        if rows is None:
            print("  not compiled: " + err.strip().splitlines()[-1] if err.strip()
                  else "  not compiled")
        else:
            names = demangle(list(rows))
            print(f"  {'kernel':40} {'vgpr':>5} {'sgpr':>5} {'scratch':>8}")
            for n, k in zip(names, rows.values()):
                print(f"  {n[:40]:40} {k.get('vgpr', '?'):>5} "
                      f"{k.get('sgpr', '?'):>5} {k.get('scratch', '?'):>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
