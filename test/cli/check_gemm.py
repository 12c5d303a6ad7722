#!/usr/bin/env python3
"""A bf16 GEMM kernel run by xmx-run equals the host matmul of examples/gemm_data.py.

usage: check_gemm.py XMX_RUN GEMM_DATA_PY MODULE TILE_ROWS M N K WORKDIR

The kernel takes (A, B, C, M, N, K) and computes a TILE_ROWS x 32 tile of C per subgroup of 16
(NDRange (N / 2, M / TILE_ROWS), local (16, 1)); xmx-run compares C with the host's product
(--expect) and exits 1 on any difference."""
import pathlib
import subprocess
import sys


def main():
    if len(sys.argv) != 9:
        sys.exit(__doc__)
    xmx_run, gemm_data, module = sys.argv[1:4]
    tile, m, n, k = (int(v) for v in sys.argv[4:8])
    work = pathlib.Path(sys.argv[8])
    work.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, gemm_data, "bf16", str(m), str(n), str(k), str(work)],
                   check=True)
    proc = subprocess.run(
        [xmx_run, module, "--device", "pvc", "--global", "%d,%d" % (n // 2, m // tile),
         "--local", "16,1", "--arg", "buffer:file=%s" % (work / "a.bin"),
         "--arg", "buffer:file=%s" % (work / "b.bin"), "--arg", "buffer:zero:%d" % (m * n * 4),
         "--arg", "i32:%d" % m, "--arg", "i32:%d" % n, "--arg", "i32:%d" % k,
         "--expect", "2=%s" % (work / "c_expected.bin")], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("xmx-run exit %d:\n%s" % (proc.returncode, proc.stderr[-2000:]))
    print("C equals the host matmul at %dx%dx%d" % (m, n, k))


if __name__ == "__main__":
    main()
