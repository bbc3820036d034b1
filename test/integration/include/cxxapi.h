// Functions and helpers shared by the <enzyme/enzyme> integration tests
// (cxx-api-*.cpp): scalars, pointers, references, classes by value (V2 is
// split into two registers by the x86-64 calling convention, V3 passed in
// memory), returned classes (V2 in registers, V3 through an sret slot), a
// function object.  fd(g) is the central difference of g: double -> double
// at 0 (h = 1e-6; compared with gradcheck.h's GC_RTOL_D / GC_ATOL_D).

#ifndef GPUAD_TEST_CXXAPI_H
#define GPUAD_TEST_CXXAPI_H

#include <cmath>

#include "revcheck.h"

struct V2 {
  double x, y;
};
struct V3 {
  double x, y, z;
};
struct Mixed { // an int beside a double
  double w;
  int n;
};

inline V2 operator+(V2 a, V2 b) { return {a.x + b.x, a.y + b.y}; }
inline V2 operator*(double s, V2 a) { return {s * a.x, s * a.y}; }
inline V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 operator*(double s, V3 a) { return {s * a.x, s * a.y, s * a.z}; }

double wave(double x) { return std::sin(x) * std::exp(0.3 * x); }
double dwave(double x) {
  return (std::cos(x) + 0.3 * std::sin(x)) * std::exp(0.3 * x);
}
float wavef(float x) { return std::sin(x) * std::exp(0.3f * x); }
double mix(double x, double y, int k) { return k * x * x * y + std::cos(y); }
double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * std::tanh(b[i]);
  return s;
}
void square_into(double *out, const double *x, double s, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = s * x[i] * x[i];
}
double norm2(const double &x, const double &y) {
  return std::sqrt(x * x + y * y);
}
void rotate(double &x, double &y, double t) { // in place, through references
  double c = std::cos(t), s = std::sin(t);
  double nx = c * x - s * y;
  y = s * x + c * y;
  x = nx;
}
double cross_norm(V3 a, V3 b) {
  double cx = a.y * b.z - a.z * b.y, cy = a.z * b.x - a.x * b.z,
         cz = a.x * b.y - a.y * b.x;
  return std::sqrt(cx * cx + cy * cy + cz * cz);
}
double weigh(V2 p, Mixed m) { return m.w * m.n * std::atan2(p.y, p.x); }
V2 polar(double r, double t) { return {r * std::cos(t), r * std::sin(t)}; }
V3 spin(V3 v, double t) {
  return {std::cos(t) * v.x - std::sin(t) * v.y,
          std::sin(t) * v.x + std::cos(t) * v.y, v.z * t};
}
double sum_sq(const V3 *v, int n) noexcept { // a pointer to classes
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i].x * v[i].x + v[i].y * v[i].z;
  return s;
}

struct Quadratic { // a function object
  double a, b;
  double operator()(double x, double y) const { return a * x * x + b * x * y; }
};

template <class G> static double fd(G g) {
  const double h = 1e-6;
  return (g(h) - g(-h)) / (2 * h);
}

#endif // GPUAD_TEST_CXXAPI_H
