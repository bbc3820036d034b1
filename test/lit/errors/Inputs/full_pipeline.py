#!/usr/bin/env python3
"""Compiles every error test of test/lit/errors through the whole clang
pipeline, to an object file, at -O0 and -O2, with the IR verifier on: after
gpuad reports its errors, the module must be valid and the rest of the
pipeline (SimplifyCFG, code generation...) must run to the end, so clang
exits with the errors alone, never a crash.  .ll files go through
`clang -x ir` with the pass plugin; C/C++ files through gpuad-cc.  A test
input the backend cannot compile even without gpuad (x87 inline assembly
that only exists to be refused) is not gpuad's crash: such a compile is
tried again without the plugin and skipped if that crashes too.

usage: full_pipeline.py CLANG GPUAD_CC PLUGIN INCLUDE_DIR DIR
Prints one line per compile that crashed or exited oddly, then a summary
(`N passed, N failed`); exits non-zero if any failed."""

import os
import subprocess
import sys

CRASH_SIGNS = ("Stack dump", "PLEASE submit a bug report", "Assertion",
               "UNREACHABLE", "Segmentation fault", "Broken module",
               "broken module")


def command(clang, gpuad_cc, plugin, include, path, opt, with_gpuad=True):
    common = [opt, "-fverify-intermediate-code", "-c", "-o", os.devnull,
              "-Wno-override-module", "-Wno-unused-command-line-argument"]
    if path.endswith(".ll"):
        load = ["-fpass-plugin=" + plugin] if with_gpuad else []
        return [clang, "-x", "ir", path] + load + common
    if with_gpuad:
        return [gpuad_cc, path] + common
    lang = ["-x", "c++"] if path.endswith(".cpp") else []
    return [clang] + lang + ["-I" + include, path] + common


def crashes(cmd):
    """None if the command ran to an ordinary end, else its output."""
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "timed out"
    out = run.stdout + run.stderr
    if run.returncode < 0 or run.returncode > 1 or any(
            sign in out for sign in CRASH_SIGNS):
        return "exit %d\n%s" % (run.returncode, out[-3000:])
    return None


def main():
    clang, gpuad_cc, plugin, include, directory = sys.argv[1:6]
    passed, failed, skipped = 0, 0, 0
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if not name.endswith((".ll", ".c", ".cpp")) or not os.path.isfile(path):
            continue
        for opt in ("-O0", "-O2"):
            crash = crashes(command(clang, gpuad_cc, plugin, include, path, opt))
            if not crash:
                passed += 1
            elif crashes(command(clang, gpuad_cc, plugin, include, path, opt,
                                 with_gpuad=False)):
                print("skipped %s %s: the backend fails on it without gpuad too"
                      % (name, opt))
                skipped += 1
            else:
                print("FAIL %s %s: %s" % (name, opt, crash))
                failed += 1
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
