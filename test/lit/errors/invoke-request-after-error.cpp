// A request made by an invoke (C++ with a local that has a destructor, or
// CUDA host code) whose derivative fails: the derivative is discarded, and
// the invoke of it must become a branch, not leave its block without a
// terminator (clang then crashed in SimplifyCFG or instruction selection).
// The whole pipeline runs, with the verifier, to an object file.
// RUN: not %gpuad-cc -O0 -fverify-intermediate-code -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %gpuad-cc -O2 -fverify-intermediate-code -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: gpuad: cannot differentiate call to '{{.*}}opaque{{.*}}'
// CHECK-NOT: Broken function
// CHECK-NOT: PLEASE submit

extern int enzyme_out;
double __enzyme_autodiff(void *, ...); // not noexcept: called by an invoke
double opaque(double);

double f(double x) { return opaque(x) * x; }

struct Guard {
  ~Guard();
};

double g(double x) {
  Guard keep; // the request becomes an invoke
  return __enzyme_autodiff((void *)f, enzyme_out, x);
}
