// A call through a pointer to a function gpuad never saw (defined in another
// file compiled without the plugin) stops the derivative at run time with a
// message naming the caller and the call site, instead of a silent zero.
// The same call to a function of this module differentiates; the primal
// calls the unknown one as before.
// RUN: %clang -O2 -c %S/Inputs/fnptr-other.c -o %t.other.o
// RUN: %gpuad-cc -O0 -g %itest-flags %s %t.other.o -o %t.O0 -lm
// RUN: %t.O0 > %t.known.out && FileCheck %s --check-prefix=KNOWN < %t.known.out
// RUN: not --crash %t.O0 unknown 2> %t.O0.err
// RUN: FileCheck %s --input-file %t.O0.err
// RUN: %gpuad-cc -O2 -g %itest-flags %s %t.other.o -o %t.O2 -lm
// RUN: %t.O2 > %t.known2.out && FileCheck %s --check-prefix=KNOWN < %t.known2.out
// RUN: not --crash %t.O2 unknown 2> %t.O2.err
// RUN: FileCheck %s --input-file %t.O2.err
// KNOWN: primal of the unknown callee: 10.125
// KNOWN: gradcheck: all
// CHECK: gpuad: no derivative for the function called through a pointer in 'apply' at {{.*}}rev-fnptr-unknown.c:27:42: its body was not in the module gpuad differentiated (address 0x{{[0-9a-f]+}})
// CHECK-NOT: gradcheck

#include <gpuad/gpuad.h>
#include <gradcheck.h>

typedef double (*unary)(double);
double other_scale(double x);
static double known(double x) { return sin(x) * x; }
// The call site the message names:
double apply(double x, unary g) { return g(x) * x; }

int main(int argc, char **argv) {
  unary volatile g = argc > 1 ? other_scale : known;
  printf("primal of the unknown callee: %g\n", apply(1.5, other_scale));
  double x = 0.8;
  double d = __enzyme_autodiff((void *)apply, x, enzyme_const, g);
  if (argc > 1)
    printf("gradcheck: reached with d = %g\n", d); /* never: stopped above */
  /* d/dx (sin(x) x) x = 2 x sin(x) + x^2 cos(x) */
  check_close("d apply / dx", d, 2 * x * sin(x) + x * x * cos(x), GC_RTOL_EXACT,
              GC_ATOL_EXACT);
  check_close("fwd", __enzyme_fwddiff((void *)apply, x, 1.0, enzyme_const, g), d,
              GC_RTOL_EXACT, GC_ATOL_EXACT);
  return gradcheck_exit();
}
