#!/usr/bin/env python3
"""Built-in calls (issue 9): what xmx-val says about modules that keep the Intel extension
operations as calls of imported built-ins, and what xmx-run computes with them.

usage:
  check_builtin_calls.py val XMX_VAL DEVICE MODULE [--valid | --invalid]
                             [--same-errors-as MODULE] [--error RULE TEXT]...
      --valid / --invalid   the verdict on DEVICE
      --same-errors-as REF  the rule ids of the errors equal those of REF, the same computation
                            built with the instructions themselves (how often each fires depends
                            on inlining; the block2d pointee rules on how each producer types the
                            private pointer, which the built-ins' declarations fix: left out)
      --error RULE TEXT     an error of RULE whose message contains TEXT
  check_builtin_calls.py run XMX_RUN WORKDIR KERNELS REFERENCE MODULE...
      runs the kernels of builtin_forms_body.h (KERNELS = forms) on every module with the same
      inputs and compares every dump byte for byte with REFERENCE's
  check_builtin_calls.py model XMX_RUN WORKDIR MODULE
      runs builtin_intel_subgroups.cl's kernels and compares their output with the model below
      (SPEC-NOTES C.2, C.4, DECISIONS 8; nothing shared with source/interp)
"""
import json
import pathlib
import random
import struct
import subprocess
import sys

POINTEE_RULES = {"block2d.pointee", "block2d.transform.pointee"}


def diagnostics(xmx_val, device, module):
    proc = subprocess.run([xmx_val, "--device", device, "--format", "json", module],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        sys.exit("xmx-val failed on %s (exit %d): %s" % (module, proc.returncode, proc.stderr))
    result = json.loads(proc.stdout.strip().splitlines()[0])
    return result["valid"], result["diagnostics"]


def check_val(args):
    xmx_val, device, module = args[:3]
    valid, diags = diagnostics(xmx_val, device, module)
    errors = [d for d in diags if d["severity"] == "error"]
    failures = []
    rest = args[3:]
    while rest:
        option = rest.pop(0)
        if option == "--valid" and not valid:
            failures.append("expected valid on %s" % device)
        elif option == "--invalid" and valid:
            failures.append("expected invalid on %s" % device)
        elif option == "--same-errors-as":
            reference = rest.pop(0)
            _, ref_diags = diagnostics(xmx_val, device, reference)
            want = {d["rule"] for d in ref_diags if d["severity"] == "error"} - POINTEE_RULES
            got = {d["rule"] for d in errors} - POINTEE_RULES
            if want != got:
                failures.append("errors %s differ from %s's %s" % (sorted(got), reference,
                                                                  sorted(want)))
        elif option == "--error":
            rule, text = rest.pop(0), rest.pop(0)
            if not any(d["rule"] == rule and text in d["message"] for d in errors):
                failures.append("no %s error containing %r" % (rule, text))
        elif option not in ("--valid", "--invalid"):
            sys.exit("unknown option " + option)
    if failures:
        for d in diags:
            print("%s %s: %s" % (d["severity"], d["rule"], d["message"]))
        sys.exit("%s on %s: %s" % (module, device, "; ".join(failures)))


# The launches of builtin_forms_body.h's kernels: (kernel, args, dumps by argument index).
FORMS = [
    ("builtin_blk2d", ["--global", "32", "--local", "16", "--arg", "buffer:random=1:4096",
                       "--arg", "i32:64", "--arg", "i32:64", "--arg", "i32:64",
                       "--arg", "buffer:zero:4096", "--arg", "buffer:zero:8192"], [4, 5]),
    ("builtin_mma", ["--global", "32", "--local", "16", "--arg", "buffer:random=2:512",
                     "--arg", "buffer:random=3:5120", "--arg", "buffer:random=4:1024",
                     "--arg", "buffer:zero:8192"], [3]),
]


def launch(xmx_run, module, kernel, args, dumps, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    command = [xmx_run, module, "--kernel", kernel, "--device", "pvc"] + args
    for index in dumps:
        command += ["--dump", "%d=%s" % (index, out_dir / ("%s.%d" % (kernel, index)))]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("xmx-run %s --kernel %s failed (exit %d):\n%s" %
                 (module, kernel, proc.returncode, proc.stderr))
    return [(out_dir / ("%s.%d" % (kernel, index))).read_bytes() for index in dumps]


def check_run(args):
    xmx_run, work, kernels, reference = args[:4]
    if kernels != "forms":
        sys.exit("unknown kernel set " + kernels)
    work = pathlib.Path(work)
    for kernel, launch_args, dumps in FORMS:
        want = launch(xmx_run, reference, kernel, launch_args, dumps, work / "reference")
        if not any(any(b != 0 for b in data) for data in want):
            sys.exit("%s: the reference wrote only zeros" % kernel)
        for i, module in enumerate(args[4:]):
            got = launch(xmx_run, module, kernel, launch_args, dumps, work / str(i))
            for index, w, g in zip(dumps, want, got):
                if w != g:
                    first = next(k for k in range(len(w)) if w[k] != g[k])
                    sys.exit("%s --kernel %s: dump of argument %d differs from %s at byte %d" %
                             (module, kernel, index, reference, first))


# --- builtin_intel_subgroups.cl -------------------------------------------------------------
SG = 16


def wrap(value, bits, signed):
    value &= (1 << bits) - 1
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def model_groups(c, s, items):
    out = [0] * (items * 24)
    for base in range(0, items, SG):
        lanes = range(SG)
        x = [wrap(c[base + i], 8, True) for i in lanes]
        ux = [c[base + i + 7] for i in lanes]
        y = [wrap(s[base + i], 16, True) for i in lanes]
        uy = [s[base + i + 3] & 0xFFFF for i in lanes]

        def scan(values, op, inclusive, identity, bits, signed):
            result, acc = [], identity
            for v in values:
                if inclusive:
                    acc = wrap(op(acc, v), bits, signed)
                    result.append(acc)
                else:
                    result.append(acc)
                    acc = wrap(op(acc, v), bits, signed)
            return result

        add = lambda a, b: a + b
        for i in lanes:
            o = out[(base + i) * 24:(base + i) * 24 + 20]
            o[0] = x[5]
            o[1] = ux[9]
            o[2] = wrap(sum(x), 8, True)
            o[3], o[4], o[5], o[6] = min(x), min(ux), max(x), max(ux)
            o[7] = scan(x, add, False, 0, 8, True)[i]
            o[8] = scan(ux, add, True, 0, 8, False)[i]
            o[9] = scan(x, min, True, 127, 8, True)[i]
            o[10] = scan(ux, max, False, 0, 8, False)[i]
            o[11] = y[2]
            o[12] = min(y)
            o[13] = max(uy)
            o[14] = scan(y, max, True, -32768, 16, True)[i]
            o[15] = scan(uy, min, False, 0xFFFF, 16, False)[i]
            o[16] = x[i ^ 3]
            down = i + 3
            o[17] = x[down] if down < SG else wrap(x[down - SG] + 1, 8, True)
            up = i - 2
            o[18] = wrap(x[up] - 1, 8, True) if up >= 0 else x[up + SG]
            o[19] = uy[i ^ 5]
            out[(base + i) * 24:(base + i) * 24 + 20] = o
    return struct.pack("<%di" % len(out), *out)


def model_block_io(b8, b16, b64, groups):
    b8, b16, b64 = bytearray(b8), list(b16), list(b64)
    for group in range(groups):
        p8, p16, p64 = group * 128, group * 128, group * 64
        for lid in range(SG):
            v = b8[p8 + lid]
            v4 = [b8[p8 + 16 + lid + SG * j] for j in range(4)]
            w = b16[p16 + lid]
            w2 = [b16[p16 + 16 + lid + SG * j] for j in range(2)]
            l = b64[p64 + lid]
            l2 = [b64[p64 + 16 + lid + SG * j] for j in range(2)]
            b8[p8 + 80 + lid] = (v + v4[3]) & 0xFF
            for j in range(2):
                b8[p8 + 96 + lid + SG * j] = v4[j]
            b16[p16 + 64 + lid] = w ^ w2[1]
            for j in range(2):
                b16[p16 + 96 + lid + SG * j] = w2[j]
            b64[p64 + 48 + lid] = (l + l2[1]) & 0xFFFFFFFFFFFFFFFF
    return (bytes(b8), struct.pack("<%dH" % len(b16), *b16),
            struct.pack("<%dQ" % len(b64), *b64))


def check_model(args):
    xmx_run, work, module = args
    work = pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(9)
    items, groups = 32, 2
    c = bytes(rng.randrange(256) for _ in range(items + 16))
    s = [rng.randrange(65536) for _ in range(items + 16)]
    (work / "c.bin").write_bytes(c)
    (work / "s.bin").write_bytes(struct.pack("<%dH" % len(s), *s))
    got = launch(xmx_run, module, "builtin_groups",
                 ["--global", str(items), "--local", "16",
                  "--arg", "buffer:file=%s" % (work / "c.bin"),
                  "--arg", "buffer:file=%s" % (work / "s.bin"),
                  "--arg", "buffer:zero:%d" % (items * 24 * 4)], [2], work / "groups")[0]
    if got != model_groups(c, s, items):
        want = model_groups(c, s, items)
        first = next(k for k in range(len(want)) if want[k] != got[k]) // 4
        sys.exit("builtin_groups: int %d (work-item %d, o[%d]) is %d, the model says %d" %
                 (first, first // 24, first % 24, struct.unpack_from("<i", got, first * 4)[0],
                  struct.unpack_from("<i", want, first * 4)[0]))
    b8 = bytes(rng.randrange(256) for _ in range(groups * 128))
    b16 = [rng.randrange(65536) for _ in range(groups * 128)]
    b64 = [rng.getrandbits(64) for _ in range(groups * 64)]
    (work / "b8.bin").write_bytes(b8)
    (work / "b16.bin").write_bytes(struct.pack("<%dH" % len(b16), *b16))
    (work / "b64.bin").write_bytes(struct.pack("<%dQ" % len(b64), *b64))
    got = launch(xmx_run, module, "builtin_block_io",
                 ["--global", str(items), "--local", "16",
                  "--arg", "buffer:file=%s" % (work / "b8.bin"),
                  "--arg", "buffer:file=%s" % (work / "b16.bin"),
                  "--arg", "buffer:file=%s" % (work / "b64.bin")], [0, 1, 2], work / "block_io")
    for index, (w, g) in enumerate(zip(model_block_io(b8, b16, b64, groups), got)):
        if w != g:
            first = next(k for k in range(len(w)) if w[k] != g[k])
            sys.exit("builtin_block_io: buffer %d differs from the model at byte %d" %
                     (index, first))


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("val", "run", "model"):
        sys.exit(__doc__)
    {"val": check_val, "run": check_run, "model": check_model}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
