// An MPI call gpuad has no derivative for is an error naming it, whatever
// it is given: a one-sided get into a local buffer carries derivatives from
// another rank that no analysis sees, though none of its arguments is
// active here.
// REQUIRES: mpi
// RUN: not %gpuad-cc -g -O1 %mpi-flags -c %s -o /dev/null 2>&1 | FileCheck %s

#include <mpi.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

void remote(double *x, double *y, int n, MPI_Win win) {
  double got[4];
  // CHECK: mpi-unsupported.c:[[@LINE+1]]:{{[0-9]+}}: error: gpuad: cannot differentiate the MPI call 'MPI_Get': gpuad has no derivative for it
  MPI_Get(got, 4, MPI_DOUBLE, 1, 0, 4, MPI_DOUBLE, win);
  for (int i = 0; i < n; ++i)
    y[i] = x[i] * got[i % 4];
}

void grad(double *x, double *dx, double *y, double *dy, int n, MPI_Win win) {
  __enzyme_autodiff((void *)remote, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n, enzyme_const, win);
}
