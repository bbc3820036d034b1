#!/usr/bin/env python3
"""Resource usage of the kernels of a CUDA program, primal and gradient.

Compiles the device code with gpuad-cc for NVPTX (ptxas -v for each --arch)
and, when ROCm's device libraries are present, for AMDGPU, and prints per
kernel: registers, spill stores/loads and stack frame (NVPTX), VGPRs, SGPRs
and scratch bytes (AMDGPU); for each kernel that makes a derivative request,
its tape (bytes per thread and where they live: registers, shared slots,
thread-local memory, the tape pool, the heap) and its primal -- the kernel
the differentiated function is, or is inlined into -- with the gradient /
primal register ratio.  A summary line per target gives the worst ratio,
the spill bytes of gradient kernels and the kernels that use device malloc,
and a line whether the gradient (reverse-mode) kernels meet the benchmark
suite's targets: registers at most 1.5x the primal's (where it has 16 or
more), no spill stores or loads (NVPTX) or scratch (AMDGPU), no device
malloc.
Missing toolchains are reported, not hidden.

The tape and the pairing come from gpuad's optimisation remarks
(-fsave-optimization-record): 'Differentiated' (which kernel asked for which
derivative), 'Tape' (each derivative's tape), 'TapeShared' (regions moved to
shared memory) and the inliner's.
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


def record_flags(path):
    return ["-fsave-optimization-record",
            f"-foptimization-record-file={path}"]


def nvptx(cc, src, arch, ptxas, tmp, extra=()):
    ptx = os.path.join(tmp, f"k-{arch}.ptx")
    r = run([cc, "--cuda-device-only", f"--cuda-gpu-arch={arch}", "-O2", "-S",
             src, "-o", ptx] + list(extra) +
            record_flags(os.path.join(tmp, f"{arch}.yaml")))
    if r.returncode:
        return None, r.stderr
    calls = calls_by_function(open(ptx).read(), r"^\.(?:visible \.)?(?:entry|func)"
                              r"\s+(?:\([^)]*\)\s*)?([\w$]+)", "malloc")
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
    for k in rows:
        rows[k]["malloc"] = calls.get(k, False)
    return rows, None


def amdgpu(cc, src, arch, tmp, extra=()):
    asm = os.path.join(tmp, f"k-{arch}.s")
    r = run([cc, "-x", "hip", "-include", "hip/hip_runtime.h",
             f"--offload-arch={arch}", "--cuda-device-only", "-O2", "-S", src,
             "-o", asm] + list(extra) +
            record_flags(os.path.join(tmp, f"{arch}.yaml")))
    if r.returncode:
        return None, r.stderr
    # Per function, the "Kernel info" comment after its body: the registers
    # it needs (.amdhsa_next_free_vgpr is what the occupancy allows, often
    # more), scratch and LDS bytes.
    rows, func = {}, None
    keys = {"TotalNumVgprs": "vgpr", "TotalNumSgprs": "sgpr",
            "ScratchSize": "scratch", "LDSByteSize": "lds"}
    info = {}
    for line in open(asm):
        m = re.match(r"(\S+):\s+; @", line)
        if m:
            func = m.group(1)
            continue
        m = re.match(r"; (\w+): (\d+)", line)
        if m and func and m.group(1) in keys:
            info.setdefault(func, {})[keys[m.group(1)]] = m.group(2)
        m = re.match(r"\s+\.amdhsa_kernel (\S+)", line)
        if m:
            rows[m.group(1)] = None
    # The code object's metadata: each kernel's spilled registers.
    name = None
    for line in open(asm):
        m = re.match(r"\s+\.name:\s+(\S+)", line)
        if m:
            name = m.group(1)
        m = re.match(r"\s+\.([sv]gpr)_spill_count:\s+(\d+)", line)
        if m and name in rows:
            entry = info.setdefault(name, {})
            entry["spills"] = str(int(entry.get("spills", "0")) +
                                  int(m.group(2)))
    calls = calls_by_function(open(asm).read(), r"^([\w$.]+):\s+; @",
                              "__ockl_dm_alloc")
    return {k: dict(info.get(k, {}), malloc=calls.get(k, False))
            for k in rows}, None


def calls_by_function(text, start, callee):
    """Per function of an assembly file (a line matching \p start opens
    one), whether it reaches \p callee: its body names it, or names a
    function of the file that does (gpuad's heap helper, say).  Device
    malloc seen in the code, whatever the remarks say."""
    bodies, func = {}, None
    for line in text.splitlines():
        m = re.match(start, line)
        if m:
            func = m.group(1)
            bodies.setdefault(func, set())
        elif line.startswith((".Lfunc_end", "}")):
            func = None
        elif func:
            bodies[func].update(re.findall(r"[\w$.]+", line))
    found = {}

    def reaches(f, seen):
        if f not in found:
            seen.add(f)
            found[f] = callee in bodies[f] or any(
                reaches(g, seen) for g in bodies[f]
                if g in bodies and g not in seen)
        return found[f]

    for f in bodies:
        reaches(f, set())
    return found


def remarks(path):
    """The optimisation record's remarks as dicts: Pass, Name, Function and
    the named arguments (the first of each name)."""
    try:
        import yaml
    except ImportError:
        return None
    if not os.path.exists(path):
        return []

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor(
        "!", lambda loader, suffix, node: loader.construct_mapping(node, True))
    out = []
    with open(path) as f:
        for doc in yaml.load_all(f, Loader=Loader):
            if not doc:
                continue
            args = {}
            for a in doc.get("Args") or []:
                for k, v in a.items():
                    if k != "DebugLoc" and k != "String":
                        args.setdefault(k, v)
            out.append(dict(Pass=doc.get("Pass"), Name=doc.get("Name"),
                            Function=doc.get("Function"), Args=args))
    return out


# The benchmark suite's register target for gradient kernels.
TARGET_RATIO = 1.5

PLACES = {"thread-local memory": "local", "the global tape pool": "pool",
          "the heap": "heap", "the split tape, by value": "split tape",
          "the pool's arena": "arena"}


def gradient_info(recs):
    """Per kernel that makes requests: its tape text, whether it mallocs,
    and the functions it differentiates; and which kernels each function is
    inlined into."""
    if recs is None:
        return None, None
    tapes, shared, requests, inlined = {}, {}, {}, {}
    for r in recs:
        a = r["Args"]
        if r["Pass"] == "gpuad" and r["Name"] == "Tape":
            tapes[r["Function"]] = a
        elif r["Pass"] == "gpuad" and r["Name"] == "TapeShared":
            shared.setdefault(r["Function"], []).append(int(a["Bytes"]))
        elif r["Pass"] == "gpuad" and r["Name"] == "Differentiated":
            requests.setdefault(r["Function"], []).append(
                (a.get("Function"), a.get("Derivative"), a.get("Mapping")))
        elif r["Pass"] == "inline" and "Callee" in a and "Caller" in a:
            inlined.setdefault(a["Callee"], set()).add(a["Caller"])
    info = {}
    for k, reqs in requests.items():
        parts, malloc = [], False
        moved = list(shared.get(k, []))
        for _, d, _ in reqs:
            t = tapes.get(d, {})
            if int(t.get("SlotBytes", 0)):
                parts.append(f"{t['SlotBytes']} reg")
            if "RegionBytes" in t:
                b = int(t["RegionBytes"])
                place = PLACES.get(t.get("Place"), t.get("Place"))
                if place == "local" and b in moved:
                    moved.remove(b)
                    place = "shared"
                parts.append(f"{b} {place}")
                malloc |= place == "heap"
            if int(t.get("HeapLoops", 0)):
                # On a GPU growing arrays live in the pool's arena, unless
                # -gpuad-tape-placement=heap asked for malloc.
                arena = t.get("Arena") == "the pool's arena"
                parts.append(f"{t['HeapLoops']} loop(s) "
                             f"{'arena' if arena else 'heap'}")
                malloc |= not arena
        # Gradient kernels make reverse-mode requests (rev, or the split
        # halves aug and bwd); tangent kernels forward ones only.
        reverse = any(re.search(r"\.(rev|aug|bwd)\.", d or "")
                      for _, d, _ in reqs)
        # How width-N requests carry their directions (lanes, vectors,
        # serial); "-" for width 1.
        mapping = ",".join(sorted({m for _, _, m in reqs if m})) or "-"
        info[k] = dict(tape=" + ".join(parts) or "0",
                       functions=[f for f, _, _ in reqs], malloc=malloc,
                       reverse=reverse, mapping=mapping)
    return info, inlined


def primal_of(kernel, info, inlined, kernels):
    """The kernel the differentiated function is, or is inlined into."""
    for f in info[kernel]["functions"]:
        for p in kernels:
            if p not in info and (p == f or p in inlined.get(f, ())):
                return p
    return None


def short(name):
    """A demangled kernel name without its result type and parameters."""
    name = name[5:] if name.startswith("void ") else name
    return name.split("(")[0]


def report(title, rows, cols, ratio_col, info, inlined):
    """Prints one target's table and its summary."""
    names = dict(zip(rows, demangle(list(rows))))
    print(f"\n{title}:")
    if info is None:
        print("  (python3-yaml missing: no tape or primal columns)")
        info, inlined = {}, {}
    head = "".join(f"{c:>9}" for _, c in cols)
    print(f"  {'kernel':34}{head}  {'tape B/thread':26} {'mapping':9} primal")
    worst, worst16, spills, mallocs = None, None, 0, []
    missed = []  # gradient kernels over the targets
    for k, r in rows.items():
        vals = "".join(f"{r.get(key, '?'):>9}" for key, _ in cols)
        line = f"  {short(names[k])[:34]:34}{vals}"
        if k in info:
            p = primal_of(k, info, inlined, rows)
            pr = ""
            if p and r.get(ratio_col, "").isdigit() and \
                    rows[p].get(ratio_col, "").isdigit():
                ratio = int(r[ratio_col]) / max(int(rows[p][ratio_col]), 1)
                pr = f"{short(names[p])} ({rows[p][ratio_col]}) x{ratio:.2f}"
                if worst is None or ratio > worst[0]:
                    worst = (ratio, k, p)
                if int(rows[p][ratio_col]) >= 16 and (worst16 is None or
                                                      ratio > worst16[0]):
                    worst16 = (ratio, k, p)
                if info[k]["reverse"] and ratio > TARGET_RATIO and \
                        int(rows[p][ratio_col]) >= 16:
                    missed.append(f"{short(names[k])} x{ratio:.2f}")
            line += (f"  {info[k]['tape'][:26]:26} {info[k]['mapping'][:9]:9} "
                     f"{pr or '-'}")
            for key in ("spill_st", "spill_ld", "spills"):
                if r.get(key, "0").isdigit():
                    spills += int(r.get(key, "0"))
            for key in ("spill_st", "spill_ld", "spills", "scratch"):
                if info[k]["reverse"] and r.get(key, "0").isdigit() and \
                        int(r.get(key, "0")):
                    missed.append(f"{short(names[k])} {key} {r[key]} B")
            if info[k]["malloc"] or r.get("malloc"):
                mallocs.append(short(names[k]))
        print(line)
    if info:
        def text(w):
            return (f"x{w[0]:.2f} ({short(names[w[1]])} vs "
                    f"{short(names[w[2]])})" if w else "no pairs")
        print(f"  derivative kernels: worst {ratio_col} ratio to primal "
              f"{text(worst)}, {text(worst16)} where the primal has 16 or "
              f"more; spill bytes {spills}; device malloc: "
              f"{', '.join(mallocs) if mallocs else 'none'}")
        missed += [f"{m} mallocs" for m in mallocs]
        print(f"  gradient targets (registers <= {TARGET_RATIO}x the "
              f"primal's where it has 16 or more, no spills or scratch, no "
              f"device malloc): "
              f"{'missed: ' + '; '.join(missed) if missed else 'met'}")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--cc", required=True, help="path of gpuad-cc")
    p.add_argument("--arch", action="append", default=None,
                   help="NVPTX architecture (repeatable); default sm_75, "
                        "sm_90 (CUDA 13 dropped sm_70)")
    p.add_argument("--amdgpu-arch", default="gfx90a")
    p.add_argument("source")
    a = p.parse_args()
    archs = a.arch or ["sm_75", "sm_90"]
    ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    with tempfile.TemporaryDirectory() as tmp:
        if os.path.exists(ptxas):
            for arch in archs:
                rows, err = nvptx(a.cc, a.source, arch, ptxas, tmp)
                if rows is None:
                    print(f"\nNVPTX {arch}: compile failed:\n" + err)
                    return 1
                info, inlined = gradient_info(
                    remarks(os.path.join(tmp, f"{arch}.yaml")))
                report(f"NVPTX {arch} (ptxas -v)", rows,
                       [("regs", "regs"), ("spill_st", "spill st"),
                        ("spill_ld", "spill ld"), ("stack", "stack")],
                       "regs", info, inlined)
        else:
            print("\nNVPTX: ptxas not found (CUDA toolkit missing); skipped")
        rows, err = amdgpu(a.cc, a.source, a.amdgpu_arch, tmp)
        if rows is None:
            print(f"\nAMDGPU {a.amdgpu_arch}: not compiled: " +
                  (err.strip().splitlines()[-1] if err.strip() else ""))
        else:
            info, inlined = gradient_info(
                remarks(os.path.join(tmp, f"{a.amdgpu_arch}.yaml")))
            report(f"AMDGPU {a.amdgpu_arch}", rows,
                   [("vgpr", "vgpr"), ("sgpr", "sgpr"), ("spills", "spills"),
                    ("scratch", "scratch"), ("lds", "lds")], "vgpr", info,
                   inlined)
    return 0


if __name__ == "__main__":
    sys.exit(main())
