#!/usr/bin/env python3
"""End-to-end conformance of OpSubgroupMatrixMultiplyAccumulateINTEL in xmx-run.

usage: check_mma_rows.py XMX_RUN ROWS_DIR WORKDIR [MODULE_GLOB]

For every matrix table module of test/val/rows (manifest.json, kind "mma", no variant) whose
file name matches MODULE_GLOB (default "mma_*"), runs the LLVM-made kernel
    D[gid] = __spirv_SubgroupMatrixMultiplyAccumulateINTEL(K, A[gid], B[gid], C[gid], ops)
on two subgroups with random inputs and compares D with an independent model written here from
SPEC-NOTES B.4 (the data mapping), B.7 and DECISIONS 1-3 and 10 (signedness, wrap-around, one
rounding of the exact sum, the paired SG32 form). Integers take random bits; floats take values
from a small set every format represents exactly, so every sum is exact in any order and the
one rounding only matters for bf16 / fp16 results. Nothing here shares code with source/interp.
"""
from fractions import Fraction

import row_modules

# Element formats: (kind, bits, exponent bits, mantissa bits, bias) for floats.
FLOATS = {
    "f32": (8, 23, 127), "tf32": (8, 23, 127), "f16": (5, 10, 15), "bf16": (8, 7, 127),
    "e4m3": (4, 3, 7), "e5m2": (5, 2, 15), "e2m1": (2, 1, 1),
}
BITS = {"u8": 8, "s8": 8, "u4": 4, "s4": 4, "f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8,
        "e5m2": 8, "e2m1": 4}


def element_formats(ops):
    """The A and B element formats the Operands bits name (SPEC-NOTES B.2)."""
    def pick(int8, int4, tf32, f16, bf16, e4m3, e5m2, e2m1, signed):
        if ops & int8:
            return "s8" if ops & signed else "u8"
        if ops & int4:
            return "s4" if ops & signed else "u4"
        for bit, name in ((tf32, "tf32"), (f16, "f16"), (bf16, "bf16"), (e4m3, "e4m3"),
                          (e5m2, "e5m2"), (e2m1, "e2m1")):
            if ops & bit:
                return name
        raise ValueError("no element bit for an operand in 0x%x" % ops)
    a = pick(0x10, 0x40, 0x100, 0x400, 0x1000, 0x4000, 0x10000, 0x40000, 0x1)
    b = pick(0x20, 0x80, 0x200, 0x800, 0x2000, 0x8000, 0x20000, 0x80000, 0x2)
    return a, b


def parse_type(text):
    """'i16 x 8' -> ('i', 16, 8); 'f32' -> ('f', 32, 1)."""
    parts = text.split(" x ")
    return parts[0][0], int(parts[0][1:]), int(parts[1]) if len(parts) > 1 else 1


def encode_float(value, fmt):
    """Bits of `value` (exactly representable) in a float format."""
    e_bits, m_bits, bias = FLOATS[fmt]
    if value == 0:
        return 0
    sign = 1 if value < 0 else 0
    v = abs(Fraction(value))
    e = 0
    while v >= 2:
        v /= 2
        e += 1
    while v < 1:
        v *= 2
        e -= 1
    biased = e + bias
    if biased <= 0:  # subnormal
        mant = Fraction(abs(Fraction(value))) / Fraction(2) ** (1 - bias) * (1 << m_bits)
        biased = 0
    else:
        mant = (v - 1) * (1 << m_bits)
    assert mant.denominator == 1 and biased < (1 << e_bits), (value, fmt)
    return (sign << (e_bits + m_bits)) | (biased << m_bits) | int(mant)


def round_to(value, fmt):
    """Round an exact Fraction to nearest-even in fmt (f32, f16, bf16); returns the bits."""
    e_bits, m_bits, bias = FLOATS[fmt]
    total = 1 + e_bits + m_bits
    sign = 1 if value < 0 else 0
    v = abs(value)
    if v == 0:
        return sign << (total - 1)
    e = 0
    while v >= 2:
        v /= 2
        e += 1
    while v < 1:
        v *= 2
        e -= 1
    e = max(e, 1 - bias)  # subnormals share the smallest exponent
    scaled = abs(value) / Fraction(2) ** e * (1 << m_bits)  # significand in units of the last bit
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r > scaled.denominator or (2 * r == scaled.denominator and q & 1):
        q += 1
    if q >= (2 << m_bits):  # rounding carried into the next binade
        q >>= 1
        e += 1
    if e + bias >= (1 << e_bits) - 1:
        return (sign << (total - 1)) | (((1 << e_bits) - 1) << m_bits)  # infinity
    if q < (1 << m_bits):  # subnormal
        return (sign << (total - 1)) | q
    return (sign << (total - 1)) | ((e + bias) << m_bits) | (q - (1 << m_bits))


# Values every float format here represents exactly (fp4 E2M1 has no 0.25).
FLOAT_VALUES = [0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2, -2, 3, -3, 0.25, -0.25]
FP4_VALUES = [0, 0.5, -0.5, 1, -1, 1.5, -1.5, 2, -2, 3, -3]


def random_element(fmt, rng):
    """(value, bits) of one random A or B element."""
    if fmt in ("u8", "s8", "u4", "s4"):
        bits = rng.randrange(1 << BITS[fmt])
        signed = fmt[0] == "s"
        half = 1 << (BITS[fmt] - 1)
        return (bits - 2 * half if signed and bits >= half else bits), bits
    value = Fraction(rng.choice(FP4_VALUES if fmt == "e2m1" else FLOAT_VALUES))
    bits = encode_float(value, fmt)
    if fmt == "tf32":  # an fp32 pattern whose low 13 bits the instruction ignores (DECISIONS 3)
        bits |= rng.getrandbits(13)
    return value, bits


def pack_fields(fields, width):
    word = 0
    for j, f in enumerate(fields):
        word |= f << (j * width)
    return word


def run_row(xmx_run, module, entry, workdir, rng):
    row = entry["row"]
    sg, m, k, ops = row["subgroup_size"], row["m"], row["k"], int(row["operands"], 16)
    paired = row["paired"]
    n_cols = 16 if paired else sg
    a_fmt, b_fmt = element_formats(ops)
    a_kind, a_width, a_count = parse_type(row["a"])
    b_kind, b_width, b_count = parse_type(row["b"])
    c_kind, c_width, c_count = parse_type(row["c"])
    r_kind, r_width, r_count = parse_type(row["result"])
    integer = a_fmt in ("u8", "s8", "u4", "s4")
    c_fmt = "bf16" if ops & 0x4 else ("f16" if c_width == 16 else "f32")
    r_fmt = "bf16" if ops & 0x8 else ("f16" if r_width == 16 else "f32")

    # The matrices, as values and as element bits.
    A = [[random_element(a_fmt, rng) for _ in range(k)] for _ in range(m)]
    B = [[random_element(b_fmt, rng) for _ in range(n_cols)] for _ in range(k)]
    if integer:
        C = [[(lambda b: (b - (1 << 32) if b >> 31 else b, b))(rng.getrandbits(32))
              for _ in range(n_cols)] for _ in range(m)]
    else:
        C = [[(lambda v: (v, encode_float(v, c_fmt)))(Fraction(rng.choice(FLOAT_VALUES)))
              for _ in range(n_cols)] for _ in range(m)]

    groups = 2
    lanes = sg * groups
    a_bytes, b_bytes = a_width // 8 * a_count, b_width // 8 * b_count
    c_bytes, r_bytes = c_width // 8 * c_count, r_width // 8 * r_count
    buf_a, buf_b, buf_c = bytearray(), bytearray(), bytearray()
    expected = bytearray()
    e_bits = BITS[a_fmt]
    for gid in range(lanes):
        inv = gid % sg  # every subgroup gets the same matrices
        half, n = (inv // 16, inv % 16) if paired else (0, inv)
        rows = [2 * t + half for t in range(a_count)] if paired else None
        # A (B.4): c elements per component; tf32 at SG16 uses row phases.
        per = a_width // e_bits
        comps = []
        if not paired and n_cols * per > k:  # row phases (tf32, K 8 at SG16)
            g = n_cols * per // k
            col, phase = inv % (k // per), inv // (k // per)
            for t in range(a_count):
                r = t * g + phase
                comps.append(A[r][col][1] if r < m else 0)
        else:
            for t in range(a_count):
                r = rows[t] if paired else t
                fields = [A[r][n * per + j][1] if r < m else 0 for j in range(per)]
                comps.append(pack_fields(fields, e_bits))
        buf_a += b"".join(c.to_bytes(a_width // 8, "little") for c in comps)
        # B: column n, p rows per 32-bit word (one per component for 32-bit elements).
        p = 32 // BITS[b_fmt] if BITS[b_fmt] <= 16 else 1
        words = []
        for t in range(b_count):
            w = 2 * t + half if paired else t
            words.append(pack_fields([B[w * p + j][n][1] for j in range(p)], BITS[b_fmt]))
        buf_b += b"".join(x.to_bytes(4, "little") for x in words)
        # C and the expected Result: component t = row t (paired: 2t + half).
        out = []
        for t in range(c_count):
            r = 2 * t + half if paired else t
            buf_c += C[r][n][1].to_bytes(c_width // 8, "little")
            exact = C[r][n][0] + sum(A[r][kk][0] * B[kk][n][0] for kk in range(k))
            if integer:
                out.append((exact & 0xFFFFFFFF).to_bytes(4, "little"))
            else:
                out.append(round_to(Fraction(exact), r_fmt).to_bytes(r_width // 8, "little"))
        expected += b"".join(out)
    assert len(buf_a) == lanes * a_bytes and len(buf_c) == lanes * c_bytes

    stem = module.stem
    paths = {name: workdir / ("%s.%s.bin" % (stem, name)) for name in ("a", "b", "c", "d")}
    paths["a"].write_bytes(bytes(buf_a))
    paths["b"].write_bytes(bytes(buf_b))
    paths["c"].write_bytes(bytes(buf_c))
    device = entry["valid_on"][0]
    cmd = [xmx_run, str(module), "--device", device, "--global", str(lanes), "--local", str(sg),
           "--arg", "buffer:file=%s" % paths["a"], "--arg", "buffer:file=%s" % paths["b"],
           "--arg", "buffer:file=%s" % paths["c"], "--arg", "buffer:zero:%d" % (lanes * r_bytes),
           "--dump", "3=%s" % paths["d"]]
    why = row_modules.run_xmx(cmd)
    if why:
        return why
    got = paths["d"].read_bytes()
    if got != bytes(expected):
        size = r_width // 8
        for i in range(0, len(got), size):
            if got[i:i + size] != expected[i:i + size]:
                lane, comp = divmod(i // size, r_count)
                return "lane %d component %d: expected %s, got %s" % (
                    lane, comp, expected[i:i + size].hex(), got[i:i + size].hex())
    return None


def check_module(xmx_run, module, entry, workdir, rng):
    why = run_row(xmx_run, module, entry, workdir, rng)
    return [why] if why else []


if __name__ == "__main__":
    row_modules.main(__doc__, "mma", "mma_*", "matrix", check_module)
