#!/usr/bin/env python3
"""Inputs and the host-computed product for the example GEMMs (examples/run_example.sh).

  gemm_data.py bf16|int8 M N K OUT_DIR

writes OUT_DIR/a.bin, b.bin (row-major A: MxK, B: KxN; bf16 as 16-bit patterns or int8) and
c_expected.bin (C = A*B, row-major MxN: float for bf16, int32 for int8), computed here on the
host in plain Python. The bf16 inputs are small integers, so every product and partial sum is
exact in fp32 and the expected C does not depend on the summation order."""
import random
import struct
import sys


def main():
    kind, m, n, k, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    rng = random.Random(2026)
    if kind == "bf16":
        a = [rng.randint(-8, 8) for _ in range(m * k)]
        b = [rng.randint(-8, 8) for _ in range(k * n)]
        # bf16 of a small integer: the upper 16 bits of its fp32 pattern (exact).
        bf16 = lambda v: struct.unpack("<I", struct.pack("<f", float(v)))[0] >> 16
        a_bytes = b"".join(struct.pack("<H", bf16(v)) for v in a)
        b_bytes = b"".join(struct.pack("<H", bf16(v)) for v in b)
        c_format = "<f"
    elif kind == "int8":
        a = [rng.randint(-128, 127) for _ in range(m * k)]
        b = [rng.randint(-128, 127) for _ in range(k * n)]
        a_bytes = bytes(v & 0xFF for v in a)
        b_bytes = bytes(v & 0xFF for v in b)
        c_format = "<i"
    else:
        sys.exit("usage: gemm_data.py bf16|int8 M N K OUT_DIR")
    columns = [b[j::n] for j in range(n)]
    c = []
    for i in range(m):
        row = a[i * k:(i + 1) * k]
        c.extend(sum(x * y for x, y in zip(row, col)) for col in columns)
    with open(f"{out}/a.bin", "wb") as f:
        f.write(a_bytes)
    with open(f"{out}/b.bin", "wb") as f:
        f.write(b_bytes)
    with open(f"{out}/c_expected.bin", "wb") as f:
        f.write(b"".join(struct.pack(c_format, v) for v in c))


if __name__ == "__main__":
    main()
