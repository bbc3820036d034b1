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
  EXPECT_FALSE(T.insert({0, 0, 0, 0, 0}, ConcreteType(ConcreteType::Integer)));
  EXPECT_TRUE(T.insert({1 << 20}, ConcreteType(ConcreteType::Integer)));
  EXPECT_EQ(T.at({-1}).kind(), ConcreteType::Integer);
}

TEST(TypeTree, WideningTerminates) {
  // Once many offsets are widened into -1, inserting them again adds
  // nothing: a solver that keeps visiting the same facts must reach a
  // fixed point, not widen and re-add them forever.
  TypeTree T;
  auto InsertAll = [&] {
    bool Changed = false;
    for (int Offset = 0; Offset < 8 * 40; Offset += 8)
      Changed |=
          T.insert({Offset}, Offset % 16 ? ConcreteType(ConcreteType::Integer)
                                         : ConcreteType(ConcreteType::Pointer));
    return Changed;
  };
  EXPECT_TRUE(InsertAll());
  EXPECT_FALSE(T.at({-1}).mayBeFloat());
  EXPECT_FALSE(InsertAll());
  EXPECT_FALSE(InsertAll());
}

TEST(TypeTree, ClippedKeepsTheCopiedBytesOnly) {
  LLVMContext C;
  Type *Double = Type::getDoubleTy(C);
  TypeTree T;
  T.insert({-1}, ConcreteType::floatOf(Double));
  T.insert({-1, 0}, ConcreteType(ConcreteType::Integer));
  // An array of doubles, 16 bytes of it copied: two doubles, and nothing
  // said past them.
  TypeTree Two = T.clipped(16);
  EXPECT_EQ(Two.at({0}).kind(), ConcreteType::Float);
  EXPECT_EQ(Two.at({8}).kind(), ConcreteType::Float);
  EXPECT_EQ(Two.at({16}).kind(), ConcreteType::Unknown);
  EXPECT_EQ(Two.at({8, 0}).kind(), ConcreteType::Integer);
  // Offsets at or past the end are dropped.
  TypeTree S;
  S.insert({0}, ConcreteType(ConcreteType::Pointer));
  S.insert({24}, ConcreteType::floatOf(Double));
  TypeTree Front = S.clipped(8);
  EXPECT_EQ(Front.at({0}).kind(), ConcreteType::Pointer);
  EXPECT_EQ(Front.at({24}).kind(), ConcreteType::Unknown);
}

} // namespace

TEST(TypeTree, ArrayElementEndsWhereTheElementsDisagree) {
  LLVMContext C;
  Type *Double = Type::getDoubleTy(C);
  // A pointer to an array member of three doubles, followed by an int, a
  // pointer and more: an element is a double, and the members after the
  // array are not folded into it.
  TypeTree Member;
  for (int Offset : {0, 8, 16})
    Member.insert({Offset}, ConcreteType::floatOf(Double));
  Member.insert({24}, ConcreteType(ConcreteType::Integer));
  Member.insert({64}, ConcreteType(ConcreteType::Pointer));
  Member.insert({64, 0}, ConcreteType::floatOf(Double));
  TypeTree Element = Member.arrayElement(8);
  EXPECT_EQ(Element.at({0}).kind(), ConcreteType::Float);
  EXPECT_EQ(Element.at({0, 0}).kind(), ConcreteType::Unknown);
  // An array of records {int; double} folds whole.
  TypeTree Records;
  for (int Offset = 0; Offset < 64; Offset += 16) {
    Records.insert({Offset}, ConcreteType(ConcreteType::Integer));
    Records.insert({Offset + 8}, ConcreteType::floatOf(Double));
  }
  TypeTree Record = Records.arrayElement(16);
  EXPECT_EQ(Record.at({0}).kind(), ConcreteType::Integer);
  EXPECT_EQ(Record.at({8}).kind(), ConcreteType::Float);
  // An every-offset fact holds in every element; facts at fixed offsets that
  // disagree with it are what follows the array.
  TypeTree Open;
  Open.insert({-1}, ConcreteType::floatOf(Double));
  Open.insert({32}, ConcreteType(ConcreteType::Integer));
  EXPECT_EQ(Open.arrayElement(8).at({0}).kind(), ConcreteType::Float);
}
