#!/usr/bin/env python3
"""Runs an LLVM-made split matrix multiply-accumulate module (test/val/rows/split_*.spv) with
xmx-run on random inputs and compares the result with an independent model written here from
SPEC-NOTES D and DECISIONS.md 9 (subgroups 2k and 2k+1 pair up; 2k supplies rows 0..M/2-1 of A).

  check_split_mad.py XMX_RUN MODULE TYPES K M WORK_DIR

The kernels read a[gid] (M/2 32-bit components), b[gid] (8), c[gid] (M) and write c[gid]. Float
families use small integer inputs, so every sum is exact in any order."""
import random
import struct
import subprocess
import sys

SG = 8


def main():
    xmx_run, module, types, k, m, work = sys.argv[1:7]
    k, m = int(k), int(m)
    items = 4 * SG  # two work-groups of two subgroups
    rng = random.Random(f"{types}{k}{m}")
    is_float = types in ("bf16_bf16", "f16_f16")
    per = 2 if is_float else 4  # elements packed per 32-bit component

    def element(word, index):
        bits = 32 // per
        v = (word >> (bits * index)) & ((1 << bits) - 1)
        if is_float:
            if types == "bf16_bf16":
                return struct.unpack("<f", struct.pack("<I", v << 16))[0]
            return struct.unpack("<e", struct.pack("<H", v))[0]
        return v

    def encode_small(value):
        if types == "bf16_bf16":
            return struct.unpack("<I", struct.pack("<f", float(value)))[0] >> 16
        return struct.unpack("<H", struct.pack("<e", float(value)))[0]

    def make_word():
        if is_float:
            return encode_small(rng.randint(-4, 4)) | (encode_small(rng.randint(-4, 4)) << 16)
        return rng.getrandbits(32)

    a = [make_word() for _ in range(items * (m // 2))]
    b = [make_word() for _ in range(items * 8)]
    if is_float:
        c = [float(rng.randint(-100, 100)) for _ in range(items * m)]
    else:
        c = [rng.randint(-(2 ** 31), 2 ** 31 - 1) for _ in range(items * m)]

    a_signed = types.startswith("i8")
    b_signed = types.endswith("i8")

    def value(word, index, signed):
        if is_float:
            return element(word, index)
        v = (word >> (8 * index)) & 0xFF
        return v - 256 if signed and v > 127 else v

    expected = []
    for item in range(items):
        subgroup, lane = divmod(item, SG)
        pair_first = (subgroup // 2) * 2
        for r in range(m):
            half, row = divmod(r, m // 2)
            total = c[item * m + r]
            for kk in range(k):
                a_lane, a_index = divmod(kk, per)
                a_item = (pair_first + half) * SG + a_lane
                a_value = value(a[a_item * (m // 2) + row], a_index, a_signed)
                b_word, b_index = divmod(kk, per)
                b_value = value(b[item * 8 + b_word], b_index, b_signed)
                total += a_value * b_value
            expected.append(total)

    def write(name, fmt, values):
        with open(f"{work}/{name}", "wb") as f:
            f.write(struct.pack(f"<{len(values)}{fmt}", *values))

    write("a.bin", "I", a)
    write("b.bin", "I", b)
    if is_float:
        write("c.bin", "f", c)
        write("expected.bin", "f", expected)
    else:
        write("c.bin", "i", c)
        write("expected.bin", "I", [v & 0xFFFFFFFF for v in expected])
    command = [xmx_run, module, "--device", "dg2", "--global", str(items), "--local",
               str(2 * SG), "--arg", f"buffer:file={work}/a.bin", "--arg",
               f"buffer:file={work}/b.bin", "--arg", f"buffer:file={work}/c.bin", "--expect",
               f"2={work}/expected.bin"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        sys.exit(f"error: {module}: xmx-run exited with {result.returncode}")
    print(f"{module}: {items} work-items equal the model")


if __name__ == "__main__":
    main()
