#!/usr/bin/env python3
"""The generated enums committed under include/xmx/ (the public API's spv::Op, OperandKindId, ...)
are what utils/generate_grammar.py makes from grammar/ and the installed core grammar today.

usage: check_public_headers.py GENERATED_DIR COMMITTED_DIR NAME...
Fails naming each header that differs, with the first differing lines and the command that
refreshes the committed copies."""
import difflib
import pathlib
import sys


def main():
    generated, committed = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    stale = []
    for name in sys.argv[3:]:
        fresh = (generated / name).read_text().splitlines(keepends=True)
        kept = (committed / name).read_text().splitlines(keepends=True)
        if fresh != kept:
            diff = list(difflib.unified_diff(kept, fresh, str(committed / name),
                                             str(generated / name), n=1))
            print("".join(diff[:24]), end="")
            stale.append(name)
    if stale:
        print(f"include/xmx/{', '.join(stale)} differ from the generator's output: after changing "
              "grammar/ (or with another SPIRV-Headers), run `cmake --build build --target "
              "xmx_update_public_headers` and commit the result")
        return 1
    print(f"{len(sys.argv) - 3} committed public headers match the generator")
    return 0


if __name__ == "__main__":
    sys.exit(main())
