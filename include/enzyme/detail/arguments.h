//===- enzyme/detail/arguments.h - How arguments pass -----------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// How enzyme::autodiff lowers to `__enzyme_fwddiff` / `__enzyme_autodiff`
/// (included by <enzyme/enzyme>; not a header of its own).
///
/// Each argument, given its activity wrapper W and f's parameter type P, is
/// passed one way (`how`), after its marker:
///   out      Active scalar: enzyme_out, x; the adjoint comes back in the
///            request's result;
///   value    enzyme_dup/const, x, dx...: scalars and pointers by value;
///   deref    the same from a wrapper of references (W<T &>): *x, *dx...;
///   address  a wrapper's value for a reference or class parameter: &x,
///            &dx...;
///   pointer  a wrapper of references for such a parameter: the addresses
///            it holds;
///   memory   Active for a class or reference parameter: enzyme_dup, &x,
///            &adj... with adj zeroed; the adjoint is read from adj.
/// A class passed by value reaches f through `thunk::call`, which takes it
/// by pointer (the parameter's type `q`), f as an enzyme_const argument
/// (gpuad binds it: the call is direct) and the memory for f's result, which
/// it constructs there.
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ENZYME_DETAIL_ARGUMENTS_H
#define GPUAD_ENZYME_DETAIL_ARGUMENTS_H

namespace enzyme {
namespace detail {

template <class... T> struct list {};
template <class... L> struct concat {
  using type = list<>;
};
template <class... A> struct concat<list<A...>> {
  using type = list<A...>;
};
template <class... A, class... B, class... R>
struct concat<list<A...>, list<B...>, R...> : concat<list<A..., B...>, R...> {};

/// A struct of the given members in order: the request's declared result
/// (gpuad fills it scalar by scalar) and the memory for adjoints.
template <std::size_t I, class T> struct leaf {
  T v;
};
template <class S, class... T> struct raw_impl;
template <std::size_t... I, class... T>
struct raw_impl<std::index_sequence<I...>, T...> : leaf<I, T>... {};
template <class... T>
struct raw : raw_impl<std::index_sequence_for<T...>, T...> {};
template <std::size_t I, class T> GPUAD_ENZYME_INLINE T &part(leaf<I, T> &l) {
  return l.v;
}

template <class T, std::size_t N>
using lanes_t = std::conditional_t<N == 1, T, std::array<T, N>>;
template <std::size_t N, class T>
GPUAD_ENZYME_INLINE lanes_t<T, N> lanes_of(const std::array<T, N> &a) {
  if constexpr (N == 1)
    return a[0];
  else
    return a;
}

// ---- Markers: each a load of its global where the request is made -------

enum class mark {
  dup,
  dupnoneed,
  constant,
  out,
  width,
  primal_return,
  const_return
};
template <mark M> GPUAD_ENZYME_INLINE int marker() {
  if constexpr (M == mark::dup)
    return enzyme_dup;
  else if constexpr (M == mark::dupnoneed)
    return enzyme_dupnoneed;
  else if constexpr (M == mark::constant)
    return enzyme_const;
  else if constexpr (M == mark::out)
    return enzyme_out;
  else if constexpr (M == mark::width)
    return enzyme_width;
  else if constexpr (M == mark::primal_return)
    return enzyme_primal_return;
  else
    return enzyme_const_return;
}

// ---- Arguments -----------------------------------------------------------

enum class act { none, active, dup, dupnoneed, constant };
template <class W> struct activity_of {
  static constexpr act kind = act::none;
  using type = W;
  static constexpr std::size_t width = 0;
};
template <act A, class T, std::size_t N> struct activity_is {
  static constexpr act kind = A;
  using type = T;
  static constexpr std::size_t width = N;
};
template <class T>
struct activity_of<Active<T>> : activity_is<act::active, T, 0> {};
template <class T>
struct activity_of<Duplicated<T>> : activity_is<act::dup, T, 1> {};
template <class T>
struct activity_of<DuplicatedNoNeed<T>> : activity_is<act::dupnoneed, T, 1> {};
template <class T, std::size_t N>
struct activity_of<BatchDuplicated<T, N>> : activity_is<act::dup, T, N> {};
template <class T, std::size_t N>
struct activity_of<BatchDuplicatedNoNeed<T, N>>
    : activity_is<act::dupnoneed, T, N> {};
template <class T>
struct activity_of<Const<T>> : activity_is<act::constant, T, 0> {};

/// The parameter a function object is called with for wrapper W.
template <class W>
using natural_t = typename activity_of<remove_cvref_t<W>>::type;

enum class how { out, value, deref, address, pointer, memory };
enum class err {
  none,
  reported,
  unwrapped,
  active_forward,
  active_pointer,
  active_type,
  integer,
  dup_reverse,
  dup_type,
  dup_mutable_ref,
  const_type,
  const_mutable_ref
};
struct lowering {
  how h;
  err e;
};

template <std::size_t L, class W> GPUAD_ENZYME_INLINE auto &shadow_ref(W &w) {
  if constexpr (std::is_array_v<decltype(w.shadow)>)
    return w.shadow[L];
  else
    return w.shadow;
}

/// Argument wrapper W (as received) for parameter P, in forward mode or not.
template <bool Fwd, class W, class P> struct arg {
  using A = activity_of<remove_cvref_t<W>>;
  using T = typename A::type;
  using U = remove_cvref_t<T>;
  using PV = remove_cvref_t<P>;
  static constexpr bool p_ref = std::is_reference_v<P>;
  static constexpr bool p_class =
      !p_ref && (std::is_class_v<PV> || std::is_union_v<PV>);
  static constexpr bool p_mutable_ref =
      std::is_lvalue_reference_v<P> &&
      !std::is_const_v<std::remove_reference_t<P>>;
  static constexpr bool w_ref = std::is_reference_v<T>;
  static constexpr bool same = std::is_same_v<U, PV>;
  /// A pointer given for a reference parameter (as Enzyme's own C++ API
  /// allows: a reference is its address): passed as that address.
  static constexpr bool pointer_for_ref =
      p_ref && std::is_pointer_v<T> &&
      std::is_convertible_v<T, std::remove_reference_t<P> *>;

  /// Whether the wrapper's own static_assert has told of a misuse.
  static constexpr bool reported =
      is_shadow_mismatch_v<U> || A::width > 64 ||
      (A::kind == act::active &&
       (std::is_pointer_v<T> || std::is_reference_v<T> || is_integer_v<T> ||
        !std::is_trivially_copyable_v<T>));

  static constexpr lowering choose() {
    if (reported)
      return {how::value, err::reported};
    switch (A::kind) {
    case act::none:
      return {how::value, err::unwrapped};
    case act::active:
      if (Fwd)
        return {how::value, err::active_forward};
      if (std::is_pointer_v<PV>)
        return {how::value, err::active_pointer};
      if (!same)
        return {how::value, err::active_type};
      return {p_ref || p_class ? how::memory : how::out, err::none};
    case act::dup:
    case act::dupnoneed:
      if (pointer_for_ref)
        return {how::value, err::none};
      if (std::is_pointer_v<T>)
        return {how::value,
                !p_ref && std::is_convertible_v<T, PV> && std::is_pointer_v<PV>
                    ? err::none
                    : err::dup_type};
      if (is_integer_v<U>)
        return {how::value, err::integer};
      if (!same)
        return {how::value, err::dup_type};
      if (w_ref && p_ref)
        return {how::pointer,
                std::is_convertible_v<T, P> ? err::none : err::dup_type};
      if (!Fwd)
        return {how::value, err::dup_reverse};
      if (w_ref)
        return {p_class ? how::pointer : how::deref, err::none};
      if (p_mutable_ref)
        return {how::value, err::dup_mutable_ref};
      return {p_ref || p_class ? how::address : how::value, err::none};
    case act::constant:
      if (pointer_for_ref)
        return {how::value, err::none};
      if (w_ref && p_ref)
        return {how::pointer,
                std::is_convertible_v<T, P> ? err::none : err::const_type};
      if (w_ref)
        return {p_class ? how::pointer : how::deref,
                same || (!p_class && std::is_convertible_v<U, PV>)
                    ? err::none
                    : err::const_type};
      if (p_mutable_ref)
        return {how::value, err::const_mutable_ref};
      if (p_ref || p_class)
        return {how::address, same ? err::none : err::const_type};
      return {how::value,
              std::is_convertible_v<T, PV> ? err::none : err::const_type};
    }
    return {how::value, err::unwrapped};
  }
  static constexpr lowering L = choose();
  static constexpr bool ok = L.e == err::none;
  static constexpr bool needs_thunk = p_class;
  static constexpr std::size_t width = A::width;

  /// The type this argument reaches the differentiated function as.
  using q = std::conditional_t<p_ref, std::remove_reference_t<P> *,
                               std::conditional_t<p_class, const PV *, PV>>;
  GPUAD_ENZYME_INLINE static P unwrap(q x) {
    if constexpr (p_ref || p_class)
      return static_cast<P>(*x);
    else
      return x;
  }

  static constexpr std::size_t lanes(std::size_t N) {
    return L.h == how::memory || A::kind == act::dup ||
                   A::kind == act::dupnoneed
               ? N
               : 0;
  }
  static constexpr mark marker_kind =
      L.h == how::out                             ? mark::out
      : L.h == how::memory || A::kind == act::dup ? mark::dup
      : A::kind == act::dupnoneed                 ? mark::dupnoneed
                                                  : mark::constant;

  /// Part 0 is the marker, 1 the primal, 2 + l the shadow of lane l.
  template <std::size_t Part, class Wr, class Adj>
  GPUAD_ENZYME_INLINE static auto emit(Wr &w, Adj &adj) {
    if constexpr (Part == 0)
      return marker<marker_kind>();
    else if constexpr (Part == 1)
      return pass(w.value);
    else if constexpr (L.h == how::memory)
      return static_cast<q>(&adj[Part - 2]);
    else
      return pass(shadow_ref<Part - 2>(w));
  }
  template <class V> GPUAD_ENZYME_INLINE static q pass(V &v) {
    if constexpr (L.h == how::deref)
      return static_cast<q>(*v);
    else if constexpr (L.h == how::address || L.h == how::memory)
      return static_cast<q>(const_cast<U *>(&v));
    else
      return static_cast<q>(v);
  }
};

// ---- The function ----------------------------------------------------------

enum class fk { object, function, variadic, other };
template <class F> struct fn_traits {
  static constexpr fk kind = std::is_class_v<F> ? fk::object : fk::other;
};
template <class R, class... P> struct fn_traits<R (*)(P...)> {
  static constexpr fk kind = fk::function;
  using ret = R;
  using params = list<P...>;
  static constexpr std::size_t arity = sizeof...(P);
};
template <class R, class... P>
struct fn_traits<R (*)(P...) noexcept> : fn_traits<R (*)(P...)> {};
template <class R, class... P> struct fn_traits<R (*)(P..., ...)> {
  static constexpr fk kind = fk::variadic;
};
template <class R, class... P>
struct fn_traits<R (*)(P..., ...) noexcept> : fn_traits<R (*)(P..., ...)> {};

template <class Fn, class... X>
GPUAD_ENZYME_INLINE decltype(auto) invoke(Fn fn, X &&...x) {
  if constexpr (std::is_function_v<std::remove_pointer_t<Fn>>)
    return fn(static_cast<X &&>(x)...);
  else
    return (*fn)(static_cast<X &&>(x)...);
}

/// What the request differentiates when an argument or the result cannot
/// be passed as it is: f (an enzyme_const argument), f's result's memory,
/// and each argument as its `q`.
template <class Fn, class R, class... A> struct thunk {
  GPUAD_ENZYME_HD static void call(Fn fn, R *out, typename A::q... x) {
    // Constructed in place: `out` is raw storage (a std::vector result is
    // f's own sret memory).
    ::new ((void *)out) R(invoke(fn, A::unwrap(x)...));
  }
};
template <class Fn, class... A> struct thunk<Fn, void, A...> {
  GPUAD_ENZYME_HD static void call(Fn fn, typename A::q... x) {
    invoke(fn, A::unwrap(x)...);
  }
};

template <class M> struct mode_traits {
  static constexpr bool valid = false, fwd = false, primal = false;
};
template <bool P> struct mode_traits<ForwardMode<P>> {
  static constexpr bool valid = true, fwd = true, primal = P;
};
template <bool P> struct mode_traits<ReverseMode<P>> {
  static constexpr bool valid = true, fwd = false, primal = P;
};

} // namespace detail
} // namespace enzyme

#endif // GPUAD_ENZYME_DETAIL_ARGUMENTS_H
