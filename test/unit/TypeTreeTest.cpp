//===- TypeTreeTest.cpp - The type lattice --------------------------------===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//

#include "Analysis/TypeTree.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Type.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace gpuad;

namespace {

TEST(ConcreteType, JoinIsMonotone) {
  LLVMContext C;
  ConcreteType T;
  EXPECT_FALSE(T.isKnown());
  EXPECT_TRUE(T.join(ConcreteType::floatOf(Type::getDoubleTy(C))));
  EXPECT_FALSE(T.join(ConcreteType::floatOf(Type::getDoubleTy(C))));
  EXPECT_FALSE(T.join(ConcreteType()));
  EXPECT_EQ(T.kind(), ConcreteType::Float);
  // Two different facts about the same bytes: Anything, and it stays there.
  EXPECT_TRUE(T.join(ConcreteType(ConcreteType::Integer)));
  EXPECT_EQ(T.kind(), ConcreteType::Anything);
  EXPECT_FALSE(T.join(ConcreteType::floatOf(Type::getFloatTy(C))));
}

TEST(ConcreteType, AnythingRemembersWhetherAFloatWasAmongItsFacts) {
  LLVMContext C;
  ConcreteType IntOrPtr(ConcreteType::Integer);
  EXPECT_TRUE(IntOrPtr.join(ConcreteType(ConcreteType::Pointer)));
  EXPECT_EQ(IntOrPtr.kind(), ConcreteType::Anything);
  EXPECT_FALSE(IntOrPtr.mayBeFloat());
  EXPECT_FALSE(IntOrPtr.join(ConcreteType(ConcreteType::Integer)));
  // A float joined later is a change: the bytes may now be a float's.
  EXPECT_TRUE(IntOrPtr.join(ConcreteType::floatOf(Type::getDoubleTy(C))));
  EXPECT_TRUE(IntOrPtr.mayBeFloat());
  // Anything of unknown origin may be anything.
  EXPECT_TRUE(ConcreteType(ConcreteType::Anything).mayBeFloat());
}

TEST(ConcreteType, FloatWidthsConflict) {
  LLVMContext C;
  ConcreteType T = ConcreteType::floatOf(Type::getDoubleTy(C));
  EXPECT_TRUE(T.join(ConcreteType::floatOf(Type::getFloatTy(C))));
  EXPECT_EQ(T.kind(), ConcreteType::Anything);
}

TEST(TypeTree, AnyOffsetCoversEveryOffset) {
  TypeTree T;
  T.insert({-1}, ConcreteType(ConcreteType::Integer));
  EXPECT_EQ(T.at({16}).kind(), ConcreteType::Integer);
  EXPECT_EQ(T.at({}).kind(), ConcreteType::Unknown);
}

TEST(TypeTree, ShiftAndChild) {
  LLVMContext C;
  TypeTree T;
  T.insert({0}, ConcreteType(ConcreteType::Pointer));
  T.insert({8}, ConcreteType::floatOf(Type::getDoubleTy(C)));
  T.insert({0, 4}, ConcreteType(ConcreteType::Integer));
  // The memory 8 bytes further on starts with the double.
  TypeTree S = T.shifted(-8, 8);
  EXPECT_EQ(S.at({0}).kind(), ConcreteType::Float);
  EXPECT_EQ(S.at({8}).kind(), ConcreteType::Unknown);
  // What the pointer at offset 0 points to.
  TypeTree Inner = T.child({0});
  EXPECT_EQ(Inner.at({}).kind(), ConcreteType::Pointer);
  EXPECT_EQ(Inner.at({4}).kind(), ConcreteType::Integer);
}

TEST(TypeTree, FoldedIsModuloStride) {
  LLVMContext C;
  TypeTree T;
  T.insert({24}, ConcreteType::floatOf(Type::getDoubleTy(C)));
  TypeTree F = T.folded(16);
  EXPECT_EQ(F.at({8}).kind(), ConcreteType::Float);
}

TEST(TypeTree, DepthAndOffsetsAreBounded) {
  TypeTree T;
  EXPECT_FALSE(T.insert({0, 0, 0, 0}, ConcreteType(ConcreteType::Integer)));
  EXPECT_TRUE(T.insert({1 << 20}, ConcreteType(ConcreteType::Integer)));
  EXPECT_EQ(T.at({-1}).kind(), ConcreteType::Integer);
}

} // namespace
