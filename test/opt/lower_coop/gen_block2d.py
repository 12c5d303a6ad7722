#!/usr/bin/env python3
"""Write and build the dump kernels of opt.lower_coop.block2d.* that test/coop/run_src does not
have: column-major loads of 8- and 16-bit matrices (2D block IO reads them as transposed 32-bit
units) and column-major stores (the invocations transpose SG x SG tiles with shuffles, then plain
2D block stores).

  test/opt/lower_coop/gen_block2d.py    # writes block2d/<case>.ll and block2d/<case>.spv

Each kernel is run_src/gen_modules.py's dump kernel: load the matrix with Stride from the
argument, write (row, column, value) of every slice element, store it to a second buffer.
"""
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "coop" / "run_src"))
import gen_modules  # noqa: E402

# name: component, rows, columns, use (0 A, 1 B, 2 accumulator), layout (1 column-major)
CASES = {
    "b_bf16_16x16_col": ("bf16", 16, 16, 1, 1),
    "b_i16_16x64_col": ("i16", 16, 64, 1, 1),
    "c_half_16x16_col": ("half", 16, 16, 2, 1),
    "c_half_32x64_col": ("half", 32, 64, 2, 1),
    "a_bf16_32x16_col": ("bf16", 32, 16, 0, 1),
    "c_f32_32x64_col": ("f32", 32, 64, 2, 1),
}


def main():
    out = HERE / "block2d"
    out.mkdir(exist_ok=True)
    for name, case in CASES.items():
        source = out / (name + ".ll")
        source.write_text(gen_modules.dump_module("dump_" + name, *case))
        subprocess.run(["llc-22", "-O2", "-mtriple=spirv64-unknown-unknown",
                        "--spirv-ext=+SPV_KHR_cooperative_matrix,+SPV_INTEL_joint_matrix,"
                        "+SPV_KHR_bfloat16", "-filetype=obj", str(source), "-o",
                        str(out / (name + ".spv"))], check=True)


if __name__ == "__main__":
    main()
