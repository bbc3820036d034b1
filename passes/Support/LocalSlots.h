//===- LocalSlots.h - What -O0 keeps in local variables ---------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// At -O0 clang keeps every variable in a stack slot: a parameter is stored
/// once into `%p.addr` and loaded from it at each use, and a function a
/// request names may sit in a local.  Seeing through such a slot -- the one
/// value ever stored to it, when nothing else can write it -- is how the
/// request parser finds the function and how callee summaries find the
/// parameter a written pointer is.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_SUPPORT_LOCALSLOTS_H
#define GPUAD_SUPPORT_LOCALSLOTS_H

namespace llvm {
class AllocaInst;
class Value;
} // namespace llvm

namespace gpuad {

/// The one value stored to the local \p Slot, directly or through casts of
/// its address (AMDGPU's -O0 code reaches its addrspace(5) allocas through
/// an addrspacecast); null if there are several, or if the address goes
/// anywhere else (a call, memory) that could write another.
llvm::Value *onlyStoredValue(const llvm::AllocaInst &Slot);

} // namespace gpuad

#endif // GPUAD_SUPPORT_LOCALSLOTS_H
