//===- CheckpointedLoops.h - Time loops reversed from snapshots -*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Reversing a loop keeps what every iteration's adjoint needs: for a time
/// loop over a field, steps times the field.  A checkpointed loop keeps
/// snapshots of its state instead, and runs stretches of the loop again in
/// the reverse sweep (runtime/Checkpointing.h has the schedule).
///
/// Which loops: in the clone reverse mode differentiates, a loop whose body
/// calls the marker `__gpuad_checkpoint(snapshots)` (gpuad.h; 0 snapshots:
/// as the budget allows), and, with a tape budget (`-gpuad-tape-budget`),
/// every outermost loop that holds another loop (a time loop over a
/// field).
///
/// The loop is outlined into a function of its own, `Loop` (CodeExtractor:
/// its live-ins are parameters, its live-outs stored through pointer
/// parameters), which the planner differentiates as a unit
/// (Planner/CheckpointedDerivatives): the augmented half runs the loop,
/// storing snapshots where the schedule says; the backward half reverses
/// it step by step.  `Step` is the loop's body as a function: one visit of
/// the header, from the scalar state in memory to the next (stored back) or
/// out of the loop.
///
/// The state a step needs is its scalar state (the header PHIs) and the
/// memory the loop writes -- and what it reads, where code after the loop
/// may change it before the reverse sweep -- found here as regions: for
/// each load, store, memory intrinsic and atomic in the loop, the base
/// object (a parameter of `Loop`, a global, or a header PHI that only ever
/// holds parameters: ping-pong buffers) and the extent of its offsets over
/// every iteration of every loop inside (scalar evolution, bounded by the
/// loops' trip counts).  A kernel launch reaches the whole device
/// allocation behind each pointer it is given, found when the loop starts
/// (the runtime's address-range query); those regions, and what a runtime
/// copy moves, live on the device and are copied by the runtime, after what
/// is queued has finished.  A loop is not checkpointed -- it keeps its full
/// tape, with a remark saying why -- when its state cannot be identified: a
/// write with no bound, a pointer stored to memory, a read through a
/// pointer it loads, a call that touches the program's memory or does I/O
/// (running the loop again would repeat it; what a call reads is not
/// tracked).
///
/// In device code (a kernel's own loop, run by each thread) only marked
/// loops are checkpointed, and only where the state is the scalars: the
/// snapshots are per thread, in a record of fixed size that the derivative
/// keeps in its tape slots (runtime/ThreadLoop.h), so the marker's count
/// is a constant.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_NORMALIZE_CHECKPOINTEDLOOPS_H
#define GPUAD_NORMALIZE_CHECKPOINTEDLOOPS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <string>

namespace llvm {
class Function;
class IRBuilderBase;
class Instruction;
class StructType;
class Value;
} // namespace llvm

namespace gpuad {

class CallTable;

/// Name of the marker a loop body calls to be checkpointed.
inline constexpr const char *CheckpointMarker = "__gpuad_checkpoint";
/// The budget of a marked loop that leaves the snapshots to the budget when
/// none is given.
inline constexpr uint64_t DefaultBudgetMiB = 64;
/// In device code, `__gpuad_checkpoint(0)`'s snapshots per thread: as many
/// as this holds (from 2 to 64).
inline constexpr uint64_t DefaultThreadSnapshotBytes = 1024;

struct CheckpointedLoop {
  /// The outlined loop, and one step of it: `Loop`'s parameters, then the
  /// buffers the carried pointers hold (one per PointerPhis entry: as
  /// parameters, the step's derivative can check them apart at run time),
  /// then pointers to the two parts of the scalar state; returns whether
  /// the loop goes on.
  llvm::Function *Loop = nullptr, *Step = nullptr;
  /// The header PHIs that carry a pointer, in `Step`'s parameter order.
  llvm::SmallVector<unsigned, 2> PointerPhis;
  /// The scalar state, {Active, Inactive}: the header PHIs that carry
  /// derivatives (floats: `Step`'s state has a shadow) and the others
  /// (integers; for a carried pointer, the i32 index in PointerParams of
  /// the buffer it holds); per header PHI, its part and field.
  llvm::StructType *Scalars = nullptr, *Active = nullptr, *Inactive = nullptr;
  llvm::SmallVector<std::pair<unsigned, unsigned>, 8> FieldOf;
  /// The address of header PHI \p Phi's value in \p Block (a Scalars).
  llvm::Value *scalarAddress(llvm::IRBuilderBase &B, llvm::Value *Block,
                             unsigned Phi) const;
  /// The address of its shadow in \p Shadow (an Active), for active ones.
  llvm::Value *shadowAddress(llvm::IRBuilderBase &B, llvm::Value *Shadow,
                             unsigned Phi) const;
  /// Per field: the parameter of `Loop` that holds its value when the loop
  /// starts, or -1 (a constant).
  llvm::SmallVector<int, 8> EntryParam;
  /// Per pointer field: the parameters it can hold (ping-pong buffers).
  llvm::SmallVector<llvm::SmallVector<unsigned, 2>, 8> PointerParams;
  /// The stores (in `Loop`) of a pointer the code after the loop uses,
  /// through output parameter `Out`, and the parameters the pointer can be:
  /// the augmented half stores its shadow too.
  struct PointerOutput {
    llvm::Instruction *Store;
    unsigned Out;
    llvm::SmallVector<unsigned, 2> Buffers;
  };
  llvm::SmallVector<PointerOutput, 2> PointerOutputs;
  /// Memory regions written, as values in `Loop`'s entry block.
  struct Region {
    std::string What; ///< for remarks: the buffer, as the user knows it
    llvm::Value *Start, *Bytes;
    /// -1: the loop writes it (or it is a global): always in the state.
    /// Else the parameter of `Loop` through which the loop only reads it:
    /// in the state where the caller says that memory may change between
    /// the halves (running the loop again must read what it read).
    int ReadOnlyParam = -1;
    /// Device memory: snapshots of it are device blocks.
    bool Device = false;
    /// The whole device allocation holding `Start` (a parameter), asked of
    /// the runtime where the run starts; `Bytes` is then null.
    bool WholeAllocation = false;
    /// The slot of a live-out (an output parameter of `Loop`), which the
    /// code after the loop reads before the reverse sweep runs steps again.
    bool Output = false;
  };
  llvm::SmallVector<Region, 4> Regions;
  /// The runtime of the device regions ("cuda", "hip"), if any.
  std::string DeviceApi;
  /// Parameters whose memory the loop writes.
  llvm::SmallVector<unsigned, 4> WrittenParams;
  /// Parameters the loop reads at offsets it cannot bound: the loop is
  /// checkpointed only where that memory cannot change between the halves.
  llvm::SmallVector<unsigned, 2> UnboundedReads;
  /// The number of steps (header visits), in `Loop`'s entry block; null
  /// when the loop's exit is known only when it happens.
  llvm::Value *Steps = nullptr;
  /// Snapshots the marker asked for, in `Loop`'s entry block (null: from
  /// the budget), and the budget in bytes.
  llvm::Value *Snapshots = nullptr;
  uint64_t BudgetBytes = 0;
  /// In device code: the snapshots each thread keeps in its record (0: a
  /// host loop, with the host runtime's record).
  int32_t ThreadSlots = 0;
  /// Where the loop starts in the source (for remarks).
  llvm::DebugLoc Loc;
};

/// The index (i32) of the first of \p Buffers that pointer \p P equals
/// (the last one's if none does).
llvm::Value *bufferIndex(llvm::IRBuilderBase &B, llvm::Value *P,
                         llvm::ArrayRef<llvm::Value *> Buffers);
/// The buffer at index \p Index of \p Buffers.
llvm::Value *bufferAt(llvm::IRBuilderBase &B, llvm::Value *Index,
                      llvm::ArrayRef<llvm::Value *> Buffers);

class CheckpointedLoops {
public:
  explicit CheckpointedLoops(const CallTable &Calls) : Calls(Calls) {}

  /// \p BudgetMiB 0: only the marked loops.  \p PerThread: device code,
  /// where only marked loops are, with scalar state.
  void enable(unsigned BudgetMiB, bool PerThread) {
    Enabled = true;
    this->BudgetMiB = BudgetMiB;
    this->PerThread = PerThread;
  }

  /// Outlines the loops of \p F (a clone about to be differentiated in
  /// reverse mode; \p User is the function it copies) that are to be
  /// checkpointed and can be.  Remarks say which and why.
  /// \p Normalized gives a callee's normalised clone (its launches as
  /// `gpuad.launch`): a callee that launches kernels is analysed as that.
  void
  outline(llvm::Function &F, const llvm::Function &User,
          llvm::FunctionAnalysisManager &FAM,
          llvm::function_ref<llvm::Function &(llvm::Function &)> Normalized);

  /// Turns the outlined loops' and steps' launches and runtime copies back
  /// into runtime calls (the sweeps call them as they are).
  void lowerRuntimeForms();

  /// The loop \p F is, if it is an outlined one.
  const CheckpointedLoop *lookup(const llvm::Function &F) const {
    auto It = Loops.find(&F);
    return It == Loops.end() ? nullptr : &It->second;
  }

private:
  const CallTable &Calls;
  bool Enabled = false, PerThread = false;
  unsigned BudgetMiB = 0;
  llvm::DenseMap<const llvm::Function *, CheckpointedLoop> Loops;
};

} // namespace gpuad

#endif // GPUAD_NORMALIZE_CHECKPOINTEDLOOPS_H
