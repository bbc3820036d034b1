// Enzyme's attributes where they do not apply, or with the wrong arguments:
// errors from the frontend plugin (ignored, each would leave a derivative the
// program asked not to have).
// RUN: not %gpuad-cc -fsyntax-only %s 2>&1 | FileCheck %s

// CHECK: attribute-misuse.c:[[#@LINE+1]]:{{[0-9]+}}: error: 'enzyme_function_like' takes one string literal: the name of the function it behaves like, e.g. enzyme_function_like("log1p")
__attribute__((enzyme_function_like)) double f(double);
// CHECK: attribute-misuse.c:[[#@LINE+1]]:{{[0-9]+}}: error: 'enzyme_function_like' takes one string literal
__attribute__((enzyme_function_like(3))) double g(double);
// CHECK: attribute-misuse.c:[[#@LINE+1]]:{{[0-9]+}}: error: 'enzyme_inactive' takes no arguments
__attribute__((enzyme_inactive("x"))) double h(double);
// CHECK: attribute-misuse.c:[[#@LINE+1]]:{{[0-9]+}}: error: 'enzyme_function_like' applies to functions only
__attribute__((enzyme_function_like("log"))) double v;

double k(double a) {
  // CHECK: attribute-misuse.c:[[#@LINE+1]]:{{[0-9]+}}: error: 'enzyme_inactive' applies to functions and global variables only
  __attribute__((enzyme_inactive)) double local = a;
  return local;
}
// CHECK: attribute-misuse.c:[[#@LINE+1]]:{{[0-9]+}}: error: 'enzyme_sparse_accumulate' applies to functions only
__attribute__((enzyme_sparse_accumulate)) double w;
