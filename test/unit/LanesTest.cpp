//===- LanesTest.cpp - Width-N shadow representation ----------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Support/Lanes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace gpuad;

namespace {

TEST(Lanes, WidthOneKeepsPrimalType) {
  LLVMContext C;
  Lanes L(1);
  Type *D = Type::getDoubleTy(C);
  EXPECT_EQ(L.shadowType(D), D);
  EXPECT_EQ(L.shadowType(PointerType::get(C, 0)), PointerType::get(C, 0));
  EXPECT_FALSE(L.isSimd(D));
}

TEST(Lanes, ScalarsBecomeVectorsOthersArrays) {
  LLVMContext C;
  Lanes L(4);
  Type *D = Type::getDoubleTy(C);
  Type *P = PointerType::get(C, 0);
  Type *V2 = FixedVectorType::get(Type::getFloatTy(C), 2);
  EXPECT_EQ(L.shadowType(D), FixedVectorType::get(D, 4));
  EXPECT_EQ(L.shadowType(Type::getInt64Ty(C)),
            FixedVectorType::get(Type::getInt64Ty(C), 4));
  EXPECT_EQ(L.shadowType(P), ArrayType::get(P, 4));
  EXPECT_EQ(L.shadowType(V2), ArrayType::get(V2, 4));
}

/// Builds `f(<N x double> s, double p) -> <N x double>` computing scale(p, s)
/// and checks the result is valid IR of the shadow type.
TEST(Lanes, ScaleAndAddAreLaneWise) {
  LLVMContext C;
  Module M("m", C);
  Type *D = Type::getDoubleTy(C);
  for (unsigned W : {1u, 2u, 4u}) {
    Lanes L(W);
    auto *FT = FunctionType::get(L.shadowType(D), {L.shadowType(D), D}, false);
    Function *F = Function::Create(FT, GlobalValue::ExternalLinkage,
                                   "f" + std::to_string(W), M);
    IRBuilder<> B(BasicBlock::Create(C, "entry", F));
    Value *S = L.scale(B, F->getArg(1), F->getArg(0), D);
    Value *Sum = L.add(B, S, F->getArg(0), D);
    EXPECT_EQ(Sum->getType(), L.shadowType(D));
    B.CreateRet(Sum);
    EXPECT_FALSE(verifyFunction(*F, &errs()));
  }
}

TEST(Lanes, ScaleByOneAndMinusOneAvoidsMultiplies) {
  LLVMContext C;
  Module M("m", C);
  Type *D = Type::getDoubleTy(C);
  Lanes L(2);
  auto *FT = FunctionType::get(L.shadowType(D), {L.shadowType(D)}, false);
  Function *F = Function::Create(FT, GlobalValue::ExternalLinkage, "g", M);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Same = L.scale(B, ConstantFP::get(D, 1.0), F->getArg(0), D);
  EXPECT_EQ(Same, F->getArg(0));
  Value *Neg = L.scale(B, ConstantFP::get(D, -1.0), F->getArg(0), D);
  auto *I = dyn_cast<Instruction>(Neg);
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->getOpcode(), Instruction::FNeg);
  B.CreateRet(Neg);
  EXPECT_FALSE(verifyFunction(*F, &errs()));
}

TEST(Lanes, PackAndExtractRoundTrip) {
  LLVMContext C;
  Module M("m", C);
  Type *P = PointerType::get(C, 0);
  Lanes L(3);
  auto *FT = FunctionType::get(P, {P, P, P}, false);
  Function *F = Function::Create(FT, GlobalValue::ExternalLinkage, "h", M);
  IRBuilder<> B(BasicBlock::Create(C, "entry", F));
  Value *Packed = L.pack(B, P, {F->getArg(0), F->getArg(1), F->getArg(2)});
  EXPECT_EQ(Packed->getType(), L.shadowType(P));
  Value *Lane1 = L.extract(B, Packed, P, 1);
  B.CreateRet(Lane1);
  EXPECT_FALSE(verifyFunction(*F, &errs()));
}

} // namespace
