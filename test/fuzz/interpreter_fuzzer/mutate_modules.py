#!/usr/bin/env python3
"""Structure-aware mutations of SPIR-V modules, run through xmx-run: flags crashes and hangs.

    SEED=N mutate_modules.py XMX_RUN OUT_DIR ITERATIONS MODULE.spv...

Each mutant changes one to three things inside function bodies: an id operand replaced by
another id (or a bad one), a literal changed, an instruction deleted or duplicated, an opcode
swapped for one of the same class. Mutants that crash (a signal, exit code 128 or more) or time
out are kept in OUT_DIR. Seed it with modules xmx-val only partly checks (../seeds/cm_*.spv: an
unused 4-bit integer type the bridge cannot lift makes it skip core validation), so that the
mutants reach the loader. A complement to the libFuzzer target, whose byte-level mutations rarely
keep a module parseable; run the kept mutants through build/fuzz/interpreter_fuzzer for the
sanitizers.
Each kernel parameter gets an argument from its type (buffers of 8 KiB for pointers).
"""
import os
import random
import struct
import subprocess
import sys

def parse(words):
    insts, i = [], 5
    while i < len(words):
        n = words[i] >> 16
        if n == 0 or i + n > len(words):
            return None
        insts.append(words[i:i + n]); i += n
    return insts

def kernel_args(insts):
    # OpTypePointer ids, OpTypeFunction of the first OpEntryPoint's function -> --arg specs.
    types = {}
    for w in insts:
        op = w[0] & 0xFFFF
        if op in (20, 21, 22, 23, 32, 19, 30, 28):  # bool,int,float,vector,pointer,void,struct,array
            types[w[1]] = w
    entry = next((w for w in insts if (w[0] & 0xFFFF) == 15), None)
    if entry is None:
        return []
    fid = entry[2]
    fn = next((w for w in insts if (w[0] & 0xFFFF) == 54 and w[2] == fid), None)
    if fn is None:
        return []
    ftype = next((w for w in insts if (w[0] & 0xFFFF) == 33 and w[1] == fn[4]), None)
    args = []
    for p in (ftype[3:] if ftype else []):
        t = types.get(p)
        if t is None:
            args.append("i32:1"); continue
        op = t[0] & 0xFFFF
        if op == 32:
            args.append("local:1024" if t[2] == 4 else "buffer:random=7:8192")
        elif op == 21:
            args.append("i%d:3" % t[2])
        elif op == 22:
            args.append("f%d:1.5" % t[2])
        elif op == 23:
            comp = types.get(t[2]); w = comp[2] if comp else 32
            args.append("i%dx%d:%s" % (w, t[3], ",".join(["1"] * t[3])))
        else:
            args.append("i32:1")
    return args

OPCLASSES = [
    [128, 130, 132, 134, 135, 136, 137, 138, 139, 195, 196, 197, 194, 199],  # int arith/bit/shift
    [129, 131, 133, 136, 140, 141],                                          # float arith
    [170, 171, 176, 177, 178, 179, 180, 181, 182, 183],                      # int compares
    [110, 111, 112, 113, 114, 115, 116, 117, 124],                           # conversions
    [65, 66, 70, 67],                                                        # access chains
    [81, 82, 79, 80],                                                        # composites
    [249, 250, 251, 252, 345, 346, 347, 348],                                # shuffles
]

def mutate(words, rng):
    insts = parse(words)
    if insts is None:
        return None
    bound = words[3]
    first_fn = next((k for k, w in enumerate(insts) if (w[0] & 0xFFFF) == 54), len(insts))
    body = [k for k in range(first_fn, len(insts))]
    for _ in range(rng.randint(1, 3)):
        if not body:
            break
        k = rng.choice(body)
        w = list(insts[k])
        kind = rng.randrange(6)
        if kind <= 2 and len(w) > 1:
            j = rng.randrange(1, len(w))
            choice = rng.randrange(5)
            w[j] = (rng.randrange(1, bound) if choice < 3 else
                    rng.choice([0, 1, 2, 4, 7, 8, 16, 31, 32, 63, 64, 255, 1 << 20, 0xFFFFFFFF, bound + 5]))
            insts[k] = w
        elif kind == 3 and len(body) > 2:
            insts[k] = None
        elif kind == 4:
            insts.insert(k, list(insts[k]))
        else:
            op = w[0] & 0xFFFF
            for cls in OPCLASSES:
                if op in cls:
                    w[0] = (w[0] & 0xFFFF0000) | rng.choice(cls)
                    insts[k] = w
        insts = [x for x in insts if x is not None]
        body = [k for k in range(first_fn, len(insts))]
    out = list(words[:5])
    for w in insts:
        out.extend(w)
    return out

def main():
    xmx_run, out_dir, iterations = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seeds = []
    for path in sys.argv[4:]:
        data = open(path, "rb").read()
        seeds.append(list(struct.unpack("<%dI" % (len(data) // 4), data)))
    rng = random.Random(int(os.environ.get("SEED", "1")))
    os.makedirs(out_dir, exist_ok=True)
    stats = {}
    for it in range(iterations):
        base = rng.choice(seeds)
        m = mutate(base, rng)
        if m is None:
            continue
        path = os.path.join(out_dir, "cur.spv")
        with open(path, "wb") as f:
            f.write(struct.pack("<%dI" % len(m), *m))
        args = []
        for a in kernel_args(parse(m) or []):
            args += ["--arg", a]
        cmd = [xmx_run, path, "--global", "32", "--local", "16", "--threads", "1"] + args
        try:
            p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=20)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        stats[rc] = stats.get(rc, 0) + 1
        if rc == "timeout" or (isinstance(rc, int) and (rc < 0 or rc >= 128)):
            keep = os.path.join(out_dir, "crash_%d_%s.spv" % (it, rc))
            os.rename(path, keep)
            print("CRASH", rc, keep, " ".join(cmd[2:]), flush=True)
    print("exit codes:", stats, flush=True)


if __name__ == "__main__":
    main()
