#!/usr/bin/env python3
"""Checks that passes/ is layered as its CMakeLists.txt declares.

Usage: check-layering.py LAYERS PASSES_DIR

LAYERS has one line per folder library, "Name:Dep1,Dep2" (written by
passes/CMakeLists.txt from its gpuad_add_layer calls).  A file in folder F
may include headers of F and of every folder F depends on, directly or
through another; anything else is an upward (or sideways) include and fails
the check, naming the file, the line and the folder.  The declared graph must
be acyclic.
"""
import os
import re
import sys


def read_layers(path):
    deps = {}
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        name, _, rest = line.partition(":")
        deps[name] = [d for d in rest.split(",") if d]
    return deps


def closure(deps):
    """Each layer's reachable layers; exits on a cycle."""
    done, reach = {}, {}

    def visit(name, stack):
        if name in stack:
            sys.exit("check-layering: the layers form a cycle: " +
                     " -> ".join(stack[stack.index(name):] + [name]))
        if name in reach:
            return reach[name]
        out = {name}
        for d in deps.get(name, []):
            if d not in deps:
                sys.exit(f"check-layering: '{name}' depends on unknown '{d}'")
            out |= visit(d, stack + [name])
        reach[name] = out
        return out

    for name in deps:
        visit(name, [])
    return reach


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    deps = read_layers(sys.argv[1])
    reach = closure(deps)
    root = sys.argv[2]
    include = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"')
    errors = []
    for folder in sorted(os.listdir(root)):
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            continue
        if folder not in deps:
            errors.append(f"{folder}/: a folder no layer declares")
            continue
        for dirpath, _, files in os.walk(path):
            for f in sorted(files):
                if not f.endswith((".h", ".cpp", ".def")):
                    continue
                file = os.path.join(dirpath, f)
                for n, line in enumerate(open(file), 1):
                    m = include.match(line)
                    if not m or m.group(1) == "llvm":
                        continue
                    target = m.group(1)
                    if target in deps and target not in reach[folder]:
                        rel = os.path.relpath(file, root)
                        errors.append(f"{rel}:{n}: includes {target}/, which "
                                      f"{folder} does not depend on")
    for e in errors:
        print("check-layering: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
