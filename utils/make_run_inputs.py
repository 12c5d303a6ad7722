#!/usr/bin/env python3
"""Writes the input buffers of the differential runs (test/run/inputs/*.bin).

The run descriptions in test/run/*.json take most inputs from `buffer:random=SEED:BYTES`; the
kernels whose behaviour is only defined for bounded values (no signed overflow, finite floats in a
range where the results are exact, non-negative inputs for the order-independent atomics, ...)
read small files written here instead. Every value comes from a fixed splitmix64 stream, so the
files are reproducible; `--check` verifies that the committed files are what this script writes.
It also writes test/run/expected/<entry>/, reference outputs for the kernels PoCL cannot run.

    utils/make_run_inputs.py            # rewrite test/run/inputs/
    utils/make_run_inputs.py --check    # exit 1 if a file is missing or differs
"""

import argparse
import math
import os
import struct
import sys

MASK64 = (1 << 64) - 1
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1
LONG_MIN, LONG_MAX = -(1 << 63), (1 << 63) - 1
LIMIT = 1 << 20  # "moderate size" of test/corpus/README.md for 32-bit integer data
EXPECTED = "../expected/"  # reference outputs, for kernels PoCL cannot run


class SplitMix64:
    """The generator of `buffer:random=`, here used to draw values rather than bytes."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def int_in(self, lo, hi):
        """An integer in [lo, hi] (the modulo bias does not matter here)."""
        return lo + self.next() % (hi - lo + 1)

    def ints(self, n, lo, hi):
        return [self.int_in(lo, hi) for _ in range(n)]


def pack(fmt, values):
    return struct.pack("<%d%s" % (len(values), fmt), *values)


def i32(values):
    return pack("i", values)


def u32(values):
    return pack("I", values)


def i64(values):
    return pack("q", values)


def f32(values):
    return pack("f", values)


def f64(values):
    return pack("d", values)


def f16(values):
    return pack("e", values)


def dyadic(rng, n, lo, hi, denominator):
    """n multiples of 1/denominator in [lo, hi]: exact in every float format used."""
    return [rng.int_in(lo * denominator, hi * denominator) / denominator for _ in range(n)]


def make_inputs():
    """{file name: bytes}."""
    files = {}

    rng = SplitMix64(101)
    files["atomics_c11.in.bin"] = i32(rng.ints(64, -LIMIT, LIMIT))
    files["atomics_c11.acc.bin"] = i32([0, INT_MAX, INT_MIN, 0])
    files["atomics_c11.flags.bin"] = u32([0, 0xFFFFFFFF])

    # Non-negative: the compare-and-swap loop is a saturating add only for v >= 0.
    rng = SplitMix64(102)
    files["atomics_global.in.bin"] = i32(rng.ints(64, 0, (1 << 16) - 1))
    files["atomics_global.counters.bin"] = i32([0, 0, 0, INT_MAX, INT_MIN, 0])
    files["atomics_global.bits.bin"] = u32([0, 0xFFFFFFFF, 0, 0])

    rng = SplitMix64(103)
    files["atomics_int64.in.bin"] = i64(rng.ints(64, -LIMIT, LIMIT))
    files["atomics_int64.acc.bin"] = i64([0, LONG_MAX, LONG_MIN, 0])

    # `1 << (v & 31)` on int: keep (v & 31) != 31 so that the shift does not overflow; one zero so
    # that the atomic_store branch runs.
    rng = SplitMix64(104)
    values = [v - 1 if v & 31 == 31 else v for v in rng.ints(64, -LIMIT, LIMIT)]
    values[37] = 0
    files["atomics_llc_subset.in.bin"] = i32(values)
    files["atomics_llc_subset.g.bin"] = i32([0, 0, 0, -1, INT_MIN])

    rng = SplitMix64(105)
    files["atomics_local.in.bin"] = i32(rng.ints(64, -LIMIT, LIMIT))

    # convert_sat: `v << 8` must not shift a negative value, v * 3 must not overflow.
    rng = SplitMix64(106)
    files["convert_sat.in.bin"] = i32(
        [rng.int_in(0, 300) if k % 4 == 0 else rng.int_in(0, LIMIT - 1) for k in range(64)])
    special = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 255.5, 256.0, 32767.5, 32768.0, -32768.5,
               -40000.25, 65535.75, 1e6, -1e6, 2147483520.0, -2147483904.0, 3e9, -3e9,
               4294967040.0, 5e9, 1e20, -1e20, math.inf, -math.inf, 0.0, -0.0, 1e-30]
    files["convert_sat.fin.bin"] = f32(special + dyadic(rng, 64 - len(special), -100000, 100000,
                                                        4))
    special = [0, -1, INT_MAX, INT_MIN, INT_MAX + 1, INT_MIN - 1, (1 << 32) - 1, 1 << 32,
               LONG_MAX, LONG_MIN]
    files["convert_sat.lin.bin"] = i64(special + rng.ints(64 - len(special), LONG_MIN, LONG_MAX))

    # double_arith: (long)(x * 1e6) and convert_long_rtz(v.y) must fit a long.
    rng = SplitMix64(107)
    a = dyadic(rng, 64, -LIMIT, LIMIT, 1024)
    a[:4] = [0.1, -1.0 / 3.0, -0.0, 12345.678]
    files["double_arith.a.bin"] = f64(a)
    b = dyadic(rng, 128, -LIMIT, LIMIT, 1024)
    b[:4] = [0.0, 0.3, -7.25, 1e-3]
    files["double_arith.b.bin"] = f64(b)

    # float_exact_builtins quantizes its inputs itself; a few special values check the classes.
    rng = SplitMix64(108)
    a = dyadic(rng, 256, -80, 80, 8)
    a[0:4] = [math.nan, math.inf, -math.inf, -0.0]
    a[4:8] = [0.0, 1e-3, -64.125, 100.0]
    files["float_exact_builtins.a.bin"] = f32(a)
    files["float_exact_builtins.b.bin"] = f32(dyadic(rng, 256, -80, 80, 8))

    # half_arith: small multiples of 1/2 keep every half result exact.
    rng = SplitMix64(109)
    files["half_arith.a.bin"] = f16(dyadic(rng, 64, -16, 16, 2))
    files["half_arith.b.bin"] = f16(dyadic(rng, 256, -16, 16, 2))

    # helper_calls: gcd takes abs(); avoid INT_MIN, include zeros.
    rng = SplitMix64(110)
    files["helper_calls.a.bin"] = i32(
        [0 if k % 7 == 3 else v for k, v in enumerate(rng.ints(64, -LIMIT, LIMIT))])
    files["helper_calls.b.bin"] = i32(
        [0 if k % 5 == 1 else v for k, v in enumerate(rng.ints(64, -LIMIT, LIMIT))])

    # int_builtins computes x + 1 and -x.
    rng = SplitMix64(111)
    files["int_builtins.a.bin"] = i32(rng.ints(64, -LIMIT, LIMIT))
    files["int_builtins.b.bin"] = i32(rng.ints(64, -LIMIT, LIMIT))

    rng = SplitMix64(112)
    files["local_arg_reduce.in.bin"] = i32(rng.ints(128, -LIMIT, LIMIT))

    rng = SplitMix64(113)
    files["matmul_tiled_int.a.bin"] = i32(rng.ints(256, -1000, 1000))
    files["matmul_tiled_int.b.bin"] = i32(rng.ints(256, -1000, 1000))

    rng = SplitMix64(114)
    files["program_scope_globals.in.bin"] = i32(rng.ints(64, -LIMIT, LIMIT))

    # ptr_generic sums up to 136 weighted copies of 2 * in[k].
    rng = SplitMix64(115)
    files["ptr_generic.in.bin"] = i32(rng.ints(64, -(1 << 14), 1 << 14))

    rng = SplitMix64(116)
    files["stencil_halo.in.bin"] = i32(rng.ints(100, -LIMIT, LIMIT))

    # string_bytes: text with letters of both cases, digits, runs and a few non-ASCII bytes.
    rng = SplitMix64(117)
    text = bytearray(b"Hello, World! 0123456789 aaaa ZZZZZ zebra Quick brown FOX 42 ... ")
    alphabet = b"abcxyzABCXYZ0123456789 .,;!-_~" + bytes([0x80, 0xC3, 0xE9, 0xFF])
    while len(text) < 250:
        ch = alphabet[rng.next() % len(alphabet)]
        text += bytes([ch]) * (1 + rng.next() % 4)
    files["string_bytes.text.bin"] = bytes(text[:250])

    # struct_buffer: Record = {Entry{uchar tag; (pad); short delta; int value}; int hist[4];
    # long total; float2 pos} = 40 bytes. Padding bytes are zero, value/hist bounded, pos exact.
    rng = SplitMix64(118)
    records = b""
    for _ in range(32):
        records += struct.pack("<BxhI", rng.int_in(0, 255), rng.int_in(-32768, 32767),
                               rng.int_in(-LIMIT, LIMIT) & 0xFFFFFFFF)
        records += i32(rng.ints(4, -LIMIT, LIMIT))
        records += struct.pack("<q", rng.int_in(LONG_MIN, LONG_MAX))
        records += f32(dyadic(rng, 2, -1000, 1000, 4))
    assert len(records) == 32 * 40
    files["struct_buffer.in.bin"] = records

    rng = SplitMix64(119)
    struct_byval_in = rng.ints(64, -LIMIT, LIMIT)
    files["struct_byval.in.bin"] = i32(struct_byval_in)
    # Params {int scale, offset, lo, hi; uint flags}, passed by value (a ByVal pointer in SPIR-V).
    files["struct_byval.params.bin"] = i32([3, -7, -1000000, 1000000, 1])
    files[EXPECTED + "struct_byval/out.bin"] = struct_byval(struct_byval_in, 3, -7, -1000000,
                                                            1000000, 1)

    # vec_conversions: the non-saturating float -> int conversions need values within int range.
    rng = SplitMix64(120)
    special = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997, 1e-3, -1e-3, 0.0, -0.0,
               16777217.0, -16777215.0, 1073741824.0, -2147483520.0, 2147483520.0, 8388607.5,
               -8388607.5, 3.75, -3.75, 100.25, -100.75, 7.0]
    values = special + dyadic(rng, 256 - len(special), -(1 << 22), 1 << 22, 4)
    files["vec_conversions.f.bin"] = f32(values)

    rng = SplitMix64(121)
    files["vec_float4_swizzle.in.bin"] = f32(dyadic(rng, 256, -256, 256, 4))

    rng = SplitMix64(122)
    files["vload_vstore.f.bin"] = f32(dyadic(rng, 96, -64, 64, 8))
    files["vload_vstore.h.bin"] = f16(dyadic(rng, 128, -32, 32, 8))
    files["vload_vstore.ints.bin"] = i32(rng.ints(109, -LIMIT, LIMIT))

    # work_group_collectives: bounded sums; work-group 1 all positive, work-group 2 all >= 0.
    rng = SplitMix64(123)
    values = rng.ints(64, -LIMIT, LIMIT)
    values[16:32] = [abs(v) + 1 for v in values[16:32]]
    values[32:48] = [abs(v) for v in values[32:48]]
    files["work_group_collectives.in.bin"] = i32(values)
    files[EXPECTED + "work_group_collectives/out.bin"] = work_group_collectives(values, 16)
    return files


def work_group_collectives(values, group_size):
    """The out buffer of work_group_collectives.cl: PoCL 3.1 has no work_group_* built-ins, so
    this reference stands in for the oracle."""
    out = []
    for base in range(0, len(values), group_size):
        group = values[base:base + group_size]
        all_pos, any_neg = all(v > 0 for v in group), any(v < 0 for v in group)
        low_bytes = sum(v & 0xFF for v in group) & 0xFFFFFFFF
        for lid, v in enumerate(group):
            out += [sum(group), min(group), max(group), sum(group[:lid + 1]),
                    max(group[:lid], default=INT_MIN), group[0],
                    (1 if all_pos else 0) | (2 if any_neg else 0),
                    low_bytes - (1 << 32) if low_bytes > INT_MAX else low_bytes]
    return i32(out)


def struct_byval(values, scale, offset, lo, hi, flags):
    """The out buffer of struct_byval.cl: PoCL 3.1 passes structs by value wrongly (it reads
    zeros, from source and from SPIR alike), so this reference stands in for the oracle."""
    out = []
    for x in values:
        y = x * scale + offset
        value = max(lo, min(hi, y))
        out += [-value if flags & 1 else value, 1 if y < lo or y > hi else 0]
    return i32(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "test", "run", "inputs"))
    parser.add_argument("--check", action="store_true",
                        help="compare with the files on disk instead of writing them")
    args = parser.parse_args()
    files = make_inputs()
    out_dir = os.path.normpath(args.out_dir)
    if args.check:
        bad = []
        for name, data in sorted(files.items()):
            path = os.path.normpath(os.path.join(out_dir, name))
            try:
                with open(path, "rb") as f:
                    if f.read() != data:
                        bad.append(name + " differs")
            except OSError as e:
                bad.append("%s: %s" % (name, e.strerror))
        extra = sorted(set(os.listdir(out_dir)) - {name for name in files if "/" not in name})
        bad += [name + " is not written by this script" for name in extra]
        for line in bad:
            print("error: %s/%s" % (out_dir, line), file=sys.stderr)
        print("%d input files checked, %d problems" % (len(files), len(bad)))
        return 1 if bad else 0
    for name, data in sorted(files.items()):
        path = os.path.normpath(os.path.join(out_dir, name))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    print("wrote %d files to %s" % (len(files), out_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
