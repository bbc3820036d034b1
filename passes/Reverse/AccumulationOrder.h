//===- AccumulationOrder.h - Adjoint updates ordered for loops --*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The adjoint of a stencil's loop (v[i] = f(u[i-1], u[i], u[i+1])) adds to
/// u_bar[i-1], u_bar[i] and u_bar[i+1] in every iteration: read-modify-write
/// updates that the next iteration reads again.  In the order reverse mode
/// emits them (the loads' adjoints, last load first) an iteration's first
/// update often reads what the previous iteration's last update stored: a
/// chain through memory that each iteration waits on.  This pass, run on
/// gpuad's derivatives before the vectorizer (it rotates their loops first),
/// takes each loop block's updates of one buffer at constant distances:
/// - in a loop of one block, at whole steps from each other with none left
///   out and nothing else touching the buffer, it carries them in registers
///   from one iteration to the next: an address is loaded by its first
///   update and stored by its last;
/// - otherwise it orders them so that the address the next iteration
///   reaches first is updated first (the lowest address first where the
///   loop walks down), which leaves the most work between a store and the
///   load that reads it back.
/// Each address gets the same additions in the same order, so results are
/// bit for bit the same.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_REVERSE_ACCUMULATIONORDER_H
#define GPUAD_REVERSE_ACCUMULATIONORDER_H

#include "llvm/IR/PassManager.h"

namespace gpuad {

class AccumulationOrderPass
    : public llvm::PassInfoMixin<AccumulationOrderPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace gpuad

#endif // GPUAD_REVERSE_ACCUMULATIONORDER_H
