// Reverse and forward mode through std::map<int, double>,
// std::unordered_map<std::string, double> and std::string keys inside the
// differentiated function.  The library's red-black tree rebalancing and
// the std::string members compiled into libstdc++ are made on the shadows
// too (they move only links, lengths and characters), hashing and key
// comparison are inactive, and the mapped doubles keep their adjoints.
// Each: reverse against finite differences, the dot-product test against
// forward mode, width 2 against single runs.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O0 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#include <cmath>
#include <map>
#include <string>
#include <unordered_map>

#define N 6

// Keys inserted out of order (the tree rebalances), values overwritten,
// then looked up in key order.
double mapped(double *x, int n) {
  std::map<int, double> m;
  for (int i = 0; i < n; ++i)
    m[(i * 5) % n] = x[i] * x[i];
  m[2] += std::sin(x[0]);
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += m[i] * std::cos(x[(i + 1) % n]);
  for (const auto &kv : m)
    s += 0.1 * kv.first * kv.second;
  return s;
}
GC_SCALAR_OF_ARRAY(mapped)

// String keys built in the function.  Optimised, the key's characters are
// memcpy'd into the node (beside the mapped double) with a length no
// analysis bounds, which gpuad reports as an error: this case runs at -O0.
#ifndef __OPTIMIZE__
double hashed(double *x, int n) {
  std::unordered_map<std::string, double> m;
  for (int i = 0; i < n; ++i)
    m["key" + std::to_string(i)] = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += m["key" + std::to_string((i + 2) % n)] * x[i];
  return s;
}
GC_SCALAR_OF_ARRAY(hashed)
#endif

int main() {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};
  GC_CHECK_SCALAR(mapped, x, N);
#ifndef __OPTIMIZE__
  GC_CHECK_SCALAR(hashed, x, N);
#endif
  return gradcheck_exit();
}
