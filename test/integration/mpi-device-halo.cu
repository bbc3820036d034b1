// A rank that launches kernels and exchanges its halo with MPI through host
// staging buffers, differentiated end to end from one request per rank: the
// CUDA program runs on the CPU emulator, on 1, 2 and 3 real processes.
// Each step copies the block's edges to the host, swaps them with the
// neighbours (MPI_Sendrecv), copies the ghosts to the device and launches a
// stencil kernel; the loss is copied back and summed over the ranks
// (MPI_Allreduce).  Checked on rank 0: d loss / d k and d loss / d u0 (one
// cell on each rank) against central differences of the whole run (rtol
// 1e-6), and the gradient against forward mode (dot-product test, rtol
// 1e-10).
// REQUIRES: cuda, mpi
// RUN: %gpuad-cc --emulate -O2 %itest-flags %mpi-flags %s -o %t -lm
// RUN: %mpirun -np 1 %t && %mpirun -np 2 %t && %mpirun -np 3 %t

#include <cuda_runtime.h>
#include <gpuad/gpuad.h>
#include <mpi.h>
#include <revcheck.h>

enum { N = 64, STEPS = 3 };

__global__ void step(const double *u, double *v, const double *ghost, int n,
                     double k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = i > 0 ? u[i - 1] : ghost[0], b = i < n - 1 ? u[i + 1] : ghost[1];
  v[i] = u[i] + k * (a - 2 * u[i] + b) + 0.01 * sin(u[i]);
}

void solve(double *u, double *v, double *ghost, double *loss, double k, int n,
           MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  int left = (r + p - 1) % p, right = (r + 1) % p;
  double edge[2], got[2];
  for (int t = 0; t < STEPS; ++t) {
    cudaMemcpy(&edge[0], u, sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(&edge[1], u + n - 1, sizeof(double), cudaMemcpyDeviceToHost);
    MPI_Sendrecv(&edge[1], 1, MPI_DOUBLE, right, 0, &got[0], 1, MPI_DOUBLE,
                 left, 0, comm, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&edge[0], 1, MPI_DOUBLE, left, 1, &got[1], 1, MPI_DOUBLE,
                 right, 1, comm, MPI_STATUS_IGNORE);
    cudaMemcpy(ghost, got, 2 * sizeof(double), cudaMemcpyHostToDevice);
    step<<<(n + 31) / 32, 32>>>(u, v, ghost, n, k);
    cudaMemcpy(u, v, n * sizeof(double), cudaMemcpyDeviceToDevice);
  }
  double *h = (double *)malloc(n * sizeof(double));
  cudaMemcpy(h, u, n * sizeof(double), cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += h[i] * h[i] * h[i];
  free(h);
  MPI_Allreduce(&s, loss, 1, MPI_DOUBLE, MPI_SUM, comm);
}

static double *u, *du, *v, *dv, *g, *dg;
static double h0[N];

static double run(const double *start, double k) {
  double loss;
  cudaMemcpy(u, start, N * sizeof(double), cudaMemcpyHostToDevice);
  solve(u, v, g, &loss, k, N, MPI_COMM_WORLD);
  return loss;
}

static double sumAll(double x) {
  double t;
  MPI_Allreduce(&x, &t, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return t;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double **bufs[] = {&u, &du, &v, &dv, &g, &dg};
  for (int b = 0; b < 6; ++b)
    cudaMalloc(bufs[b], N * sizeof(double));
  for (int i = 0; i < N; ++i)
    h0[i] = 0.5 + 0.4 * sin(0.1 * (r * N + i));
  double k = 0.2, loss, dloss = r == 0 ? 1 : 0;

  // Reverse: d loss / d k (this rank's share) and d loss / d u0.
  cudaMemcpy(u, h0, sizeof h0, cudaMemcpyHostToDevice);
  for (int b = 1; b < 6; b += 2)
    cudaMemset(*bufs[b], 0, N * sizeof(double));
  double dk = sumAll(__enzyme_autodiff(
      (void *)solve, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_dup, g, dg,
      enzyme_dup, &loss, &dloss, enzyme_out, k, enzyme_const, (int)N, enzyme_const,
      MPI_COMM_WORLD));
  double grad[N];
  cudaMemcpy(grad, du, sizeof grad, cudaMemcpyDeviceToHost);

  // Forward along (dir, 1): the tangent of the loss.
  double dir[N], start[N];
  gc_direction(dir, N, 5 + r);
  cudaMemcpy(u, h0, sizeof h0, cudaMemcpyHostToDevice);
  cudaMemcpy(du, dir, sizeof dir, cudaMemcpyHostToDevice);
  cudaMemset(dv, 0, N * sizeof(double));
  cudaMemset(dg, 0, N * sizeof(double));
  double tangent = 0;
  __enzyme_fwddiff((void *)solve, enzyme_dup, u, du, enzyme_dup, v, dv,
                   enzyme_dup, g, dg, enzyme_dup, &loss, &tangent, enzyme_dup,
                   k, 1.0, enzyme_const, (int)N, enzyme_const, MPI_COMM_WORLD);
  double dot = sumAll(gc_dot(grad, dir, N)) + dk;

  // Central differences: k; cell 7 of each rank in turn.
  double h = 1e-6;
  double fd_k = (run(h0, k + h) - run(h0, k - h)) / (2 * h);
  double fd_cells[8], cells[8];
  for (int owner = 0; owner < p; ++owner) {
    double f[2];
    for (int s = 0; s < 2; ++s) {
      memcpy(start, h0, sizeof h0);
      if (r == owner)
        start[7] += s ? -h : h;
      f[s] = run(start, k);
    }
    fd_cells[owner] = (f[0] - f[1]) / (2 * h);
    cells[owner] = sumAll(r == owner ? grad[7] : 0);
  }
  if (r == 0) {
    check_close("d loss / d k fd", dk, fd_k, GC_RTOL_D, GC_ATOL_D);
    for (int owner = 0; owner < p; ++owner)
      check_close("d loss / d u0[7] of a rank fd", cells[owner],
                  fd_cells[owner], GC_RTOL_D, GC_ATOL_D);
    check_close("tangent = <gradient, direction>", tangent, dot, GC_RTOL_DOT,
                GC_ATOL_DOT);
  }
  int status = r == 0 ? gradcheck_exit() : 0;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
