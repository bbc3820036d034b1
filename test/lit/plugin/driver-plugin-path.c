// gpuad-cc prints the plugin it adds, and builds a program that uses it.
// RUN: %gpuad-cc -print-plugin-path | FileCheck %s --check-prefix=PATH
// RUN: %gpuad-cc -O1 %s -o %t && %t | FileCheck %s
// PATH: {{/.*GPUAD.so$}}

#include <gpuad/gpuad.h>
#include <stdio.h>

double cube(double x) { return x * x * x; }

int main(void) {
  // d/dx x^3 at 2 is exactly 12.
  printf("%.1f\n", __enzyme_fwddiff((void *)cube, enzyme_dup, 2.0, 1.0));
  return 0;
}
// CHECK: 12.0
