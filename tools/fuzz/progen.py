#!/usr/bin/env python3
"""Random differentiable programs for gpuad's numeric fuzzer.

`generate(seed, kind)` returns a Program: the source of a self-checking C
program (kind "host"), C++ program (kind "cxx": the host's statements and
std::vector growth and Eigen fixed-size matrices) or CUDA or HIP program
(kinds "cuda" and "hip", run on the emulator; "cuda-driver" and
"hip-driver": a host driver that launches the function as a kernel, with
copies between launches, differentiated from host requests)
that differentiates a random function in every mode and checks the results
with tools/fuzz/fuzzcheck.h.  The same seed always gives the same program.

The function differentiated is

    T f(T *x, T *y, T s, int n)        (T is float or double)

x (NX values) and y (NY values) are read and written in place, s is an
active scalar, n is NX at run time (loops bounded by it have run-time trip
counts), and the result is active.  Its body mixes straight-line math with
every libm function that has a rule, branches on data, loops (constant and
run-time trip counts, nested, early exits), reductions, local and heap
arrays updated in place, pointer arithmetic, structs, calls to inlined,
noinline and recursive helpers, integers computed from data and used as
indices, values passed through unions and integer bits, Enzyme's attributes
(a helper `enzyme_function_like` log1p, an `enzyme_inactive` one that only
reads integers) and, on the host, a global that a helper writes and f reads
back.  On the device,
a block-level function wraps f with shared memory, barriers, atomics and
warp shuffles.

A Program's body is a tree of statements so that tools/fuzz/fuzz.py can
shrink a failing program by deleting statements (`Program.without`).
"""

import copy
import os
import random
import re

MATH = ["sin", "cos", "tan", "exp", "exp2", "expm1", "log", "log2", "log10",
        "log1p", "sqrt", "cbrt", "pow", "tanh", "sinh", "cosh", "asinh",
        "atan", "asin", "acos", "acosh", "atanh", "erf", "erfc", "fabs",
        "fmin", "fmax", "hypot", "atan2", "floor", "ceil", "trunc", "round",
        "fmod", "copysign", "fma", "fdim", "ldexp"]
MATH_RE = re.compile(r"@(\w+)\(")
LIT_RE = re.compile(r"#(-?[0-9.]+)#")


class Stmt:
    """A statement: text parts and nested blocks (lists of Stmt), in order."""

    def __init__(self, *parts, keep=False):
        self.parts = list(parts)
        self.keep = keep  # the shrinker keeps it (a function's return)

    def render(self, ind):
        out = []
        for p in self.parts:
            if isinstance(p, list):
                for s in p:
                    out.append(s.render(ind + 1))
            else:
                out.append("\n".join("  " * ind + line if line else ""
                                     for line in p.split("\n")))
        return "\n".join(out)


def render_type(text, real):
    """Renders $T/$U/@fn(/#lit# for float or double."""
    f = real == "float"
    text = text.replace("$T", real).replace("$U",
                                            "uint32_t" if f else "uint64_t")
    text = text.replace("$LOG1P", "log1pf" if f else "log1p")
    text = MATH_RE.sub(lambda m: m.group(1) + ("f(" if f else "("), text)
    return LIT_RE.sub(lambda m: m.group(1) + ("f" if f else ""), text)


def lit(v):
    return "#%s#" % repr(round(v, 3))


class Scope:
    def __init__(self, parent=None):
        self.parent = parent
        self.reals = {}  # name -> magnitude bound
        self.ints = {}  # name -> exclusive upper bound (values in [0, b))

    def all_reals(self):
        s = self.parent.all_reals() if self.parent else {}
        s.update(self.reals)
        return s

    def all_ints(self):
        s = self.parent.all_ints() if self.parent else {}
        s.update(self.ints)
        return s


class Gen:
    def __init__(self, seed, kind, size=1):
        self.r = random.Random(seed)
        self.kind = kind
        self.size = size  # 2, 3: longer bodies, deeper nesting
        self.real = self.r.choice(["double", "double", "float"])
        self.nx = self.r.randint(1, 6)
        self.ny = self.r.randint(1, 4)
        self.counter = 0
        self.has_s = True
        self.in_f = False
        self.helpers = []  # (name, Stmt of the whole definition)
        self.helper_sigs = []  # callable helpers: (name, kind)
        self.uses_struct = False
        self.extras = set()  # names of EXTRA_HELPERS f uses
        self.features = set()

    def fresh(self, p):
        self.counter += 1
        return "%s%d" % (p, self.counter)

    # ---- expressions: (text, magnitude bound) ---------------------------
    def leaf(self, sc):
        r = self.r
        reals = sc.all_reals()
        ints = sc.all_ints()
        c = r.random()
        if reals and c < 0.45:
            n = r.choice(sorted(reals))
            return n, reals[n]
        if c < 0.65 and self.nx:
            return "x[%d]" % r.randrange(self.nx), 2.0
        if c < 0.72 and self.ny:
            return "y[%d]" % r.randrange(self.ny), 2.0
        if c < 0.8 and self.has_s:
            return "s", 2.0
        if reals and c < 0.8:
            n = r.choice(sorted(reals))
            return n, reals[n]
        if ints and c < 0.87:
            n = r.choice(sorted(ints))
            return "($T)%s" % n, float(ints[n])
        v = r.uniform(0.2, 2.5) * r.choice([1, -1])
        return lit(v), abs(v)

    def bounded(self, e):
        t, b = e
        fn = self.r.choice(["sin", "cos", "tanh", "erf", "atan", "rat"])
        if fn == "rat":
            return "(%s / (#1.0# + @fabs(%s)))" % (t, t), 1.0
        return "@%s(%s)" % (fn, t), 1.6

    def expr(self, sc, depth=0):
        r = self.r
        if depth >= 3 or r.random() < 0.25:
            return self.leaf(sc)
        a = self.expr(sc, depth + 1)
        if a[1] > 20:
            a = self.bounded(a)
        c = r.random()
        if c < 0.35:
            b = self.expr(sc, depth + 1)
            if b[1] > 20:
                b = self.bounded(b)
            op = r.choice(["+", "-", "*", "/", "+", "*"])
            if op == "/":
                return "(%s / (%s + %s * %s))" % (a[0], lit(r.uniform(1, 2)),
                                                  b[0], b[0]), a[1]
            bound = a[1] * b[1] if op == "*" else a[1] + b[1]
            return "(%s %s %s)" % (a[0], op, b[0]), bound
        if c < 0.8:
            return self.unary(a, sc, depth)
        if c < 0.9:
            b = self.expr(sc, depth + 1)
            fn = r.choice(["fmin", "fmax", "hypot", "atan2", "fdim", "copysign",
                           "fmod"])
            self.features.add("nonsmooth")
            if fn == "fmod":
                return "@fmod(%s, %s)" % (a[0], lit(r.uniform(0.7, 2))), 2.0
            if fn == "atan2":
                return "@atan2(%s, %s + %s)" % (a[0], b[0], lit(3 + b[1])), 1.6
            return "@%s(%s, %s)" % (fn, a[0], b[0]), a[1] + b[1]
        # A branch on data inside an expression.
        b = self.expr(sc, depth + 1)
        cond = self.expr(sc, depth + 1)
        self.features.add("select")
        return "(%s > %s ? %s : %s)" % (cond[0], lit(r.uniform(-0.5, 0.5)),
                                        a[0], b[0]), max(a[1], b[1])

    def unary(self, a, sc, depth):
        r = self.r
        t, b = a
        fn = r.choice(MATH[:25] + ["sq", "neg", "floor", "fma", "ldexp"])
        if fn in ("exp", "exp2", "expm1", "sinh", "cosh"):
            if b > 3:
                t, b = self.bounded(a)
            return "@%s(%s)" % (fn, t), 9.0
        if fn in ("log", "log2", "log10", "sqrt", "cbrt", "acosh"):
            base = 1.5 if fn == "acosh" else 0.5
            return "@%s(%s + %s * %s)" % (fn, lit(base + r.random()), t, t), \
                max(2.0, b)
        if fn == "log1p":
            return "@log1p(%s * %s)" % (t, t), max(2.0, b)
        if fn == "pow":
            p = r.choice([2.0, 3.0, 0.5, 1.5, -1.0, 2.5])
            return "@pow(%s + %s * %s, %s)" % (lit(0.5 + r.random()), t, t,
                                                lit(p)), (1 + b * b) ** max(p, 1)
        if fn in ("asin", "acos", "atanh"):
            return "@%s(#0.9# * @tanh(%s))" % (fn, t), 3.2
        if fn == "tan":
            return "@tan(#0.7# * @sin(%s))" % t, 1.0
        if fn == "sq":
            return "(%s * %s)" % (t, t), b * b
        if fn == "neg":
            return "(-(%s))" % t, b
        if fn == "floor":
            self.features.add("nonsmooth")
            return "@%s(%s)" % (r.choice(["floor", "ceil", "trunc", "round"]),
                                t), b + 1
        if fn == "fma":
            c = self.leaf(sc)
            return "@fma(%s, %s, %s)" % (t, c[0], lit(r.uniform(-1, 1))), \
                b * c[1] + 1
        if fn == "ldexp":
            return "@ldexp(%s, %d)" % (t, r.choice([-2, -1, 1])), 2 * b
        if fn == "fabs":
            self.features.add("nonsmooth")
        return "@%s(%s)" % (fn, t), max(b, 1.6) if fn != "fabs" else b

    def cond(self, sc):
        e = self.expr(sc, 1)
        return "%s > %s" % (e[0], lit(self.r.uniform(-0.5, 0.5)))

    # ---- statements -------------------------------------------------------
    def target_real(self, sc):
        """An assignable real in scope (a variable or an array element)."""
        reals = sc.all_reals()
        c = self.r.random()
        if reals and (c < 0.5 or not self.nx):
            return self.r.choice(sorted(reals))
        if c < 0.8 or not self.ny:
            return "x[%d]" % self.r.randrange(self.nx)
        return "y[%d]" % self.r.randrange(self.ny)

    def block(self, sc, budget, loop=False):
        inner = Scope(sc)
        out = []
        for _ in range(budget):
            out.append(self.stmt(inner, loop))
        return out

    def assign(self, sc):
        t = self.target_real(sc)
        e = self.expr(sc)
        if e[1] > 20:
            e = self.bounded(e)
        op = self.r.choice(["=", "+=", "-=", "*="])
        if op == "*=":
            e = self.bounded(e)
        if t in sc.reals:
            sc.reals[t] = sc.reals[t] + e[1]
        return Stmt("%s %s %s;" % (t, op, e[0]))

    def stmt(self, sc, loop=False):
        r = self.r
        kinds = ["decl", "decl", "assign", "assign", "if", "loop", "dynloop",
                 "while", "reduce", "inplace", "local", "pointer", "index",
                 "bits", "union", "call", "call", "struct", "sweep", "last",
                 "condstore", "switch", "fnptr", "walk", "structs",
                 "likefn", "inactive", "pview"]
        if self.kind in HOST_KINDS:
            kinds += ["heap", "global", "gview"]
        if self.kind == "cxx":
            kinds += ["vector", "eigen", "member"]
        if loop:
            kinds += ["exit"]
        if self.in_f:
            kinds += ["return"]
        k = r.choice(kinds)
        if self.depth_now >= 2 + self.size and k in NESTING_KINDS:
            k = "assign"
        if k == "fnptr" and not [h for h in self.helper_sigs
                                 if h[1] == "scalar"]:
            k = "call"
        self.features.add(k)
        return getattr(self, "stmt_" + k)(sc)

    def stmt_decl(self, sc):
        n = self.fresh("v")
        e = self.expr(sc)
        if e[1] > 50:
            e = self.bounded(e)
        sc.reals[n] = e[1]
        return Stmt("$T %s = %s;" % (n, e[0]))

    def stmt_exit(self, sc):
        r = self.r
        return Stmt("if (%s)\n  %s;" % (self.cond(sc),
                                        r.choice(["break", "continue"])))

    def stmt_if(self, sc):
        r = self.r
        return self.nested(lambda: Stmt(
            "if (%s) {" % self.cond(sc), self.block(sc, r.randint(1, 3)),
            "} else {", self.block(sc, r.randint(0, 2)), "}"))

    def stmt_loop(self, sc, dynamic=False):
        """A counted loop: a constant trip count, or n (run time)."""
        r = self.r
        i = self.fresh("i")
        trip = "n" if dynamic else str(r.randint(1, 5))
        inner = Scope(sc)
        inner.ints[i] = self.nx if dynamic else int(trip)
        body = self.nested(lambda: [self.stmt(inner, True)
                                    for _ in range(r.randint(1, 4))])
        return Stmt("for (int %s = 0; %s < %s; ++%s) {" % (i, i, trip, i),
                    body, "}")

    def stmt_dynloop(self, sc):
        return self.stmt_loop(sc, dynamic=True)

    def stmt_while(self, sc):
        r = self.r
        c = self.fresh("c")
        inner = Scope(sc)
        body = self.nested(lambda: [self.assign(inner)
                                    for _ in range(r.randint(1, 2))])
        return Stmt("int %s = 0;\nwhile (%s && %s < %d) {" % (
            c, self.cond(sc), c, r.randint(1, 4)), body,
            "  ++%s;\n}" % c)

    def stmt_reduce(self, sc):
        r = self.r
        a, i = self.fresh("acc"), self.fresh("i")
        inner = Scope(sc)
        inner.ints[i] = self.nx
        e = self.expr(inner)
        e = self.bounded(e) if e[1] > 5 else e
        term = r.choice(["x[%s] * %s" % (i, e[0]), "%s" % e[0],
                         "@sin(x[%s]) + %s" % (i, e[0])])
        sc.reals[a] = 2.0 * self.nx * max(e[1], 2.0)
        return Stmt("$T %s = #0.0#;\nfor (int %s = 0; %s < n; ++%s)\n"
                    "  %s += %s;" % (a, i, i, i, a, term))

    def stmt_inplace(self, sc):
        r = self.r
        i = self.fresh("i")
        arr, m = r.choice([("x", self.nx), ("y", self.ny)])
        if m < 2:
            return self.assign(sc)
        inner = Scope(sc)
        e = self.bounded(self.expr(inner))
        return Stmt("for (int %s = 1; %s < %d; ++%s)\n"
                    "  %s[%s] = #0.5# * %s[%s] * %s[%s - 1] + %s;" % (
                        i, i, m, i, arr, i, arr, i, arr, i, e[0]))

    def stmt_local(self, sc):
        r = self.r
        a, i = self.fresh("a"), self.fresh("i")
        m = r.randint(2, 5)
        inner = Scope(sc)
        inner.ints[i] = m
        e = self.bounded(self.expr(inner))
        t = self.target_real(sc)
        return Stmt("{\n  $T %s[%d];\n  for (int %s = 0; %s < %d; ++%s)\n"
                    "    %s[%s] = %s * ($T)(%s + 1);\n"
                    "  for (int %s = %d; %s > 0; --%s)\n"
                    "    %s[%s - 1] += #0.5# * %s[%s] * %s[%s - 1];\n"
                    "  %s += %s[%d];\n}" % (
                        a, m, i, i, m, i, a, i, e[0], i, i, m - 1, i, i,
                        a, i, a, i, a, i, t, a, r.randrange(m)))

    def stmt_pointer(self, sc):
        r = self.r
        p = self.fresh("p")
        arr, m = r.choice([("x", self.nx), ("y", self.ny)])
        off = r.randrange(m)
        e = self.bounded(self.expr(sc))
        rd = "%s[%d]" % (p, -off) if r.random() < 0.5 else "*%s" % p
        return Stmt("{\n  $T *%s = %s + %d;\n  *%s = %s * %s + %s;\n}" % (
            p, arr, off, p, rd, e[0], lit(r.uniform(-1, 1))))

    def stmt_index(self, sc):
        kk = self.fresh("k")
        e = self.expr(sc)
        sc.ints[kk] = self.nx
        t = self.target_real(sc)
        return Stmt("int %s = (int)(@fmin(@fabs(%s), #50.0#) * #3.0#) %% %d;"
                    "\n%s += @sin(x[%s]);" % (kk, e[0], self.nx, t, kk))

    def stmt_bits(self, sc):
        b, w = self.fresh("b"), self.fresh("w")
        e = self.bounded(self.expr(sc))
        sc.reals[w] = 1.6
        return Stmt("$T %s;\n{\n  $U %s;\n  $T t_ = %s;\n"
                    "  memcpy(&%s, &t_, sizeof %s);\n"
                    "  memcpy(&%s, &%s, sizeof %s);\n}" % (
                        w, b, e[0], b, b, w, b, w))

    def stmt_union(self, sc):
        u, w = self.fresh("u"), self.fresh("w")
        e = self.bounded(self.expr(sc))
        sc.reals[w] = 1.6
        return Stmt("union {\n  $T f;\n  $U i;\n} %s;\n%s.f = %s;\n"
                    "%s.i = %s.i;\n$T %s = %s.f;" % (
                        u, u, e[0], u, u, w, u))

    def stmt_struct(self, sc):
        r = self.r
        self.uses_struct = True
        p = self.fresh("st")
        e1, e2 = self.bounded(self.expr(sc)), self.bounded(self.expr(sc))
        t = self.target_real(sc)
        use = r.choice(["pair_dot(%s)" % p, "pair_norm(&%s)" % p])
        return Stmt("struct pair %s = {%s, %s};\n%s.b = %s.a * %s.b;\n"
                    "%s += %s;" % (p, e1[0], e2[0], p, p, p, t, use))

    def stmt_heap(self, sc):
        r = self.r
        h, i = self.fresh("h"), self.fresh("i")
        m = r.randint(2, 6)
        inner = Scope(sc)
        inner.ints[i] = m
        e = self.bounded(self.expr(inner))
        t = self.target_real(sc)
        return Stmt("{\n  $T *%s = ($T *)malloc(sizeof($T) * %d);\n"
                    "  for (int %s = 0; %s < %d; ++%s)\n"
                    "    %s[%s] = %s;\n"
                    "  %s += %s[%d] * %s[%d];\n  free(%s);\n}" % (
                        h, m, i, i, m, i, h, i, e[0], t, h,
                        r.randrange(m), h, r.randrange(m), h))

    def stmt_assign(self, sc):
        return self.assign(sc)

    def stmt_call(self, sc):
        return self.call(sc)

    def stmt_return(self, sc):
        e = self.bounded(self.expr(sc))
        return Stmt("if (%s)\n  return %s;" % (self.cond(sc), e[0]))

    def stmt_sweep(self, sc):
        """Gauss-Seidel-like sweeps: each value overwritten from its
        neighbours several times (reverse mode needs the old values)."""
        it, i = self.fresh("it"), self.fresh("i")
        arr, m = self.r.choice([("x", self.nx), ("y", self.ny)])
        inner = Scope(sc)
        inner.ints[i] = m
        e = self.bounded(self.expr(inner))
        return Stmt("for (int %s = 0; %s < %d; ++%s)\n"
                    "  for (int %s = 0; %s < %s; ++%s)\n"
                    "    %s[%s] = #0.6# * %s[%s] + #0.3# * @sin(%s[(%s + 1) %% %d]"
                    " * %s);" % (it, it, self.r.randint(2, 4), it, i, i,
                                 "n" if arr == "x" else m, i, arr, i, arr, i,
                                 arr, i, m, e[0]))

    def stmt_last(self, sc):
        """A value each iteration overwrites, used after the loop only."""
        l, i = self.fresh("last"), self.fresh("i")
        inner = Scope(sc)
        inner.ints[i] = self.nx
        e = self.bounded(self.expr(inner))
        sc.reals[l] = 1.6
        return Stmt("$T %s = #0.0#;\nfor (int %s = 0; %s < n; ++%s) {\n"
                    "  %s = %s * x[%s];\n  x[%s] *= #0.9#;\n}" % (
                        l, i, i, i, l, e[0], i, i))

    def stmt_condstore(self, sc):
        arr, m = self.r.choice([("x", self.nx), ("y", self.ny)])
        i = self.fresh("i")
        inner = Scope(sc)
        inner.ints[i] = m
        e = self.bounded(self.expr(inner))
        return Stmt("for (int %s = 0; %s < %d; ++%s)\n"
                    "  if (%s[%s] > %s)\n    %s[%s] = %s;" % (
                        i, i, m, i, arr, i, lit(self.r.uniform(-0.5, 0.5)),
                        arr, i, e[0]))

    def stmt_switch(self, sc):
        k = self.fresh("k")
        e = self.expr(sc)
        cases = []
        for c in range(3):
            cases.append(Stmt("case %d:" % c, [self.assign(Scope(sc))],
                              "  break;" if self.r.random() < 0.7 else ""))
        return Stmt("switch ((int)(@fmin(@fabs(%s), #10.0#) * #2.0#) %% 4) {"
                    % e[0], cases, "default:\n  break;\n}")

    def stmt_fnptr(self, sc):
        names = [h[0] for h in self.helper_sigs if h[1] == "scalar"]
        a = self.bounded(self.expr(sc))
        t = self.target_real(sc)
        fp = self.fresh("fp")
        pick = "%s ? %s : %s" % (self.cond(sc), self.r.choice(names),
                                 self.r.choice(names))
        return Stmt("{\n  $T (*%s)($T, $T) = %s;\n  %s += %s(%s, %s);\n}" % (
            fp, pick, t, fp, a[0], lit(self.r.uniform(-1, 1))))

    def stmt_walk(self, sc):
        """A pointer walked through an array."""
        p, q = self.fresh("p"), self.fresh("acc")
        arr, m = self.r.choice([("x", self.nx), ("y", self.ny)])
        sc.reals[q] = 2.0 * m
        return Stmt("$T %s = #0.0#;\nfor ($T *%s = %s; %s != %s + %d; ++%s) {"
                    "\n  %s += *%s * %s;\n  *%s = @cos(*%s);\n}" % (
                        q, p, arr, p, arr, m, p, q, p, lit(self.r.uniform(
                            0.3, 1.5)), p, p))

    def stmt_structs(self, sc):
        self.uses_struct = True
        ps, i = self.fresh("ps"), self.fresh("i")
        m = self.r.randint(2, 4)
        inner = Scope(sc)
        inner.ints[i] = m
        e = self.bounded(self.expr(inner))
        t = self.target_real(sc)
        return Stmt("{\n  struct pair %s[%d];\n  for (int %s = 0; %s < %d; ++%s) {"
                    "\n    %s[%s].a = %s;\n    %s[%s].b = x[%s %% %d];\n  }\n"
                    "  for (int %s = 0; %s < %d; ++%s)\n"
                    "    %s += pair_dot(%s[%s]) * #0.3#;\n}" % (
                        ps, m, i, i, m, i, ps, i, e[0], ps, i, i, self.nx,
                        i, i, m, i, t, ps, i))

    def stmt_likefn(self, sc):
        # Enzyme's function-like attribute: the rule of log1p, for a body
        # that computes it another way (the two must agree).
        self.extras.add("likefn")
        e = self.bounded(self.expr(sc))
        t = self.target_real(sc)
        return Stmt("%s += lp_like(#0.25# * (%s) * (%s));" % (t, e[0], e[0]))

    def stmt_inactive(self, sc):
        # An enzyme_inactive helper that reads integers only: a constant.
        self.extras.add("inactive")
        e = self.bounded(self.expr(sc))
        t = self.target_real(sc)
        return Stmt("%s += gain(n + %d) * %s;" % (t, self.r.randrange(5),
                                                  e[0]))

    def stmt_global(self, sc):
        # A helper stores into a global that f reads back.
        return self.helper_writes_global(sc, "global", "put_global", "gbuf")

    def stmt_gview(self, sc):
        # A helper writes a global through a pointer another global holds
        # (`T *gview = gbuf2;`): the write names no global.
        return self.helper_writes_global(sc, "gview", "put_view", "gbuf2")

    def helper_writes_global(self, sc, extra, helper, buf):
        self.extras.add(extra)
        e = self.bounded(self.expr(sc))
        t = self.target_real(sc)
        k = self.r.randrange(2)
        return Stmt("%s(%d, %s);\n%s += %s[%d] * #0.5#;" % (
            helper, k, e[0], t, buf, k))

    def stmt_pview(self, sc):
        # A noinline helper returns a struct of a pointer into x and a
        # float computed from its argument.
        self.extras.add("pview")
        e = self.bounded(self.expr(sc))
        t = self.target_real(sc)
        v = self.fresh("pv")
        return Stmt("{\n  struct pview %s = make_pview(x, %d, %s);\n"
                    "  %s += %s.w * %s.at[0];\n}" % (
                        v, self.r.randrange(self.nx), e[0], t, v, v))

    def stmt_vector(self, sc):
        # A std::vector grown by push_back (its doubles move to new storage
        # with memmove each time it grows), read back.
        r = self.r
        v, i = self.fresh("vec"), self.fresh("i")
        m = r.randint(2, 9)
        inner = Scope(sc)
        inner.ints[i] = m
        e = self.bounded(self.expr(inner))
        t = self.target_real(sc)
        return Stmt("{\n  std::vector<$T> %s;\n  for (int %s = 0; %s < %d; ++%s)"
                    "\n    %s.push_back(%s);\n  %s += %s[%d] * %s.back();\n}" % (
                        v, i, i, m, i, v, e[0], t, v, r.randrange(m), v))

    def stmt_member(self, sc):
        # An array member followed by members that are no floats (a count,
        # a flag, a pointer into the array), copied with std::copy to a
        # second array member and read through a run-time index.
        es = [self.bounded(self.expr(sc))[0] for _ in range(3)]
        t = self.target_real(sc)
        s_, k = self.fresh("st"), self.fresh("k")
        return Stmt(
            "{\n  struct { std::array<$T, 3> a; int n; bool f; long s; $T *p;"
            " std::array<$T, 3> b; } %s;\n"
            "  %s.a = {%s, %s, %s};\n  %s.n = 3;\n  %s.f = true;\n"
            "  %s.s = 7;\n  %s.p = &%s.a[%d];\n"
            "  std::copy(%s.a.begin(), %s.a.end(), %s.b.begin());\n"
            "  for (int %s = 0; %s < %s.n; ++%s)\n"
            "    %s += %s.b[%s] * %s.a[(%s + 1) %% 3] * #0.25#;\n"
            "  %s += *%s.p * (%s.f ? #0.5# : #1.0#);\n}" % (
                s_, s_, es[0], es[1], es[2], s_, s_, s_, s_, s_,
                self.r.randrange(3), s_, s_, s_, k, k, s_, k, t, s_, k, s_, k,
                t, s_, s_))

    def stmt_eigen(self, sc):
        # Eigen fixed-size matrices: a 2x2 product, a dot product, a norm.
        es = [self.bounded(self.expr(sc))[0] for _ in range(6)]
        t = self.target_real(sc)
        a, b = self.fresh("mA"), self.fresh("vb")
        return Stmt("{\n  Eigen::Matrix<$T, 2, 2> %s;\n  %s << %s, %s, %s, %s;"
                    "\n  Eigen::Matrix<$T, 2, 1> %s(%s, %s);\n"
                    "  Eigen::Matrix<$T, 2, 1> c_ = %s * %s;\n"
                    "  %s += c_.dot(%s) * #0.25# + @sqrt(#0.5# + c_.squaredNorm());"
                    "\n}" % (a, a, es[0], es[1], es[2], es[3], b, es[4], es[5],
                             a, b, t, b))

    def nested(self, make):
        self.depth_now += 1
        try:
            return make()
        finally:
            self.depth_now -= 1

    # ---- helper functions -------------------------------------------------
    def make_helpers(self):
        r = self.r
        quals = "static __device__" if self.kind not in HOST_KINDS \
            else "static"
        for j in range(r.randint(1, 3)):
            name = "h%d" % j
            attr = r.choice(["", "__attribute__((noinline)) ",
                             "__attribute__((always_inline)) inline "])
            if attr:
                self.features.add("noinline" if "noinline" in attr else
                                  "inline")
            kind = r.choice(["scalar", "pointer", "recursive"])
            sc = Scope()
            sc.reals = {"a": 2.0, "b": 2.0}
            saved = self.nx, self.ny
            # Helpers see a and b, and their own array x (two values) when
            # they take a pointer; nothing of f's.
            self.nx, self.ny, self.has_s = (2 if kind == "pointer" else 0), \
                0, False
            if kind == "recursive":
                self.features.add("recursion")
                e1 = self.bounded(self.expr(sc))
                e2 = self.bounded(self.expr(sc))
                body = [Stmt("if (d <= 0)\n  return %s;" % e1[0], keep=True),
                        Stmt("return %s(%s, b, d - 1) * #0.5# + %s;" % (
                            name, e2[0], "@sin(a)"), keep=True)]
                sig = "$T %s($T a, $T b, int d)" % name
                attr = attr.replace("__attribute__((always_inline)) inline ",
                                    "")
                self.nx, self.ny, self.has_s = saved + (True,)
            else:
                env = Scope(sc)
                stmts = [self.helper_stmt(env, kind) for _ in range(
                    r.randint(1, 3))]
                e = self.bounded(self.expr(env))
                stmts.append(Stmt("return %s;" % e[0], keep=True))
                body = stmts
                if kind == "pointer":
                    sig = "$T %s($T a, $T b, $T *x)" % name
                else:
                    sig = "$T %s($T a, $T b)" % name
                self.nx, self.ny, self.has_s = saved + (True,)
            self.helpers.append(Stmt("%s %s%s {" % (quals, attr, sig), body,
                                     "}", keep=True))
            self.helper_sigs.append((name, kind))

    def helper_stmt(self, sc, kind):
        e = self.bounded(self.expr(sc))
        if kind == "pointer" and self.r.random() < 0.5:
            return Stmt("x[%d] += %s;" % (self.r.randrange(2), e[0]))
        n = self.fresh("t")
        sc.reals[n] = 1.6
        callees = [h for h in self.helper_sigs if h[1] != "pointer"]
        if callees and self.r.random() < 0.4:
            name, kind = self.r.choice(callees)
            args = "%s, a" % e[0] + (", 2" if kind == "recursive" else "")
            return Stmt("$T %s = %s(%s);" % (n, name, args))
        return Stmt("$T %s = %s;" % (n, e[0]))

    def call(self, sc):
        r = self.r
        name, kind = r.choice(self.helper_sigs)
        a = self.bounded(self.expr(sc))
        b = self.bounded(self.expr(sc))
        t = self.target_real(sc)
        if kind == "recursive":
            depth = r.choice(["3", "n % 3", "2"])
            return Stmt("%s += %s(%s, %s, %s);" % (t, name, a[0], b[0], depth))
        if kind == "pointer":
            arrays = [(n, m) for n, m in (("x", self.nx), ("y", self.ny))
                      if m >= 2]
            if not arrays:
                return Stmt("%s += @sin(%s) * %s;" % (t, a[0], b[0]))
            arr, m = r.choice(arrays)
            return Stmt("%s += %s(%s, %s, %s + %d);" % (
                t, name, a[0], b[0], arr, r.randrange(m - 1)))
        return Stmt("%s += %s(%s, %s);" % (t, name, a[0], b[0]))

    # ---- the whole function -----------------------------------------------
    def function(self):
        self.depth_now = 0
        self.make_helpers()
        sc = Scope()
        self.in_f = True
        body = [self.stmt(sc) for _ in range(
            self.r.randint(4 * self.size, 12 * self.size))]
        reals = sorted(sc.reals)
        ret = " + ".join(["@sin(%s)" % v for v in reals[-3:]] + ["x[0] * s"])
        for j in range(self.ny):
            if reals:
                body.append(Stmt("y[%d] += #0.5# * @tanh(%s);" % (
                    j, self.r.choice(reals))))
        body.append(Stmt("return %s;" % ret, keep=True))
        return body


class Program:
    """A generated program: its parameters and statement trees."""

    def __init__(self, seed, kind, mutant=False, size=1):
        # A parallel kind's body is the host program's.
        g = Gen(seed, "host" if kind in PARALLEL_KINDS else kind, size)
        self.mutant = mutant
        self.seed, self.kind = seed, kind
        self.body = g.function()
        self.helpers = g.helpers
        self.uses_struct = g.uses_struct
        self.extras = g.extras
        self.real, self.nx, self.ny = g.real, g.nx, g.ny
        self.features = sorted(g.features)
        r = g.r
        self.width = r.choice([2, 3, 4, 8])
        self.block = 4  # CUDA threads per block
        nin = self.nx + self.ny + 1 if kind in HOST_KINDS else \
            self.block * (self.nx + self.ny) + \
            (1 if kind in DRIVER_KINDS else 2)
        self.u0 = [round(r.uniform(-1, 1), 3) for _ in range(nin)]
        self.shared_mix = r.choice(sorted(MIXES))
        # (Drawn last: the other kinds' programs stay what they were.)
        self.steps = r.choice([1, 2, 3])
        self.driver_mix = r.choice(sorted(DRIVER_MIXES))
        # (From a stream of its own: the programs of earlier seeds stay.)
        self.launch_form = random.Random(seed * 7919 + 17).choice(
            sorted(LAUNCH_FORMS))

    def without(self, path):
        """A copy without the statement at `path` (a list of indices
        through the trees: [0, i] the body's i-th statement, [1, j, ...]
        inside helper j; deeper indices go through nested blocks)."""
        p = copy.deepcopy(self)
        trees = [p.body] + [h.parts[1] for h in p.helpers]
        lst = trees[path[0]]
        for idx in path[1:-1]:
            node = lst[idx[0]]
            lst = node.parts[idx[1]]
        del lst[path[-1]]
        return p

    def paths(self):
        """Paths of every removable statement, innermost last."""
        out = []

        def walk(lst, prefix):
            for i, s in enumerate(lst):
                for k, part in enumerate(s.parts):
                    if isinstance(part, list):
                        walk(part, prefix + [(i, k)])
                if not s.keep:
                    out.append(prefix + [i])
        walk(self.body, [0])
        for j, h in enumerate(self.helpers):
            walk(h.parts[1], [j + 1])
        return out

    # ---- source --------------------------------------------------------------
    def function_source(self, real, suffix):
        dev = "__device__ " if self.kind not in HOST_KINDS else ""
        out = []
        if self.uses_struct:
            out.append(STRUCT_HELPERS.replace("__DEV__", dev))
        for name in sorted(self.extras):
            out.append(EXTRA_HELPERS[name].replace("__DEV__", dev))
        for h in self.helpers:
            out.append(h.render(0))
        out.append("%s$T f($T *x, $T *y, $T s, int n) {" % dev)
        out.extend(s.render(1) for s in self.body)
        out.append("}")
        text = render_type("\n".join(out), real)
        if suffix:
            # The double reference copy: its own names.
            text = re.sub(r"\b(f|h\d+|pair_dot|pair_norm|pair|lp_like|gain|"
                          r"gbuf|put_global|gbuf2|gview|put_view|pview|"
                          r"make_pview)\b",
                          lambda m: m.group(1) + suffix, text)
        return text

    def source(self):
        host = self.kind in HOST_KINDS
        template = HOST_TEMPLATE if host else \
            DRIVER_TEMPLATE if self.kind in DRIVER_KINDS else DEVICE_TEMPLATE
        if self.kind == "mpi":
            template = template.replace("int main(void) {",
                                        "static int fuzz_main(void) {") + \
                MPI_MAIN
        includes = {"cxx": CXX_INCLUDES, "omp": "#include <omp.h>",
                    "mpi": "#include <mpi.h>\n#include <stdio.h>"}
        return template \
            .replace("__STEPS__", str(self.steps)) \
            .replace("__DRIVER_MIX__", DRIVER_MIXES[self.driver_mix][1]) \
            .replace("__LAUNCH__", LAUNCH_FORMS[self.launch_form][1]) \
            .replace("__LAUNCH_DOC__", LAUNCH_FORMS[self.launch_form][0]) \
            .replace("__DRIVER_DOC__", DRIVER_MIXES[self.driver_mix][0]) \
            .replace("__CXX_INCLUDES__", includes.get(self.kind, "")) \
            .replace("__FUNCTIONS__", self.functions()) \
            .replace("__REAL__", self.real) \
            .replace("__UREAL__", "uint32_t" if self.real == "float"
                     else "uint64_t") \
            .replace("__NX__", str(self.nx)).replace("__NY__", str(self.ny)) \
            .replace("__W__", str(self.width)) \
            .replace("__BLOCK__", str(self.block)) \
            .replace("__ISFLOAT__", "1" if self.real == "float" else "0") \
            .replace("__U0__", ", ".join(repr(v) for v in self.u0)) \
            .replace("__MIX__", MIXES[self.shared_mix]) \
            .replace("__INDEPENDENT__",
                     "1" if self.shared_mix == "none" else "0") \
            .replace("__DS_D_LANES__", ", ".join(
                "ds.d[%d]" % l for l in range(self.width))) \
            .replace("__DS_LANES__", ", ".join(
                "ds[%d]" % l for l in range(self.width))) \
            .replace("__SEED__", "%s seed %d: %s" % (
                self.kind, self.seed, " ".join(self.features)))

    def functions(self):
        text = self.function_source(self.real, "")
        if self.kind in PARALLEL_KINDS:
            text = re.sub(r"^(\S+ )f\(", r"\1f_body(", text, flags=re.M)
            # A body that writes a global would race with its copies: one
            # thread runs them.
            shared = {"global", "gview"} & set(self.extras)
            text += "\n" + render_type(PARALLEL_WRAPPERS[self.kind],
                                        self.real).replace(
                "__THREADS__", "num_threads(1)" if shared else "")
        if self.mutant:
            # The checker's own test: a reference that differs from f by
            # 1e-3 relative in its result must be reported as wrong.
            ref = self.function_source("double", "_ref")
            at = ref.index("double f_ref(")
            ref = ref[:at] + re.sub(r"return (.*);",
                                    r"return (\1) * (1.0 + 1e-3 * s);",
                                    ref[at:])
            return text + "\n\n" + ref
        if self.real == "float":
            text += "\n\n/* The same function in double, for finite " \
                "differences. */\n" + self.function_source("double", "_ref")
        else:
            text += "\n#define f_ref f\n"
        return text


# Statement kinds that open a block: past the nesting limit an assignment
# is made instead.
NESTING_KINDS = ("if", "loop", "dynloop", "while", "reduce", "inplace", "heap",
                 "sweep", "last", "switch", "walk")

STRUCT_HELPERS = """struct pair {
  $T a, b;
};
static __DEV__$T pair_dot(struct pair p) { return p.a * p.b + @sin(p.a); }
static __DEV__$T pair_norm(const struct pair *p) {
  return @sqrt(#0.5# + p->a * p->a + p->b * p->b);
}"""

HOST_KINDS = ("host", "cxx", "omp", "mpi")
# Host programs whose f is the generated function ("f_body") run in
# parallel and combined again, the same function mathematically (so f_ref
# stays its reference): "omp" runs four copies in an OpenMP parallel for
# and averages them (a + reduction for the result); "mpi" runs it on every
# rank and averages by MPI_Allreduce (in place).  They are run on 2 threads
# and 2 ranks (fuzz.py).
PARALLEL_KINDS = ("omp", "mpi")
PARALLEL_WRAPPERS = {
    "omp": """
/* Four copies in parallel, averaged. */
$T f($T *x, $T *y, $T s, int n) {
  $T xs[4][NX], ys[4][NY > 0 ? NY : 1], total = 0;
#pragma omp parallel for reduction(+ : total) __THREADS__
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < NX; ++i)
      xs[k][i] = x[i];
    for (int i = 0; i < NY; ++i)
      ys[k][i] = y[i];
    total += f_body(xs[k], ys[k], s, n);
  }
  for (int i = 0; i < NX; ++i)
    x[i] = (xs[0][i] + xs[1][i] + xs[2][i] + xs[3][i]) * ($T)0.25;
  for (int i = 0; i < NY; ++i)
    y[i] = (ys[0][i] + ys[1][i] + ys[2][i] + ys[3][i]) * ($T)0.25;
  return total * ($T)0.25;
}""",
    "mpi": """
/* On every rank, averaged over the ranks. */
$T f($T *x, $T *y, $T s, int n) {
  $T r = f_body(x, y, s, n);
  int p;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Datatype t = sizeof($T) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT;
  MPI_Allreduce(MPI_IN_PLACE, x, NX, t, MPI_SUM, MPI_COMM_WORLD);
  if (NY > 0)
    MPI_Allreduce(MPI_IN_PLACE, y, NY, t, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &r, 1, t, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < NX; ++i)
    x[i] /= p;
  for (int i = 0; i < NY; ++i)
    y[i] /= p;
  return r / p;
}""",
}
MPI_MAIN = """
/* MPI around the checks; rank 0 reports (every rank's status counts). */
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank)
    freopen("/dev/null", "w", stdout);
  int status = fuzz_main();
  MPI_Finalize();
  return status;
}
"""
# A host driver (driver_template.cu) around the device function: launches,
# copies and frees differentiated from host requests.
DRIVER_KINDS = ("cuda-driver", "hip-driver")
CXX_INCLUDES = ("#include <algorithm>\n#include <array>\n#include <vector>\n"
                "#include <Eigen/Dense>\n")

# Helpers a statement kind needs, defined once before f.
EXTRA_HELPERS = {
    # log1p as log(1 + a), with log1p's rule (a >= 0 here).
    "likefn": """static __DEV__$T lp_like($T a)
    __attribute__((enzyme_function_like("$LOG1P")));
static __DEV__$T lp_like($T a) { return @log(#1.0# + a); }""",
    "inactive": """__attribute__((enzyme_inactive)) static __DEV__$T gain(int k) {
  return #0.5# + ($T)(k % 3) * #0.25#;
}""",
    "global": """static $T gbuf[2];
static void put_global(int k, $T v) { gbuf[k] = v * v; }""",
    "gview": """static $T gbuf2[2];
static $T *gview = gbuf2;
__attribute__((noinline)) static void put_view(int k, $T v) {
  gview[k] = v * @sin(v);
}""",
    "pview": """struct pview {
  $T *at;
  $T w;
};
__attribute__((noinline)) static __DEV__ struct pview make_pview($T *p, int k,
                                                                  $T v) {
  struct pview r = {p + k, v * v + #0.5#};
  return r;
}""",
}

# How g mixes the threads (a macro body): each but "none" first publishes
# the thread's result in shared memory behind a barrier.
PUBLISH = "__shared__ T sh[B]; sh[t] = r; __syncthreads(); "
MIXES = {
    # Threads independent: the per-thread function is differentiated as a
    # whole (no barrier puts it in split form); the width-N requests
    # differentiate f itself (INDEPENDENT in the template), which lanes can
    # carry.
    "none": "",
    "neighbour": PUBLISH + "yt[0] += (T)0.5 * sh[(t + 1) % B] * sh[t];",
    "atomic": PUBLISH + "atomicAdd(&acc[0], sh[t] * sh[(t + B - 1) % B]);",
    "both": PUBLISH + "yt[0] += sin(sh[(t + 1) % B]); "
                      "atomicAdd(&acc[0], sh[t] * sh[t]);",
    # A tree reduction in shared memory, a barrier per level.
    "tree": PUBLISH + "for (int o_ = B / 2; o_ > 0; o_ /= 2) { "
            "if (t < o_) sh[t] += sh[t + o_] * sh[t + o_]; __syncthreads(); } "
            "yt[0] += (T)0.25 * sh[0];",
    # A butterfly over the block's lanes.
    "shuffle": PUBLISH + "T v_ = sh[t]; for (int m_ = 1; m_ < B; m_ *= 2) "
               "v_ += (T)0.5 * SHFL_XOR(v_, m_) * v_; "
               "atomicAdd(&acc[0], v_); yt[0] += v_ * sh[(t + 1) % B];",
}

# What the driver does between its launches: (its description, the code).
DRIVER_MIXES = {
    "none": ("and nothing else between its launches", ""),
    "pingpong": ("and swaps x with a second buffer holding x with y's "
                 "first values (ping-pong buffers)",
                 "ok(API(Memcpy)(other, x, xb, API(MemcpyDeviceToDevice))); "
                 "ok(API(Memcpy)(other, y, xb < yb ? xb : yb, "
                 "API(MemcpyDeviceToDevice))); "
                 "{ T *swap_ = x; x = other; other = swap_; }"),
    "memset": ("and zeroes y[0] with memset between its launches",
               "if (it + 1 < STEPS) ok(API(Memset)(y, 0, sizeof(T)));"),
    "stream": ("and copies y[0] to x[0] on the stream between its launches",
               "ok(API(MemcpyAsync)(x, y, sizeof(T), "
               "API(MemcpyDeviceToDevice), stream)); "
               "ok(API(StreamSynchronize)(stream));"),
    "host": ("and updates y[0] on the host between its launches",
             "ok(API(Memcpy)(r, y, sizeof(T), API(MemcpyDeviceToHost))); "
             "r[0] = r[0] * (T)0.5 + s; "
             "ok(API(Memcpy)(y, r, sizeof(T), API(MemcpyHostToDevice)));"),
}

# How the driver passes the kernel its arguments: (description, launch).
LAUNCH_FORMS = {
    "scalars": ("its arguments scalars and pointers",
                "step<T, F><<<1, B, 0, stream>>>(x, y, s, ret, NX);"),
    "packed": ("its arguments in a struct passed by value",
               "stepPacked<T, F><<<1, B, 0, stream>>>("
               "Packed<T>{x, y, ret, s, NX});"),
    "small": ("s and n in a small struct passed by value",
              "stepSmall<T, F><<<1, B, 0, stream>>>(x, y, Small<T>{s, NX}, "
              "ret);"),
}

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "host_template.c")) as _f:
    HOST_TEMPLATE = _f.read()
with open(os.path.join(HERE, "device_template.cu")) as _f:
    DEVICE_TEMPLATE = _f.read()
with open(os.path.join(HERE, "driver_template.cu")) as _f:
    DRIVER_TEMPLATE = _f.read()


def generate(seed, kind="host", mutant=False, size=1):
    return Program(seed, kind, mutant, size)


if __name__ == "__main__":
    import sys
    print(generate(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2
                   else "host").source())
