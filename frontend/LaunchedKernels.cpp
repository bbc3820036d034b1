//===- LaunchedKernels.cpp - Kernels host requests may launch -------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The device compilation of a CUDA or HIP file makes derivative kernels
/// for the kernels that differentiated host code launches
/// (passes/Requests/LaunchDerivatives.h), but the device module has no host
/// code.  The AST does: in the device compilation this plugin finds the
/// kernels a host request may launch, and the pass plugin asks for them by
/// name through `gpuad_launched_kernels()` (both plugins live in one clang
/// process; the pass plugin finds the symbol among the loaded libraries).
///
/// A function *requests* if its body calls an `__enzyme_*` entry point or a
/// function that requests (so `enzyme::autodiff<...>(f, ...)` of the C++
/// API counts).  The functions a host function names in the arguments of a
/// call to a requesting function are differentiated; from them, every
/// function their bodies name (called, launched, or taken the address of)
/// may run under differentiation.  The kernels among those are the answer:
/// an over-approximation (a name is enough), never an omission within the
/// file.  A kernel launched only from host code of another file (-fgpu-rdc)
/// is not seen: `-mllvm -gpuad-launch-derivatives=all` (or its name) covers
/// it, and a missing derivative kernel stops the program with a message.
//===----------------------------------------------------------------------===//

#include "LibraryAlgorithms.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;

namespace {

/// Set once the analysis has run in this compilation; the names, one per
/// line.
bool Analysed = false, AnalysedDevice = false;
std::string Launched;
/// The records of the Thrust algorithm calls differentiated host code
/// makes (LibraryAlgorithms.h), one per line; in host and device
/// compilations.
std::string AlgorithmCalls;

const FunctionDecl *canonical(const FunctionDecl *FD) {
  return FD ? FD->getCanonicalDecl() : nullptr;
}

bool isEntryPoint(const FunctionDecl *FD) {
  const IdentifierInfo *Id = FD->getIdentifier();
  return Id && Id->getName().contains("__enzyme_");
}

bool isDeviceOnly(const FunctionDecl *FD) {
  return FD->hasAttr<CUDAGlobalAttr>() ||
         (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>());
}

/// The functions an expression names (called, or as a value); with
/// \p ThroughLocals, also those named in the initializers of the local
/// variables it names (`void *fn = (void *)driver; __enzyme_autodiff(fn,
/// ...)`).
struct NamedFunctions : RecursiveASTVisitor<NamedFunctions> {
  std::vector<const FunctionDecl *> Found;
  bool ThroughLocals = false;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
      Found.push_back(canonical(FD));
    if (auto *V = dyn_cast<VarDecl>(E->getDecl());
        ThroughLocals && V && V->hasLocalStorage() && V->getInit()) {
      NamedFunctions Init;
      Init.TraverseStmt(V->getInit());
      Found.insert(Found.end(), Init.Found.begin(), Init.Found.end());
    }
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    Found.push_back(canonical(E->getConstructor()));
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (auto *FD = dyn_cast<FunctionDecl>(E->getMemberDecl()))
      Found.push_back(canonical(FD));
    return true;
  }
};

/// Per function with a body: what it names, and its calls (callee, the
/// functions its arguments name).
struct Body {
  std::vector<const FunctionDecl *> Names;
  std::vector<
      std::pair<const FunctionDecl *, std::vector<const FunctionDecl *>>>
      Calls;
  std::vector<const CallExpr *> CallExprs;
  bool Host = false;
  bool Library = false;
};

struct Collector : RecursiveASTVisitor<Collector> {
  std::map<const FunctionDecl *, Body> Bodies;
  std::vector<const FunctionDecl *> Kernels;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isDependentContext())
      Kernels.push_back(FD);
    if (!FD->doesThisDeclarationHaveABody() || FD->isDependentContext())
      return true;
    Body &B = Bodies[canonical(FD)];
    B.Host = !isDeviceOnly(FD);
    std::string Qualified = FD->getQualifiedNameAsString();
    B.Library = Qualified.rfind("thrust::", 0) == 0 ||
                Qualified.rfind("cub::", 0) == 0 ||
                Qualified.rfind("cuda::", 0) == 0 ||
                Qualified.rfind("rocprim::", 0) == 0;
    NamedFunctions All;
    All.TraverseStmt(FD->getBody());
    B.Names = std::move(All.Found);
    struct CallFinder : RecursiveASTVisitor<CallFinder> {
      Body *B;
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool shouldVisitImplicitCode() const { return true; }
      bool VisitCallExpr(CallExpr *E) {
        const FunctionDecl *Callee = canonical(E->getDirectCallee());
        if (!Callee)
          return true;
        NamedFunctions Args;
        Args.ThroughLocals = true;
        for (Expr *A : E->arguments())
          Args.TraverseStmt(A);
        B->Calls.push_back({Callee, std::move(Args.Found)});
        B->CallExprs.push_back(E);
        return true;
      }
    } Calls;
    Calls.B = &B;
    Calls.TraverseStmt(FD->getBody());
    return true;
  }
};

class Consumer : public ASTConsumer {
public:
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (!Ctx.getLangOpts().CUDA && !Ctx.getLangOpts().HIP)
      return;
    Collector C;
    C.TraverseDecl(Ctx.getTranslationUnitDecl());
    // Functions that request, to a fixed point.
    std::set<const FunctionDecl *> Requesting;
    for (auto &[FD, B] : C.Bodies)
      for (auto &[Callee, Args] : B.Calls)
        if (isEntryPoint(Callee))
          Requesting.insert(FD);
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[FD, B] : C.Bodies)
        if (!Requesting.count(FD))
          for (auto &[Callee, Args] : B.Calls)
            if (Requesting.count(Callee)) {
              Changed |= Requesting.insert(FD).second;
              break;
            }
    }
    // Host code's differentiated functions, and what they name.
    std::vector<const FunctionDecl *> Work;
    for (auto &[FD, B] : C.Bodies)
      if (B.Host)
        for (auto &[Callee, Args] : B.Calls)
          if (isEntryPoint(Callee) || Requesting.count(Callee))
            Work.insert(Work.end(), Args.begin(), Args.end());
    std::set<const FunctionDecl *> Reached;
    while (!Work.empty()) {
      const FunctionDecl *FD = Work.back();
      Work.pop_back();
      if (!FD || !Reached.insert(FD).second)
        continue;
      if (auto It = C.Bodies.find(FD); It != C.Bodies.end())
        Work.insert(Work.end(), It->second.Names.begin(),
                    It->second.Names.end());
    }
    std::unique_ptr<MangleContext> Mangle(Ctx.createMangleContext());
    // Thrust algorithms the user's host code calls: map kernels, which the
    // device compilation makes and launches may run.
    std::set<std::string> Records, MapKernels;
    for (const FunctionDecl *FD : Reached) {
      auto It = C.Bodies.find(FD);
      if (It == C.Bodies.end() || !It->second.Host || It->second.Library)
        continue;
      for (const CallExpr *E : It->second.CallExprs)
        if (const FunctionDecl *Callee = E->getDirectCallee()) {
          std::string R =
              gpuad::describeAlgorithmCall(*E, *Callee, Ctx, *Mangle);
          if (R.empty() || !Records.insert(R).second)
            continue;
          llvm::SmallVector<llvm::StringRef, 12> Fields;
          llvm::StringRef(R).split(Fields, '\t');
          if (Fields.size() > 4 && Fields[4] == "ok")
            MapKernels.insert(Fields[3].str());
        }
    }
    AlgorithmCalls.clear();
    for (const std::string &R : Records)
      AlgorithmCalls += R + "\n";
    Analysed = true;
    if (!Ctx.getLangOpts().CUDAIsDevice)
      return;
    AnalysedDevice = true;
    Launched.clear();
    for (const std::string &K : MapKernels)
      Launched += K + "\n";
    for (const FunctionDecl *K : C.Kernels) {
      if (!Reached.count(canonical(K)))
        continue;
      std::string Name;
      llvm::raw_string_ostream OS(Name);
      if (Mangle->shouldMangleDeclName(K))
        Mangle->mangleName(GlobalDecl(K), OS);
      else
        OS << K->getName();
      Launched += Name + "\n";
    }
  }
};

class Action : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<Consumer>();
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

FrontendPluginRegistry::Add<Action>
    RegisterAction("gpuad-launched-kernels",
                   "find the kernels host requests may launch");

} // namespace

/// The mangled names of the kernels host requests of this file may launch,
/// one per line, or null where the analysis did not run (not a device
/// compilation).  Read by the pass plugin.
extern "C" __attribute__((visibility("default"))) const char *
gpuad_launched_kernels() {
  return AnalysedDevice ? Launched.c_str() : nullptr;
}

/// The records of the Thrust algorithm calls differentiated host code of
/// this file makes (LibraryAlgorithms.h), one per line, or null where the
/// analysis did not run.  Read by the pass plugin, in the host and the
/// device compilation.
extern "C" __attribute__((visibility("default"))) const char *
gpuad_algorithm_calls() {
  return Analysed ? AlgorithmCalls.c_str() : nullptr;
}
