//===- EnzymeAttributes.cpp - Enzyme's Clang attributes for gpuad ---------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// A Clang frontend plugin (`clang -fplugin=GPUADFrontend.so`; gpuad-cc
/// always loads it) that registers the attributes Enzyme's Clang plugin
/// accepts, in every spelling it accepts (`__attribute__((enzyme_inactive))`,
/// `[[enzyme_inactive]]`, `[[enzyme::inactive]]`, C23's `[[enzyme_inactive]]`),
/// and lowers each to an `annotate` attribute.  Clang emits those into
/// `llvm.global.annotations` for definitions and declarations alike, and the
/// pass plugin reads them there (Requests/Registrations): the same IR a
/// program gets by writing `__attribute__((annotate("enzyme_inactive")))`.
///
/// Without this plugin clang only warns "unknown attribute ignored" and the
/// IR keeps no trace of the attribute, so the pass cannot tell: the user
/// guide says so on its first page.
///
/// Annotations survive template instantiation (clang instantiates
/// `annotate` with the template), so the attributes work on templates and
/// members, on the host and in CUDA/HIP device code.
//===----------------------------------------------------------------------===//

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace {

/// What an attribute may be written on.
enum class Applies { Functions, FunctionsAndGlobals };

/// One row per Enzyme attribute: its name, its scoped C++ spelling, where it
/// may appear, whether it takes a string (`enzyme_function_like("log1p")`),
/// and the annotation it becomes (the string argument appended after '=').
struct AttributeRow {
  const char *Name;
  const char *Scoped;
  Applies Where;
  bool TakesString;
  const char *Annotation;
};

// The pass reads each annotation: enzyme_inactive (no derivative through the
// function or global), enzyme_function_like=NAME (the derivative rule of
// NAME), enzyme_nofree (LLVM's nofree); enzyme_shouldrecompute and
// enzyme_sparse_accumulate are hints that cannot change a result.
constexpr AttributeRow Inactive = {"enzyme_inactive", "enzyme::inactive",
                                   Applies::FunctionsAndGlobals, false,
                                   "enzyme_inactive"};
constexpr AttributeRow FunctionLike = {
    "enzyme_function_like", "enzyme::function_like", Applies::Functions, true,
    "enzyme_function_like"};
constexpr AttributeRow ShouldRecompute = {
    "enzyme_shouldrecompute", "enzyme::shouldrecompute",
    Applies::FunctionsAndGlobals, false, "enzyme_shouldrecompute"};
constexpr AttributeRow NoFree = {"enzyme_nofree", "enzyme::nofree",
                                 Applies::FunctionsAndGlobals, false,
                                 "enzyme_nofree"};
constexpr AttributeRow SparseAccumulate = {
    "enzyme_sparse_accumulate", "enzyme::sparse_accumulate", Applies::Functions,
    false, "enzyme_sparse_accumulate"};

/// An error with a message of our own at \p Loc.
void error(Sema &S, SourceLocation Loc, const Twine &Message) {
  unsigned ID =
      S.getDiagnostics().getCustomDiagID(DiagnosticsEngine::Error, "%0");
  S.Diag(Loc, ID) << Message.str();
}

template <const AttributeRow &Row> struct EnzymeAttribute : ParsedAttrInfo {
  EnzymeAttribute() {
    // Arguments are checked in handleDeclAttribute, with our own messages.
    OptArgs = 1;
    static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, Row.Name},
                                     {ParsedAttr::AS_C23, Row.Name},
                                     {ParsedAttr::AS_CXX11, Row.Name},
                                     {ParsedAttr::AS_CXX11, Row.Scoped}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D) || isa<FunctionTemplateDecl>(D))
      return true;
    bool Globals = Row.Where == Applies::FunctionsAndGlobals;
    if (Globals)
      if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasGlobalStorage())
        return true;
    // An error, not clang's usual warning: ignored, it would leave a
    // derivative the program asked not to have.
    error(S, Attr.getLoc(),
          Twine("'") + Row.Name + "' applies to " +
              (Globals ? "functions and global variables" : "functions") +
              " only");
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    std::string Text = Row.Annotation;
    if (Row.TakesString) {
      auto *Literal = Attr.getNumArgs() == 1 && Attr.isArgExpr(0)
                          ? dyn_cast<StringLiteral>(
                                Attr.getArgAsExpr(0)->IgnoreParenCasts())
                          : nullptr;
      if (!Literal) {
        error(S, Attr.getLoc(),
              Twine("'") + Row.Name +
                  "' takes one string literal: the name of the function it "
                  "behaves like, e.g. " +
                  Row.Name + "(\"log1p\")");
        return AttributeNotApplied;
      }
      Text += "=" + Literal->getString().str();
    } else if (Attr.getNumArgs() != 0) {
      error(S, Attr.getLoc(), Twine("'") + Row.Name + "' takes no arguments");
      return AttributeNotApplied;
    }
    D->addAttr(
        AnnotateAttr::Create(S.Context, Text, nullptr, 0, Attr.getRange()));
    return AttributeApplied;
  }
};

ParsedAttrInfoRegistry::Add<EnzymeAttribute<Inactive>>
    RegisterInactive(Inactive.Name, "no derivative through this");
ParsedAttrInfoRegistry::Add<EnzymeAttribute<FunctionLike>>
    RegisterFunctionLike(FunctionLike.Name,
                         "differentiate like the named function");
ParsedAttrInfoRegistry::Add<EnzymeAttribute<ShouldRecompute>>
    RegisterShouldRecompute(ShouldRecompute.Name, "recompute, do not cache");
ParsedAttrInfoRegistry::Add<EnzymeAttribute<NoFree>>
    RegisterNoFree(NoFree.Name, "frees no memory");
ParsedAttrInfoRegistry::Add<EnzymeAttribute<SparseAccumulate>>
    RegisterSparseAccumulate(SparseAccumulate.Name,
                             "accumulate adjoints sparsely");

} // namespace
