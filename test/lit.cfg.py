# -*- Python -*-
# The gpuad lit suite (see CMakeLists.txt in this directory).

import os
import shutil
import subprocess

import lit.formats

config.name = "gpuad"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".c", ".cpp", ".cu", ".hip", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gpuad_obj_root, "test")
config.excludes = ["include", "unit", "CMakeLists.txt", "Inputs"]

# LLVM 22's tools first on PATH (FileCheck, not, opt, llc, clang).
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ["HOME", "TMPDIR", "CUDA_PATH", "ROCM_PATH"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

plugin = config.gpuad_plugin
# `lit --param gpuad_cc=WRAPPER` compiles every test with another driver (a
# wrapper adding flags: a tape budget on every compile, for robustness runs).
config.gpuad_cc = lit_config.params.get("gpuad_cc", config.gpuad_cc)
config.substitutions.append(("%opt", "opt -load-pass-plugin=" + plugin))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%frontend-plugin", config.gpuad_frontend_plugin))
config.substitutions.append(("%gpuad-cc", config.gpuad_cc))
config.substitutions.append(("%gpuad-src", config.gpuad_src_root))
config.substitutions.append(("%gpuad-build", config.gpuad_obj_root))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang")))
config.substitutions.append(
    ("%itest-flags", "-I" + os.path.join(config.test_source_root, "integration", "include")
     + " -Wall -Werror=implicit-function-declaration"))
config.substitutions.append(("%ptxas", config.ptxas or "false"))
# The numeric fuzzer (tools/fuzz): its runner, and the directory of the
# header its programs include.
fuzz_dir = os.path.join(config.gpuad_src_root, "tools", "fuzz")
config.substitutions.append(("%fuzz-dir", fuzz_dir))  # before %fuzz
config.substitutions.append(
    ("%fuzz", "python3 " + os.path.join(fuzz_dir, "fuzz.py") + " --cc "
     + config.gpuad_cc))

# Features for REQUIRES: lines.
if config.have_cuda:
    config.available_features.add("cuda")
if config.have_hip:
    config.available_features.add("hip")
# OpenBLAS (libopenblas-dev): its CBLAS header and the library -lopenblas links.
if (any(os.path.exists(h) for h in ["/usr/include/x86_64-linux-gnu/cblas.h",
                                    "/usr/include/cblas.h"])
        and os.path.exists("/usr/lib/x86_64-linux-gnu/libopenblas.so")):
    config.available_features.add("openblas")
    # LAPACKE (liblapacke-dev), over OpenBLAS's LAPACK.
    if (os.path.exists("/usr/include/lapacke.h")
            and os.path.exists("/usr/lib/x86_64-linux-gnu/liblapacke.so")):
        config.available_features.add("lapacke")
# MPI (libopenmpi-dev, openmpi-bin): gpuad built with MPI's derivatives, the
# flags `mpicc -showme` gives (the way MPI users build with gpuad-cc), and
# mpirun for real processes (as root, more ranks than cores).
mpicc, mpirun = shutil.which("mpicc"), shutil.which("mpirun")
if config.have_mpi and mpicc and mpirun:
    flags = [subprocess.run([mpicc, "-showme:" + part], capture_output=True,
                            text=True).stdout.strip()
             for part in ("compile", "link")]
    config.available_features.add("mpi")
    config.substitutions.append(("%mpi-flags", " ".join(flags)))
    config.substitutions.append(
        ("%mpirun", mpirun + " --allow-run-as-root --oversubscribe"))
else:
    lit_config.note("MPI tests are skipped: " +
                    ("gpuad was built without MPI's headers" if not config.have_mpi
                     else "mpicc or mpirun not found (apt-get install "
                          "libopenmpi-dev openmpi-bin)"))
# clang 22's OpenMP runtime (libomp-22-dev): omp.h and the library -fopenmp
# links.
if os.path.exists(os.path.join(config.llvm_tools_dir, "..", "lib", "clang", "22", "include", "omp.h")):
    config.available_features.add("openmp")
lit_config.load_config(config, os.path.join(config.test_source_root, "sanitizer.cfg.py"))
# valgrind cannot run a program the sanitizer runtime is preloaded into
# (`%if valgrind` lines are skipped; LSan checks the same programs' leaks).
if shutil.which("valgrind") and "asan" not in config.available_features:
    config.available_features.add("valgrind")
elif "asan" in config.available_features:
    lit_config.note("sanitized build: valgrind RUN lines are skipped, LSan checks leaks")


def native_gpu_present():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        return subprocess.run([smi, "-L"], capture_output=True, timeout=20).returncode == 0
    except Exception:
        return False


if native_gpu_present():
    config.available_features.add("gpu")


def tsan_works():
    """Whether a ThreadSanitizer program builds and runs here (the runtime
    is in libclang-rt-22-dev; some kernels' address layouts defeat it)."""
    import tempfile
    clang = os.path.join(config.llvm_tools_dir, "clang")
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "t.c"), os.path.join(d, "t")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        try:
            if subprocess.run([clang, "-fsanitize=thread", src, "-o", exe],
                              capture_output=True, timeout=60).returncode:
                return False
            return subprocess.run([exe], capture_output=True, timeout=60).returncode == 0
        except Exception:
            return False


if tsan_works():
    config.available_features.add("tsan")
else:
    lit_config.note("ThreadSanitizer does not work here: tests that need it are unsupported")
# An AMD GPU with its kernel driver (HIP programs run natively).
if os.path.exists("/dev/kfd") and shutil.which("rocminfo"):
    config.available_features.add("amd-gpu")
