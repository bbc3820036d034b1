//===- TapeReport.cpp - What the tape decided, in words -------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The tape explains itself: print<gpuad-tape> prints the layout of each
/// generated function's tape, and optimisation remarks say, at each value's
/// source location, whether it is cached or recomputed, what it costs and
/// why.  Costs are per entry into the reverse sweep: a value cached in a
/// loop's frame takes its size once per iteration of that loop and of every
/// loop around it ("8 B x trip(loop at f.c:12)").
//===----------------------------------------------------------------------===//

#include "Tape/Tape.h"

#include "Tape/ForwardStructure.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace gpuad {

static StringRef strategyName(Tape::Strategy S) {
  switch (S) {
  case Tape::Strategy::Available:
    return "kept";
  case Tape::Strategy::ReverseIndex:
    return "reverse index";
  case Tape::Strategy::Recompute:
    return "recomputed";
  case Tape::Strategy::Cache:
    return "cached";
  }
  return "";
}

/// Where to report \p V: its own location, or its loop's for a header PHI,
/// or the first located instruction of its block.
static DebugLoc locationOf(const Value *V, const LoopInfo &LI) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return DebugLoc();
  auto Known = [](const DebugLoc &DL) { return DL && DL.getLine() != 0; };
  if (Known(I->getDebugLoc()))
    return I->getDebugLoc();
  if (const Loop *L = LI.getLoopFor(I->getParent());
      L && L->getHeader() == I->getParent() && Known(L->getStartLoc()))
    return L->getStartLoc();
  for (const Instruction &J : *I->getParent())
    if (Known(J.getDebugLoc()))
      return J.getDebugLoc();
  return DebugLoc();
}

/// "%name" or the instruction's opcode and source line.
static std::string valueName(const Value *V, const LoopInfo &LI) {
  std::string S;
  raw_string_ostream OS(S);
  if (V->hasName()) {
    OS << "%" << V->getName();
  } else if (const auto *I = dyn_cast<Instruction>(V)) {
    OS << I->getOpcodeName();
    if (const auto *Call = dyn_cast<CallBase>(I))
      if (const Function *F = Call->getCalledFunction())
        OS << " " << F->getName();
  }
  if (DebugLoc DL = locationOf(V, LI))
    OS << " (line " << DL.getLine() << ")";
  return S;
}

std::string Tape::loopName(const Loop *L) const {
  if (DebugLoc DL = L->getStartLoc())
    if (auto *Scope = dyn_cast<DIScope>(DL.getScope()))
      return ("loop at " + Scope->getFilename() + ":" + Twine(DL.getLine()))
          .str();
  std::string S;
  raw_string_ostream OS(S);
  OS << "loop ";
  L->getHeader()->printAsOperand(OS, /*PrintType=*/false);
  return S;
}

std::string Tape::size(const Value *V) const {
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::string S =
      (Twine(DL.getTypeAllocSize(V->getType()).getFixedValue()) + " B").str();
  const auto *I = dyn_cast<Instruction>(V);
  const Loop *L = I ? FS.loops().getLoopFor(I->getParent()) : nullptr;
  for (; L; L = L->getParentLoop())
    S += " x trip(" + loopName(L) + ")";
  return S;
}

std::string Tape::reason(const Value *V, Strategy S) const {
  if (const Loop *L = FS.loopOfExitIteration(V))
    return "the iteration " + loopName(L) + " was left in";
  if (const auto *PN = dyn_cast<PHINode>(V);
      PN && FS.predecessorIndex(PN->getParent()) == PN)
    return "which way control entered the block";
  if (auto [L, In] = exitValue(V); L)
    return LastIterationCache
               ? "the value " + loopName(L) +
                     " leaves behind: kept once, from its last iteration"
               : "the value " + loopName(L) +
                     " leaves behind, kept for every iteration (last-"
                     "iteration cache off)";
  const auto *I = dyn_cast<Instruction>(V);
  if (KeptPerIteration.count(V))
    return "kept for every iteration of " +
           loopName(FS.loops().getLoopFor(I->getParent())) +
           " for the value the loop leaves behind (last-iteration cache off)";
  if (S == Strategy::Recompute) {
    if (isa<PHINode>(I))
      return "start + step * iteration";
    if (isa<LoadInst>(I))
      return "loaded again: no later write may change that memory";
    return "cheap to rebuild from its operands";
  }
  if (isa<LoadInst>(I))
    return "loaded from memory that may change before the reverse sweep";
  if (isa<PHINode>(I))
    return FS.loops().isLoopHeader(I->getParent())
               ? "a loop-carried value"
               : "a value merged from several paths";
  if (isa<CallBase>(I))
    return "the result of a call";
  if (const auto *EV = dyn_cast<ExtractValueInst>(I))
    if (const auto *Call = dyn_cast<CallBase>(EV->getAggregateOperand()))
      if (const Function *Callee = Call->getCalledFunction())
        return ("part of the result of the call to '" + Callee->getName() +
                "' (its primal result or tape)")
            .str();
  if (recomputable(I))
    return "rebuilding it takes a chain of more than " +
           std::to_string(MaxRecomputeChain) + " operations";
  return "not cheap to recompute";
}

std::string Tape::placeText() const {
  if (Place == TapePlace::Heap && usesTapeArena(Target, Choice))
    return "the pool's arena";
  return placeName(Place).str();
}

void Tape::print(raw_ostream &OS) const {
  // Slots outside loops, then each loop's frame, then what is recomputed.
  uint64_t SlotBytes = 0;
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (const Value *V : SlotOrder) {
    const Slot &S = Slots.find(V)->second;
    if (!S.L)
      SlotBytes += DL.getTypeAllocSize(V->getType());
  }
  OS << "  slots: " << SlotBytes << " B\n";
  if (RegionBytes)
    OS << "  region: " << RegionBytes << " B per thread in " << placeText()
       << "\n";
  for (const Value *V : SlotOrder) {
    const Slot &S = Slots.find(V)->second;
    if (!S.L)
      OS << "    " << valueName(V, FS.loops()) << ": " << *V->getType() << ", "
         << reason(V, Strategy::Cache) << "\n";
  }
  for (const Loop *L : FS.loops().getLoopsInPreorder()) {
    auto It = Frames.find(L);
    if (It == Frames.end() || !frameBytes(L))
      continue;
    OS << "  frame of " << loopName(L) << ": " << frameBytes(L)
       << " B per iteration";
    if (const Loop *P = L->getParentLoop())
      OS << " (array in the frame of " << loopName(P) << ")";
    if (isFixed(L))
      OS << ", fixed at +" << It->second.RegionOffset << " of the region ("
         << NestTrips.lookup(L) << " frames)\n";
    else
      OS << (TripCounts.count(L) ? ", heap, sized at entry\n"
                                 : ", heap, grown\n");
    for (const Value *V : SlotOrder) {
      const Slot &S = Slots.find(V)->second;
      if (S.L == L)
        OS << "    +" << S.Offset << " " << valueName(V, FS.loops()) << ": "
           << *V->getType() << ", " << reason(V, Strategy::Cache) << "\n";
    }
  }
  for (auto [V, S] : Decisions)
    if (S == Strategy::Recompute)
      OS << "  recomputed " << valueName(V, FS.loops()) << ": " << reason(V, S)
         << "\n";
    else if (S == Strategy::Available)
      OS << "  kept " << valueName(V, FS.loops()) << ": " << reason(V, S)
         << "\n";
}

void Tape::remark(OptimizationRemarkEmitter &ORE,
                  const Instruction *Where) const {
  for (auto [V, S] : Decisions) {
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      continue;
    ORE.emit([&] {
      OptimizationRemarkAnalysis R("gpuad",
                                   S == Strategy::Cache ? "TapeCached"
                                   : S == Strategy::Recompute
                                       ? "TapeRecomputed"
                                       : "TapeLastIteration",
                                   locationOf(V, FS.loops()), I->getParent());
      R << valueName(V, FS.loops()) << " " << strategyName(S).str();
      if (S == Strategy::Cache)
        R << " (" << ore::NV("Size", size(V)) << ")";
      return R << ": " << reason(V, S);
    });
  }
  if (!Where)
    return;
  uint64_t Slots = 0;
  unsigned Frames = 0;
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (const Value *V : SlotOrder)
    if (!this->Slots.find(V)->second.L)
      Slots += DL.getTypeAllocSize(V->getType());
  for (const Loop *L : FS.loops().getLoopsInPreorder())
    Frames += frameBytes(L) != 0;
  ORE.emit([&] {
    OptimizationRemark R("gpuad", "Tape", Where);
    R << "tape: " << ore::NV("Cached", numCachedValues()) << " values cached ("
      << ore::NV("SlotBytes", Slots) << " B outside loops, "
      << ore::NV("Frames", Frames) << " loop frames";
    if (RegionBytes)
      R << "; " << ore::NV("RegionBytes", RegionBytes) << " B per thread in "
        << ore::NV("Place", placeText());
    if (!HeapLoops.empty())
      R << "; " << ore::NV("HeapLoops", unsigned(HeapLoops.size()))
        << " loop(s) growing in "
        << ore::NV("Arena", usesTapeArena(Target, Choice) ? "the pool's arena"
                                                          : "the heap");
    return R << ")";
  });
}

} // namespace gpuad
