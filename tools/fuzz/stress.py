#!/usr/bin/env python3
"""Robustness fuzzing: random IR (llvm-stress) through the gpuad pass.

Each llvm-stress function gets a caller that requests its derivative: in
forward mode with default activities (every pointer and float duplicated), in
reverse mode with pointers duplicated and floats const (the functions return
nothing, so there is no adjoint to return).  The pass must not crash, and its
output must pass the verifier; a diagnostic (an honest "cannot differentiate
...") is fine.  Usage:
    tools/fuzz/stress.py --plugin build/lib/GPUAD.so --count 200 [--width 2]
                         [--mode reverse]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

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
        "@enzyme_width = external global i32\n"
        "@enzyme_const = external global i32\n"
        f"declare void @{entry}(ptr, ...)\n"
        f"define void @caller({', '.join(cparams)}) {{\n{load}"
        f"  call void (ptr, ...) @{entry}(ptr @{name}, {', '.join(args)})\n"
        "  ret void\n}\n"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--size", type=int, default=60)
    ap.add_argument("--width", type=int, default=1)
    ap.add_argument("--mode", choices=["forward", "reverse"], default="forward")
    a = ap.parse_args()
    crashes, invalid, diagnosed, ok = [], [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(a.start, a.start + a.count):
            src = subprocess.run([f"{LLVM}/llvm-stress", "-seed", str(seed),
                                  "-size", str(a.size)], capture_output=True,
                                 text=True).stdout
            path = os.path.join(tmp, f"s{seed}.ll")
            with open(path, "w") as f:
                f.write(src + caller_for(src, a.width, a.mode))
            r = subprocess.run([f"{LLVM}/opt", f"-load-pass-plugin={a.plugin}",
                                "-passes=gpuad", "-S", path, "-o", os.devnull],
                               capture_output=True, text=True)
            if r.returncode < 0 or "Stack dump" in r.stderr or "PLEASE submit" in r.stderr:
                crashes.append(seed)
            elif "internal error" in r.stderr or "verif" in r.stderr.lower():
                invalid.append(seed)
            elif r.returncode != 0:
                diagnosed += 1
            else:
                ok += 1
    print(f"seeds {a.start}..{a.start + a.count - 1} (width {a.width}): "
          f"{ok} differentiated, {diagnosed} diagnosed, "
          f"{len(invalid)} invalid output {invalid}, {len(crashes)} crashes {crashes}")
    return 1 if crashes or invalid else 0


if __name__ == "__main__":
    sys.exit(main())
