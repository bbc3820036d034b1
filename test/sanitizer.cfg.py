# -*- Python -*-
# The environment of a sanitized build (GPUAD_SANITIZE): loaded by the
# main, device-run and unit suites.
#
# The plugin runs inside Debian's uninstrumented opt and clang, which must
# load the sanitizer runtime first: it is preloaded into every process a
# test starts (gpuad-cc's children included).  ASan and UBSan reports halt
# the process with a stack trace; LSan reports every leak except those
# listed, with the reason, in lsan.supp (LLVM's and system tools' own).
# Features: `asan` / `ubsan`, for tests that cannot run under them.

import os

sanitizers = [s for s in config.gpuad_sanitizers.split(";") if s]
if sanitizers:
    if "address" in sanitizers:
        config.available_features.add("asan")
    if "undefined" in sanitizers:
        config.available_features.add("ubsan")
    here = os.path.join(config.gpuad_src_root, "test")
    symbolizer = os.path.join(config.llvm_tools_dir, "llvm-symbolizer")
    config.environment["LD_PRELOAD"] = config.gpuad_sanitizer_runtime
    config.environment["ASAN_SYMBOLIZER_PATH"] = symbolizer
    config.environment["ASAN_OPTIONS"] = ":".join([
        "detect_leaks=1", "abort_on_error=0", "strict_init_order=1",
        "detect_stack_use_after_return=1"])
    config.environment["LSAN_OPTIONS"] = ":".join([
        "suppressions=" + os.path.join(here, "lsan.supp"),
        "print_suppressions=0"])
    config.environment["UBSAN_OPTIONS"] = ":".join([
        "print_stacktrace=1", "halt_on_error=1",
        "external_symbolizer_path=" + symbolizer])
