/*===- Mpi.h - Tangents and adjoints of MPI's communication ------*- C -*-===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* \file
 * The derivatives of MPI calls, in MPI.  Each takes the call's own operands,
 * then the shadow of each buffer (null where it has none), and works on the
 * call's datatype whatever it is: a derived datatype of doubles (a halo's
 * vector type) is received into a block with its layout, added with
 * MPI_Reduce_local and zeroed through MPI_Unpack.  Messages whose datatype
 * holds no float carry no derivative; one whose datatype holds floats
 * always does, with zeros where this side has no shadow, so both ends of a
 * message agree.
 *
 * Tangents (forward mode) run right after the call: the same
 * communication on the shadows.  Adjoints (the reverse sweep) run the
 * transposed communication: a send's is a receive of the adjoint, added to
 * the buffer's; a receive's is a send of the buffer's adjoint, then zeroed;
 * a broadcast's is a sum onto the root; a sum-reduction's a broadcast of
 * the result's adjoint; a gather's a scatter, and so on.
 *
 * Compiled only where gpuad is built with MPI's headers (Open MPI's ABI:
 * handles are pointers, as the program's calls pass them).
\*===----------------------------------------------------------------------===*/

#ifndef GPUAD_RUNTIME_MPI_H
#define GPUAD_RUNTIME_MPI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

void gpuad_mpi_send_tangent(const void *buf, int count, MPI_Datatype type,
                            int dest, int tag, MPI_Comm comm,
                            const void *dbuf);
void gpuad_mpi_send_adjoint(const void *buf, int count, MPI_Datatype type,
                            int dest, int tag, MPI_Comm comm, void *dbuf);
void gpuad_mpi_recv_tangent(void *buf, int count, MPI_Datatype type,
                            int source, int tag, MPI_Comm comm,
                            MPI_Status *status, void *dbuf);
void gpuad_mpi_recv_adjoint(void *buf, int count, MPI_Datatype type,
                            int source, int tag, MPI_Comm comm,
                            MPI_Status *status, void *dbuf);
void gpuad_mpi_sendrecv_tangent(const void *sbuf, int scount,
                                MPI_Datatype stype, int dest, int stag,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int source, int rtag, MPI_Comm comm,
                                MPI_Status *status, const void *dsbuf,
                                void *drbuf);
void gpuad_mpi_sendrecv_adjoint(const void *sbuf, int scount,
                                MPI_Datatype stype, int dest, int stag,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int source, int rtag, MPI_Comm comm,
                                MPI_Status *status, void *dsbuf, void *drbuf);
void gpuad_mpi_bcast_tangent(void *buf, int count, MPI_Datatype type,
                             int root, MPI_Comm comm, void *dbuf);
void gpuad_mpi_bcast_adjoint(void *buf, int count, MPI_Datatype type,
                             int root, MPI_Comm comm, void *dbuf);
void gpuad_mpi_reduce_tangent(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype type, MPI_Op op, int root,
                              MPI_Comm comm, const void *dsbuf, void *drbuf);
/* Reductions by MPI_MAX or MPI_MIN: in reverse mode, right after the call,
   which elements this rank's contribution won (the adjoint's last
   argument, freed after it; null for a sum). */
void *gpuad_mpi_reduce_record(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype type, MPI_Op op, int root,
                              MPI_Comm comm);
void *gpuad_mpi_allreduce_record(const void *sbuf, void *rbuf, int count,
                                 MPI_Datatype type, MPI_Op op, MPI_Comm comm);
void gpuad_mpi_reduce_adjoint(const void *sbuf, void *rbuf, int count,
                              MPI_Datatype type, MPI_Op op, int root,
                              MPI_Comm comm, void *dsbuf, void *drbuf,
                              void *record);
void gpuad_mpi_allreduce_tangent(const void *sbuf, void *rbuf, int count,
                                 MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                 const void *dsbuf, void *drbuf);
void gpuad_mpi_allreduce_adjoint(const void *sbuf, void *rbuf, int count,
                                 MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                                 void *dsbuf, void *drbuf, void *record);
void gpuad_mpi_gather_tangent(const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, int root, MPI_Comm comm,
                              const void *dsbuf, void *drbuf);
void gpuad_mpi_gather_adjoint(const void *sbuf, int scount,
                              MPI_Datatype stype, void *rbuf, int rcount,
                              MPI_Datatype rtype, int root, MPI_Comm comm,
                              void *dsbuf, void *drbuf);
void gpuad_mpi_scatter_tangent(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root, MPI_Comm comm,
                               const void *dsbuf, void *drbuf);
void gpuad_mpi_scatter_adjoint(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf, int rcount,
                               MPI_Datatype rtype, int root, MPI_Comm comm,
                               void *dsbuf, void *drbuf);
void gpuad_mpi_allgather_tangent(const void *sbuf, int scount,
                                 MPI_Datatype stype, void *rbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm,
                                 const void *dsbuf, void *drbuf);
void gpuad_mpi_allgather_adjoint(const void *sbuf, int scount,
                                 MPI_Datatype stype, void *rbuf, int rcount,
                                 MPI_Datatype rtype, MPI_Comm comm,
                                 void *dsbuf, void *drbuf);
void gpuad_mpi_alltoall_tangent(const void *sbuf, int scount,
                                MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype, MPI_Comm comm,
                                const void *dsbuf, void *drbuf);
void gpuad_mpi_alltoall_adjoint(const void *sbuf, int scount,
                                MPI_Datatype stype, void *rbuf, int rcount,
                                MPI_Datatype rtype, MPI_Comm comm,
                                void *dsbuf, void *drbuf);

/* The v forms: the adjoint of MPI_Gatherv is MPI_Scatterv with the same
   counts and displacements, and the other way round; MPI_Allgatherv's sums
   every copy and takes this rank's block.  Reverse mode records the counts
   and displacements right after the call (the adjoint's `record`). */
void *gpuad_mpi_gatherv_record(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs,
                               MPI_Datatype rtype, int root, MPI_Comm comm);
void *gpuad_mpi_scatterv_record(const void *sbuf, const int *scounts,
                                const int *displs, MPI_Datatype stype,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int root, MPI_Comm comm);
void *gpuad_mpi_allgatherv_record(const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, MPI_Comm comm);
void gpuad_mpi_gatherv_tangent(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs,
                               MPI_Datatype rtype, int root, MPI_Comm comm,
                               const void *dsbuf, void *drbuf);
void gpuad_mpi_gatherv_adjoint(const void *sbuf, int scount,
                               MPI_Datatype stype, void *rbuf,
                               const int *rcounts, const int *displs,
                               MPI_Datatype rtype, int root, MPI_Comm comm,
                               void *dsbuf, void *drbuf,
    void *record);
void gpuad_mpi_scatterv_tangent(const void *sbuf, const int *scounts,
                                const int *displs, MPI_Datatype stype,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int root, MPI_Comm comm, const void *dsbuf,
                                void *drbuf);
void gpuad_mpi_scatterv_adjoint(const void *sbuf, const int *scounts,
                                const int *displs, MPI_Datatype stype,
                                void *rbuf, int rcount, MPI_Datatype rtype,
                                int root, MPI_Comm comm, void *dsbuf,
                                void *drbuf,
    void *record);
void gpuad_mpi_allgatherv_tangent(const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, MPI_Comm comm,
                                  const void *dsbuf, void *drbuf);
void gpuad_mpi_allgatherv_adjoint(const void *sbuf, int scount,
                                  MPI_Datatype stype, void *rbuf,
                                  const int *rcounts, const int *displs,
                                  MPI_Datatype rtype, MPI_Comm comm,
                                  void *dsbuf, void *drbuf,
    void *record);

/* Non-blocking communication.  A posted operation's derivative is posted
   too and lives in a record, found by the request until a completion
   (MPI_Wait, MPI_Waitall, a successful MPI_Test) takes it.  Forward mode:
   the tangent's request completes with the primal's.  Reverse mode: the
   completion's adjoint posts the transposed operation (a receive of the
   adjoint for an Isend, a send of the buffer's adjoint for an Irecv), and
   the post's adjoint completes it and adds (or zeroes) -- the mirror of
   the primal's order, so the reverse sweep waits where the primal posted. */
void gpuad_mpi_isend_tangent(const void *buf, int count, MPI_Datatype type,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request *request, const void *dbuf);
void gpuad_mpi_irecv_tangent(void *buf, int count, MPI_Datatype type,
                             int source, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf);
void *gpuad_mpi_isend_record(const void *buf, int count, MPI_Datatype type,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf);
void *gpuad_mpi_irecv_record(void *buf, int count, MPI_Datatype type,
                             int source, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf);
void gpuad_mpi_post_adjoint(void *record);
/* Before a completion of `count` requests: the records they hold. */
void *gpuad_mpi_completion_begin(int count, MPI_Request *requests);
/* After it (`flag`: MPI_Test's, or null): forward mode completes the
   tangents of the requests that completed and releases all; reverse mode
   keeps their records for the completion's adjoint. */
void *gpuad_mpi_completion_end(void *completion, const int *flag,
                               int reverse);
/* The reverse sweep at the completion: posts the transposed operations. */
void gpuad_mpi_completion_adjoint(void *completion);

#ifdef __cplusplus
}
#endif

#endif /* GPUAD_RUNTIME_MPI_H */
