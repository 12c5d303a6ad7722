#!/usr/bin/env python3
"""End-to-end conformance of the 2D block instructions in xmx-run.

usage: check_block2d_rows.py XMX_RUN ROWS_DIR WORKDIR [MODULE_GLOB]

For every 2D block table module of test/val/rows (manifest.json, kind "block2d", no variant)
whose file name matches MODULE_GLOB (default "b2d_*"), runs the LLVM-made kernel over a row of
work-groups whose blocks start at x = group * Block Width * Block Count: with the Memory Width
chosen so that the first blocks lie inside, one lies partly outside and the last wholly
outside, once with every block row inside Memory Height and once (Block Height > 1) with only
half of them. The expected results come from an independent model written here from SPEC-NOTES
A.5/A.6 and DECISIONS 4-5 (padding, transform, transpose, the three row-to-invocation cases,
block count order, zeros out of bounds, dropped stores):
  - loads: the kernel writes out[gid] = dst[0] + dst[n-1] (its first and last payload unit);
  - stores: the whole destination surface after the run;
  - prefetch: the run succeeds and the surface is unchanged.
Nothing here shares code with source/interp.
"""
import row_modules


def pow2ceil(v):
    p = 1
    while p < v:
        p *= 2
    return p


def payload_map(op, e, w, h, count, sg):
    """For each lane, the payload as a list of sources: (block, row, column, byte) of the
    original block, or None for a byte no element reaches (padding, unmapped slots)."""
    lanes = [[] for _ in range(sg)]
    for b in range(count):
        per_block = [[] for _ in range(sg)]
        if op == "load_transform":
            per_word = 4 // e
            hp = -(-h // per_word) * per_word
            wp = pow2ceil(w)
            unit_rows, rw, unit = hp // per_word, wp, 4

            def source(t, col, k):  # byte k of word (t, col)
                return (t * per_word + k // e, col, k % e)
        elif op == "load_transpose":
            hp = pow2ceil(h)
            unit_rows, rw, unit = w, hp, e

            def source(t, col, k):  # transposed row t = original column t
                return (col, t, k)
        else:
            unit_rows, rw, unit = h, pow2ceil(w), e

            def source(t, col, k):
                return (t, col, k)
        for lane in range(sg):
            if rw >= sg:  # each lane takes rw/sg consecutive units of every row
                per_lane = rw // sg
                for t in range(unit_rows):
                    for q in range(per_lane):
                        for k in range(unit):
                            per_block[lane].append((t, lane * per_lane + q, k))
            else:  # sg/rw rows share one slot
                s = sg // rw
                for j in range(-(-unit_rows // s)):
                    for k in range(unit):
                        per_block[lane].append((j * s + lane // rw, lane % rw, k))
        for lane in range(sg):
            for t, col, k in per_block[lane]:
                row, column, byte = source(t, col, k)
                limit_rows = h
                limit_cols = w
                if t >= unit_rows or row >= limit_rows or column >= limit_cols:
                    lanes[lane].append(None)
                else:
                    lanes[lane].append((b, row, column, byte))
    return lanes


def parse_payload(text):
    n, unit = text.split(" x ")
    return int(n), int(unit.split("-")[0])


def check_module(xmx_run, module, entry, workdir, rng):
    row = entry["row"]
    op, e, w, h, count, sg = (row[x] for x in ("op", "element_size", "block_width",
                                               "block_height", "block_count", "subgroup_size"))
    block_bytes = w * count * e
    multiple = 4 if e <= 2 else e
    width = max(64, -(-block_bytes * 3 // 2 // multiple) * multiple)
    if width % block_bytes == 0:
        width += max(multiple, block_bytes // 2 // multiple * multiple)
    groups = -(-width // block_bytes) + 1  # the last block starts past Memory Width
    pitch = -(-width // 16) * 16 + 16
    device = entry["valid_on"][0]
    stem = module.stem
    failures = []
    for height in sorted({h, max(1, h // 2)}, reverse=True):
        surface = bytes(rng.getrandbits(8) for _ in range(pitch * height))
        surface_path = workdir / ("%s.h%d.surface.bin" % (stem, height))
        surface_path.write_bytes(surface)
        out_path = workdir / ("%s.h%d.out.bin" % (stem, height))
        base = [xmx_run, str(module), "--device", device, "--global", str(groups * sg),
                "--local", str(sg)]
        what = "Memory Width %d, Height %d, Pitch %d, %d work-groups" % (width, height, pitch,
                                                                         groups)

        def element(x, y, byte):
            if x < 0 or y < 0 or (x + 1) * e > width or y >= height:
                return 0
            return surface[y * pitch + x * e + byte]

        if op in ("load", "load_transform", "load_transpose"):
            n, unit = parse_payload(row["payload"])
            mapping = payload_map(op, e, w, h, count, sg)
            assert all(len(m) == n * unit for m in mapping), (stem, len(mapping[0]), n * unit)
            why = row_modules.run_xmx(base + ["--arg", "buffer:file=%s" % surface_path, "--arg", "i32:%d" % width,
                              "--arg", "i32:%d" % height, "--arg", "i32:%d" % pitch,
                              "--arg", "buffer:zero:%d" % (groups * sg * 4),
                              "--dump", "4=%s" % out_path])
            if why:
                failures.append("%s: %s" % (what, why))
                continue
            got = out_path.read_bytes()
            for g in range(groups):
                for lane in range(sg):
                    payload = []
                    for src in mapping[lane]:
                        if src is None:
                            payload.append(0)
                        else:
                            b, r, c, byte = src
                            payload.append(element(g * w * count + b * w + c, r, byte))
                    first = int.from_bytes(bytes(payload[:unit]), "little")
                    last = int.from_bytes(bytes(payload[-unit:]), "little")
                    want = (first + last) & 0xFFFFFFFF
                    gid = g * sg + lane
                    have = int.from_bytes(got[gid * 4:gid * 4 + 4], "little")
                    if have != want:
                        failures.append("%s: group %d lane %d: expected 0x%x, got 0x%x" %
                                        (what, g, lane, want, have))
                        break
                else:
                    continue
                break
        elif op == "store":
            n, unit = parse_payload(row["payload"])
            mapping = payload_map("load", e, w, h, count, sg)
            assert all(len(m) == n * unit for m in mapping), (stem, len(mapping[0]), n * unit)
            data = bytes(rng.getrandbits(8) for _ in range(groups * sg * n * unit))
            data_path = workdir / ("%s.h%d.in.bin" % (stem, height))
            data_path.write_bytes(data)
            why = row_modules.run_xmx(base + ["--arg", "buffer:file=%s" % data_path,
                              "--arg", "buffer:file=%s" % surface_path, "--arg", "i32:%d" % width,
                              "--arg", "i32:%d" % height, "--arg", "i32:%d" % pitch,
                              "--dump", "1=%s" % out_path])
            if why:
                failures.append("%s: %s" % (what, why))
                continue
            want = bytearray(surface)
            for g in range(groups):
                for lane in range(sg):
                    gid = g * sg + lane
                    for i, src in enumerate(mapping[lane]):
                        if src is None:
                            continue  # padding is never written
                        b, r, c, byte = src
                        x, y = g * w * count + b * w + c, r
                        if (x + 1) * e <= width and y < height:
                            want[y * pitch + x * e + byte] = data[gid * n * unit + i]
            got = out_path.read_bytes()
            if got != bytes(want):
                i = next(i for i in range(len(got)) if got[i] != want[i])
                failures.append("%s: surface byte %d (row %d, byte %d): expected %02x, got %02x"
                                % (what, i, i // pitch, i % pitch, want[i], got[i]))
        else:  # prefetch: nothing observable but success and an untouched surface
            why = row_modules.run_xmx(base + ["--arg", "buffer:file=%s" % surface_path, "--arg", "i32:%d" % width,
                              "--arg", "i32:%d" % height, "--arg", "i32:%d" % pitch,
                              "--dump", "0=%s" % out_path])
            if why:
                failures.append("%s: %s" % (what, why))
            elif out_path.read_bytes() != surface:
                failures.append("%s: prefetch changed the surface" % what)
    return failures


if __name__ == "__main__":
    row_modules.main(__doc__, "block2d", "b2d_*", "2D block", check_module)
