#!/usr/bin/env python3
"""Runs xmx-run on the cooperative-matrix modules of test/coop/run_spv and checks the results
against models written here from COOPERATIVE-MATRIX.md A4 and DECISIONS.md 15 (no code shared
with the interpreter).

  check_coop_run.py --xmx-run X --spv-dir D dump NAME       element mapping, load, store, Length
  check_coop_run.py --xmx-run X --spv-dir D mad NAME        D = A x B + C against a host matmul,
                                                            both --mma-fp models
  check_coop_run.py --xmx-run X --spv-dir D fp-models       the two float models differ as stated
  check_coop_run.py --xmx-run X --spv-dir D checked NAME    checked load (zeros) / store (dropped)
  check_coop_run.py --xmx-run X --spv-dir D relu            element access and fill
  check_coop_run.py --xmx-run X --spv-dir D construct       the checked construct at the edges
  check_coop_run.py --xmx-run X --spv-dir D bench-gemm FILE  run_bench's cooperative GEMM
  check_coop_run.py --xmx-run X --spv-dir D ub-stride       non-uniform Stride is reported
  check_coop_run.py --xmx-run X --spv-dir D ub-bounds       unchecked out-of-bounds load reported
  check_coop_run.py --xmx-run X --spv-dir D ub-divergent    part of the subgroup loads: reported
  check_coop_run.py --xmx-run X --spv-dir D bf16-convert FILE   bfloat16 <-> float conversions
  check_coop_run.py --xmx-run X --spv-dir D --xmx-as A ops FILE.spvasm
                    access chain, composite extract/insert, arithmetic, conversions, phi, Length
                    (kernel ops); get-coord and its out-of-range index (kernel coord)

NAME is the module's kernel name; its shape, use and component type are read from the name
(gen_modules.py writes them). Modules are built at -O0 and -O2 and both are run.
"""
import argparse
import fractions
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import zlib

F = fractions.Fraction
BYTES = {'i8': 1, 'i16': 2, 'i32': 4, 'half': 2, 'bf16': 2, 'f32': 4}
USES = {'a': 0, 'b': 1, 'c': 2}


def fail(message):
    print('FAIL: ' + message)
    sys.exit(1)


def run(xmx_run, module, sg, args, extra=(), expect_rc=0):
    cmd = [xmx_run, module, '--global', str(sg), '--local', str(sg), '--subgroup-size', str(sg),
           '--arg'] + args + list(extra)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != expect_rc:
        fail('%s exited %d, expected %d:\n%s%s' % (' '.join(cmd), p.returncode, expect_rc,
                                                   p.stdout, p.stderr))
    return p


# ---- The element mapping, from A4: IGC's DEFINE_GET_COORD per block of the shape ----------
def model_coord(use, rows, cols, bits, sg, idx, lane):
    """(row, column) of element idx of invocation lane (A4's formula, large shapes per block)."""
    if use == 0:  # A: contributions of 16 bits at SG16 (32 for tf32), 32 bits at SG8
        contrib = max(32 if sg == 8 else 16, bits)
        vf, pack = 1, contrib // bits
        block_cols = min(cols, sg * pack)
    elif use == 1:  # B: VNNI, 32-bit contributions of consecutive rows
        vf = pack = 32 // bits
        block_cols = sg
    else:
        vf = pack = 1
        block_cols = sg
    per_block = rows * block_cols // sg
    block, i = divmod(idx, per_block)
    sg_cols = block_cols * vf // pack
    skip = sg // sg_cols
    row = (lane // sg_cols + i // pack * skip) * vf + i % vf
    col = (lane % sg_cols * pack + i % pack) // vf
    return row, block * block_cols + col


def mem_offset(layout, row, col, stride, bits):
    if layout == 0:
        return row * stride + col
    if layout == 1:
        return col * stride + row
    vnni = 32 // bits
    return (row // vnni) * stride + col * vnni + row % vnni


def modules(spv_dir, name):
    found = [os.path.join(spv_dir, '%s.llc22.%s.spv' % (name, o)) for o in ('O0', 'O2')]
    for f in found:
        if not os.path.exists(f):
            fail('missing module ' + f)
    return found


def parse_name(name):
    m = re.match(r'(?:dump_|checked_)?(sg8_)?([abc])_([a-z0-9]+)_(\d+)x(\d+)_(row|col|packed)$',
                 name)
    if not m:
        fail('cannot read the case from ' + name)
    sg = 8 if m.group(1) else 16
    comp = {'bf16': 'i16', 'i8': 'i8', 'tf32': 'f32', 'half': 'half', 'f32': 'f32',
            'i32': 'i32'}[m.group(3)]
    return (sg, USES[m.group(2)], comp, int(m.group(4)), int(m.group(5)),
            {'row': 0, 'col': 1, 'packed': 2}[m.group(6)])


def layout_extent(layout, rows, cols, stride, bits):
    return max(mem_offset(layout, r, c, stride, bits) for r in range(rows) for c in range(cols)) + 1


def pick_stride(layout, rows, cols, bits):
    if layout == 0:
        return cols + 3
    if layout == 1:
        return rows + 2
    return cols * (32 // bits) + 4


def unpack(data, eb):
    fmt = {1: 'B', 2: 'H', 4: 'I'}[eb]
    return list(struct.unpack('<%d%s' % (len(data) // eb, fmt), data))


def check_dump(args):
    sg, use, comp, rows, cols, layout = parse_name(args.name)
    eb = BYTES[comp]
    bits = eb * 8
    stride = pick_stride(layout, rows, cols, bits)
    extent = layout_extent(layout, rows, cols, stride, bits)
    length = rows * cols // sg
    rng = random.Random(zlib.crc32(args.name.encode()))
    values = [rng.randrange(1, 1 << bits) for _ in range(extent)]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'in.bin')
        with open(src, 'wb') as f:
            f.write(struct.pack('<%d%s' % (extent, {1: 'B', 2: 'H', 4: 'I'}[eb]), *values))
        for module in modules(args.spv_dir, 'dump_' + args.name):
            out, back = os.path.join(tmp, 'out.bin'), os.path.join(tmp, 'back.bin')
            run(args.xmx_run, module, sg,
                ['buffer:file=' + src, 'buffer:zero:%d' % (sg * length * 12),
                 'buffer:zero:%d' % (extent * eb), 'i64:%d' % stride],
                ['--dump', '1=' + out, '--dump', '2=' + back])
            dumped = unpack(open(out, 'rb').read(), 4)
            seen = set()
            for lane in range(sg):
                for e in range(length):
                    row, col, value = dumped[3 * (lane * length + e):3 * (lane * length + e) + 3]
                    want = model_coord(use, rows, cols, bits, sg, e, lane)
                    if (row, col) != want:
                        fail('%s: element %d of invocation %d is (%d, %d); the model says %s' %
                             (module, e, lane, row, col, want))
                    seen.add((row, col))
                    expected = values[mem_offset(layout, row, col, stride, bits)]
                    if value != expected:
                        fail('%s: element (%d, %d) read 0x%x, memory holds 0x%x' %
                             (module, row, col, value, expected))
            if len(seen) != rows * cols:
                fail('%s: the slices hold %d distinct elements of %d' %
                     (module, len(seen), rows * cols))
            stored = unpack(open(back, 'rb').read(), eb)
            touched = {mem_offset(layout, r, c, stride, bits) for r in range(rows)
                       for c in range(cols)}
            for i, v in enumerate(stored):
                want = values[i] if i in touched else 0
                if v != want:
                    fail('%s: the store wrote 0x%x at element offset %d, expected 0x%x' %
                         (module, v, i, want))
    print('ok: %s (%d invocations x %d elements, O0 and O2)' % (args.name, sg, length))


# ---- Float formats, exact -----------------------------------------------------------------
def decode(bits_value, comp):
    if comp in ('i16', 'bf16'):
        return F(struct.unpack('<f', struct.pack('<I', bits_value << 16))[0])
    if comp == 'half':
        return F(struct.unpack('<e', struct.pack('<H', bits_value))[0])
    if comp == 'f32':
        return F(struct.unpack('<f', struct.pack('<I', bits_value))[0])
    raise ValueError(comp)


def round_float(x, mantissa_bits):
    """x rounded to nearest even with mantissa_bits fraction bits (normal range only)."""
    if x == 0:
        return F(0)
    sign = -1 if x < 0 else 1
    x = abs(x)
    e = 0
    while x >= 2:
        x /= 2
        e += 1
    while x < 1:
        x *= 2
        e -= 1
    scaled = x * (1 << mantissa_bits)
    q = round(scaled)  # Fraction rounds half to even
    return sign * F(q, 1 << mantissa_bits) * F(2) ** e


def encode(x, comp):
    if comp in ('i16', 'bf16'):
        f32 = struct.unpack('<I', struct.pack('<f', float(round_float(x, 7))))[0]
        return f32 >> 16
    if comp == 'half':
        return struct.unpack('<H', struct.pack('<e', float(round_float(x, 10))))[0]
    if comp == 'f32':
        return struct.unpack('<I', struct.pack('<f', float(round_float(x, 23))))[0]
    raise ValueError(comp)


MAD_RE = re.compile(r'(sg8_)?mad_([a-z0-9]+?)(?:_khr|_packed|_bf16acc|_f32_to_bf16|_halfacc)?_'
                    r'(\d+)x(\d+)x(\d+)$')


def mad_case(name):
    m = MAD_RE.match(name)
    if not m:
        fail('cannot read the case from ' + name)
    sg = 8 if m.group(1) else 16
    kind = m.group(2)
    M, N, K = int(m.group(3)), int(m.group(4)), int(m.group(5))
    ab = {'bf16': 'bf16', 'half': 'half', 's8': 's8', 'u8': 'u8', 'tf32': 'f32'}[kind]
    c = d = 'i32' if ab in ('s8', 'u8') else 'f32'
    if '_bf16acc' in name:
        c = d = 'bf16'
    if '_f32_to_bf16' in name:
        d = 'bf16'
    if '_halfacc' in name:
        c = d = 'half'
    packed = '_packed' in name or name == 'mad_u8_8x16x32'
    return sg, ab, c, d, M, N, K, packed


def small_float(rng, comp):
    v = F(rng.randrange(-6, 7), 1 << rng.randrange(0, 3))
    return encode(v, comp)


def write_elements(path, values, eb):
    with open(path, 'wb') as f:
        f.write(struct.pack('<%d%s' % (len(values), {1: 'B', 2: 'H', 4: 'I'}[eb]),
                            *[v & ((1 << (8 * eb)) - 1) for v in values]))


def host_mad(sg, ab, c_comp, d_comp, M, N, K, a, b, c, model):
    """D = A x B + C by native blocks of K = 256/bits: each block one exact sum rounded once to
    the Result format (the exact model), or fp32 fused steps (the ordered model)."""
    native_k = 256 // (8 if ab in ('s8', 'u8') else 32 if ab == 'f32' else 16)
    d = []
    for i in range(M):
        for j in range(N):
            if ab in ('s8', 'u8'):
                acc = c[i * N + j]
                for k in range(K):
                    acc += a[i * K + k] * b[k * N + j]
                acc &= 0xFFFFFFFF
                d.append(acc)
                continue
            acc = decode(c[i * N + j], c_comp)
            for k0 in range(0, K, native_k):
                terms = []
                for k in range(k0, k0 + native_k):
                    x, y = a[i * K + k], b[k * N + j]
                    if ab == 'f32':  # tf32 reads the upper 19 bits
                        x, y = x & 0xFFFFE000, y & 0xFFFFE000
                    terms.append(decode(x, ab) * decode(y, ab))
                if model == 'exact':
                    acc = decode(encode(acc + sum(terms), d_comp), d_comp)
                else:
                    for t in terms:
                        acc = round_float(acc + t, 23)
                    acc = decode(encode(acc, d_comp), d_comp)
            d.append(encode(acc, d_comp))
    return d


def check_mad(args, fixed=None):
    sg, ab, c_comp, d_comp, M, N, K, packed = mad_case(args.name)
    rng = random.Random(zlib.crc32(args.name.encode()))
    if ab in ('s8', 'u8'):
        lo, hi = (-128, 128) if ab == 's8' else (0, 256)
        a = [rng.randrange(lo, hi) for _ in range(M * K)]
        b = [rng.randrange(lo, hi) for _ in range(K * N)]
        c = [rng.randrange(-(1 << 31), 1 << 31) & 0xFFFFFFFF for _ in range(M * N)]
    else:
        comp = 'bf16' if ab == 'bf16' else ab
        a = [small_float(rng, comp) for _ in range(M * K)]
        b = [small_float(rng, comp) for _ in range(K * N)]
        if ab == 'f32':  # low mantissa bits that tf32 ignores
            a = [v | rng.randrange(0, 1 << 13) for v in a]
        c = [small_float(rng, c_comp) for _ in range(M * N)]
    if fixed:
        a, b, c = fixed(M, N, K)
    ab_bytes = 1 if ab in ('s8', 'u8') else 4 if ab == 'f32' else 2
    c_bytes, d_bytes = BYTES[c_comp], BYTES[d_comp]
    b_mem = b
    if packed:  # VNNI: row k of B goes to packed row k / VF, slot column * VF + k % VF
        vf = 4 // ab_bytes
        b_mem = [0] * (K * N)
        for k in range(K):
            for j in range(N):
                b_mem[(k // vf) * (N * vf) + j * vf + k % vf] = b[k * N + j]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {n: os.path.join(tmp, n + '.bin') for n in 'abcd'}
        write_elements(paths['a'], a, ab_bytes)
        write_elements(paths['b'], b_mem, ab_bytes)
        write_elements(paths['c'], c, c_bytes)
        for model in ('exact', 'ordered'):
            want = host_mad(sg, ab, c_comp, d_comp, M, N, K, a, b, c, model)
            results[model] = want
            for module in modules(args.spv_dir, args.name):
                run(args.xmx_run, module, sg,
                    ['buffer:file=' + paths['a'], 'buffer:file=' + paths['b'],
                     'buffer:file=' + paths['c'], 'buffer:zero:%d' % (M * N * d_bytes),
                     'i64:%d' % K, 'i64:%d' % N],
                    ['--dump', '3=' + paths['d'], '--mma-fp', model])
                got = unpack(open(paths['d'], 'rb').read(), d_bytes)
                for idx, (g, w) in enumerate(zip(got, want)):
                    if g != w:
                        fail('%s --mma-fp=%s: D[%d][%d] = 0x%x, the host model gives 0x%x' %
                             (module, model, idx // N, idx % N, g, w))
    print('ok: %s (%dx%dx%d at SG%d, both float models, O0 and O2)' % (args.name, M, N, K, sg))
    return results


def check_fp_models(args):
    """bf16 A = B = 2^-12 everywhere, C = 1: K = 16 products of 2^-24. Exact: one rounding of
    1 + 2^-20; ordered: each fp32 step rounds 1 + 2^-24 back to 1."""
    one = encode(F(1), 'f32')
    small = encode(F(1, 1 << 12), 'bf16')
    args.name = 'mad_bf16_8x16x16'
    results = check_mad(args, lambda M, N, K: ([small] * (M * K), [small] * (K * N),
                                               [one] * (M * N)))
    if decode(results['exact'][0], 'f32') != 1 + F(1, 1 << 20) or results['ordered'][0] != one:
        fail('the host models do not tell the float models apart')
    print('ok: the exact and ordered float models differ as documented')


def check_checked(args):
    sg, use, comp, rows, cols, layout = parse_name(args.name)
    eb = BYTES[comp]
    bits = eb * 8
    # A Height x Width matrix in memory; the tile hangs over its bottom-right corner.
    height, width = rows + 3, cols + 5
    x, y = height - rows // 2, width - cols // 2 - 1
    x2, y2 = -1, 2
    if layout == 2:
        x -= x % (32 // bits)
        x2 = 0
    mem_rows, mem_cols = height + 8, width + 8
    stride = {0: mem_cols, 1: mem_rows, 2: mem_cols * (32 // bits)}[layout]
    extent = layout_extent(layout, mem_rows, mem_cols, stride, bits)
    tile_stride = pick_stride(layout, rows, cols, bits)
    tile_extent = layout_extent(layout, rows, cols, tile_stride, bits)
    rng = random.Random(7)
    values = [rng.randrange(1, 1 << bits) for _ in range(extent)]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'in.bin')
        write_elements(src, values, eb)
        for module in modules(args.spv_dir, 'checked_' + args.name):
            out, back = os.path.join(tmp, 'out.bin'), os.path.join(tmp, 'back.bin')
            run(args.xmx_run, module, sg,
                ['buffer:file=' + src, 'buffer:zero:%d' % (tile_extent * eb),
                 'buffer:zero:%d' % (extent * eb)] +
                ['i32:%d' % v for v in (x, y, height, width, x2, y2)] +
                ['i64:%d' % stride, 'i64:%d' % tile_stride],
                ['--dump', '1=' + out, '--dump', '2=' + back])
            tile = unpack(open(out, 'rb').read(), eb)
            stored = unpack(open(back, 'rb').read(), eb)
            expect_back = [0] * extent
            for r in range(rows):
                for c in range(cols):
                    inside = 0 <= x + r < height and 0 <= y + c < width
                    v = values[mem_offset(layout, x + r, y + c, stride, bits)] if inside else 0
                    got = tile[mem_offset(layout, r, c, tile_stride, bits)]
                    if got != v:
                        fail('%s: checked load of tile (%d, %d) gave 0x%x, expected 0x%x' %
                             (module, r, c, got, v))
                    if 0 <= x2 + r < height and 0 <= y2 + c < width:
                        expect_back[mem_offset(layout, x2 + r, y2 + c, stride, bits)] = v
            if stored != expect_back:
                bad = next(i for i in range(extent) if stored[i] != expect_back[i])
                fail('%s: checked store wrote 0x%x at element offset %d, expected 0x%x' %
                     (module, stored[bad], bad, expect_back[bad]))
    print('ok: %s (zeros outside %dx%d, stores dropped outside)' % (args.name, height, width))


def check_relu(args):
    rng = random.Random(3)
    values = [rng.uniform(-4, 4) for _ in range(128)]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'in.bin')
        with open(src, 'wb') as f:
            f.write(struct.pack('<128f', *values))
        for module in modules(args.spv_dir, 'relu'):
            o1, o2 = os.path.join(tmp, 'o1.bin'), os.path.join(tmp, 'o2.bin')
            run(args.xmx_run, module, 16,
                ['buffer:file=' + src, 'buffer:zero:512', 'buffer:zero:512', 'f32:1.5'],
                ['--dump', '1=' + o1, '--dump', '2=' + o2])
            got = struct.unpack('<128f', open(o1, 'rb').read())
            want = [max(struct.unpack('<f', struct.pack('<f', v))[0], 0.0) for v in values]
            if list(got) != want:
                fail('%s: ReLU through element access differs from the model' % module)
            if struct.unpack('<128f', open(o2, 'rb').read()) != (1.5,) * 128:
                fail('%s: the fill did not write 1.5 everywhere' % module)
    print('ok: relu and fill')


def check_construct(args):
    cases = [(0, 0, 8, 16), (5, 10, 8, 16), (-2, -3, 4, 9), (3, 0, 2, 20), (0, 0, 0, 0)]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'out.bin')
        for module in modules(args.spv_dir, 'construct'):
            for x, y, height, width in cases:
                run(args.xmx_run, module, 16,
                    ['buffer:zero:512'] + ['i32:%d' % v for v in (x, y, height, width)] +
                    ['f32:2.5'], ['--dump', '0=' + out])
                got = struct.unpack('<128f', open(out, 'rb').read())
                for r in range(8):
                    for c in range(16):
                        want = 2.5 if 0 <= x + r < height and 0 <= y + c < width else 0.0
                        if got[r * 16 + c] != want:
                            fail('%s at (%d, %d) of %dx%d: element (%d, %d) = %r, expected %r' %
                                 (module, x, y, height, width, r, c, got[r * 16 + c], want))
    print('ok: checked construct')


def check_bench_gemm(args):
    """bench/kernels/coop_gemm_bf16.spv (a 32x32 tile per subgroup) at 64x96x48 against a host
    matmul: small integers, every sum exact in fp32."""
    M, N, K = 64, 96, 48
    rng = random.Random(13)
    a = [encode(F(rng.randrange(-8, 9)), 'bf16') for _ in range(M * K)]
    b = [encode(F(rng.randrange(-8, 9)), 'bf16') for _ in range(K * N)]
    with tempfile.TemporaryDirectory() as tmp:
        pa, pb, pc = (os.path.join(tmp, n) for n in ('a.bin', 'b.bin', 'c.bin'))
        write_elements(pa, a, 2)
        write_elements(pb, b, 2)
        cmd = [args.xmx_run, args.name, '--global', '%d,%d' % (N // 2, M // 32), '--local', '16,1',
               '--arg', 'buffer:file=' + pa, 'buffer:file=' + pb, 'buffer:zero:%d' % (M * N * 4),
               'i32:%d' % M, 'i32:%d' % N, 'i32:%d' % K, '--dump', '2=' + pc]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            fail('%s exited %d:\n%s' % (' '.join(cmd), p.returncode, p.stderr))
        got = struct.unpack('<%df' % (M * N), open(pc, 'rb').read())
        for i in range(M):
            for j in range(N):
                want = sum(decode(a[i * K + k], 'bf16') * decode(b[k * N + j], 'bf16')
                           for k in range(K))
                if got[i * N + j] != want:
                    fail('C[%d][%d] = %r, the host matmul gives %s' % (i, j, got[i * N + j], want))
    print('ok: the benchmark\'s cooperative-matrix GEMM')


def check_ub(args, kind):
    if kind == 'divergent':
        for module in modules(args.spv_dir, 'ub_divergent'):
            p = run(args.xmx_run, module, 16, ['buffer:zero:512', 'buffer:zero:512', 'i32:8'],
                    ['--check=error'], expect_rc=1)
            if 'subgroup.not-whole' not in p.stderr:
                fail('%s: expected subgroup.not-whole:\n%s' % (module, p.stderr))
            run(args.xmx_run, module, 16, ['buffer:zero:512', 'buffer:zero:512', 'i32:16'],
                ['--check=error'])
        print('ok: ub divergent')
        return
    for module in modules(args.spv_dir, 'ub_stride'):
        if kind == 'stride':
            p = run(args.xmx_run, module, 16,
                    ['buffer:zero:4096', 'buffer:zero:512', 'i64:1'], ['--check=error'],
                    expect_rc=1)
            if 'subgroup.non-uniform' not in p.stderr or 'Stride' not in p.stderr:
                fail('%s: expected a subgroup.non-uniform report on Stride:\n%s' %
                     (module, p.stderr))
            run(args.xmx_run, module, 16, ['buffer:zero:512', 'buffer:zero:512', 'i64:0'],
                ['--check=error'])
        else:
            p = run(args.xmx_run, module, 16, ['buffer:zero:508', 'buffer:zero:512', 'i64:0'],
                    ['--check=error'], expect_rc=1)
            if 'memory.out-of-bounds' not in p.stderr:
                fail('%s: expected memory.out-of-bounds:\n%s' % (module, p.stderr))
    if kind == 'bounds':  # a Stride so large that the offsets overflow 64 bits
        for module in modules(args.spv_dir, 'dump_c_f32_8x16_row'):
            for stride in (1 << 62, -(1 << 63), (1 << 63) - 1):
                p = run(args.xmx_run, module, 16,
                        ['buffer:zero:512', 'buffer:zero:1536', 'buffer:zero:512',
                         'i64:%d' % stride], ['--check=error'], expect_rc=1)
                if 'spans more than 2^56 elements' not in p.stderr:
                    fail('%s: Stride %d: expected the span report:\n%s' % (module, stride,
                                                                            p.stderr))
    print('ok: ub ' + kind)


def check_bf16_convert(args):
    """bf16_convert (test/coop/src): out[i] = bf16(float(in[i]) * 2.5), out[i + 1] = 1.5."""
    rng = random.Random(5)
    ins = [rng.randrange(0, 0x7F00) | (rng.randrange(2) << 15) for _ in range(10)]
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, 'in.bin'), os.path.join(tmp, 'out.bin')
        write_elements(src, ins, 2)
        for i in range(0, 9):
            run(args.xmx_run, args.name, 1,
                ['buffer:file=' + src, 'buffer:zero:20', 'i64:%d' % i], ['--dump', '1=' + out])
            got = unpack(open(out, 'rb').read(), 2)
            f32 = struct.unpack('<f', struct.pack('<f', float(decode(ins[i], 'bf16') * F(5, 2))))[0]
            want = encode(F(f32), 'bf16') if f32 != 0 else (0x8000 if ins[i] & 0x8000 else 0)
            if got[i] != want or got[i + 1] != 0x3FC0:
                fail('bf16_convert i=%d: got 0x%x 0x%x, want 0x%x 0x3fc0' %
                     (i, got[i], got[i + 1], want))
    print('ok: bfloat16 conversions')


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def check_ops(args):
    with tempfile.TemporaryDirectory() as tmp:
        module = os.path.join(tmp, 'ops.spv')
        p = subprocess.run([args.xmx_as, args.name, '-o', module], capture_output=True, text=True)
        if p.returncode != 0:
            fail('xmx-as failed on %s:\n%s' % (args.name, p.stderr))
        rng = random.Random(11)
        m = [f32(rng.uniform(-4, 4)) for _ in range(128)]
        src = os.path.join(tmp, 'in.bin')
        with open(src, 'wb') as f:
            f.write(struct.pack('<128f', *m))
        outs = {n: os.path.join(tmp, n + '.bin') for n in ('out', 'half', 'bf', 'loop', 'len')}
        run(args.xmx_run, module, 16,
            ['buffer:file=' + src, 'buffer:zero:512', 'buffer:zero:256', 'buffer:zero:256',
             'buffer:zero:512', 'buffer:zero:4', 'f32:0.75'],
            ['--kernel', 'ops', '--dump', '1=' + outs['out'], '--dump', '2=' + outs['half'],
             '--dump', '3=' + outs['bf'], '--dump', '4=' + outs['loop'], '--dump',
             '5=' + outs['len']])
        # Slice element e of invocation j is C[e][j]: the access chain to element 3 is row 3,
        # the extract of element 5 and insert at 0 copy row 5 over row 0.
        m2 = list(m)
        for c in range(16):
            m2[3 * 16 + c] = f32(m[3 * 16 + c] * 10)
        for c in range(16):
            m2[c] = m2[5 * 16 + c]
        want = [f32(-f32(m2[i] + m[i]) * 0.75) for i in range(128)]
        got = struct.unpack('<128f', open(outs['out'], 'rb').read())
        if list(got) != want:
            i = next(i for i in range(128) if got[i] != want[i])
            fail('ops: element (%d, %d) = %r, the model gives %r' % (i // 16, i % 16, got[i],
                                                                      want[i]))
        half = struct.unpack('<128e', open(outs['half'], 'rb').read())
        if list(half) != [struct.unpack('<e', struct.pack('<e', v))[0] for v in m]:
            fail('ops: the half conversion differs from the model')
        bf = unpack(open(outs['bf'], 'rb').read(), 2)
        if bf != [encode(F(v), 'bf16') for v in m]:
            fail('ops: the bfloat16 conversion differs from the model')
        loop = struct.unpack('<128f', open(outs['loop'], 'rb').read())
        if list(loop) != [f32(f32(v + v) + v) for v in m]:
            fail('ops: the phi loop differs from the model')
        if unpack(open(outs['len'], 'rb').read(), 4) != [8]:
            fail('ops: OpCooperativeMatrixLengthKHR is not 8')
        xy = os.path.join(tmp, 'xy.bin')
        for index in range(8):
            run(args.xmx_run, module, 16, ['buffer:zero:8', 'i32:%d' % index],
                ['--kernel', 'coord', '--dump', '0=' + xy])
            if unpack(open(xy, 'rb').read(), 4) != [index, 15]:
                fail('coord: element %d of invocation 15 is not (%d, 15)' % (index, index))
        p = run(args.xmx_run, module, 16, ['buffer:zero:8', 'i32:8'], ['--kernel', 'coord'],
                expect_rc=1)
        if 'coop.element-index' not in p.stderr:
            fail('coord: index 8 of a slice of 8 was not reported:\n' + p.stderr)
    print('ok: access chain, composite access, arithmetic, conversions, phi, Length, get-coord')


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--xmx-run', required=True)
    p.add_argument('--spv-dir', required=True)
    p.add_argument('--xmx-as')
    p.add_argument('what')
    p.add_argument('name', nargs='?')
    args = p.parse_args()
    if args.what == 'dump':
        check_dump(args)
    elif args.what == 'mad':
        check_mad(args)
    elif args.what == 'fp-models':
        check_fp_models(args)
    elif args.what == 'checked':
        check_checked(args)
    elif args.what == 'bench-gemm':
        check_bench_gemm(args)
    elif args.what == 'construct':
        check_construct(args)
    elif args.what == 'relu':
        check_relu(args)
    elif args.what == 'ub-stride':
        check_ub(args, 'stride')
    elif args.what == 'ub-divergent':
        check_ub(args, 'divergent')
    elif args.what == 'ub-bounds':
        check_ub(args, 'bounds')
    elif args.what == 'ops':
        check_ops(args)
    elif args.what == 'bf16-convert':
        check_bf16_convert(args)
    else:
        fail('unknown check ' + args.what)


if __name__ == '__main__':
    main()
