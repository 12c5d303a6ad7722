#!/usr/bin/env python3
"""Writes the input buffers of the --emulate-xmx tests into inputs/ (deterministic; --check
compares instead of writing and fails when a committed file differs).

16-bit elements (A of emu_mma_float, both halves of each B word, and A and B of the bf16 GEMM)
are bit patterns read as fp16 by some instructions and as bf16 by others. Most have a 5-bit
fp16 exponent field of 10..20 (fp16 values 2^-5 .. 2^5; as bf16, 2^-47 .. 2^40, so that the
products of a sum span far more than a double's 53 bits and only an exact sum rounds them
right); one in eight takes any field but the all-ones one (fp16 subnormals and large values, bf16
subnormals); one in 64 is a signed zero and one in 512 an infinity or a NaN. C floats are
normal values of 2^-30 .. 2^30 with a few signed zeros and subnormals."""

import argparse
import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def element16(rng):
    sign = rng.getrandbits(1) << 15
    roll = rng.random()
    if roll < 1 / 512:
        return sign | 0x7C00 | rng.choice([0, 1, 0x200])  # inf, or a NaN
    if roll < 1 / 64:
        return sign
    if roll < 1 / 8:
        exponent = rng.randrange(0, 31)
    else:
        exponent = rng.randrange(10, 21)
    return sign | exponent << 10 | rng.getrandbits(10)


def float32(rng):
    roll = rng.random()
    if roll < 1 / 64:
        return struct.pack("<I", rng.getrandbits(1) << 31)
    if roll < 1 / 32:
        return struct.pack("<I", rng.getrandbits(1) << 31 | rng.getrandbits(23))  # subnormal
    exponent = rng.randrange(127 - 30, 127 + 31)
    return struct.pack("<I", rng.getrandbits(1) << 31 | exponent << 23 | rng.getrandbits(23))


def halves(seed, count):
    rng = random.Random(seed)
    return b"".join(struct.pack("<H", element16(rng)) for _ in range(count))


def floats(seed, count):
    rng = random.Random(seed)
    return b"".join(float32(rng) for _ in range(count))


FILES = {
    "mma_float_a.bin": lambda: halves(101, 256),
    "mma_float_b.bin": lambda: halves(102, 512),
    "mma_float_c.bin": lambda: floats(103, 256),
    "gemm_bf16_a.bin": lambda: halves(104, 16 * 64),
    "gemm_bf16_b.bin": lambda: halves(105, 64 * 64),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    status = 0
    for name, make in FILES.items():
        path = os.path.join(HERE, "inputs", name)
        data = make()
        if args.check:
            with open(path, "rb") as f:
                if f.read() != data:
                    print("error: %s is not what make_inputs.py writes" % path, file=sys.stderr)
                    status = 1
        else:
            with open(path, "wb") as f:
                f.write(data)
    return status


if __name__ == "__main__":
    sys.exit(main())
