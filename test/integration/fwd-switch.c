// Forward mode through switch statements: on an integer parameter, on an
// integer derived from the active input (a bucket index), with fallthrough
// and a default, and a switch inside a loop (a tiny interpreter).
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3

#include <gpuad/gpuad.h>
#include <gradcheck.h>

/* Activation functions selected by kind; case 3 falls through into 4. */
double activate(int kind, double x) {
  double y = x;
  switch (kind) {
  case 0:
    y = tanh(x);
    break;
  case 1:
    y = 1.0 / (1.0 + exp(-x));
    break;
  case 2:
    y = x > 0.0 ? x : 0.01 * x;
    break;
  case 3:
    y = y * 2.0;
    /* fallthrough */
  case 4:
    y = log1p(y * y);
    break;
  default:
    y = x * x * x;
  }
  return y;
}

/* The bucket index comes from the active value itself (floor is flat). */
double bucketed(double x) {
  int k = (int)floor(x);
  switch (k) {
  case -2: return 0.5 * x * x;
  case -1: return sin(x);
  case 0: return x;
  case 1: return x * exp(x);
  case 2: return sqrt(x);
  default: return 1.0 / x;
  }
}

/* A stack-machine program over one register: the switch is in a loop. */
enum { OP_ADDC, OP_MUL, OP_SQUARE, OP_SIN, OP_NEG, OP_ADDX, OP_END };
double interpret(const int *prog, double x) {
  double acc = x;
  for (int pc = 0;; ++pc) {
    switch (prog[pc]) {
    case OP_ADDC: acc += 1.5; break;
    case OP_MUL: acc *= 0.75; break;
    case OP_SQUARE: acc = acc * acc; break;
    case OP_SIN: acc = sin(acc); break;
    case OP_NEG: acc = -acc; break;
    case OP_ADDX: acc += x; break;
    case OP_END: return acc;
    }
  }
}

static int g_kind;
static double g_activate(double x) { return activate(g_kind, x); }
static const int *g_prog;
static double g_interpret(double x) { return interpret(g_prog, x); }

int main(void) {
  char nm[96];
  const double pts[] = {-2.6, -1.3, -0.4, 0.3, 1.2, 2.7, 4.5};
  static const int prog[] = {OP_SQUARE, OP_ADDC, OP_SIN, OP_ADDX, OP_MUL, OP_NEG,
                             OP_SQUARE, OP_ADDX, OP_END};
  g_prog = prog;
  for (int i = 0; i < 7; ++i) {
    double x = pts[i], d;
    for (int kind = 0; kind < 6; ++kind) {
      g_kind = kind;
      d = __enzyme_fwddiff((void *)activate, kind, enzyme_dup, x, 1.0);
      snprintf(nm, sizeof nm, "activate(%d)'(%g)", kind, x);
      check_close(nm, d, gc_fd(g_activate, x), GC_RTOL_D, GC_ATOL_D);
    }
    d = __enzyme_fwddiff((void *)bucketed, enzyme_dup, x, 1.0);
    snprintf(nm, sizeof nm, "bucketed'(%g)", x);
    check_close(nm, d, gc_fd(bucketed, x), GC_RTOL_D, GC_ATOL_D);

    /* prog is an int array: const, no shadow. */
    d = __enzyme_fwddiff((void *)interpret, enzyme_const, prog, enzyme_dup, x, 1.0);
    snprintf(nm, sizeof nm, "interpret'(%g)", x);
    check_close(nm, d, gc_fd(g_interpret, x), GC_RTOL_D, GC_ATOL_D);
  }
  check_close("activate(3)'(0.5) exact",
              __enzyme_fwddiff((void *)activate, 3, enzyme_dup, 0.5, 1.0),
              8.0 * 0.5 / (1.0 + 4.0 * 0.25), GC_RTOL_EXACT, GC_ATOL_EXACT);
  check_close("bucketed'(1.5) exact", __enzyme_fwddiff((void *)bucketed, enzyme_dup, 1.5, 1.0),
              2.5 * exp(1.5), GC_RTOL_EXACT, GC_ATOL_EXACT);
  return gradcheck_exit();
}
