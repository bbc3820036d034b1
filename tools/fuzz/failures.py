"""How a compile that gpuad was part of failed, for both fuzzers.

compiler_failure(returncode, stderr) is "crash" (a signal, an assertion, a
stack dump), "invalid-ir" (the verifier rejected gpuad's output, which gpuad
reports as an internal error) or None (an ordinary error: a diagnostic, or
a bug in the program compiled).
"""


def compiler_failure(returncode, stderr):
    if (returncode < 0 or "Stack dump" in stderr or "PLEASE submit" in stderr
            or "Assertion" in stderr):
        return "crash"
    if ("internal error" in stderr or "Broken module" in stderr
            or "verifier" in stderr.lower()):
        return "invalid-ir"
    return None
