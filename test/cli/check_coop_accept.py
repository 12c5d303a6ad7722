#!/usr/bin/env python3
"""Acceptance of the joint_matrix-style modules of test/coop/accept_spv (issue 10, deliverable 6).

  check_coop_accept.py val --xmx-val V MODULE MANIFEST
  check_coop_accept.py run --xmx-run R MODULE MANIFEST WORKDIR
  check_coop_accept.py coverage DEVICES_DIR MANIFEST

MODULE is accept_spv/<name>.<producer>.spv; MANIFEST (accept_spv/manifest.json, written by
test/coop/accept_gen.py) says what <name> computes and what each device must answer.

val: `xmx-val --device D --format json` for every device of the manifest's "verdicts". "valid"
means accepted with no error and no `bridge.lift` warning (SPIRV-Tools validated the module); a
list of rule prefixes such as ["coop.device"] means rejected (exit 1) with an error of a rule
starting with one of them.

run: on every device of "run_on", inputs made here from a seed derived from the module's name,
`xmx-run --device D`, and the dumped result compared with a model computed here, which shares no
code with source/interp:
- gemm / row / scale / relu: D = C + A * B computed exactly (Fractions, Python integers), then
  * integers: 32-bit wrap-around, compared exactly;
  * floats: A, B and C take values k/4 with |k| <= 8, which fp16, bf16, tf32 and fp32 all hold
    exactly; every product is a multiple of 1/16 and every partial sum over K <= 128 stays below
    2^12 in magnitude, so every sum is exact in fp32 whatever the order of accumulation (the
    `exact` and `ordered` float models of xmx-run, and the hardware's fp32 accumulation, agree).
    The only rounding is the one to a 16-bit D, checked bit for bit against round-to-nearest-even
    of the exact value. A row whose K takes several native steps (K = 32 at 16-bit: the 1x64x32
    and 32x64x32 shapes) may keep its intermediate in D's type, rounding once per step (how IGC
    chains its multiply-adds there is not documented): such an element may also equal that
    step-by-step rounding, computed here the same exact way; no other value passes.
    GEMMs with fp32 results are compared exactly, under both `--mma-fp` models.
- scale: y = fl32(fl32(x * colscale[col]) + rowbias[row]) per element (the kernel declares
  ContractionOff), the scale factors random fp32 values, compared bit for bit.
- relu: max(x, 0) on the s32 accumulator.
- coord: (row, column) of element i of work-item j, written from COOPERATIVE-MATRIX.md A4
  (DECISIONS 15): A at SIMD16 A[i][j] (16-bit) and A[i/2][2j + i%2] (8-bit); A at SIMD8
  A[i/2][2j + i%2] (16-bit) and A[i/4][4j + i%4] (8-bit); B B[i][j]; accumulators C[i][j], the
  32x64 one C[i % 32][(i / 32) * 16 + j], the 1x64 one C[0][16 i + j]; Length = the number of
  elements each work-item holds (rows x columns / subgroup size).

coverage: every combination (A, B, C, D types) of every row of every device profile's
cooperative_matrix table (grammar/devices, "base" applied) is run, on that device, by a row
module of the manifest at an M the row allows.
"""
import argparse
import json
import pathlib
import random
import struct
import subprocess
import sys
import zlib
from fractions import Fraction

# Float formats: exponent bits, mantissa bits (stored), storage bytes.
FLOAT = {"f16": (5, 10, 2), "bf16": (8, 7, 2), "bf16k": (8, 7, 2), "f32": (8, 23, 4),
         "tf32": (8, 23, 4)}
INT = {"u8": (8, False), "s8": (8, True), "s32": (32, True)}
SIZE = {"u8": 1, "s8": 1, "s32": 4, "f16": 2, "bf16": 2, "bf16k": 2, "f32": 4, "tf32": 4}


def round_bits(value, fmt):
    """The bits of the exact Fraction `value` rounded to nearest even in a float format."""
    ebits, mbits, _ = FLOAT[fmt]
    bias = (1 << (ebits - 1)) - 1
    sign = 1 if value < 0 else 0
    mag = -value if sign else value
    top = sign << (ebits + mbits)
    if mag == 0:
        return top
    exp = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** exp > mag:
        exp -= 1
    exp = max(exp, 1 - bias)  # subnormals share the smallest exponent
    scaled = mag / Fraction(2) ** exp * (1 << mbits)
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r > scaled.denominator or (2 * r == scaled.denominator and q & 1):
        q += 1
    if q >= (2 << mbits):
        q >>= 1
        exp += 1
    if exp + bias >= (1 << ebits) - 1:
        return top | (((1 << ebits) - 1) << mbits)  # infinity
    if q < (1 << mbits):
        return top | q  # subnormal
    return top | ((exp + bias) << mbits) | (q - (1 << mbits))


def bits_value(bits, fmt):
    """The exact value of a float's bits (finite values only)."""
    ebits, mbits, _ = FLOAT[fmt]
    bias = (1 << (ebits - 1)) - 1
    sign = bits >> (ebits + mbits)
    e = (bits >> mbits) & ((1 << ebits) - 1)
    m = bits & ((1 << mbits) - 1)
    if e == (1 << ebits) - 1:
        return None
    v = Fraction(m, 1 << mbits) * Fraction(2) ** (1 - bias) if e == 0 else \
        (1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - bias)
    return -v if sign else v


def f32(x):
    """Round a Python float (a double) to fp32 and back."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def encode(values, kind):
    """Bytes of a list of element values (ints or Fractions) in a kind's storage format."""
    out = bytearray()
    for v in values:
        if kind in INT:
            width = INT[kind][0]
            out += (v & ((1 << width) - 1)).to_bytes(width // 8, "little")
        else:
            out += round_bits(Fraction(v), kind).to_bytes(FLOAT[kind][2], "little")
    return bytes(out)


def decode(data, kind):
    """Element bits of a buffer in a kind's storage format."""
    size = SIZE[kind]
    return [int.from_bytes(data[i:i + size], "little") for i in range(0, len(data), size)]


def random_matrix(rng, kind, rows, cols):
    if kind in INT:
        width, signed = INT[kind]
        if kind == "s32":
            lo, hi = -(1 << 20), 1 << 20  # accumulator inputs: large, both signs
        else:
            lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, 255)
        return [[rng.randint(lo, hi) for _ in range(cols)] for _ in range(rows)]
    return [[Fraction(rng.randint(-8, 8), 4) for _ in range(cols)] for _ in range(rows)]


def flat(matrix):
    return [v for row in matrix for v in row]


def run(cmd):
    """(exit code, standard output, standard error) of a command."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return 124, "", "timeout: " + " ".join(cmd)
    return proc.returncode, proc.stdout, proc.stderr


def native_k(kind):
    return {"u8": 32, "s8": 32, "f16": 16, "bf16": 16, "bf16k": 16, "tf32": 8}[kind]


class Failure(Exception):
    pass


def show(bits, kind):
    """An element's bits, with its value for a float."""
    if kind in INT:
        return "0x%x" % bits
    value = bits_value(bits, kind)
    return "0x%x (%s)" % (bits, "inf/nan" if value is None else float(value))


def compare(got, wants, d, where):
    """got: element bits of D; wants: for each element, the set of bits it may have."""
    if len(got) != len(wants):
        raise Failure("%s: %d elements, expected %d" % (where, len(got), len(wants)))
    for i, (g, w) in enumerate(zip(got, wants)):
        if g not in w:
            raise Failure("%s: element %d is %s, expected %s" %
                          (where, i, show(g, d), " or ".join(show(x, d) for x in sorted(w))))


def result_bits(exact, d):
    """D's bits for an exact value: 32-bit wrap-around, or the one rounding to a float D."""
    return exact & 0xFFFFFFFF if d in INT else round_bits(Fraction(exact), d)


def row_results(A, B, C, d, step):
    """For each element of D = C + A * B the bits it may have: the exact sum rounded once, and
    when K takes several native steps of `step` and D is a 16-bit float, also the sum rounded to
    D after each step (a multi-operation shape may keep its intermediate in D's type)."""
    k_total = len(B)
    out = []
    for i in range(len(A)):
        for j in range(len(B[0])):
            exact = C[i][j] + sum(A[i][k] * B[k][j] for k in range(k_total))
            allowed = {result_bits(exact, d)}
            if d not in INT and SIZE[d] == 2 and k_total > step:
                acc = Fraction(C[i][j])
                for k0 in range(0, k_total, step):
                    acc += sum(A[i][k] * B[k][j] for k in range(k0, k0 + step))
                    acc = bits_value(round_bits(acc, d), d)
                allowed.add(round_bits(acc, d))
            out.append(allowed)
    return out


def matmul(A, B, C):
    return [[C[i][j] + sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))]
            for i in range(len(A))]


def xmx_run(args, module, device, launch, extra=()):
    cmd = [args.xmx_run, str(module), "--device", device] + launch + list(extra)
    code, out, err = run(cmd)
    if code != 0:
        raise Failure("%s on %s: xmx-run exit %d\n%s\n%s" % (module.name, device, code,
                                                             " ".join(cmd), (out + err)[-3000:]))


def check_gemm(args, module, entry, work, rng):
    a, b, c = entry["a"], entry["b"], entry["c"]
    m, n, k = entry["m"], entry["n"], entry["k"]
    tm, tn, sg = entry["tm"], entry["tn"], entry["sg"]
    A, B, C = random_matrix(rng, a, m, k), random_matrix(rng, b, k, n), random_matrix(rng, c, m, n)
    if entry["b_layout"] == "packed":
        vf = 4 // SIZE[b]
        packed = [[B[r * vf + x % vf][x // vf] for x in range(n * vf)] for r in range(k // vf)]
        b_bytes = encode(flat(packed), b)
    else:
        b_bytes = encode(flat(B), b)
    a_bytes, c_bytes = encode(flat(A), a), encode(flat(C), c)
    want = [{result_bits(v, c)} for v in flat(matmul(A, B, C))]
    tiles_m, tiles_n = -(-m // tm), -(-n // tn)  # the checked GEMM covers partial edge tiles
    launch = ["--global", "%d,%d" % (tiles_m, tiles_n * sg), "--local", "1,%d" % sg]
    if entry["checked"]:
        # The matrices sit 64 bytes (A), 128 bytes (B) and 64 bytes (C) into their buffers,
        # passed as element offsets as a SYCL accessor's offset is.
        offs = [64 // SIZE[a], 128 // SIZE[b], 64 // SIZE[c]]
        bufs = [bytes(64) + a_bytes, bytes(128) + b_bytes, bytes(64) + c_bytes]
        c_index, c_skip = 4, 64
    else:
        offs, bufs, c_index, c_skip = None, [a_bytes, b_bytes, c_bytes], 2, 0
    paths = [work / ("%s.%s.bin" % (module.stem, x)) for x in "abc"]
    for p, data in zip(paths, bufs):
        p.write_bytes(data)
    argv = []
    for i, p in enumerate(paths):
        argv += ["--arg", "buffer:file=%s" % p]
        if offs:
            argv += ["--arg", "i64:%d" % offs[i]]
    argv += ["--arg", "i64:%d" % m, "--arg", "i64:%d" % n, "--arg", "i64:%d" % k]
    dump = work / ("%s.d.bin" % module.stem)
    models = ["exact", "ordered"] if c not in INT else ["exact"]
    for device in entry["run_on"]:
        for model in models:
            xmx_run(args, module, device, launch + argv + ["--dump", "%d=%s" % (c_index, dump)],
                    ["--mma-fp", model])
            data = dump.read_bytes()
            if c_skip and data[:c_skip] != bufs[2][:c_skip]:
                raise Failure("%s on %s: the bytes before C changed" % (module.name, device))
            compare(decode(data[c_skip:], c), want, c,
                    "%s on %s (--mma-fp %s), C" % (module.name, device, model))
    return "%dx%dx%d on %s" % (m, n, k, ", ".join(entry["run_on"]))


def tile_inputs(rng, entry, tiles):
    a, b, c = entry["a"], entry["b"], entry["c"]
    m, n, k = entry["m"], entry["n"], entry["k"]
    return [(random_matrix(rng, a, m, k), random_matrix(rng, b, k, n), random_matrix(rng, c, m, n))
            for _ in range(tiles)]


def write_tiles(work, stem, entry, tiles):
    paths = [work / ("%s.%s.bin" % (stem, x)) for x in "abc"]
    for p, idx, kind in zip(paths, range(3), (entry["a"], entry["b"], entry["c"])):
        p.write_bytes(b"".join(encode(flat(t[idx]), kind) for t in tiles))
    return paths


def check_row(args, module, entry, work, rng):
    tiles = tile_inputs(rng, entry, 2)  # two work-groups, one tile each
    paths = write_tiles(work, module.stem, entry, tiles)
    d, sg = entry["d"], entry["sg"]
    d_bytes = 2 * entry["m"] * entry["n"] * SIZE[d]
    dump = work / ("%s.d.bin" % module.stem)
    want = [w for A, B, C in tiles for w in row_results(A, B, C, d, native_k(entry["a"]))]
    for device in entry["run_on"]:
        launch = ["--global", str(2 * sg), "--local", str(sg)]
        for p in paths:
            launch += ["--arg", "buffer:file=%s" % p]
        launch += ["--arg", "buffer:zero:%d" % d_bytes, "--dump", "3=%s" % dump]
        xmx_run(args, module, device, launch)
        compare(decode(dump.read_bytes(), d), want, d, "%s on %s, D" % (module.name, device))
    return "%s on %s" % (entry.get("source", ""), ", ".join(entry["run_on"]))


def check_elementwise(args, module, entry, work, rng):
    tiles = tile_inputs(rng, entry, 1)
    A, B, C = tiles[0]
    paths = write_tiles(work, module.stem, entry, tiles)
    m, n, d = entry["m"], entry["n"], entry["d"]
    exact = matmul(A, B, C)
    extra = []
    if entry["kind"] == "scale":
        colscale = [f32(rng.uniform(-3, 3)) for _ in range(n)]
        rowbias = [f32(rng.uniform(-1, 1)) for _ in range(m)]
        for name, vals in (("colscale", colscale), ("rowbias", rowbias)):
            p = work / ("%s.%s.bin" % (module.stem, name))
            p.write_bytes(struct.pack("<%df" % len(vals), *vals))
            extra.append(p)
        # x is exact in fp32 (see the docstring); each operation rounds to fp32
        want = [round_bits(Fraction(f32(f32(float(exact[i][j]) * colscale[j]) + rowbias[i])),
                           "f32") for i in range(m) for j in range(n)]
    else:
        want = [max(0, _wrap32(exact[i][j])) & 0xFFFFFFFF for i in range(m) for j in range(n)]
    dump = work / ("%s.d.bin" % module.stem)
    out_index = 3 + len(extra)
    for device in entry["run_on"]:
        launch = ["--global", str(entry["sg"]), "--local", str(entry["sg"])]
        for p in paths + extra:
            launch += ["--arg", "buffer:file=%s" % p]
        launch += ["--arg", "buffer:zero:%d" % (m * n * SIZE[d]), "--dump",
                   "%d=%s" % (out_index, dump)]
        xmx_run(args, module, device, launch)
        compare(decode(dump.read_bytes(), d), [{w} for w in want], d,
                "%s on %s, D (row-major %dx%d)" % (module.name, device, m, n))
    return "%s epilogue on %s" % (entry["kind"], ", ".join(entry["run_on"]))


def _wrap32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >> 31 else v


def coord_model(kind, rows, cols, use, sg, lane):
    """[(row, col)] of the elements lane holds, in element order (A4, DECISIONS 15)."""
    bits = 8 * SIZE[kind]
    count = rows * cols // sg
    if use == 0:
        per = 1 if sg == 16 and bits == 16 else (2 if bits == 16 or sg == 16 else 4)
        if per == 1:
            return [(i, lane) for i in range(count)]
        return [(i // per, per * lane + i % per) for i in range(count)]
    if use == 1:
        return [(i, lane) for i in range(count)]
    if rows == 32 and cols == 64:
        return [(e % 32, (e // 32) * 16 + lane) for e in range(count)]
    if rows == 1 and cols == 64:
        return [(0, 16 * e + lane) for e in range(count)]
    return [(i, lane) for i in range(count)]


def check_coord(args, module, entry, work, rng):
    sg, mats, stride = entry["sg"], entry["matrices"], entry["lanes_stride"]
    out = work / ("%s.out.bin" % module.stem)
    lens = work / ("%s.lens.bin" % module.stem)
    for device in entry["run_on"]:
        launch = ["--global", str(sg), "--local", str(sg),
                  "--arg", "buffer:fill=ff:%d" % (len(mats) * sg * stride * 4),
                  "--arg", "buffer:fill=ff:%d" % (4 * len(mats)),
                  "--dump", "0=%s" % out, "--dump", "1=%s" % lens]
        xmx_run(args, module, device, launch)
        words = struct.unpack("<%dI" % (len(mats) * sg * stride), out.read_bytes())
        got_lens = struct.unpack("<%dI" % len(mats), lens.read_bytes())
        for r, (kind, rows, cols, use) in enumerate(mats):
            what = "%s %s %dx%d use %d" % (module.name, kind, rows, cols, use)
            want_len = rows * cols // sg
            if got_lens[r] != want_len:
                raise Failure("%s: Length %d, expected %d" % (what, got_lens[r], want_len))
            for lane in range(sg):
                base = r * sg * stride + lane * stride
                for i, (row, col) in enumerate(coord_model(kind, rows, cols, use, sg, lane)):
                    g = (words[base + 2 * i], words[base + 2 * i + 1])
                    if g != (row, col):
                        raise Failure("%s: work-item %d element %d is at %s, expected %s" %
                                      (what, lane, i, g, (row, col)))
    return "%d matrices on %s" % (len(mats), ", ".join(entry["run_on"]))


CHECKS = {"gemm": check_gemm, "row": check_row, "scale": check_elementwise,
          "relu": check_elementwise, "coord": check_coord}


def check_val(args, module, entry):
    results = []
    for device, want in sorted(entry["verdicts"].items()):
        code, out, err = run([args.xmx_val, "--device", device, "--format", "json",
                              str(module)])
        try:
            report = json.loads(out)
        except ValueError:
            raise Failure("%s on %s: xmx-val exit %d, no JSON report:\n%s" %
                          (module.name, device, code, (out + err)[-2000:]))
        diags = report.get("diagnostics", [])
        errors = [x for x in diags if x.get("severity") == "error"]
        lifted = [x for x in diags if x.get("rule") == "bridge.lift"]
        if want == "valid":
            if code != 0 or not report.get("valid") or errors or lifted:
                raise Failure("%s on %s: expected valid (core-validated), got exit %d:\n%s" %
                              (module.name, device, code, json.dumps(diags, indent=1)[:3000]))
        else:
            rules = [x.get("rule", "") for x in errors]
            if code != 1 or report.get("valid") or not any(
                    r.startswith(p) for r in rules for p in want):
                raise Failure("%s on %s: expected rejection by a rule in %s, got exit %d, "
                              "rules %s" % (module.name, device, "|".join(want), code, rules))
            want = "rejected (%s)" % ", ".join(sorted(set(rules)))
        results.append("%s: %s" % (device, want))
    return "; ".join(results)


# The profiles' element names (grammar/devices) -> the manifest's.
PROFILE_KIND = {"u8": "u8", "s8": "s8", "s32": "s32", "fp16": "f16", "fp32": "f32",
                "bf16": "bf16", "tf32": "tf32"}


def load_profile(devices_dir, name, depth=0):
    """A device profile with its "base" chain applied (a key of the profile replaces the base's)."""
    if depth > 16:
        raise Failure("profile %s: base chain too deep" % name)
    profile = json.loads((devices_dir / ("%s.json" % name)).read_text())
    if "base" in profile:
        merged = load_profile(devices_dir, profile["base"], depth + 1)
        merged.update(profile)
        return merged
    return profile


def check_coverage(manifest, devices_dir):
    """Every combination of every row of every profile's cooperative_matrix table has a row
    module of the manifest that runs on that device (at one M of the row's range)."""
    listed = 0
    for path in sorted(devices_dir.glob("*.json")):
        device = path.stem
        table = load_profile(devices_dir, device).get("cooperative_matrix")
        if not isinstance(table, list):
            continue
        for index, row in enumerate(table):
            def kinds(key):
                v = row[key]
                return [PROFILE_KIND[x] for x in (v if isinstance(v, list) else [v])]
            m = row["m"]
            fits_m = (lambda x: m["min"] <= x <= m["max"]) if isinstance(m, dict) else \
                (lambda x: x in m)
            for a in kinds("a"):
                for b in kinds("b"):
                    for c in kinds("c"):
                        for d in kinds("d"):
                            listed += 1
                            found = [n for n, e in manifest.items() if e["kind"] == "row" and
                                     device in e["run_on"] and
                                     e["sg"] == row["subgroup_size"] and e["n"] == row["n"] and
                                     e["k"] == row["k"] and fits_m(e["m"]) and
                                     (e["a"], e["b"], e["c"], e["d"]) == (a, b, c, d)]
                            if not found:
                                raise Failure("%s row %d (%s x %s, C %s, D %s, M %s N %d K %d, "
                                              "SIMD%d) is run by no module" %
                                              (device, index, a, b, c, d, m, row["n"], row["k"],
                                               row["subgroup_size"]))
    if listed == 0:
        raise Failure("no cooperative_matrix table in %s" % devices_dir)
    return "%d combinations of the devices' tables each run by a row module" % listed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("check", choices=["val", "run", "coverage"])
    ap.add_argument("--xmx-val")
    ap.add_argument("--xmx-run")
    ap.add_argument("module")
    ap.add_argument("manifest")
    ap.add_argument("workdir", nargs="?")
    args = ap.parse_args()
    module = pathlib.Path(args.module)
    manifest = json.loads(pathlib.Path(args.manifest).read_text())
    if args.check == "coverage":  # MODULE is the folder of the device profiles
        try:
            print("ok coverage: %s" % check_coverage(manifest, module))
        except Failure as f:
            print("FAIL %s" % f)
            return 1
        return 0
    name = module.name.split(".")[0]
    if name not in manifest:
        sys.exit("check_coop_accept: %s is not in %s" % (name, args.manifest))
    entry = manifest[name]
    try:
        if args.check == "val":
            if not args.xmx_val:
                ap.error("val needs --xmx-val")
            summary = check_val(args, module, entry)
        else:
            if not args.xmx_run or not args.workdir:
                ap.error("run needs --xmx-run and WORKDIR")
            work = pathlib.Path(args.workdir)
            work.mkdir(parents=True, exist_ok=True)
            rng = random.Random(zlib.crc32(module.name.encode()))
            summary = CHECKS[entry["kind"]](args, module, entry, work, rng)
    except Failure as f:
        print("FAIL %s" % f)
        return 1
    print("ok %s (%s): %s" % (module.name, args.check, summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
