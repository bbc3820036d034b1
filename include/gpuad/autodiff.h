/*===- gpuad/autodiff.h - The C++ interface under gpuad:: --------*- C++ -*-===*
 *
 * Part of gpuad.
 *
 *===----------------------------------------------------------------------===*
 *
 * Enzyme's C++ interface (<enzyme/enzyme>, docs/cxx-api.md), for programs
 * that spell it gpuad::
 *
 *   auto [dy] = gpuad::autodiff<gpuad::Forward>(f, gpuad::Duplicated{x, 1.0});
 *
 * The names are the same declarations as enzyme::'s (using-declarations).
 *===----------------------------------------------------------------------===*/

#ifndef GPUAD_AUTODIFF_H
#define GPUAD_AUTODIFF_H

#include <enzyme/enzyme>

#endif /* GPUAD_AUTODIFF_H */
