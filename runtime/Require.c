/*===- Require.c - Conditions a derivative checks when it runs ------------===*\
|*                                                                            *|
|* Part of gpuad.                                                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Require.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void gpuad_require(int ok, const char *message) {
  if (ok)
    return;
  fprintf(stderr, "gpuad: %s\n", message);
  abort();
}

void gpuad_fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "gpuad: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
  abort();
}
