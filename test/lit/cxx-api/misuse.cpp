// Misuse of include/enzyme/enzyme is a compile-time error: one
// static_assert whose message says what to write instead, and no other
// error.  Each RUN line compiles one case (-DCASE=n).
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=ACTIVE-POINTER --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=ACTIVE-REFERENCE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=ACTIVE-INTEGER --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=ACTIVE-FORWARD --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=ACTIVE-FOR-POINTER --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=ACTIVE-TYPE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=SHADOW-TYPE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=8 %s 2>&1 | FileCheck %s --check-prefix=SHADOW-TYPE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=9 %s 2>&1 | FileCheck %s --check-prefix=DUP-REVERSE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=10 %s 2>&1 | FileCheck %s --check-prefix=DUP-TYPE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=11 %s 2>&1 | FileCheck %s --check-prefix=DUP-MUTABLE-REF --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=12 %s 2>&1 | FileCheck %s --check-prefix=CONST-MUTABLE-REF --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=13 %s 2>&1 | FileCheck %s --check-prefix=CONST-TYPE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=14 %s 2>&1 | FileCheck %s --check-prefix=UNWRAPPED --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=15 %s 2>&1 | FileCheck %s --check-prefix=ARITY --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=16 %s 2>&1 | FileCheck %s --check-prefix=WIDTH --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=17 %s 2>&1 | FileCheck %s --check-prefix=BATCH-COUNT --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=18 %s 2>&1 | FileCheck %s --check-prefix=MODE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=19 %s 2>&1 | FileCheck %s --check-prefix=NOT-CALLABLE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=20 %s 2>&1 | FileCheck %s --check-prefix=RET-SEED --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=21 %s 2>&1 | FileCheck %s --check-prefix=RET-MODE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=22 %s 2>&1 | FileCheck %s --check-prefix=RET-TYPE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=23 %s 2>&1 | FileCheck %s --check-prefix=RET-REFERENCE --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=24 %s 2>&1 | FileCheck %s --check-prefix=VARIADIC --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=25 %s 2>&1 | FileCheck %s --check-prefix=MEMBER --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=26 %s 2>&1 | FileCheck %s --check-prefix=NOT-TRIVIAL --implicit-check-not=error:
// RUN: not %gpuad-cc -std=c++17 -fsyntax-only -DCASE=27 %s 2>&1 | FileCheck %s --check-prefix=RET-IMMOVABLE --implicit-check-not=error:

#include <enzyme/enzyme>

#include <vector>

double sq(double x) { return x * x; }
double two(double x, double y) { return x * y; }
double sum(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}
double inc(double &x) { return x += 1; }
double &first(double *p) { return p[0]; }
double vsum(int n, ...) { return n; }
double vnorm(std::vector<double> v) { return v.empty() ? 0 : v[0]; }
struct S {
  double a, b;
  S twice() const { return {2 * a, 2 * b}; }
};
S make(double x) { return {x, x}; }
struct Pinned {
  Pinned(double v) : v(v) {}
  Pinned(Pinned &&) = delete;
  double v;
};
Pinned pin(double x) { return Pinned(x); }

void cases() {
  double x = 1, dx = 0, p[2] = {1, 2}, dp[2] = {};
  float fp[2] = {};
  (void)x, (void)dx, (void)p, (void)dp, (void)fp;
#if 0
#elif CASE == 1 // Active on a pointer: the adjoint lives in memory.
  enzyme::autodiff<enzyme::Reverse>(sum, enzyme::Active{p}, enzyme::Const{2});
#elif CASE == 2 // Active on a reference.
  enzyme::autodiff<enzyme::Reverse>(sq, enzyme::Active<double &>{x});
#elif CASE == 3 // Active on an integer.
  enzyme::autodiff<enzyme::Reverse>(sum, enzyme::Duplicated{p, dp}, enzyme::Active{2});
#elif CASE == 4 // Active in forward mode.
  enzyme::autodiff<enzyme::Forward>(sq, enzyme::Active{x});
#elif CASE == 5 // Active value for a pointer parameter.
  enzyme::autodiff<enzyme::Reverse>(sum, enzyme::Active{x}, enzyme::Const{2});
#elif CASE == 6 // Active<float> for a double parameter.
  enzyme::autodiff<enzyme::Reverse>(sq, enzyme::Active{1.0f});
#elif CASE == 7 // A shadow whose type is not the primal's (1, not 1.0).
  enzyme::autodiff<enzyme::Forward>(sq, enzyme::Duplicated{x, 1});
#elif CASE == 8 // A float shadow for a double pointer.
  enzyme::autodiff<enzyme::Reverse>(sum, enzyme::Duplicated{p, fp}, enzyme::Const{2});
#elif CASE == 9 // Duplicated on a value in reverse mode.
  enzyme::autodiff<enzyme::Reverse>(sq, enzyme::Duplicated{x, dx});
#elif CASE == 10 // Duplicated value for a pointer parameter.
  enzyme::autodiff<enzyme::Forward>(sum, enzyme::Duplicated{x, dx}, enzyme::Const{2});
#elif CASE == 11 // Duplicated value for a non-const reference parameter.
  enzyme::autodiff<enzyme::Forward>(inc, enzyme::Duplicated{x, dx});
#elif CASE == 12 // Const value for a non-const reference parameter.
  enzyme::autodiff<enzyme::Reverse>(inc, enzyme::Const{x});
#elif CASE == 13 // Const of a type that does not convert.
  enzyme::autodiff<enzyme::Reverse>(sum, enzyme::Duplicated{p, dp}, enzyme::Const{p});
#elif CASE == 14 // An argument without activity.
  enzyme::autodiff<enzyme::Reverse>(sq, x);
#elif CASE == 15 // One argument for two parameters.
  enzyme::autodiff<enzyme::Reverse>(two, enzyme::Active{x});
#elif CASE == 16 // Width 2 beside a plain Duplicated.
  enzyme::autodiff<enzyme::Forward>(two, enzyme::BatchDuplicated{x, 1.0, 2.0}, enzyme::Duplicated{x, 1.0});
#elif CASE == 17 // BatchDuplicated<T, 3> with two shadows.
  enzyme::autodiff<enzyme::Forward>(sq, enzyme::BatchDuplicated<double, 3>{x, 1.0, 2.0});
#elif CASE == 18 // Not a mode.
  enzyme::autodiff<int>(sq, enzyme::Active{x});
#elif CASE == 19 // A function object the arguments do not fit.
  enzyme::autodiff<enzyme::Reverse>([](double *q) { return *q; }, enzyme::Active{x});
#elif CASE == 20 // Seeding a returned class in reverse mode.
  enzyme::autodiff<enzyme::Reverse, enzyme::Active<S>>(make, enzyme::Active{x});
#elif CASE == 21 // An Active return in forward mode.
  enzyme::autodiff<enzyme::Forward, enzyme::Active<double>>(sq, enzyme::Duplicated{x, 1.0});
#elif CASE == 22 // A return activity of another type.
  enzyme::autodiff<enzyme::Forward, enzyme::Const<float>>(sq, enzyme::Duplicated{x, 1.0});
#elif CASE == 23 // A function returning a reference.
  enzyme::autodiff<enzyme::Forward>(first, enzyme::Duplicated{p, dp});
#elif CASE == 24 // A variadic function.
  enzyme::autodiff<enzyme::Forward>(vsum, enzyme::Const{1});
#elif CASE == 25 // A member function pointer.
  enzyme::autodiff<enzyme::Forward>(&S::twice, enzyme::Const{S{1, 2}});
#elif CASE == 26 // Active on a class that is not trivially copyable.
  enzyme::autodiff<enzyme::Reverse>(vnorm, enzyme::Active{std::vector<double>{}});
#elif CASE == 27 // A returned class that cannot be moved out of its memory.
  enzyme::autodiff<enzyme::Forward>(pin, enzyme::Duplicated{x, 1.0});
#endif
}

// ACTIVE-POINTER: error: static assertion failed{{.*}}: enzyme::Active on a pointer or reference: its derivative lives in memory; pass enzyme::Duplicated{p, dp}
// ACTIVE-POINTER: 1 error generated.
// ACTIVE-REFERENCE: error: static assertion failed{{.*}}: enzyme::Active on a pointer or reference
// ACTIVE-REFERENCE: 1 error generated.
// ACTIVE-INTEGER: error: static assertion failed{{.*}}: enzyme::Active on an integer: integers carry no derivative; pass enzyme::Const{n}
// ACTIVE-INTEGER: 1 error generated.
// ACTIVE-FORWARD: error: static assertion failed{{.*}}: enzyme::Active in forward mode: forward mode propagates tangents; pass enzyme::Duplicated{x, dx}
// ACTIVE-FORWARD: 1 error generated.
// ACTIVE-FOR-POINTER: error: static assertion failed{{.*}}: enzyme::Active for a pointer parameter: pass enzyme::Duplicated{p, dp}
// ACTIVE-FOR-POINTER: 1 error generated.
// ACTIVE-TYPE: error: static assertion failed{{.*}}: enzyme::Active<T>: T must be the parameter's type
// ACTIVE-TYPE: 1 error generated.
// SHADOW-TYPE: error: static assertion failed{{.*}}: enzyme::Duplicated{x, dx}: the shadow dx must have the type of x (for a double x write 1.0, not 1
// SHADOW-TYPE: 1 error generated.
// DUP-REVERSE: error: static assertion failed{{.*}}: enzyme::Duplicated on a value in reverse mode: the adjoint of a copy has nowhere to go; pass enzyme::Active{x}
// DUP-REVERSE: 1 error generated.
// DUP-TYPE: error: static assertion failed{{.*}}: enzyme::Duplicated<T>: T does not match the parameter
// DUP-TYPE: 1 error generated.
// DUP-MUTABLE-REF: error: static assertion failed{{.*}}: enzyme::Duplicated<T> for a non-const reference parameter: pass enzyme::Duplicated<T &>{x, dx}
// DUP-MUTABLE-REF: 1 error generated.
// CONST-MUTABLE-REF: error: static assertion failed{{.*}}: enzyme::Const<T> for a non-const reference parameter: pass enzyme::Const<T &>{x}
// CONST-MUTABLE-REF: 1 error generated.
// CONST-TYPE: error: static assertion failed{{.*}}: enzyme::Const<T>: T does not convert to the parameter's type
// CONST-TYPE: 1 error generated.
// UNWRAPPED: error: static assertion failed{{.*}}: enzyme::autodiff: wrap every argument in an activity
// UNWRAPPED: 1 error generated.
// ARITY: error: static assertion failed due to requirement '2UL == 1UL': enzyme::autodiff: pass one argument per parameter of the function
// ARITY: 1 error generated.
// WIDTH: error: static assertion failed{{.*}}: enzyme::BatchDuplicated: the batched arguments of one call must have the same width
// WIDTH: 1 error generated.
// BATCH-COUNT: error: static assertion failed{{.*}}: enzyme::BatchDuplicated<T, N>: give N shadows
// BATCH-COUNT: 1 error generated.
// MODE: error: static assertion failed{{.*}}: enzyme::autodiff<Mode>: Mode is enzyme::Forward, ForwardWithPrimal, Reverse or ReverseWithPrimal
// MODE: 1 error generated.
// NOT-CALLABLE: error: static assertion failed{{.*}}: enzyme::autodiff: the function object cannot be called with the arguments' types
// NOT-CALLABLE: 1 error generated.
// RET-SEED: error: static assertion failed{{.*}}: enzyme::autodiff<Reverse, Active<R>>: only a floating-point return can be seeded
// RET-SEED: 1 error generated.
// RET-MODE: error: static assertion failed{{.*}}: in forward mode the return is Duplicated, DuplicatedNoNeed or Const
// RET-MODE: 1 error generated.
// RET-TYPE: error: static assertion failed{{.*}}: enzyme::autodiff<Mode, RetActivity<T>>: T must be the function's return type
// RET-TYPE: 1 error generated.
// RET-REFERENCE: error: static assertion failed{{.*}}: enzyme::autodiff: the function returns a reference
// RET-REFERENCE: 1 error generated.
// VARIADIC: error: static assertion failed{{.*}}: enzyme::autodiff: a variadic function cannot be differentiated
// VARIADIC: 1 error generated.
// MEMBER: error: static assertion failed{{.*}}: enzyme::autodiff: pass a function, a function pointer or a function object
// MEMBER: 1 error generated.
// NOT-TRIVIAL: error: static assertion failed{{.*}}: enzyme::Active<T>: T must be trivially copyable
// NOT-TRIVIAL: 1 error generated.
// RET-IMMOVABLE: error: static assertion failed{{.*}}: enzyme::autodiff: a returned class must be move-constructible
// RET-IMMOVABLE: 1 error generated.
