//===- InlineAsm.cpp - Inline assembly in emulated device code ------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// Device code's inline assembly is PTX or AMDGPU assembly, which the host
/// cannot run.  Assembly that is only a comment or empty (an optimisation
/// barrier, like ockl's "; ballot hoisting hack" whose output is tied to
/// its input) becomes its input or a compiler fence.  Inline PTX is
/// translated (PtxAsm.cpp): the call becomes a call of a function that does
/// what the PTX does, one per distinct asm.  What cannot be translated, and
/// any AMDGPU assembly, is an error naming the statement and the function,
/// instead of a host assembler error.
//===----------------------------------------------------------------------===//

#include "Emulate/Intrinsics.h"
#include "Emulate/PtxEmitter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace gpuad::emu {

/// Whether \p Text has no instructions: only blanks and comments.
static bool onlyComments(StringRef Text) {
  SmallVector<StringRef, 4> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.empty() && !Line.starts_with(";") && !Line.starts_with("//"))
      return false;
  }
  return true;
}

/// The input operand an output is tied to ("=v,0": the first input), or
/// null.
static Value *tiedInput(CallInst &Call, const InlineAsm &Asm) {
  InlineAsm::ConstraintInfoVector Constraints = Asm.ParseConstraints();
  unsigned Input = 0;
  for (const InlineAsm::ConstraintInfo &C : Constraints) {
    if (C.Type != InlineAsm::isInput)
      continue;
    if (C.Codes.size() == 1 && C.Codes[0] == "0" && Input < Call.arg_size())
      return Call.getArgOperand(Input);
    ++Input;
  }
  return nullptr;
}

bool lowerInlineAssembly(Module &M, bool IsAMDGPU,
                         function_ref<void(const Twine &)> Error) {
  bool Ok = true;
  // One translation per distinct asm (an InlineAsm is unique per string,
  // constraints and type); null: it failed, and was reported.
  DenseMap<InlineAsm *, Function *> Translated;
  SmallVector<CallInst *, 8> Calls;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *Call = dyn_cast<CallInst>(&I); Call && Call->isInlineAsm())
        Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    auto &Asm = *cast<InlineAsm>(Call->getCalledOperand());
    if (onlyComments(Asm.getAsmString())) {
      if (Call->getType()->isVoidTy()) {
        if (Asm.hasSideEffects())
          IRBuilder<>(Call).CreateFence(AtomicOrdering::SequentiallyConsistent,
                                        SyncScope::SingleThread);
        Call->eraseFromParent();
        continue;
      }
      if (Value *In = tiedInput(*Call, Asm);
          In && In->getType() == Call->getType()) {
        Call->replaceAllUsesWith(In);
        Call->eraseFromParent();
        continue;
      }
    }
    std::string Caller = demangle(Call->getFunction()->getName());
    if (!IsAMDGPU) {
      auto [It, New] = Translated.try_emplace(&Asm, nullptr);
      std::string Why;
      if (New)
        It->second = ptx::translateInlinePtx(*Call, Why);
      if (It->second) {
        CallInst *Replacement =
            CallInst::Create(It->second, SmallVector<Value *, 8>(Call->args()),
                             "", Call->getIterator());
        Replacement->takeName(Call);
        Replacement->setDebugLoc(Call->getDebugLoc());
        Call->replaceAllUsesWith(Replacement);
        Call->eraseFromParent();
        continue;
      }
      if (New)
        Error("inline PTX in '" + Caller +
              "' cannot run on the emulator: " + Why);
      Ok = false;
      continue;
    }
    StringRef First = StringRef(Asm.getAsmString()).trim().split('\n').first;
    Error("inline assembly '" + First + "' in '" + Caller +
          "' cannot run on the emulator (it is GPU machine code; the emulator "
          "runs device IR): use the HIP intrinsic instead");
    Ok = false;
  }
  return Ok;
}

} // namespace gpuad::emu
