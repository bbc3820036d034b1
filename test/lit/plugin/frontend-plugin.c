// The frontend plugin with plain clang: `-fplugin=$(gpuad-cc
// -print-frontend-plugin-path)` beside `-fpass-plugin=`.  C23's spelling
// ([[enzyme_inactive]]) and the GNU one; the C23 one also on a declaration
// whose body comes later.  d/dx of inactive(x) + x^3 at 2 is exactly 12
// (it would be 14 were inactive(x) = 2x differentiated).
// RUN: %gpuad-cc -print-frontend-plugin-path | FileCheck %s --check-prefix=PATH
// PATH: {{/.*GPUADFrontend.so$}}
// RUN: %clang -std=c23 -O1 -fplugin=%frontend-plugin -fpass-plugin=%plugin \
// RUN:   -I%gpuad-src/include %s -o %t && %t | FileCheck %s
// RUN: %clang -std=c23 -O0 -fplugin=%frontend-plugin -fpass-plugin=%plugin \
// RUN:   -I%gpuad-src/include %s -o %t0 && %t0 | FileCheck %s
// The attributes reach the IR as the annotations the pass reads.
// RUN: %clang -std=c23 -O0 -fplugin=%frontend-plugin -I%gpuad-src/include \
// RUN:   -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefix=IR
// IR-DAG: c"enzyme_inactive\00"
// IR-DAG: c"enzyme_function_like=log1p\00"

#include <gpuad/gpuad.h>
#include <stdio.h>

[[enzyme_inactive]] double inactive(double x);
// Not log1p on purpose (its derivative would be 2): only log1p's rule, whose
// derivative 1/(1+x) reads the argument alone, may count.
__attribute__((noinline, enzyme_function_like("log1p"))) double like(double x) {
  return 2 * x;
}

double f(double x) { return inactive(x) + x * x * x; }
double g(double x) { return like(x); }
double inactive(double x) { return 2 * x; }

int main(void) {
  printf("%.1f\n", __enzyme_fwddiff((void *)f, enzyme_dup, 2.0, 1.0));
  printf("%.1f\n", __enzyme_autodiff((void *)f, enzyme_out, 2.0));
  printf("%.4f\n", __enzyme_autodiff((void *)g, enzyme_out, 1.0));
  return 0;
}
// CHECK: 12.0
// CHECK-NEXT: 12.0
// CHECK-NEXT: 0.5000
