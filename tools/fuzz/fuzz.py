#!/usr/bin/env python3
"""Numeric fuzzing: random differentiable programs through gpuad, checked.

Each seed gives one program per kind (tools/fuzz/progen.py: "host" is C,
"cxx" C++ with std::vector and Eigen, "cuda" and "hip" are CUDA and HIP run
on the CPU emulator, "cuda-driver" and "hip-driver" a host driver that
launches the function as a kernel in a loop, differentiated from the host).  Each program is compiled with
gpuad-cc at every optimisation level asked for and run; the program checks
forward mode against central differences, reverse mode against them and by
the dot-product test against forward mode, width N against width-1 runs and
split mode against combined reverse mode (tools/fuzz/fuzzcheck.h), and
prints one verdict per mode.  Every (program, level, mode) is one case:

  pass          all checks of that mode passed
  wrong         a derivative disagreed (the worst outcome)
  diagnostic    gpuad refused the program with an error naming what it
                cannot differentiate (reported, with the messages, by count)
  crash         the compiler or the program died on a signal, or asserted
  invalid-ir    the verifier rejected gpuad's output
  hang          the compile or the run did not finish within the timeout
  inconclusive  no smooth, well-conditioned point was found (the program,
                not gpuad: e.g. it sits on a kink at every point tried)
  generator     the C/CUDA did not compile without gpuad's involvement (a
                bug in the generator)

A failure (wrong, crash, invalid-ir, hang) is shrunk by deleting statements
while the same failure remains (--shrink), and the reduced program is saved
in --out with a line to reproduce it.  Exit status 1 when there was any.

    tools/fuzz/fuzz.py --seeds 1:200 --kinds host,cuda --opt 0,1,2,3 -j 2
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import progen  # noqa: E402
from failures import compiler_failure  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXTENSIONS = {"host": ".c", "cxx": ".cpp", "cuda": ".cu", "hip": ".hip",
              "cuda-driver": ".cu", "hip-driver": ".hip", "omp": ".c",
              "mpi": ".c"}
HOST_KINDS = ("host", "cxx", "omp", "mpi")


def mpi_flags():
    """The flags `mpicc -showme` gives (MPI programs build this way)."""
    return [f for part in ("compile", "link") for f in subprocess.run(
        ["mpicc", "-showme:" + part], capture_output=True,
        text=True).stdout.split()]
MODES = ["fwd", "fwd-width", "rev", "rev-width", "split"]
FAILURES = ("wrong", "crash", "invalid-ir", "hang", "generator")


def compile_and_run(src, kind, opt, cc, workdir, timeout, extra=()):
    """Returns (outcome, {mode: verdict}, detail)."""
    ext = EXTENSIONS[kind]
    fd, path = tempfile.mkstemp(suffix=ext, dir=workdir)
    with os.fdopen(fd, "w") as f:
        f.write(src)
    exe = path[:-len(ext)]
    cmd = [cc, "-O%s" % opt, "-I" + HERE, path, "-o", exe, "-lm"] + list(extra)
    if kind not in HOST_KINDS:
        cmd.insert(1, "--emulate")
    if kind == "cxx":
        cmd.insert(1, "-I/usr/include/eigen3")
    if kind == "omp":
        cmd.insert(1, "-fopenmp")
    if kind == "mpi":
        cmd += mpi_flags()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", {}, "compile did not finish in %d s" % timeout
    finally:
        os.unlink(path)
    if r.returncode != 0:
        err = r.stderr
        os.path.exists(exe) and os.unlink(exe)
        failure = compiler_failure(r.returncode, err)
        if failure:
            return failure, {}, tail(err)
        gp = [line for line in err.splitlines() if "gpuad:" in line and
              "error:" in line]
        if gp:
            return "diagnostic", {}, gp[0].split("gpuad:", 1)[1].strip()
        return "generator", {}, tail(err)
    try:
        run = [exe]
        if kind == "mpi":
            run = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np",
                   "2", exe]
        r = subprocess.run(run, capture_output=True, text=True,
                           timeout=timeout, cwd=workdir,
                           env=dict(os.environ, OMP_NUM_THREADS="2"))
    except subprocess.TimeoutExpired:
        return "hang", {}, "the program did not finish in %d s" % timeout
    finally:
        os.path.exists(exe) and os.unlink(exe)
    verdicts = dict(re.findall(r"^FZ (\S+) (PASS|FAIL)", r.stdout, re.M))
    # A derivative kernel the device compile left out (its remark says why):
    # gpuad refused, at run time.
    refused = re.search(r"gpuad: (cannot launch '[^']*'.*)", r.stderr)
    if refused and not verdicts:
        return "diagnostic", {}, refused.group(1)[:300]
    if r.returncode == 3:
        return "inconclusive", {}, r.stdout.strip()[-300:]
    if r.returncode not in (0, 1) or (r.returncode == 1 and not any(
            v == "FAIL" for v in verdicts.values())):
        return "crash", verdicts, "exit %d: %s" % (r.returncode,
                                                   tail(r.stdout + r.stderr))
    if r.returncode == 1:
        return "wrong", verdicts, "\n".join(
            line for line in r.stdout.splitlines() if "mismatch" in line)
    return "pass", verdicts, ""


def tail(text, n=1500):
    return text[-n:]


def per_mode(outcome, verdicts):
    """The outcome of each mode of one compiled program."""
    if outcome in ("pass", "wrong"):
        return {m: ("pass" if verdicts.get(m) == "PASS" else "wrong")
                for m in MODES}
    if outcome == "crash" and verdicts:
        return {m: ("pass" if verdicts.get(m) == "PASS" else "crash")
                for m in MODES}
    return {m: outcome for m in MODES}


def run_case(args):
    seed, kind, opt, cc, workdir, timeout, mutant, size, flags = args
    prog = progen.generate(seed, kind, mutant, size)
    t = time.time()
    src = prog.source()
    outcome, verdicts, detail = compile_and_run(src, kind, opt, cc, workdir,
                                                timeout, flags)
    modes = per_mode(outcome, verdicts)
    notes = {}
    if outcome == "diagnostic":
        # One mode's diagnostic stops the whole program: build each mode
        # alone to tell which modes it is about.
        for k, m in enumerate(MODES, 1):
            o, v, d = compile_and_run(src, kind, opt, cc, workdir, timeout,
                                      flags + ["-DFZ_ONLY=%d" % k])
            modes[m] = per_mode(o, v)[m]
            if o != "pass":
                notes[m] = d
        if any(v in FAILURES for v in modes.values()):
            outcome = next(v for v in modes.values() if v in FAILURES)
            detail = "\n".join("%s: %s" % kv for kv in notes.items())
    return dict(seed=seed, kind=kind, opt=opt, size=size, flags=flags,
                outcome=outcome,
                modes=modes,
                notes=notes, detail=detail, features=prog.features,
                seconds=round(time.time() - t, 1))


def same_failure(case, outcome, verdicts):
    if outcome != case["outcome"]:
        return False
    if outcome == "wrong":
        bad = {m for m, v in case["modes"].items() if v == "wrong"}
        return bool(bad & {m for m, v in verdicts.items() if v == "FAIL"})
    return True


def shrink(case, cc, workdir, timeout, log):
    """Deletes statements of the failing program while it still fails the
    same way; returns the reduced Program."""
    prog = progen.generate(case["seed"], case["kind"], size=case["size"])
    changed = True
    while changed:
        changed = False
        for path in reversed(prog.paths()):
            try:
                cand = prog.without(path)
            except (IndexError, KeyError):
                continue
            outcome, verdicts, _ = compile_and_run(
                cand.source(), case["kind"], case["opt"], cc, workdir,
                timeout, case["flags"])
            if same_failure(case, outcome, verdicts):
                prog, changed = cand, True
                log("  shrunk: %d statements left" % len(prog.paths()))
    return prog


def regression_header(case, shrunk):
    """Lit lines that make a saved failure a test of test/fuzz/ once it is
    fixed: it must build and pass at the level it failed at."""
    emulate = " --emulate" if case["kind"] not in HOST_KINDS else ""
    lines = ["%s seed %d%s at -O%s: %s%s (tools/fuzz/fuzz.py)" % (
        case["kind"], case["seed"],
        " size %d" % case["size"] if case["size"] != 1 else "", case["opt"],
        case["outcome"], ", reduced" if shrunk else "")]
    lines += case["detail"].splitlines()[:12]
    kind = case["kind"]
    if kind not in HOST_KINDS:
        lines.append("REQUIRES: " + kind)
    # A parallel kind builds and runs as fuzz.py does it.
    extra = {"omp": " -fopenmp", "mpi": " %mpi-flags"}.get(kind, "")
    run = {"omp": "env OMP_NUM_THREADS=2 %t",
           "mpi": "%mpirun -np 2 %t"}.get(kind, "%t")
    if kind == "omp":
        lines.append("REQUIRES: openmp")
    elif kind == "mpi":
        lines.append("REQUIRES: mpi")
    lines.append("RUN: %%gpuad-cc%s%s -O%s%s -I%%fuzz-dir %%s -o %%t -lm && %s"
                 % (emulate, extra, case["opt"],
                    "".join(" " + f for f in case["flags"]), run))
    return "".join("// %s\n" % line for line in lines)


def snapshot(cc, work):
    """A copy of gpuad-cc with the plugin and emulator runtime it finds
    beside itself, so that rebuilding gpuad during a long run does not
    change (or break) the compiler under test."""
    import shutil
    prefix = os.path.dirname(os.path.dirname(os.path.abspath(cc)))
    os.makedirs(os.path.join(work, "gpuad", "bin"), exist_ok=True)
    shutil.copy2(cc, os.path.join(work, "gpuad", "bin"))
    # A build tree keeps them in lib/, an installed prefix in lib/gpuad/.
    for lib in ("GPUAD.so", "GPUADFrontend.so", "libgpuad_emu.a"):
        for sub in ("lib", os.path.join("lib", "gpuad")):
            src = os.path.join(prefix, sub, lib)
            if os.path.exists(src):
                os.makedirs(os.path.join(work, "gpuad", sub), exist_ok=True)
                shutil.copy2(src, os.path.join(work, "gpuad", sub))
                break
        else:
            sys.exit("fuzz.py: no %s beside %s" % (lib, cc))
    return os.path.join(work, "gpuad", "bin", os.path.basename(cc))


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", default="1:50", help="first:last (inclusive)")
    ap.add_argument("--kinds", default="host,cuda")
    ap.add_argument("--opt", default="0,1,2,3")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--cc", default=os.path.join(ROOT, "build", "bin",
                                                 "gpuad-cc"))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--out", default="fuzz-out",
                    help="where failures and the summary go")
    ap.add_argument("--shrink", action="store_true",
                    help="reduce each failing program")
    ap.add_argument("--flags", default="",
                    help="more compiler flags, e.g. -ffast-math")
    ap.add_argument("--size", type=int, default=1,
                    help="program size: 2 and 3 give longer bodies and "
                    "deeper nesting")
    ap.add_argument("--mutant", action="store_true",
                    help="the checker's own test: compare each program with "
                    "a reference 1e-3 off, so every case must be wrong")
    a = ap.parse_args()
    first, last = (int(v) for v in a.seeds.split(":"))
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="gpuad-fuzz-")
    a.cc = snapshot(a.cc, work)
    tasks = [(s, k, o, a.cc, work, a.timeout, a.mutant, a.size, a.flags.split())
             for s in range(first, last + 1) for k in a.kinds.split(",")
             for o in a.opt.split(",")]
    counts = collections.Counter()
    compiles = collections.Counter()
    diagnostics = collections.Counter()
    failures = []
    start = time.time()
    log = open(os.path.join(a.out, "cases.jsonl"), "w")
    with concurrent.futures.ProcessPoolExecutor(a.jobs) as pool:
        for done, case in enumerate(pool.map(run_case, tasks), 1):
            log.write(json.dumps(case) + "\n")
            log.flush()
            compiles[case["outcome"]] += 1
            for m, v in case["modes"].items():
                counts[v] += 1
            for m, v in case["modes"].items():
                if v == "diagnostic":
                    msg = re.sub(r"'[^']*'", "'...'", case["notes"].get(
                        m, case["detail"]))
                    diagnostics["%s: %s" % (m, msg)] += 1
            if case["outcome"] in FAILURES or "wrong" in case["modes"].values():
                failures.append(case)
                print("FAIL %s seed %d -O%s: %s\n  %s" % (
                    case["kind"], case["seed"], case["opt"], case["outcome"],
                    case["detail"].replace("\n", "\n  ")[:1200]), flush=True)
            if done % 50 == 0:
                print("... %d/%d compiles, %.0f s" % (
                    done, len(tasks), time.time() - start), flush=True)
    for case in failures:
        name = "%s-%d-O%s" % (case["kind"], case["seed"], case["opt"])
        prog = progen.generate(case["seed"], case["kind"], size=a.size)
        if a.shrink:
            print("shrinking %s" % name, flush=True)
            prog = shrink(case, a.cc, work, a.timeout, print)
        ext = EXTENSIONS[case["kind"]]
        with open(os.path.join(a.out, name + ext), "w") as f:
            f.write(regression_header(case, a.shrink))
            f.write(prog.source())
    summary = dict(cases=sum(counts.values()), by_outcome=dict(counts),
                   compiles=dict(compiles), diagnostics=dict(diagnostics),
                   seconds=round(time.time() - start))
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print("\nFuzz summary: %d cases (program x level x mode) from %d "
          "compiles in %d s" % (summary["cases"], sum(compiles.values()),
                               summary["seconds"]))
    for k in ["pass", "diagnostic", "inconclusive", "wrong", "crash",
              "invalid-ir", "hang", "generator"]:
        print("  %-13s %d" % (k, counts[k]))
    for msg, n in diagnostics.most_common():
        print("  diagnostic x%d: %s" % (n, msg[:200]))
    subprocess.run(["rm", "-rf", work])
    bad = sum(counts[k] for k in FAILURES)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
