#!/usr/bin/env python3
"""End-to-end conformance of the Intel subgroup instructions in xmx-run.

usage: check_subgroup_rows.py XMX_RUN ROWS_DIR WORKDIR [MODULE_GLOB]

For every subgroup table module of test/val/rows (manifest.json, kind "subgroups", no variant)
whose file name matches MODULE_GLOB (default "sg_*"), runs the LLVM-made kernel on two
subgroups of 16 with random data and compares the output buffer with a model written here from
SPEC-NOTES C.2-C.4 and DECISIONS 8 (nothing is shared with source/interp):
  - shuffles (index, xor, down with next, up with previous) at several uniform deltas;
  - block read / write: component j of invocation i is element i + 16 j of the block;
  - 8/16-bit OpGroup* broadcast, reductions and scans (wrap-around; exclusive scans start from
    the identity of DECISIONS 8).
3-component vectors occupy four components in buffers (OpenCL layout); the fourth is not
compared.
"""
import re

import row_modules

SG = 16
ELEMENT_BYTES = {"char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4, "long": 8,
                 "ulong": 8, "half": 2, "float": 4, "double": 8}


def split_type(cl):
    m = re.fullmatch(r"([a-z]+?)(\d*)", cl)
    return m.group(1), int(m.group(2) or 1)


def to_signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def check_module(xmx_run, module, entry, workdir, rng):
    name = module.stem
    row = entry["row"]
    op = row["op"]
    cl = name.rsplit("_", 1)[1]
    base, n = split_type(cl)
    size = ELEMENT_BYTES[base]
    slots = 4 if n == 3 else n  # components a value occupies in a buffer
    lanes = 2 * SG
    device = entry["valid_on"][0]
    launch = [xmx_run, str(module), "--device", device, "--global", str(lanes), "--local", str(SG)]
    in_path, out_path = workdir / (name + ".in.bin"), workdir / (name + ".out.bin")

    def elements(count):
        return [rng.getrandbits(8 * size) for _ in range(count)]

    def pack(values):
        return b"".join(v.to_bytes(size, "little") for v in values)

    def unpack(data):
        return [int.from_bytes(data[i:i + size], "little") for i in range(0, len(data), size)]

    def compare(want, got, what):
        """want/got: element lists, lane-major with `slots` per lane (None: not compared)."""
        for i, w in enumerate(want):
            if w is not None and got[i] != w:
                lane, comp = divmod(i, slots)
                return "%s: lane %d component %d: expected 0x%x, got 0x%x" % (what, lane, comp,
                                                                              w, got[i])
        return None

    failures = []
    if op.startswith("shuffle"):
        data = elements((lanes + 1) * slots)  # shuffle_down/up read in[gid + 1] as well
        in_path.write_bytes(pack(data))
        deltas = sorted({0, 1, SG - 1, rng.randrange(SG), rng.randrange(1, SG)})
        if op in ("shuffle_down", "shuffle_up"):
            deltas = sorted(set(deltas) | {SG})
        for c in deltas:
            why = row_modules.run_xmx(launch + ["--arg", "buffer:file=%s" % in_path,
                                "--arg", "buffer:zero:%d" % (lanes * slots * size),
                                "--arg", "i32:%d" % c, "--dump", "1=%s" % out_path])
            if why:
                failures.append("delta %d: %s" % (c, why))
                continue
            want = []
            for gid in range(lanes):
                group, lane = divmod(gid, SG)

                def value(kind, source_lane):  # kind 0: in[gid], kind 1: in[gid + 1]
                    g = group * SG + source_lane + kind
                    return data[g * slots:(g + 1) * slots]
                if op == "shuffle":
                    v = value(0, c)
                elif op == "shuffle_xor":
                    v = value(0, lane ^ c)
                elif op == "shuffle_down":  # (current, next, delta): lane + delta
                    idx = lane + c
                    v = value(0, idx) if idx < SG else value(1, idx - SG)
                else:  # shuffle_up (previous, current, delta): lane - delta
                    idx = lane - c
                    v = value(1, idx) if idx >= 0 else value(0, idx + SG)
                want += [x if i < n else None for i, x in enumerate(v)]
            why = compare(want, unpack(out_path.read_bytes()), "delta %d" % c)
            if why:
                failures.append(why)
    elif op == "block_read":
        data = elements(lanes * n)
        in_path.write_bytes(pack(data))
        why = row_modules.run_xmx(launch + ["--arg", "buffer:file=%s" % in_path,
                            "--arg", "buffer:zero:%d" % (lanes * slots * size),
                            "--dump", "1=%s" % out_path])
        if why:
            return [why]
        want = []
        for gid in range(lanes):
            group, lane = divmod(gid, SG)
            block = data[group * SG * n:(group + 1) * SG * n]
            want += [block[lane + j * SG] for j in range(n)] + [None] * (slots - n)
        why = compare(want, unpack(out_path.read_bytes()), "block read")
        if why:
            failures.append(why)
    elif op == "block_write":
        data = elements(lanes * slots)
        in_path.write_bytes(pack(data))
        why = row_modules.run_xmx(launch + ["--arg", "buffer:file=%s" % in_path,
                            "--arg", "buffer:zero:%d" % (lanes * n * size),
                            "--dump", "1=%s" % out_path])
        if why:
            return [why]
        want = [0] * (lanes * n)
        for gid in range(lanes):
            group, lane = divmod(gid, SG)
            for j in range(n):
                want[group * SG * n + lane + j * SG] = data[gid * slots + j]
        got = unpack(out_path.read_bytes())
        for i, w in enumerate(want):
            if got[i] != w:
                failures.append("block write: element %d: expected 0x%x, got 0x%x" % (i, w,
                                                                                     got[i]))
                break
    else:  # 8/16-bit OpGroup* on scalars
        bits = 8 * size
        data = elements(lanes)
        in_path.write_bytes(pack(data))
        extra = []
        lane_arg = rng.randrange(SG)
        if op == "broadcast":
            extra = ["--arg", "i32:%d" % lane_arg]
        why = row_modules.run_xmx(launch + ["--arg", "buffer:file=%s" % in_path,
                            "--arg", "buffer:zero:%d" % (lanes * size)] + extra +
                  ["--dump", "1=%s" % out_path])
        if why:
            return [why]
        mask = (1 << bits) - 1
        combine = {
            "iadd": (lambda a, b: (a + b) & mask, 0),
            "smin": (lambda a, b: a if to_signed(a, bits) <= to_signed(b, bits) else b,
                     (1 << (bits - 1)) - 1),
            "smax": (lambda a, b: a if to_signed(a, bits) >= to_signed(b, bits) else b,
                     1 << (bits - 1)),
            "umin": (min, mask),
            "umax": (max, 0),
        }
        want = []
        for group in range(2):
            values = data[group * SG:(group + 1) * SG]
            if op == "broadcast":
                want += [values[lane_arg]] * SG
                continue
            fn, identity = combine[op]
            operation = row["group_operation"]
            acc = identity
            for v in values:
                before = acc
                acc = fn(acc, v)
                if operation == "InclusiveScan":
                    want.append(acc)
                elif operation == "ExclusiveScan":
                    want.append(before)
            if operation == "Reduce":
                want += [acc] * SG
        why = compare(want, unpack(out_path.read_bytes()), op)
        if why:
            failures.append(why)
    return failures


if __name__ == "__main__":
    row_modules.main(__doc__, "subgroups", "sg_*", "subgroup", check_module)
