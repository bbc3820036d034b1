//===- AlgorithmCalls.h - Thrust algorithm calls run as map kernels -*- C++
//-*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// gpuad does not differentiate a GPU library's own kernels.  A call from
/// differentiated host code to one of the Thrust algorithms
///
///   thrust::transform(policy, first, last, out, f)          (and binary)
///   thrust::for_each(policy, first, last, f)
///   thrust::reduce(policy, first, last[, init[, plus]])
///   thrust::transform_reduce(policy, first, last, f, init, plus)
///
/// on device data (thrust::device; raw pointers, device_ptr, device_vector
/// iterators) runs instead as a *map kernel* of gpuad's own: thread i
/// applies the functor to element i (a sum adds its value to a device cell
/// atomically).  The host side (Normalize/AlgorithmCalls.h) turns the call
/// into a launch of it with runtime calls around it, which the host/device
/// machinery differentiates as any launch; the device side
/// (Requests/MapKernels.h) makes the kernel, whose derivative kernels are
/// then made as any launched kernel's.
///
/// What the functor is -- which `operator()` the library calls, how the
/// functor is laid out -- only the AST knows: the frontend plugin
/// (frontend/LibraryAlgorithms.cpp) writes one record per call, tab
/// separated:
///
///   callee  algorithm  form  kernel  status  inputs  output  operator
///   passing  functor  leaves  params
///
///  - callee: the algorithm's mangled name; algorithm: "thrust::reduce";
///  - form: transform | transform2 | for_each | reduce | transform_reduce;
///  - kernel: the map kernel's name (the same in both compilations);
///  - status: "ok", or why gpuad cannot run the call (then an error);
///  - inputs: the input elements' types (f32, f64, i8..i64), comma
///    separated; output: the output elements' or the sum's type, or "-";
///  - operator: the mangled `operator()` the library calls ("-": none);
///    passing: per element 'v' (by value) or 'r' (by reference), ':' and
///    the result's type or "void";
///  - functor: "size,align,how" (how the host ABI passes it: empty, regs
///    -- one IR argument per eightbyte --, memory -- byval);
///  - leaves: the functor's scalar fields, "offset:type" separated by ';',
///    or "-";
///  - params: the algorithm's parameters, a letter each: P the execution
///    policy, I an iterator, F the functor, T the initial value, B the
///    binary operation (addition, an empty class).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_RULES_ALGORITHMCALLS_H
#define GPUAD_RULES_ALGORITHMCALLS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class LLVMContext;
class Type;
} // namespace llvm

namespace gpuad {

/// One call's record.
struct AlgorithmCall {
  enum class Form { Transform, Transform2, ForEach, Reduce, TransformReduce };
  enum class Passing { Empty, Registers, Memory };

  std::string Callee, Algorithm, Kernel, Status;
  Form Shape = Form::Transform;
  llvm::SmallVector<std::string, 2> Inputs;
  std::string Output, Operator;
  /// Per element: whether operator() takes it by reference.
  llvm::SmallVector<bool, 2> ByReference;
  std::string Returns;
  uint64_t Size = 0, Align = 1;
  Passing How = Passing::Empty;
  llvm::SmallVector<std::pair<uint64_t, std::string>, 8> Leaves;
  std::string Params;

  bool ok() const { return Status == "ok"; }
  bool sums() const {
    return Shape == Form::Reduce || Shape == Form::TransformReduce;
  }
  bool hasFunctor() const { return Shape != Form::Reduce; }
  /// Input iterators, then the output's where there is one.
  unsigned numPointers() const {
    return Inputs.size() + (Shape == Form::ForEach ? 0 : 1);
  }

  static std::optional<AlgorithmCall> parse(llvm::StringRef Line);
};

/// The records of this compilation's calls, by callee, as the frontend
/// plugin (loaded in this clang process) wrote them; none where it did not
/// run (plain clang without -fplugin, opt).
std::optional<llvm::StringMap<AlgorithmCall>> algorithmCalls();

/// The IR type of a record's type code (f32, f64, i8..i64, ptr).
llvm::Type *algorithmType(llvm::StringRef Code, llvm::LLVMContext &C);

} // namespace gpuad

#endif // GPUAD_RULES_ALGORITHMCALLS_H
