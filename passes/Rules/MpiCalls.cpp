//===- MpiCalls.cpp - MPI's communication routines as rows ----------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Rules/MpiCalls.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace gpuad {

constexpr auto Communicate = MpiRoutine::Communicate;
constexpr auto Create = MpiRoutine::Create;
constexpr auto Release = MpiRoutine::Release;
constexpr auto Post = MpiRoutine::Post;
constexpr auto Complete = MpiRoutine::Complete;

// clang-format off
static const MpiRoutine Rows[] = {
  // name                 kind          operands buffers status handle
  //   tangent, adjoint (runtime/Mpi.h)
  {"MPI_Send",            Communicate,  6, {0, -1},  -1, -1,
     "gpuad_mpi_send_tangent",      "gpuad_mpi_send_adjoint"},
  // (A synchronous or ready send's derivative is sent as a standard send:
  // it never waits longer than they do.)
  {"MPI_Ssend",           Communicate,  6, {0, -1},  -1, -1,
     "gpuad_mpi_send_tangent",      "gpuad_mpi_send_adjoint"},
  {"MPI_Rsend",           Communicate,  6, {0, -1},  -1, -1,
     "gpuad_mpi_send_tangent",      "gpuad_mpi_send_adjoint"},
  {"MPI_Recv",            Communicate,  7, {0, -1},   6, -1,
     "gpuad_mpi_recv_tangent",      "gpuad_mpi_recv_adjoint"},
  {"MPI_Sendrecv",        Communicate, 12, {0, 5},   11, -1,
     "gpuad_mpi_sendrecv_tangent",  "gpuad_mpi_sendrecv_adjoint"},
  {"MPI_Bcast",           Communicate,  5, {0, -1},  -1, -1,
     "gpuad_mpi_bcast_tangent",     "gpuad_mpi_bcast_adjoint"},
  {"MPI_Reduce",          Communicate,  7, {0, 1},   -1, -1,
     "gpuad_mpi_reduce_tangent",    "gpuad_mpi_reduce_adjoint", -1, -1,
     "gpuad_mpi_reduce_record"},
  {"MPI_Allreduce",       Communicate,  6, {0, 1},   -1, -1,
     "gpuad_mpi_allreduce_tangent", "gpuad_mpi_allreduce_adjoint", -1, -1,
     "gpuad_mpi_allreduce_record"},
  {"MPI_Gather",          Communicate,  8, {0, 3},   -1, -1,
     "gpuad_mpi_gather_tangent",    "gpuad_mpi_gather_adjoint"},
  {"MPI_Scatter",         Communicate,  8, {0, 3},   -1, -1,
     "gpuad_mpi_scatter_tangent",   "gpuad_mpi_scatter_adjoint"},
  {"MPI_Allgather",       Communicate,  7, {0, 3},   -1, -1,
     "gpuad_mpi_allgather_tangent", "gpuad_mpi_allgather_adjoint"},
  {"MPI_Gatherv",         Communicate,  9, {0, 3},   -1, -1,
     "gpuad_mpi_gatherv_tangent",   "gpuad_mpi_gatherv_adjoint", -1, -1,
     "gpuad_mpi_gatherv_record"},
  {"MPI_Scatterv",        Communicate,  9, {0, 4},   -1, -1,
     "gpuad_mpi_scatterv_tangent",  "gpuad_mpi_scatterv_adjoint", -1, -1,
     "gpuad_mpi_scatterv_record"},
  {"MPI_Allgatherv",      Communicate,  8, {0, 3},   -1, -1,
     "gpuad_mpi_allgatherv_tangent", "gpuad_mpi_allgatherv_adjoint", -1, -1,
     "gpuad_mpi_allgatherv_record"},
  {"MPI_Alltoall",        Communicate,  7, {0, 3},   -1, -1,
     "gpuad_mpi_alltoall_tangent",  "gpuad_mpi_alltoall_adjoint"},
  {"MPI_Barrier",         Communicate,  1, {-1, -1}, -1, -1,
     "",                            "MPI_Barrier"},
  {"MPI_Type_vector",     Create,       5, {-1, -1}, -1, 4, "", "MPI_Type_free"},
  {"MPI_Type_contiguous", Create,       3, {-1, -1}, -1, 2, "", "MPI_Type_free"},
  {"MPI_Type_create_hvector",
                          Create,       5, {-1, -1}, -1, 4, "", "MPI_Type_free"},
  {"MPI_Type_free",       Release,      1, {-1, -1}, -1, 0, "", ""},
  {"MPI_Comm_split",      Create,       4, {-1, -1}, -1, 3, "", "MPI_Comm_free"},
  {"MPI_Comm_dup",        Create,       2, {-1, -1}, -1, 1, "", "MPI_Comm_free"},
  {"MPI_Comm_free",       Release,      1, {-1, -1}, -1, 0, "", ""},
  {"MPI_Isend",           Post,         7, {0, -1},  -1, 6,
     "gpuad_mpi_isend_tangent", "gpuad_mpi_post_adjoint", -1, -1,
     "gpuad_mpi_isend_record"},
  {"MPI_Issend",          Post,         7, {0, -1},  -1, 6,
     "gpuad_mpi_isend_tangent", "gpuad_mpi_post_adjoint", -1, -1,
     "gpuad_mpi_isend_record"},
  {"MPI_Irecv",           Post,         7, {0, -1},  -1, 6,
     "gpuad_mpi_irecv_tangent", "gpuad_mpi_post_adjoint", -1, -1,
     "gpuad_mpi_irecv_record"},
  {"MPI_Wait",            Complete,     2, {-1, -1},  1, 0, "", "", -1, -1},
  {"MPI_Waitall",         Complete,     3, {-1, -1},  2, 1, "", "", 0, -1},
  {"MPI_Test",            Complete,     3, {-1, -1},  2, 0, "", "", -1, 1},
};
// clang-format on

const MpiRoutine *mpiRoutine(StringRef Name) {
  const MpiRoutine *It =
      find_if(Rows, [&](const MpiRoutine &R) { return R.Name == Name; });
  return It == std::end(Rows) ? nullptr : It;
}

bool mpiDerivativesBuilt() {
#ifdef GPUAD_HAVE_MPI
  return true;
#else
  return false;
#endif
}

} // namespace gpuad
