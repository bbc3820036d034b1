//===- enzyme/detail/checks.h - Misuse as static_asserts --------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// The checks of an enzyme::autodiff call: each misuse is a static_assert
/// whose message says what to write instead (included by <enzyme/enzyme>).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ENZYME_DETAIL_CHECKS_H
#define GPUAD_ENZYME_DETAIL_CHECKS_H

namespace enzyme {
namespace detail {

template <std::size_t I, class A> struct check_arg {
  static constexpr err e = A::L.e;
  static_assert(e != err::unwrapped,
                "enzyme::autodiff: wrap every argument in an activity: "
                "enzyme::Active{x}, enzyme::Duplicated{x, dx}, "
                "enzyme::DuplicatedNoNeed{x, dx}, enzyme::BatchDuplicated{x, "
                "dx0, dx1, ...} or enzyme::Const{x}");
  static_assert(e != err::active_forward,
                "enzyme::Active in forward mode: forward mode propagates "
                "tangents; pass enzyme::Duplicated{x, dx} (dx = 1.0 for the "
                "derivative in x)");
  static_assert(e != err::active_pointer,
                "enzyme::Active for a pointer parameter: pass "
                "enzyme::Duplicated{p, dp}; reverse mode adds the gradient "
                "to *dp");
  static_assert(e != err::active_type,
                "enzyme::Active<T>: T must be the parameter's type, without "
                "const or reference");
  static_assert(e != err::integer,
                "enzyme::Active/Duplicated on an integer: integers carry no "
                "derivative; pass enzyme::Const{n}");
  static_assert(e != err::dup_reverse,
                "enzyme::Duplicated on a value in reverse mode: the adjoint of "
                "a copy has nowhere to go; pass enzyme::Active{x} (its adjoint "
                "is returned), or Duplicated{&x, &dx} / Duplicated<T &>{x, dx} "
                "for a pointer / reference parameter (the adjoint is added to "
                "dx)");
  static_assert(e != err::dup_type,
                "enzyme::Duplicated<T>: T does not match the parameter (a "
                "pointer parameter takes Duplicated<U *>, a reference "
                "parameter Duplicated<U &> or Duplicated<U *>, a value "
                "parameter Duplicated<U>, U its type)");
  static_assert(e != err::dup_mutable_ref,
                "enzyme::Duplicated<T> for a non-const reference parameter: "
                "pass enzyme::Duplicated<T &>{x, dx}");
  static_assert(e != err::const_type,
                "enzyme::Const<T>: T does not convert to the parameter's type");
  static_assert(e != err::const_mutable_ref,
                "enzyme::Const<T> for a non-const reference parameter: pass "
                "enzyme::Const<T &>{x} so that the function's changes reach x");
};

template <std::size_t Want, std::size_t Given> struct check_arity {
  static_assert(Want == Given,
                "enzyme::autodiff: pass one argument per parameter of the "
                "function (requirement: parameters == arguments)");
};

/// RetActivity: void (the mode's default) or Active/Const/Duplicated/
/// DuplicatedNoNeed of the function's return type R.
template <bool Fwd, class RA, class R> struct ret_activity {
  static constexpr act kind = activity_of<RA>::kind;
  using T = typename activity_of<RA>::type;
  static constexpr bool named = std::is_void_v<RA> || kind != act::none;
  static constexpr bool same = std::is_void_v<RA> || std::is_same_v<T, R>;
  static constexpr bool fits_mode =
      Fwd ? kind != act::active
          : kind == act::none || kind == act::active || kind == act::constant;
  static constexpr bool seedable =
      Fwd || kind != act::active || std::is_floating_point_v<R>;
  static constexpr bool ok = named && same && fits_mode && seedable;
};
template <class RA> struct check_ret {
  static_assert(RA::named,
                "enzyme::autodiff<Mode, RetActivity>: RetActivity is "
                "enzyme::Active<R>, Const<R>, Duplicated<R> or "
                "DuplicatedNoNeed<R>, R the function's return type");
  static_assert(RA::same, "enzyme::autodiff<Mode, RetActivity<T>>: T must be "
                          "the function's return type");
  static_assert(RA::fits_mode,
                "enzyme::autodiff<Mode, RetActivity>: in forward mode the "
                "return is Duplicated, DuplicatedNoNeed or Const; in reverse "
                "mode Active (seeded with 1) or Const");
  static_assert(RA::seedable,
                "enzyme::autodiff<Reverse, Active<R>>: only a floating-point "
                "return can be seeded; for R's derivative write R through a "
                "Duplicated pointer argument");
};

/// Facts about a call's arguments (index i + 1 for argument i).
template <class L> struct table;
template <class... A> struct table<list<A...>> {
  static constexpr std::size_t width[] = {0, A::width...};
  static constexpr how ways[] = {how::value, A::L.h...};
  static constexpr act kinds[] = {act::none, A::A::kind...};
  static constexpr bool thunk = (false || ... || A::needs_thunk);
  static constexpr bool ok = (true && ... && A::ok);
  static constexpr std::size_t n = sizeof...(A);

  static constexpr std::size_t N() {
    std::size_t w = 1;
    for (std::size_t x : width)
      w = x > w ? x : w;
    return w;
  }
  static constexpr bool same_width() {
    for (std::size_t x : width)
      if (x != 0 && x != N())
        return false;
    return true;
  }
  /// How many of the first \p i arguments return their adjoint (enzyme_out).
  static constexpr std::size_t outs_before(std::size_t i) {
    std::size_t k = 0;
    for (std::size_t j = 0; j < i; ++j)
      k += ways[j + 1] == how::out;
    return k;
  }
  static constexpr std::size_t actives() {
    std::size_t k = 0;
    for (std::size_t j = 0; j < n; ++j)
      k += kinds[j + 1] == act::active;
    return k;
  }
  /// The argument of the k-th Active.
  static constexpr std::size_t active(std::size_t k) {
    for (std::size_t j = 0; j < n; ++j)
      if (kinds[j + 1] == act::active && k-- == 0)
        return j;
    return 0;
  }
};

/// The misuse checks of a call's arguments, as one class.
template <class L, class Seq> struct check_args {};
template <class... A, std::size_t... I>
struct check_args<list<A...>, std::index_sequence<I...>>
    : check_arg<I + 1, A>... {};

} // namespace detail
} // namespace enzyme

#endif // GPUAD_ENZYME_DETAIL_CHECKS_H
