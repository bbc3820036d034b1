#!/usr/bin/env python3
"""Robustness fuzzing: random IR (llvm-stress) through the gpuad pass.

Each llvm-stress function gets a caller that requests its derivative: in
forward mode with default activities (every pointer and float duplicated), in
reverse mode with pointers duplicated and floats const (the functions return
nothing, so there is no adjoint to return).  The pass must not crash, and its
output must pass the verifier; a diagnostic (an honest "cannot differentiate
...") is fine.  Usage:
    tools/fuzz/stress.py --plugin build/lib/GPUAD.so --count 200 [--width 2]
                         [--mode reverse] [-j 2] [--batch 20]
Modules are differentiated in batches (one opt run each); a batch that is
not clean is run again one module at a time, so each outcome names a seed.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from failures import compiler_failure  # noqa: E402

LLVM = "/usr/lib/llvm-22/bin"


def caller_for(module_text, width, mode):
    m = re.search(r"define void @(autogen_SD\d+)\(([^)]*)\)", module_text)
    name, params = m.group(1), [p.strip() for p in m.group(2).split(",") if p.strip()]
    args, cparams = [], []
    if width > 1:
        args += ["i32 %w", f"i32 {width}"]
    for i, p in enumerate(params):
        ty = p.rsplit(" ", 1)[0]
        is_float = ty in ("float", "double") or "float" in ty or "double" in ty
        cparams.append(f"{ty} %a{i}")
        if mode == "reverse" and is_float and ty != "ptr":
            args.append("ptr @enzyme_const")
        args.append(f"{ty} %a{i}")
        if ty == "ptr" or (is_float and mode == "forward"):
            for lane in range(width):
                cparams.append(f"{ty} %s{i}_{lane}")
                args.append(f"{ty} %s{i}_{lane}")
    load = "  %w = load i32, ptr @enzyme_width\n" if width > 1 else ""
    entry = "__enzyme_fwddiff" if mode == "forward" else "__enzyme_autodiff"
    return (
        f"define void @caller_{name}({', '.join(cparams)}) {{\n{load}"
        f"  call void (ptr, ...) @{entry}(ptr @{name}, {', '.join(args)})\n"
        "  ret void\n}\n"
    )


PRELUDE = ("@enzyme_width = external global i32\n"
           "@enzyme_const = external global i32\n"
           "declare void @__enzyme_fwddiff(ptr, ...)\n"
           "declare void @__enzyme_autodiff(ptr, ...)\n")


def module(seeds, a):
    """One module holding the llvm-stress functions of `seeds`, each with
    its caller."""
    parts = [PRELUDE]
    for seed in seeds:
        src = subprocess.run([f"{LLVM}/llvm-stress", "-seed", str(seed),
                              "-size", str(a.size)], capture_output=True,
                             text=True).stdout
        src = "\n".join(line for line in src.splitlines()
                        if not line.startswith(("; ModuleID", "source_filename")))
        parts.append(src + "\n" + caller_for(src, a.width, a.mode))
    return "\n".join(parts)


def classify(seeds, a, tmp):
    """(outcome, seeds) of one opt run over the functions of `seeds`; a
    batch that is not clean is run again one seed at a time."""
    path = os.path.join(tmp, f"s{seeds[0]}-{len(seeds)}.ll")
    with open(path, "w") as f:
        f.write(module(seeds, a))
    r = subprocess.run([f"{LLVM}/opt", f"-load-pass-plugin={a.plugin}",
                        "-passes=gpuad", "-S", path, "-o", os.devnull],
                       capture_output=True, text=True)
    os.unlink(path)
    if r.returncode == 0:
        return [("ok", s) for s in seeds]
    if len(seeds) > 1:
        return [x for s in seeds for x in classify([s], a, tmp)]
    return [(compiler_failure(r.returncode, r.stderr) or "diagnosed", seeds[0])]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--size", type=int, default=60)
    ap.add_argument("--width", type=int, default=1)
    ap.add_argument("--mode", choices=["forward", "reverse"], default="forward")
    ap.add_argument("--batch", type=int, default=20,
                    help="modules per opt run (a failing batch is rerun "
                    "one module at a time)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    seeds = list(range(a.start, a.start + a.count))
    batches = [seeds[i:i + a.batch] for i in range(0, len(seeds), a.batch)]
    results = {"ok": [], "diagnosed": [], "invalid-ir": [], "crash": []}
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for outcomes in pool.map(lambda b: classify(b, a, tmp), batches):
            for kind, seed in outcomes:
                results[kind].append(seed)
    crashes, invalid = sorted(results["crash"]), sorted(results["invalid-ir"])
    print(f"llvm-stress {a.mode} seeds {a.start}..{a.start + a.count - 1} "
          f"(width {a.width}): {len(results['ok'])} differentiated, "
          f"{len(results['diagnosed'])} diagnosed, {len(invalid)} invalid "
          f"output {invalid}, {len(crashes)} crashes {crashes}")
    return 1 if crashes or invalid else 0


if __name__ == "__main__":
    sys.exit(main())
