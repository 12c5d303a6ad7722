#!/usr/bin/env python3
"""A GEMM of run_bench's benchmark set, run by xmx-run at a small size, equals a host matmul.

usage: check_bench_gemm.py XMX_RUN MODULE TYPE TILE_MxTILE_N LAUNCH ARGS M N K WORKDIR

TYPE: the operand type, bf16, fp16, tf32 (A and B fp32 buffers) or int8 (signed); C is int32
for int8, else fp32. LAUNCH: `native` (NDRange (N / TILE_N * 16, M / TILE_M), local (16, 1))
or `coop` (the test/coop acceptance GEMMs: NDRange (M / TILE_M, N / TILE_N * 16), local
(1, 16)). ARGS, after the A, B, C buffers: `none` (the sizes are the kernel's constants),
`mnk` (i32 M, N, K), `mnk_ld` (i32 M, N, K and leading dimensions lda, ldb, ldc, here wider
than the matrices: the padding columns must stay untouched) or `mnk64` (i64 M, N, K).

The model is written here and shares no code with source/interp. int8: exact products and sums,
32-bit. Floats: xmx-run's default `exact` model of the matrix instruction (README, xmx-run):
each instruction computes C + the products of its K (16 for bf16 and fp16, 8 for tf32)
exactly and rounds once to fp32 (nearest even); tf32 uses the upper 19 bits of each fp32
operand. The instructions of one element follow K in increasing order. The inputs are
m * 2^e with the operand type's full significand (|m| < 2^8 bf16, 2^11 fp16; for tf32 fp32 values of 24
significant bits, of which the instruction keeps 11, so that the truncation matters) and e in
-4..3, so every product and every sum of one
instruction is a multiple of 2^-8 below 2^45 in magnitude, exact in a Python float; the only
rounding is the one to fp32, which struct performs (nearest even), and the sums are long enough
(24 bits and more) for it to matter. C must equal the model bit for bit."""
import pathlib
import random
import struct
import subprocess
import sys

SIGNIFICAND = {"bf16": 8, "fp16": 11, "tf32": 24}
INSTRUCTION_K = {"bf16": 16, "fp16": 16, "tf32": 8, "int8": 32}


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def operand(rng, kind):
    if kind == "int8":
        return rng.randint(-128, 127)
    exponent = rng.randint(-4, 3)
    if kind == "tf32":
        # A full 24-bit significand, of which the instruction keeps the upper 11 bits.
        m = rng.choice((-1, 1)) * rng.randint(1 << 23, (1 << 24) - 1)
        return m * 2.0 ** (exponent - 13)
    m = rng.randint(-(1 << SIGNIFICAND[kind]) + 1, (1 << SIGNIFICAND[kind]) - 1)
    return m * 2.0 ** exponent


def encode(value, kind):
    if kind == "int8":
        return struct.pack("<b", value)
    if kind == "fp16":
        return struct.pack("<e", value)
    if kind == "bf16":
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        assert bits & 0xFFFF == 0, "not a bf16 value"
        return struct.pack("<H", bits >> 16)
    return struct.pack("<f", value)


def as_used(value, kind):
    """The operand as the matrix instruction reads it: tf32 keeps the upper 19 bits."""
    if kind != "tf32":
        return value
    bits = struct.unpack("<I", struct.pack("<f", value))[0] & 0xFFFFE000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def host_matmul(a, b, m, n, k, kind):
    step = INSTRUCTION_K[kind]
    columns = [[b[r][j] for r in range(k)] for j in range(n)]
    c = []
    for i in range(m):
        row = a[i]
        out = []
        for col in columns:
            if kind == "int8":
                v = sum(x * y for x, y in zip(row, col))
                out.append((v + (1 << 31)) % (1 << 32) - (1 << 31))
                continue
            acc = 0.0
            for k0 in range(0, k, step):
                acc = f32(acc + sum(x * y for x, y in zip(row[k0:k0 + step], col[k0:k0 + step])))
            out.append(acc)
        c.append(out)
    return c


def main():
    if len(sys.argv) != 11:
        sys.exit(__doc__)
    xmx_run, module, kind, tile, launch, args = sys.argv[1:7]
    m, n, k = (int(v) for v in sys.argv[7:10])
    work = pathlib.Path(sys.argv[10])
    work.mkdir(parents=True, exist_ok=True)
    if kind not in INSTRUCTION_K or launch not in ("native", "coop") or \
            args not in ("none", "mnk", "mnk_ld", "mnk64"):
        sys.exit(__doc__)
    tile_m, tile_n = (int(v) for v in tile.split("x"))
    rng = random.Random("%s %d %d %d" % (pathlib.Path(module).name, m, n, k))
    a = [[operand(rng, kind) for _ in range(k)] for _ in range(m)]
    b = [[operand(rng, kind) for _ in range(n)] for _ in range(k)]
    a_used = [[as_used(v, kind) for v in row] for row in a]
    b_used = [[as_used(v, kind) for v in row] for row in b]
    want = host_matmul(a_used, b_used, m, n, k, kind)

    # Leading dimensions: wider than the matrices when the kernel takes them, by a multiple of
    # 16 bytes (the 2D block pitch's granule).
    pad = 32 if args == "mnk_ld" else 0
    lda, ldb, ldc = k + pad, n + pad, n + pad
    in_size = {"int8": 1, "bf16": 2, "fp16": 2, "tf32": 4}[kind]
    a_bytes = bytearray(m * lda * in_size)
    b_bytes = bytearray(k * ldb * in_size)
    for i in range(m):
        a_bytes[i * lda * in_size:(i * lda + k) * in_size] = b"".join(encode(v, kind) for v in a[i])
    for r in range(k):
        b_bytes[r * ldb * in_size:(r * ldb + n) * in_size] = b"".join(encode(v, kind) for v in b[r])
    c_format = "<i" if kind == "int8" else "<f"
    c_expected = bytearray(m * ldc * 4)
    for i in range(m):
        c_expected[i * ldc * 4:(i * ldc + n) * 4] = b"".join(struct.pack(c_format, v)
                                                             for v in want[i])
    paths = {name: work / ("%s.bin" % name) for name in ("a", "b", "c_expected")}
    paths["a"].write_bytes(a_bytes)
    paths["b"].write_bytes(b_bytes)
    paths["c_expected"].write_bytes(c_expected)

    if launch == "native":
        geometry = ["--global", "%d,%d" % (n // tile_n * 16, m // tile_m), "--local", "16,1"]
    else:
        geometry = ["--global", "%d,%d" % (m // tile_m, n // tile_n * 16), "--local", "1,16"]
    argv = ["--arg", "buffer:file=%s" % paths["a"], "--arg", "buffer:file=%s" % paths["b"],
            "--arg", "buffer:zero:%d" % len(c_expected)]
    if args == "mnk64":
        argv += ["--arg", "i64:%d" % m, "--arg", "i64:%d" % n, "--arg", "i64:%d" % k]
    elif args != "none":
        argv += ["--arg", "i32:%d" % m, "--arg", "i32:%d" % n, "--arg", "i32:%d" % k]
    if args == "mnk_ld":
        argv += ["--arg", "i32:%d" % lda, "--arg", "i32:%d" % ldb, "--arg", "i32:%d" % ldc]
    dump = work / "c.bin"
    cmd = [xmx_run, module, "--device", "pvc"] + geometry + argv + ["--dump", "2=%s" % dump]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("xmx-run exit %d: %s\n%s" % (proc.returncode, " ".join(cmd),
                                              (proc.stdout + proc.stderr)[-3000:]))
    got = dump.read_bytes()
    if got != bytes(c_expected):
        if len(got) != len(c_expected):
            sys.exit("C has %d bytes, expected %d" % (len(got), len(c_expected)))
        for index in range(0, len(got), 4):
            if got[index:index + 4] != c_expected[index:index + 4]:
                row, col = divmod(index // 4, ldc)
                sys.exit("C[%d][%d] = %r, the host matmul gives %r (%d bytes differ in all)" % (
                    row, col, struct.unpack(c_format, got[index:index + 4])[0],
                    struct.unpack(c_format, c_expected[index:index + 4])[0],
                    sum(1 for x, y in zip(got, c_expected) if x != y)))
    print("%s: C equals the host matmul (%s, %dx%dx%d)" % (pathlib.Path(module).name, kind, m, n,
                                                           k))


if __name__ == "__main__":
    main()
