/*===- Require.h - Conditions a derivative checks when it runs --*- C -*-===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/* \file
 * What a derivative does not cover but can only tell when it runs (a
 * library call's derivative that needs a square matrix, given one of
 * another shape) stops the program with a message, never a wrong result.
\*===----------------------------------------------------------------------===*/

#ifndef GPUAD_RUNTIME_REQUIRE_H
#define GPUAD_RUNTIME_REQUIRE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Where `ok` is 0: prints "gpuad: <message>" on stderr and aborts. */
void gpuad_require(int ok, const char *message);
/* Prints "gpuad: " and the printf-style message on stderr and aborts. */
void gpuad_fail(const char *format, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

#ifdef __cplusplus
}
#endif

#endif /* GPUAD_RUNTIME_REQUIRE_H */
