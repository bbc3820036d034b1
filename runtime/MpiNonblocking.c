/*===- MpiNonblocking.c - Derivatives of non-blocking MPI calls ----------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* Isend, Irecv and their completions (runtime/Mpi.h). */

#include "Mpi.h"
#include "MpiData.h"

typedef struct Record {
  int send; /* Isend (1) or Irecv (0) */
  int carries;
  int count, peer, tag;
  MPI_Datatype type;
  MPI_Comm comm;
  void *dbuf;
  void *got;            /* reverse mode: the adjoint received */
  void *zeros;          /* zeros sent where the buffer has no shadow */
  MPI_Request derived;  /* the tangent's or the adjoint's request */
  struct Record *next;  /* in the table of posted requests */
  MPI_Request primal;
} Record;

/* Posted requests not yet completed, by request (a short list: requests in
   flight at once). */
static Record *posted;

static Record *take(MPI_Request request) {
  for (Record **at = &posted; *at; at = &(*at)->next)
    if ((*at)->primal == request) {
      Record *r = *at;
      *at = r->next;
      r->next = NULL;
      return r;
    }
  return NULL;
}

static Record *post(int send, void *dbuf, int count, MPI_Datatype type,
                    int peer, int tag, MPI_Comm comm, MPI_Request *request) {
  Record *r = calloc(1, sizeof(Record));
  if (!r)
    gpuad_fail("out of memory for a non-blocking MPI call's derivative");
  r->send = send;
  r->carries = carries(type);
  r->count = count;
  r->type = type;
  r->peer = peer;
  r->tag = tag;
  r->comm = comm;
  r->dbuf = dbuf;
  r->derived = MPI_REQUEST_NULL;
  r->primal = *request;
  if (r->carries && !send && (peer == MPI_ANY_SOURCE || tag == MPI_ANY_TAG))
    gpuad_fail("MPI_Irecv from MPI_ANY_SOURCE or with MPI_ANY_TAG in "
         "differentiated code: name the source and the tag");
  r->next = posted;
  posted = r;
  return r;
}

void gpuad_mpi_isend_tangent(const void *buf, int count, MPI_Datatype type,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request *request, const void *dbuf) {
  (void)buf;
  Record *r = post(1, (void *)dbuf, count, type, dest, tag, comm, request);
  if (!r->carries)
    return;
  if (!dbuf)
    r->zeros = block(count, type);
  MPI_Isend(dbuf ? dbuf : r->zeros, count, type, dest, tag, comm, &r->derived);
}

void gpuad_mpi_irecv_tangent(void *buf, int count, MPI_Datatype type,
                             int source, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf) {
  (void)buf;
  Record *r = post(0, dbuf, count, type, source, tag, comm, request);
  if (!r->carries)
    return;
  if (!dbuf)
    r->zeros = block(count, type); /* received into and dropped */
  MPI_Irecv(dbuf ? dbuf : r->zeros, count, type, source, tag, comm,
            &r->derived);
}

void *gpuad_mpi_isend_record(const void *buf, int count, MPI_Datatype type,
                             int dest, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf) {
  (void)buf;
  return post(1, dbuf, count, type, dest, tag, comm, request);
}

void *gpuad_mpi_irecv_record(void *buf, int count, MPI_Datatype type,
                             int source, int tag, MPI_Comm comm,
                             MPI_Request *request, void *dbuf) {
  (void)buf;
  return post(0, dbuf, count, type, source, tag, comm, request);
}

typedef struct Completion {
  int count;
  Record **records;
  MPI_Request *requests; /* as they were before the completion */
} Completion;

void *gpuad_mpi_completion_begin(int count, MPI_Request *requests) {
  Completion *c = calloc(1, sizeof(Completion));
  c->count = count;
  c->records = calloc((size_t)(count > 0 ? count : 1), sizeof(Record *));
  c->requests = malloc(sizeof(MPI_Request) * (size_t)(count > 0 ? count : 1));
  for (int k = 0; k < count; ++k)
    c->requests[k] = requests[k];
  return c;
}

static void release(Completion *c) {
  free(c->records);
  free(c->requests);
  free(c);
}

void *gpuad_mpi_completion_end(void *completion, const int *flag,
                               int reverse) {
  Completion *c = completion;
  for (int k = 0; k < c->count && (!flag || *flag); ++k) {
    Record *r = c->requests[k] == MPI_REQUEST_NULL ? NULL
                                                   : take(c->requests[k]);
    if (reverse) {
      c->records[k] = r;
      continue;
    }
    /* Forward mode: the tangent completes with the primal. */
    if (r && r->derived != MPI_REQUEST_NULL)
      MPI_Wait(&r->derived, MPI_STATUS_IGNORE);
    if (r) {
      free(r->zeros);
      free(r);
    }
  }
  if (reverse)
    return c;
  release(c);
  return NULL;
}

void gpuad_mpi_completion_adjoint(void *completion) {
  Completion *c = completion;
  for (int k = 0; k < c->count; ++k) {
    Record *r = c->records[k];
    if (!r || !r->carries)
      continue;
    if (r->send) {
      r->got = block(r->count, r->type);
      MPI_Irecv(r->got, r->count, r->type, r->peer, r->tag, r->comm,
                &r->derived);
    } else {
      if (!r->dbuf)
        r->zeros = block(r->count, r->type);
      MPI_Isend(r->dbuf ? r->dbuf : r->zeros, r->count, r->type, r->peer,
                r->tag, r->comm, &r->derived);
    }
  }
  release(c);
}

void gpuad_mpi_post_adjoint(void *record) {
  Record *r = record;
  if (r->carries) {
    if (r->derived == MPI_REQUEST_NULL)
      gpuad_fail("a non-blocking MPI operation in differentiated code that was "
           "never completed (MPI_Wait, MPI_Waitall, MPI_Test)");
    MPI_Wait(&r->derived, MPI_STATUS_IGNORE);
    if (r->send && r->dbuf)
      add(r->got, r->dbuf, r->count, r->type, r->comm);
    if (!r->send && r->dbuf)
      zero(r->dbuf, r->count, r->type, r->comm);
  }
  free(r->got);
  free(r->zeros);
  free(r);
}
