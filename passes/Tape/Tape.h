//===- Tape.h - What the reverse sweep gets from the forward sweep -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The tape: every forward value the reverse sweep needs is, by one policy
/// (strategy()):
///   - Available: an argument, a constant, or a value outside loops whose
///     block dominates the return, hence the whole reverse sweep;
///   - ReverseIndex: a loop's canonical IV, which in the reverse loop is the
///     reverse iteration counter;
///   - Recompute: a cheap operation (arithmetic, casts, GEPs, compares,
///     selects, aggregates, a few intrinsics), a load from memory nothing
///     in the function writes, rebuilt in the reverse sweep from its
///     operands, or a header PHI that scalar evolution shows is
///     start + step * iteration -- unless, in a loop, rebuilding it takes a
///     chain of more than MaxRecomputeChain such operations;
///   - Cache: anything else (loads of overwritten memory, calls, PHIs),
///     stored when computed and loaded back.
/// A cached value outside loops lives in one slot (a local that SROA turns
/// into a register).  A cached value in loops lives in a frame: one array
/// of frames per entry of its innermost loop, one frame per iteration,
/// holding the loop's cached values.
///
/// Where the frame arrays are:
///   - fixed: when the loop and every loop around it has a constant maximum
///     trip count, its arrays sit at fixed offsets of one per-thread region
///     (entry e of the loop at offset + e * trip * frame bytes), placed by
///     TapePlacement (shared slots, thread-local memory, the tape pool);
///     nothing is allocated while the derivative runs.  A tape that
///     outlives the call (split halves) carries a small region by value,
///     and keeps a large one in one heap block per call;
///   - growing: otherwise an array is allocated when its loop is entered
///     (emitTapeAlloc: the pool's arena on a GPU, the heap on the host) --
///     with the trip count when scalar evolution knows it there, grown by
///     doubling otherwise -- reached through a pointer in the parent's
///     frame (or a local), and freed when the reverse sweep leaves the loop.
///
/// Slots and frames are laid out as the reverse sweep asks for values;
/// finalize() then writes the forward side (allocations and stores).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_TAPE_TAPE_H
#define GPUAD_TAPE_TAPE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include "Tape/TapePlacement.h"

#include <functional>
#include <map>

namespace llvm {
class AllocaInst;
class OptimizationRemarkEmitter;
class raw_ostream;
class GlobalVariable;
class Loop;
class PHINode;
class ScalarEvolution;
} // namespace llvm

namespace gpuad {

/// Marks the stores that put a cached value into the tape (SplitForm checks
/// what they carry from the augmented to the backward half).
inline constexpr const char *CachedStoreMD = "gpuad.tape.cached";

class CallTable;
class ForwardStructure;
class TargetHooks;

class Tape {
public:
  enum class Strategy { Available, ReverseIndex, Recompute, Cache };

  /// \p IsReadOnly says whether memory a load reads is never written in the
  /// function (such loads can be recomputed).
  Tape(llvm::Function &F, ForwardStructure &FS, TargetHooks &Target,
       const CallTable &Calls,
       std::function<bool(const llvm::LoadInst &)> IsReadOnly);
  ~Tape();

  /// How the reverse sweep obtains \p V: the policy, in one place.
  Strategy strategy(const llvm::Value *V) const;

  /// \p V for the reverse sweep at \p B, which is in the reverse of forward
  /// block \p Context (the loop iterations are the current reverse ones).
  llvm::Value *lookup(llvm::Value *V, llvm::IRBuilderBase &B,
                      const llvm::BasicBlock *Context);

  /// Reverse loop counters.  enterLoop starts \p L's reverse at iteration
  /// \p Last; index() is the current one; leaveLoop marks where the reverse
  /// sweep leaves \p L (its frames are freed there).
  void enterLoop(const llvm::Loop *L, llvm::Value *Last,
                 llvm::IRBuilderBase &B);
  llvm::Value *index(const llvm::Loop *L, llvm::IRBuilderBase &B);
  void decrement(const llvm::Loop *L, llvm::IRBuilderBase &B);
  void leaveLoop(const llvm::Loop *L, llvm::Instruction *Before);

  /// Writes the forward side: frame allocations at loop entries, stores of
  /// cached values; fixes frame sizes; inserts the frees.
  void finalize();

  /// A value a loop leaves behind (a PHI in an exit block with one incoming
  /// value from inside the loop) is cached once, when the loop exits -- its
  /// value in the last iteration, one slot per iteration of the enclosing
  /// loops.  Off (to measure the difference): the value inside the loop is
  /// kept for every iteration and read back at the exit iteration.
  void setLastIterationCache(bool On) { LastIterationCache = On; }
  /// The tape outlives the call (the function is cut into split halves):
  /// the region travels in the tape.  Set before the first lookup.
  void setPersistent(bool On) { Persistent = On; }
  /// Where fixed-size regions go (TapePlacementChoice::Heap: nowhere, every
  /// array on the heap).  Set before the first lookup.
  void setPlacementChoice(TapePlacementChoice C) { Choice = C; }
  /// The per-thread region of the fixed frame arrays (0: none) and where it
  /// is, after finalize().
  uint64_t regionBytes() const { return RegionBytes; }
  TapePlace regionPlace() const { return Place; }
  /// Loops whose frame arrays are on the heap (after finalize()).
  llvm::SmallVector<const llvm::Loop *, 2> heapLoops() const;
  /// The loop \p V is the value left behind by, and the value inside it.
  std::pair<const llvm::Loop *, llvm::Instruction *>
  exitValue(const llvm::Value *V) const;

  /// `ptr gpuad.tape.grow(ptr array, i64 index, ptr capacity, i64 bytes)`:
  /// \p array (capacity elements of \p bytes) made to hold element
  /// \p index, doubled when full.  Frame arrays grow with it; other growing
  /// lists of the reverse sweep may use it too.
  llvm::Function *growFunction();

  /// Statistics for remarks and printers.
  unsigned numCachedValues() const { return Slots.size(); }
  /// Bytes of frame per iteration of \p L (0 if it has no frame).
  uint64_t frameBytes(const llvm::Loop *L) const;

  // Reporting (TapeReport.cpp): what was decided for each value the reverse
  // sweep asked for, after finalize().
  /// The layout: slots, then each loop's frame with its fields, and the
  /// values recomputed, with the reason for each (print<gpuad-tape>).
  void print(llvm::raw_ostream &OS) const;
  /// One optimisation remark per cached or recomputed value (at the value's
  /// source location: -Rpass-analysis=gpuad) and a summary
  /// (-Rpass=gpuad) attributed to \p Where.
  void remark(llvm::OptimizationRemarkEmitter &ORE,
              const llvm::Instruction *Where) const;

private:
  /// Why \p V gets strategy \p S, and what it costs, in words.
  std::string reason(const llvm::Value *V, Strategy S) const;
  std::string size(const llvm::Value *V) const;
  std::string loopName(const llvm::Loop *L) const;
  /// Where the region is, in words (the arena for heap blocks on a GPU).
  std::string placeText() const;

  struct Slot {
    llvm::Value *V;
    const llvm::Loop *L;               // innermost loop, null outside loops
    uint64_t Offset = 0;               // in L's frame
    llvm::AllocaInst *Local = nullptr; // outside loops
  };
  struct Frame {
    uint64_t Bytes = 0;
    /// Fixed: the offset of the loop's arrays in the region.
    uint64_t RegionOffset = 0;
    llvm::Align MaxAlign = llvm::Align(1);
    llvm::GlobalVariable *SizePlaceholder = nullptr;
    /// Heap: where the pointer to this loop's frame array lives: a field of
    /// the parent's frame, or a local for outermost loops.
    uint64_t ParentField = 0;
    llvm::AllocaInst *ArrayLocal = nullptr;
    llvm::SmallVector<llvm::Instruction *, 2> FreePoints;
  };

  /// Trip counts and affine header PHIs, by scalar evolution.
  void analyzeLoops();
  /// Fills DecidedBy (see there).
  void findDecidingBranches();
  /// A bookkeeping PHI (exit iteration, predecessor index) rebuilt from
  /// what determines it.
  llvm::Value *recomputeBookkeeping(llvm::PHINode *PN, llvm::IRBuilderBase &B,
                                    const llvm::BasicBlock *Context);
  llvm::Value *recomputeAffine(llvm::PHINode *PN, llvm::IRBuilderBase &B,
                               const llvm::BasicBlock *Context);
  bool recomputable(const llvm::Instruction *I) const;
  /// The instructions rebuilding \p I in the reverse sweep takes: itself
  /// and, recursively, its operands that are rebuilt too (each once), at
  /// most MaxRecomputeChain + 1.
  unsigned recomputeChain(const llvm::Instruction *I) const;
  llvm::Value *recompute(llvm::Instruction *I, llvm::IRBuilderBase &B,
                         const llvm::BasicBlock *Context);
  Slot &slotFor(llvm::Value *V);
  Frame &frameOf(const llvm::Loop *L);
  uint64_t addField(const llvm::Loop *L, llvm::Type *Ty);
  /// The address of \p L's current frame: in the forward sweep at the
  /// forward IVs (\p Reverse false) or at the reverse indices.
  llvm::Value *frameAddress(const llvm::Loop *L, llvm::IRBuilderBase &B,
                            bool Reverse);
  llvm::Value *arraySlotAddress(const llvm::Loop *L, llvm::IRBuilderBase &B,
                                bool Reverse);
  /// Whether \p L's frame arrays are at fixed places of the region.
  bool isFixed(const llvm::Loop *L) const;
  /// \p L's current frame array.  A placeholder call until finalize() knows
  /// the layout (resolveFrameArrays()).
  llvm::Value *frameArray(const llvm::Loop *L, llvm::IRBuilderBase &B,
                          bool Reverse);
  /// Fixed: which entry of \p L this is, counted over the iterations of the
  /// loops around it (forward or reverse iterations).
  llvm::Value *entryIndex(const llvm::Loop *L, llvm::IRBuilderBase &B,
                          bool Reverse);
  /// Lays out the fixed arrays, places the region, and replaces every
  /// placeholder frameArray() made.
  void layOutRegion();
  void resolveFrameArrays();
  llvm::Value *frameSize(const llvm::Loop *L, llvm::IRBuilderBase &B);
  /// \p L's frame of iteration \p Iter (reverse sweep).
  llvm::Value *frameAt(const llvm::Loop *L, llvm::Value *Iter,
                       llvm::IRBuilderBase &B);
  /// The last-iteration cache turned off: the value inside the loop, read
  /// from the frame of the exit iteration.
  llvm::Value *lookupAtExit(llvm::PHINode *V, llvm::IRBuilderBase &B,
                            const llvm::BasicBlock *Context);
  void allocateFrames(const llvm::Loop *L);
  void storeCachedValue(Slot &S);
  llvm::AllocaInst *entryAlloca(llvm::Type *Ty, const llvm::Twine &Name);

  /// In loops, longer chains of cheap operations are kept in the loop's
  /// frame, not rebuilt: rebuilding them costs as much time as the forward
  /// code, and keeps every link alive while the reverse sweep walks the
  /// chain backwards (a 10-term complex series held 40 registers).
  static constexpr unsigned MaxRecomputeChain = 40;
  mutable llvm::DenseMap<const llvm::Instruction *, unsigned> ChainLength;

  llvm::Function &F;
  bool LastIterationCache = true;
  bool Persistent = false;
  TapePlacementChoice Choice = TapePlacementChoice::Auto;
  /// Constant maximum trip counts (0: unknown), and for each loop the
  /// product of its own and its ancestors' (0: unknown or too large).
  llvm::DenseMap<const llvm::Loop *, uint64_t> MaxTrips, NestTrips;
  uint64_t RegionBytes = 0;
  TapePlace Place = TapePlace::Local;
  llvm::Value *Region = nullptr;
  /// `ptr (i64 loop, i1 reverse)`: frameArray()'s placeholder; the loops by
  /// number.
  llvm::Function *FrameArrayPlaceholder = nullptr;
  llvm::SmallVector<const llvm::Loop *, 4> LoopNumbers;
  llvm::SmallVector<const llvm::Loop *, 2> HeapLoops;
  ForwardStructure &FS;
  TargetHooks &Target;
  const CallTable &Calls;
  std::function<bool(const llvm::LoadInst &)> IsReadOnly;
  std::map<const llvm::Value *, Slot> Slots;
  llvm::SmallVector<llvm::Value *, 16> SlotOrder;
  std::map<const llvm::Loop *, Frame> Frames;
  llvm::DenseMap<const llvm::Loop *, llvm::AllocaInst *> Counters;
  /// Values the reverse sweep asked for (not available ones), in order.
  llvm::SmallVector<std::pair<const llvm::Value *, Strategy>, 16> Decisions;
  llvm::SmallPtrSet<const llvm::Value *, 16> Decided;
  /// Values inside loops kept every iteration for a value the loop leaves
  /// behind (the last-iteration cache turned off).
  llvm::SmallPtrSet<const llvm::Value *, 4> KeptPerIteration;
  /// Recomputed and loaded values, per (value, reverse block).
  llvm::DenseMap<std::pair<const llvm::Value *, const llvm::BasicBlock *>,
                 llvm::Value *>
      Memo;
  llvm::Function *Grow = nullptr;
  /// Trip counts computable at loop entry (in the preheader).
  llvm::DenseMap<const llvm::Loop *, llvm::Value *> TripCounts;
  /// Header PHIs equal to start + step * iteration, with start and step
  /// (computed in the preheader).
  llvm::DenseMap<const llvm::PHINode *, std::pair<llvm::Value *, llvm::Value *>>
      Affine;
  /// Exit-iteration PHIs of loops with one exit whose backedge-taken count
  /// scalar evolution knows: that count (i64, computed in the preheader).
  llvm::DenseMap<const llvm::PHINode *, llvm::Value *> ExitCounts;
  /// Predecessor-index PHIs one conditional branch decides: the branch's
  /// condition and the index when it is true and when it is false.
  struct Decision {
    llvm::Value *Cond;
    llvm::Constant *IfTrue, *IfFalse;
  };
  llvm::DenseMap<const llvm::PHINode *, Decision> DecidedBy;
};

} // namespace gpuad

#endif // GPUAD_TAPE_TAPE_H
