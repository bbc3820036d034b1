// Reverse mode through memory: values read and later overwritten (in-place
// recurrences, normalisation, Cholesky, sorting), memcpy/memmove/memset,
// local arrays, arrays of structs, pointer walks and integer index
// computations.  Checked against finite differences, forward mode (dot
// product) and width 2 against single runs.
// RUN: %gpuad-cc -O0 %itest-flags %s -o %t.O0 -lm && %t.O0
// RUN: %gpuad-cc -O1 %itest-flags %s -o %t.O1 -lm && %t.O1
// RUN: %gpuad-cc -O2 %itest-flags %s -o %t.O2 -lm && %t.O2
// RUN: %gpuad-cc -O3 %itest-flags %s -o %t.O3 -lm && %t.O3
// RUN: %if valgrind %{ valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 %t.O2 > /dev/null %}

#include <gpuad/gpuad.h>
#include <revcheck.h>

#define N 6

/* x[i] <- x[i] * x[i-1] / 2 + sin(x[i]): reads the updated neighbour. */
void prefix(double *x, int n) {
  for (int i = 1; i < n; ++i)
    x[i] = x[i] * x[i - 1] * 0.5 + sin(x[i]);
}

/* x <- x / |x|: every entry is overwritten after all were read. */
void normalize(double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  double inv = 1.0 / sqrt(s);
  for (int i = 0; i < n; ++i)
    x[i] *= inv;
}

/* Cholesky in place of a 3x3 SPD matrix built from x (n = 6 entries of the
 * lower triangle, packed), the factor written back. */
void cholesky(double *x, int n) {
  (void)n;
  double a[3][3];
  int k = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j <= i; ++j) {
      a[i][j] = x[k++];
      a[j][i] = a[i][j];
    }
  for (int i = 0; i < 3; ++i)
    a[i][i] += 4.0;
  for (int j = 0; j < 3; ++j) {
    double d = a[j][j];
    for (int p = 0; p < j; ++p)
      d -= a[j][p] * a[j][p];
    d = sqrt(d);
    a[j][j] = d;
    for (int i = j + 1; i < 3; ++i) {
      double s = a[i][j];
      for (int p = 0; p < j; ++p)
        s -= a[i][p] * a[j][p];
      a[i][j] = s / d;
    }
  }
  k = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j <= i; ++j)
      x[k++] = a[i][j];
}

/* Insertion sort: values move, adjoints must follow them back. */
void sort(double *x, int n) {
  for (int i = 1; i < n; ++i) {
    double v = x[i];
    int j = i - 1;
    while (j >= 0 && x[j] > v) {
      x[j + 1] = x[j];
      --j;
    }
    x[j + 1] = v;
  }
}

/* memcpy, memmove (overlapping) and memset on active memory. */
void shuffle(double *x, int n) {
  double tmp[N];
  memcpy(tmp, x, sizeof(double) * n);
  memmove(x + 1, x, sizeof(double) * (n - 1));
  x[0] = tmp[n - 1] * tmp[0];
  for (int i = 0; i < n; ++i)
    tmp[i] = tmp[i] * x[i];
  memset(x + n / 2, 0, sizeof(double) * (n - n / 2));
  for (int i = n / 2; i < n; ++i)
    x[i] += tmp[i] + tmp[n - 1 - i];
}

struct particle {
  double pos[2];
  int id;
  double mass;
};

/* An array of structs with an integer field, filled, updated and reduced. */
double particles(double *x, int n) {
  struct particle p[N / 2];
  for (int i = 0; i < n / 2; ++i) {
    p[i].pos[0] = x[2 * i];
    p[i].pos[1] = x[2 * i + 1];
    p[i].id = i * 7 % 5;
    p[i].mass = 1.0 + p[i].id;
  }
  for (int step = 0; step < 2; ++step)
    for (int i = 0; i < n / 2; ++i) {
      p[i].pos[0] += 0.1 * p[i].pos[1] / p[i].mass;
      p[i].pos[1] -= 0.1 * sin(p[i].pos[0]);
    }
  double e = 0.0;
  for (int i = 0; i < n / 2; ++i)
    e += p[i].mass * (p[i].pos[0] * p[i].pos[0] + p[i].pos[1] * p[i].pos[1]);
  return e;
}

/* A pointer walking the array with a stride, and integer index arithmetic. */
double walk(double *x, int n) {
  double s = 0.0;
  const double *p = x, *end = x + n;
  int k = 3;
  while (p < end) {
    s += *p * x[k % n];
    k = (k * 5 + 1) % 11;
    p += 2;
  }
  return s;
}

GC_INPLACE(prefix)
GC_INPLACE(normalize)
GC_INPLACE(cholesky)
GC_INPLACE(sort)
GC_INPLACE(shuffle)
GC_SCALAR_OF_ARRAY(particles)
GC_SCALAR_OF_ARRAY(walk)

int main(void) {
  double x[N] = {0.9, -0.4, 1.3, 0.25, -1.1, 0.6};
  GC_CHECK_INPLACE(prefix, x, N);
  GC_CHECK_INPLACE(normalize, x, N);
  GC_CHECK_INPLACE(cholesky, x, N);
  GC_CHECK_INPLACE(sort, x, N);
  GC_CHECK_INPLACE(shuffle, x, N);
  GC_CHECK_SCALAR(particles, x, N);
  GC_CHECK_SCALAR(walk, x, N);
  return gradcheck_exit();
}
