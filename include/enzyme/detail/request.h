//===- enzyme/detail/request.h - One autodiff() call ------------*- C++ -*-===//
//
// Part of gpuad.
//
//===----------------------------------------------------------------------===//
/// \file
/// detail::call<Mode, RetActivity, F, Args...> is one enzyme::autodiff
/// call: it lists the request's arguments as slots -- each an always-inline
/// function of the call's frame, so that at -O0 a marker is still a load of
/// its global and a width a constant -- makes the request, and builds
/// Enzyme's result tuple (included by <enzyme/enzyme>).
//===----------------------------------------------------------------------===//

#ifndef GPUAD_ENZYME_DETAIL_REQUEST_H
#define GPUAD_ENZYME_DETAIL_REQUEST_H

namespace enzyme {
namespace detail {

/// A type the entry point's template may name: a local class, or a lambda,
/// in it would leave the declaration without linkage, so pointers travel as
/// void * and enums as their integers.
template <class T, class = void> struct erased {
  using type = T;
};
template <class T> struct erased<T, std::enable_if_t<std::is_pointer_v<T>>> {
  using type = void *;
};
template <class T> struct erased<T, std::enable_if_t<std::is_enum_v<T>>> {
  using type = std::underlying_type_t<T>;
};
template <class T> using erased_t = typename erased<T>::type;
template <class T> GPUAD_ENZYME_INLINE erased_t<T> erase(T x) {
  return (erased_t<T>)x;
}

template <std::size_t V> struct number_slot {
  template <class Fr> GPUAD_ENZYME_INLINE static int get(Fr &) {
    return static_cast<int>(V);
  }
};
template <mark M> struct marker_slot {
  template <class Fr> GPUAD_ENZYME_INLINE static int get(Fr &) {
    return marker<M>();
  }
};
/// The memory for f's result: part 0 the primal, 1 + l lane l's shadow.
template <std::size_t Part> struct out_slot {
  template <class Fr> GPUAD_ENZYME_INLINE static auto get(Fr &fr) {
    if constexpr (Part == 0)
      return (void *)&part<0>(fr.out);
    else
      return (void *)&part<1>(fr.out)[Part - 1];
  }
};
template <std::size_t I, std::size_t Part, class A> struct arg_slot {
  template <class Fr> GPUAD_ENZYME_INLINE static auto get(Fr &fr) {
    if constexpr (Part == 0) // a marker: returned as loaded
      return A::template emit<Part>(*part<I>(fr.ws), part<I>(fr.adj));
    else
      return erase(A::template emit<Part>(*part<I>(fr.ws), part<I>(fr.adj)));
  }
};
template <template <std::size_t> class S, std::size_t First, class Seq>
struct slots;
template <template <std::size_t> class S, std::size_t First, std::size_t... L>
struct slots<S, First, std::index_sequence<L...>> {
  using type = list<S<First + L>...>;
};
template <std::size_t I, class A> struct arg_part {
  template <std::size_t Part> using slot = arg_slot<I, Part, A>;
};

template <class Raw, bool Fwd, class... S, class Fr>
GPUAD_ENZYME_INLINE Raw request(void *f, Fr &fr, list<S...>) {
  if constexpr (Fwd)
    return __enzyme_fwddiff<Raw>(f, S::get(fr)...);
  else
    return __enzyme_autodiff<Raw>(f, S::get(fr)...);
}
template <class Raw, bool Fwd, class... S, class Fr>
GPUAD_ENZYME_INLINE Raw request(void *thunk, void *fn, Fr &fr, list<S...>) {
  if constexpr (Fwd)
    return __enzyme_fwddiff<Raw>(thunk, enzyme_const, fn, S::get(fr)...);
  else
    return __enzyme_autodiff<Raw>(thunk, enzyme_const, fn, S::get(fr)...);
}

struct nothing {};
template <class A, std::size_t N>
using adjoint_memory =
    std::conditional_t<A::L.h == how::memory, std::array<typename A::PV, N>,
                       nothing>;

template <class Raw> struct raw_of {
  using type = Raw;
};
template <> struct raw_of<raw<>> {
  using type = void;
};
template <class L> struct raw_from;
template <class... T> struct raw_from<list<T...>> {
  using type = typename raw_of<raw<T...>>::type;
};

/// The call's argument list: each wrapper with its parameter (f's, or the
/// type the wrapper names for a function object).
template <std::size_t I, class L> struct at;
template <std::size_t I, class H, class... T>
struct at<I, list<H, T...>> : at<I - 1, list<T...>> {};
template <class H, class... T> struct at<0, list<H, T...>> {
  using type = H;
};

template <bool Fwd, class W, class P> struct zip;
template <bool Fwd, class... W, class... P>
struct zip<Fwd, list<W...>, list<P...>> {
  using type = list<arg<Fwd, W, P>...>;
};

template <class FT, class Natural, bool Check> struct params_of {
  using type = Natural;
};
template <class FT, class Natural> struct params_of<FT, Natural, true> {
  using type = typename FT::params;
};
template <class F, class L, class = void> struct result_of {
  using type = void;
  static constexpr bool ok = false;
};
template <class F, class... P>
struct result_of<
    F, list<P...>,
    std::void_t<decltype(std::declval<F &>()(std::declval<P>()...))>> {
  using type = decltype(std::declval<F &>()(std::declval<P>()...));
  static constexpr bool ok = true;
};

template <class FT, class Object, fk Kind = FT::kind> struct result_type {
  using type = void;
};
template <class FT, class Object> struct result_type<FT, Object, fk::function> {
  using type = typename FT::ret;
};
template <class FT, class Object> struct result_type<FT, Object, fk::object> {
  using type = typename Object::type;
};
template <class FT, std::size_t N, fk Kind = FT::kind>
struct arity_of : std::integral_constant<std::size_t, N> {};
template <class FT, std::size_t N>
struct arity_of<FT, N, fk::function>
    : std::integral_constant<std::size_t, FT::arity> {};

/// Room for one T that the request constructs (the thunk writes f's result
/// there); the result is moved out of it and destroyed there, so a class
/// that owns memory (std::vector) is returned as it is, its tangent too.
template <class T> struct storage {
  alignas(T) unsigned char bytes[sizeof(T)];
};
template <class T> GPUAD_ENZYME_INLINE T &object(storage<T> &s) {
  return *std::launder(reinterpret_cast<T *>(s.bytes));
}
template <class T> GPUAD_ENZYME_INLINE T take(storage<T> &s) {
  T v(std::move(object(s)));
  object(s).~T();
  return v;
}
template <class T, std::size_t... L>
GPUAD_ENZYME_INLINE std::array<T, sizeof...(L)>
take_lanes(std::array<storage<T>, sizeof...(L)> &s, std::index_sequence<L...>) {
  return {take(s[L])...};
}

template <class RV, std::size_t N, bool Memory> struct out_memory {
  using type = nothing;
};
template <class RV, std::size_t N> struct out_memory<RV, N, true> {
  using type = raw<storage<RV>, std::array<storage<RV>, N>>;
};

template <class L, std::size_t N> struct request_parts;
template <class... A, std::size_t N> struct request_parts<list<A...>, N> {
  /// The adjoints enzyme_out returns, in order.
  using outs = typename concat<std::conditional_t<
      A::L.h == how::out, list<lanes_t<typename A::PV, N>>, list<>>...>::type;
  /// Each argument's memory for its adjoint.
  using adjoints = raw<adjoint_memory<A, N>...>;
  template <class Fn, class RV> using thunk_type = thunk<Fn, RV, A...>;
};
template <class L, class Seq, std::size_t N> struct argument_slots;
template <class... A, std::size_t... I, std::size_t N>
struct argument_slots<list<A...>, std::index_sequence<I...>, N> {
  using type = typename concat<
      typename slots<arg_part<I, A>::template slot, 0,
                     std::make_index_sequence<2 + A::lanes(N)>>::type...>::type;
};
template <class... L> using concat_t = typename concat<L...>::type;
template <bool B, class L> using only_if = std::conditional_t<B, L, list<>>;

template <class Mode, class RetActivity, class F, class... Args> struct call {
  using M = mode_traits<Mode>;
  static_assert(M::valid, "enzyme::autodiff<Mode>: Mode is enzyme::Forward, "
                          "ForwardWithPrimal, Reverse or ReverseWithPrimal");
  static constexpr bool fwd = M::fwd;
  using FT = fn_traits<F>;
  static_assert(
      FT::kind != fk::variadic,
      "enzyme::autodiff: a variadic function cannot be differentiated");
  static_assert(FT::kind != fk::other,
                "enzyme::autodiff: pass a function, a function pointer or a "
                "function object (for a member function, a lambda that calls "
                "it)");
  static constexpr bool is_object = FT::kind == fk::object;
  static constexpr bool is_function = FT::kind == fk::function;
  static constexpr std::size_t n = sizeof...(Args);
  static constexpr bool arity_ok = arity_of<FT, n>::value == n;
  using natural = list<natural_t<Args>...>;
  using params = typename params_of<FT, natural, is_function && arity_ok>::type;
  using object_result = result_of<F, natural>;
  static_assert(!is_object || object_result::ok,
                "enzyme::autodiff: the function object cannot be called with "
                "the arguments' types");
  using R = typename result_type<FT, object_result>::type;
  using args = typename zip<fwd, list<Args...>, params>::type;
  template <std::size_t I> using arg_t = typename at<I, args>::type;
  using T = table<args>;
  static constexpr std::size_t N = T::N();
  static_assert(T::same_width(),
                "enzyme::BatchDuplicated: the batched arguments of one call "
                "must have the same width, and plain Duplicated arguments "
                "(width 1) cannot join them");

  // The return.
  using RV = std::remove_cv_t<R>;
  static_assert(!std::is_reference_v<R>,
                "enzyme::autodiff: the function returns a reference; return "
                "a value, or write through a Duplicated pointer argument");
  static constexpr bool r_void = std::is_void_v<RV>;
  static constexpr bool r_class = std::is_class_v<RV> || std::is_union_v<RV>;
  static constexpr bool r_ok = !r_class || std::is_move_constructible_v<RV>;
  static_assert(r_ok, "enzyme::autodiff: a returned class must be "
                      "move-constructible (it is moved out of the memory the "
                      "request writes it to)");
  /// A class owning memory: its primal, and a shadow it holds, are always
  /// constructed (enzyme_dup), so that what the call allocated for them is
  /// destroyed when the result does not take it.
  static constexpr bool r_owning = r_class && !std::is_trivially_copyable_v<RV>;
  using RA = ret_activity<fwd, RetActivity, RV>;
  static constexpr bool ret_primal =
      !r_void && (M::primal ||
                  (fwd && (RA::kind == act::dup || RA::kind == act::constant)));
  static constexpr bool ret_shadow =
      !r_void && RA::kind != act::constant &&
      (std::is_floating_point_v<RV> ||
       (fwd && (std::is_pointer_v<RV> || r_class)));

  static constexpr bool callable =
      M::valid && (is_function || (is_object && object_result::ok)) && arity_ok;
  static constexpr bool valid = callable && T::same_width() &&
                                !std::is_reference_v<R> && r_ok && RA::ok &&
                                T::ok;
  /// Its static_asserts are the misuse messages; autodiff instantiates it
  /// (the arguments' only when the function and their number are right).
  struct diagnostics
      : check_arity<arity_of<FT, n>::value, n>,
        check_ret<RA>,
        std::conditional_t<callable,
                           check_args<args, std::index_sequence_for<Args...>>,
                           list<>> {};

  // The request: f itself, or thunk::call with f's result in memory.
  static constexpr bool thunked = is_object || r_class || T::thunk;
  using Fn = std::conditional_t<is_object, F *, F>;
  using parts = request_parts<args, N>;
  static constexpr bool raw_primal = ret_primal && !thunked;
  static constexpr bool raw_tangent = fwd && ret_shadow && !thunked;
  using Raw = typename raw_from<
      concat_t<only_if<raw_primal, list<erased_t<RV>>>,
               only_if<raw_tangent, list<lanes_t<erased_t<RV>, N>>>,
               typename parts::outs>>::type;
  static constexpr std::size_t raw_outs = raw_primal + raw_tangent;

  struct frame {
    raw<std::remove_reference_t<Args> *...> ws;
    typename parts::adjoints adj;
    typename out_memory<RV, N, thunked && !r_void>::type out;
  };

  static constexpr bool out_shadow = ret_shadow || r_owning;
  static constexpr mark out_mark = !out_shadow ? mark::constant
                                   : fwd && !ret_primal && !r_owning
                                       ? mark::dupnoneed
                                       : mark::dup;
  using slot_list = concat_t<
      only_if<(N > 1), list<marker_slot<mark::width>, number_slot<N>>>,
      only_if<raw_primal, list<marker_slot<mark::primal_return>>>,
      only_if<!thunked && !r_void && !ret_shadow,
              list<marker_slot<mark::const_return>>>,
      only_if<thunked && !r_void,
              concat_t<list<marker_slot<out_mark>>,
                       typename slots<out_slot, 0,
                                      std::make_index_sequence<
                                          1 + (out_shadow ? N : 0)>>::type>>,
      typename argument_slots<args, std::make_index_sequence<n>, N>::type>;

  template <std::size_t... I>
  GPUAD_ENZYME_INLINE static void bind(frame &fr, std::index_sequence<I...>,
                                       Args &...args) {
    ((part<I>(fr.ws) = &args), ...);
  }

  GPUAD_ENZYME_INLINE static auto run(F f, Args &...args) {
    frame fr;
    bind(fr, std::index_sequence_for<Args...>{}, args...);
    __builtin_memset(&fr.adj, 0, sizeof fr.adj);
    __builtin_memset(&fr.out, 0, sizeof fr.out);
    if constexpr (thunked && !r_void && !fwd && ret_shadow)
      for (storage<RV> &seed : part<1>(fr.out))
        ::new ((void *)seed.bytes) RV(1);
    if constexpr (thunked) {
      void *t = (void *)&parts::template thunk_type<Fn, RV>::call;
      void *fn; // f: a function, or the object whose operator() thunk calls
      if constexpr (is_object)
        fn = (void *)&f;
      else
        fn = (void *)f;
      if constexpr (std::is_void_v<Raw>) {
        request<Raw, fwd>(t, fn, fr, slot_list{});
        return results(fr);
      } else {
        Raw r = request<Raw, fwd>(t, fn, fr, slot_list{});
        return results(fr, r);
      }
    } else if constexpr (std::is_void_v<Raw>) {
      request<Raw, fwd>((void *)f, fr, slot_list{});
      return results(fr);
    } else {
      Raw r = request<Raw, fwd>((void *)f, fr, slot_list{});
      return results(fr, r);
    }
  }

  // The result, as Enzyme's C++ interface returns it; what the request
  // constructed in fr.out and the result does not take is destroyed.
  template <class... Raw_>
  GPUAD_ENZYME_INLINE static auto results(frame &fr, Raw_ &...r) {
    auto res = tuple_of(fr, r...);
    if constexpr (thunked && r_owning) {
      if constexpr (!ret_primal)
        object(part<0>(fr.out)).~RV();
      if constexpr (!(fwd && ret_shadow))
        for (storage<RV> &shadow : part<1>(fr.out))
          object(shadow).~RV();
    }
    return res;
  }
  template <class... Raw_>
  GPUAD_ENZYME_INLINE static auto tuple_of(frame &fr, Raw_ &...r) {
    if constexpr (fwd && ret_primal && ret_shadow)
      return std::make_tuple(primal(fr, r...), tangent(fr, r...));
    else if constexpr (fwd && ret_primal)
      return std::make_tuple(primal(fr, r...));
    else if constexpr (fwd && ret_shadow)
      return std::make_tuple(tangent(fr, r...));
    else if constexpr (fwd)
      return std::tuple<>{};
    else if constexpr (ret_primal)
      return std::make_tuple(
          adjoints(std::make_index_sequence<T::actives()>{}, fr, r...),
          primal(fr, r...));
    else
      return std::make_tuple(
          adjoints(std::make_index_sequence<T::actives()>{}, fr, r...));
  }
  template <class... Raw_>
  GPUAD_ENZYME_INLINE static RV primal(frame &fr, Raw_ &...r) {
    if constexpr (thunked)
      return take(part<0>(fr.out));
    else
      return (RV)part<0>(r...);
  }
  template <class... Raw_>
  GPUAD_ENZYME_INLINE static lanes_t<RV, N> tangent(frame &fr, Raw_ &...r) {
    if constexpr (thunked && N == 1)
      return take(part<1>(fr.out)[0]);
    else if constexpr (thunked)
      return take_lanes(part<1>(fr.out), std::make_index_sequence<N>{});
    else
      return restore(part<raw_primal>(r...));
  }
  template <class E> GPUAD_ENZYME_INLINE static RV restore(const E &x) {
    return (RV)x;
  }
  template <class E, std::size_t K>
  GPUAD_ENZYME_INLINE static std::array<RV, K>
  restore(const std::array<E, K> &x) {
    std::array<RV, K> y{};
    for (std::size_t l = 0; l < K; ++l)
      y[l] = (RV)x[l];
    return y;
  }
  template <std::size_t... K, class... Raw_>
  GPUAD_ENZYME_INLINE static auto adjoints(std::index_sequence<K...>, frame &fr,
                                           Raw_ &...r) {
    return std::make_tuple(adjoint<T::active(K)>(fr, r...)...);
  }
  template <std::size_t I, class... Raw_>
  GPUAD_ENZYME_INLINE static auto adjoint(frame &fr, Raw_ &...r) {
    if constexpr (arg_t<I>::L.h == how::out)
      return part<raw_outs + T::outs_before(I)>(r...);
    else
      return lanes_of<N>(part<I>(fr.adj));
  }
};

} // namespace detail
} // namespace enzyme

#endif // GPUAD_ENZYME_DETAIL_REQUEST_H
