// Reverse and forward mode through std::map<int, double>,
// std::unordered_map<std::string, double>, std::map<std::string, double>
// and std::string keys (short and long) inside the differentiated function.  The library's red-black tree rebalancing and
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
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

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

// String keys built in the function, short (kept in the string object)
// and long (on the heap): the key's characters are copied into the node
// beside the mapped double, by a length known only at run time, and
// std::string's out-of-line _M_create sizes the shadow key's buffer from
// the capacity it reads through a reference.
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

double ordered_long_keys(double *x, int n) {
  std::map<std::string, double> m;
  for (int i = 0; i < n; ++i)
    m["a key longer than the inline buffer " + std::to_string(i)] = x[i];
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += m["a key longer than the inline buffer " +
           std::to_string((i + 1) % n)] *
         std::sin(x[i]);
  return s;
}
GC_SCALAR_OF_ARRAY(ordered_long_keys)

double hashed_literal_keys(double *x, int n) {
  std::unordered_map<std::string, double> m;
  m["alpha"] = x[0] * x[1];
  m["a literal key longer than fifteen characters"] = x[2];
  return m["alpha"] * m["a literal key longer than fifteen characters"] +
         x[3];
}
GC_SCALAR_OF_ARRAY(hashed_literal_keys)

int main() {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};
  GC_CHECK_SCALAR(mapped, x, N);
  GC_CHECK_SCALAR(hashed, x, N);
  GC_CHECK_SCALAR(ordered_long_keys, x, N);
  GC_CHECK_SCALAR(hashed_literal_keys, x, N);
  return gradcheck_exit();
}
