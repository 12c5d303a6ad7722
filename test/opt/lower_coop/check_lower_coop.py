#!/usr/bin/env python3
"""Proof by execution of xmx-opt --lower-cooperative-matrix (issue 12).

  check_lower_coop.py accept XMX_OPT XMX_VAL XMX_RUN MODULE MANIFEST DEVICE WORKDIR
        [--expect-block2d] [--stats FILE]
      MODULE is one of test/coop/accept_spv (MANIFEST says what it computes). It is lowered with
      `xmx-opt --lower-cooperative-matrix=DEVICE`; the output must have no cooperative-matrix
      type or instruction left (nor their capabilities and extensions), pass `xmx-val --device
      DEVICE`, and give, for the inputs test/cli/check_coop_accept.py makes for it, dumps
      byte-identical to the input module's under every `--mma-fp` model that check runs, which
      also compares them with its host model. --expect-block2d: the output must use 2D block IO.
      --stats FILE appends "module device instructions-before instructions-after time-before
      time-after" per launch (xmx-run --stats).
  check_lower_coop.py suite XMX_OPT XMX_VAL XMX_AS CHECK_COOP_RUN XMX_RUN SPV_DIR DEVICE WORKDIR
        CHECK CASE
      The modules test/cli/check_coop_run.py runs for CHECK CASE (SPV_DIR/<CASE>.llc22.O0/O2.spv)
      are lowered for DEVICE into WORKDIR under the same names (a subgroup-size-8 case, which
      those modules leave to --subgroup-size, first gets OpExecutionMode SubgroupSize 8), must
      pass xmx-val --device DEVICE, and then pass that check, whose models share no code with the
      interpreter or the pass.
  check_lower_coop.py same XMX_OPT XMX_VAL XMX_RUN MODULE DEVICE WORKDIR OPCODE -- XMX_RUN_ARGS...
      MODULE lowered for DEVICE must pass xmx-val, contain OPCODE, and give the dumps
      (--dump INDEX=NAME in XMX_RUN_ARGS, NAME inside WORKDIR) the input gives, byte for byte.
  check_lower_coop.py rounding XMX_OPT XMX_VAL XMX_RUN MODULE MANIFEST DEVICE WORKDIR
      MODULE is a table-row module of test/coop/accept_spv with an fp32 C and a 16-bit float D.
      Its inputs put every element of C exactly halfway between two neighbours of D's format and
      make the products add a tiny amount of either sign, or nothing, so that the exact sum
      rounded once to D and the fp32 sum rounded again to D differ (the check makes sure they do
      for many elements). Lowered for DEVICE and valid there, it must give the input module's
      bytes under --mma-fp exact, which must be the exact sums rounded once.
  check_lower_coop.py refuse XMX_OPT MODULE WORKDIR TEXT [FLAG...]
      xmx-opt FLAG... MODULE must exit 1 saying TEXT on standard error, and write nothing.
"""
import pathlib
import re
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "cli"))
import check_coop_accept as accept  # noqa: E402  (input generation and host models)

MATRIX_OPCODES = ["OpTypeCooperativeMatrixKHR", "OpCooperativeMatrix"]
MATRIX_REQUIREMENTS = ["CooperativeMatrixKHR", "SPV_KHR_cooperative_matrix",
                       "SPV_INTEL_joint_matrix", "PackedCooperativeMatrixINTEL",
                       "CooperativeMatrixCheckedInstructionsINTEL"]


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def stats_of(text):
    instructions = re.search(r"^instructions: (\d+)", text, re.M)
    wall = re.search(r"^wall time: ([0-9.e+-]+) s", text, re.M)
    return (int(instructions.group(1)) if instructions else -1,
            float(wall.group(1)) if wall else -1.0)


class PairedRun:
    """Stands in for check_coop_accept's xmx_run: runs the input module and the lowered one on
    the same launch and requires byte-identical dumps before the host model looks at them."""

    def __init__(self, xmx_run, original, stats):
        self.xmx_run, self.original, self.stats = xmx_run, original, stats

    def __call__(self, args, module, device, launch, extra=()):
        dumps = [launch[i + 1].split("=", 1)[1] for i, a in enumerate(launch) if a == "--dump"]
        results = []
        for which in (self.original, module):
            cmd = [self.xmx_run, str(which), "--device", device, "--stats", "--threads", "1"] + \
                  list(launch) + list(extra)
            code, out, err = run(cmd)
            if code != 0:
                raise accept.Failure("%s on %s: xmx-run exit %d\n%s\n%s" % (
                    which.name, device, code, " ".join(cmd), (out + err)[-3000:]))
            saved = []
            for path in dumps:
                keep = pathlib.Path(path + "." + ("lowered" if which == module else "input"))
                shutil.copyfile(path, keep)
                saved.append(keep.read_bytes())
            results.append((saved, stats_of(out + err)))
        (before, (n0, t0)), (after, (n1, t1)) = results
        for path, a, b in zip(dumps, before, after):
            if a != b:
                diff = next(i for i in range(min(len(a), len(b))) if a[i] != b[i]) \
                    if len(a) == len(b) else "size"
                raise accept.Failure("%s on %s: dump %s differs from the input module's "
                                     "(first differing byte %s)" % (module.name, device, path,
                                                                    diff))
        if self.stats:
            with open(self.stats, "a") as f:
                f.write("%s %s %d %d %.6f %.6f\n" % (self.original.name, device, n0, n1, t0, t1))


def check_accept(argv):
    expect_block2d = "--expect-block2d" in argv
    stats = None
    if "--stats" in argv:
        stats = argv[argv.index("--stats") + 1]
        argv = argv[:argv.index("--stats")] + argv[argv.index("--stats") + 2:]
    argv = [a for a in argv if a != "--expect-block2d"]
    xmx_opt, xmx_val, xmx_run, module, manifest, device, work = argv
    module, work = pathlib.Path(module), pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    name = module.name.split(".")[0]
    entry = dict(accept.json.loads(pathlib.Path(manifest).read_text())[name])
    lowered = work / (module.name[:-len(".spv")] + ".lowered-%s.spv" % device)
    # spirv-opt (and xmx-opt) target SPIR-V 1.5 by default; the spvasm modules are 1.6.
    code, out, err = run([xmx_opt, "--target-env", "spv1.6",
                          "--lower-cooperative-matrix=%s" % device, str(module),
                          "-o", str(lowered)])
    if code != 0:
        raise accept.Failure("xmx-opt exit %d: %s" % (code, (out + err)[-2000:]))
    code, out, err = run([xmx_val, "--device", device, str(lowered)])
    if code != 0:
        raise accept.Failure("the lowered module is invalid on %s:\n%s" % (device, (out + err)[-2000:]))
    text = run([str(pathlib.Path(xmx_val).with_name("xmx-dis")), str(lowered)])[1]
    for word in MATRIX_OPCODES + MATRIX_REQUIREMENTS:
        if word in text:
            raise accept.Failure("the lowered module still has %s" % word)
    if "OpSubgroupMatrixMultiplyAccumulateINTEL" not in text and entry["kind"] != "coord":
        raise accept.Failure("the lowered module has no OpSubgroupMatrixMultiplyAccumulateINTEL")
    if expect_block2d and "OpSubgroup2DBlock" not in text:
        raise accept.Failure("the lowered module uses no 2D block IO")
    entry["run_on"] = [device]
    accept.xmx_run = PairedRun(xmx_run, module, stats)
    rng = accept.random.Random(accept.zlib.crc32(module.name.encode()))

    class Args:
        pass
    args = Args()
    args.xmx_run = xmx_run
    summary = accept.CHECKS[entry["kind"]](args, lowered, entry, work, rng)
    return "lowered for %s: same dumps as the input and the host model (%s)" % (device, summary)


def pin_subgroup_size(xmx_as, xmx_dis, module, size, out):
    """The module with OpExecutionMode SubgroupSize `size` on each of its kernels."""
    text = run([xmx_dis, str(module)])[1]
    kernels = re.findall(r"OpEntryPoint Kernel (%\S+)", text)
    lines = text.splitlines()
    at = max(i for i, line in enumerate(lines) if "OpEntryPoint" in line) + 1
    lines[at:at] = ["OpExecutionMode %s SubgroupSize %d" % (k, size) for k in kernels]
    if "OpCapability SubgroupDispatch" not in text:
        first = next(i for i, line in enumerate(lines) if "OpCapability" in line)
        lines.insert(first, "OpCapability SubgroupDispatch")
    source = out.with_suffix(".spvasm")
    source.write_text("\n".join(lines) + "\n")
    code, _, err = run([xmx_as, str(source), "-o", str(out)])
    if code != 0:
        raise accept.Failure("xmx-as on the pinned %s: %s" % (module.name, err))


def check_suite(argv):
    xmx_opt, xmx_val, xmx_as, coop_run, xmx_run, spv_dir, device, work, check, case = argv
    work = pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    xmx_dis = str(pathlib.Path(xmx_val).with_name("xmx-dis"))
    stem = next((c for c in (case, "%s_%s" % (check, case))
                 if (pathlib.Path(spv_dir) / ("%s.llc22.O0.spv" % c)).exists()), case)
    for opt in ("O0", "O2"):
        name = "%s.llc22.%s.spv" % (stem, opt)
        module = pathlib.Path(spv_dir) / name
        if "sg8_" in case:
            pinned = work / (name + ".pinned.spv")
            pin_subgroup_size(xmx_as, xmx_dis, module, 8, pinned)
            module = pinned
        code, out, err = run([xmx_opt, "--target-env", "spv1.6",
                              "--lower-cooperative-matrix=%s" % device, str(module),
                              "-o", str(work / name)])
        if code != 0:
            raise accept.Failure("xmx-opt exit %d on %s: %s" % (code, name, (out + err)[-2000:]))
        code, out, err = run([xmx_val, "--device", device, str(work / name)])
        if code != 0:
            raise accept.Failure("lowered %s invalid on %s:\n%s" % (name, device, (out + err)[-2000:]))
    code, out, err = run([sys.executable, coop_run, "--xmx-run", xmx_run, "--spv-dir", str(work),
                          check, case])
    if code != 0:
        raise accept.Failure("check_coop_run.py %s %s on the lowered modules:\n%s" % (
            check, case, (out + err)[-3000:]))
    return "check_coop_run.py %s %s passes on the modules lowered for %s" % (check, case, device)


def check_same(argv):
    split = argv.index("--")
    xmx_opt, xmx_val, xmx_run, module, device, work, opcode = argv[:split]
    launch = argv[split + 1:]
    module, work = pathlib.Path(module), pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    lowered = work / (module.stem + ".lowered.spv")
    code, out, err = run([xmx_opt, "--target-env", "spv1.6", "--lower-cooperative-matrix=%s" % device,
                          str(module), "-o", str(lowered)])
    if code != 0:
        raise accept.Failure("xmx-opt exit %d: %s" % (code, (out + err)[-2000:]))
    code, out, err = run([xmx_val, "--device", device, str(lowered)])
    if code != 0:
        raise accept.Failure("the lowered module is invalid:\n%s" % (out + err)[-2000:])
    if opcode not in run([str(pathlib.Path(xmx_val).with_name("xmx-dis")), str(lowered)])[1]:
        raise accept.Failure("the lowered module has no %s" % opcode)
    launch = [a if not re.match(r"\d+=", a) else a.split("=", 1)[0] + "=" + str(work / a.split("=", 1)[1])
              for a in launch]
    PairedRun(xmx_run, module, None)(None, lowered, device, launch)
    return "%s lowered for %s (with %s) gives the input's dumps" % (module.name, device, opcode)


def lower(xmx_opt, xmx_val, module, device, lowered):
    code, out, err = run([xmx_opt, "--target-env", "spv1.6", "--lower-cooperative-matrix=%s" % device,
                          str(module), "-o", str(lowered)])
    if code != 0:
        raise accept.Failure("xmx-opt exit %d: %s" % (code, (out + err)[-2000:]))
    code, out, err = run([xmx_val, "--device", device, str(lowered)])
    if code != 0:
        raise accept.Failure("the lowered module is invalid:\n%s" % (out + err)[-2000:])


def halfway_tile(rng, entry):
    """A, B, C for one tile: C[i][j] halfway between two neighbours of D's format (binades 2^-3 to
    2^3, both signs), A[i][0] * B[0][j] = +-2^-28 or 0 (far below half an fp32 unit in the last
    place of C), every other product 0."""
    m, n, k, d = entry["m"], entry["n"], entry["k"], entry["d"]
    mbits = accept.FLOAT[d][1]
    F = accept.Fraction
    C = [[(-1) ** rng.randint(0, 1) * (F(rng.randrange(1 << mbits, 2 << mbits)) + F(1, 2)) *
          F(2) ** (rng.randint(-3, 3) - mbits) for _ in range(n)] for _ in range(m)]
    A = [[F(0)] * k for _ in range(m)]
    B = [[F(0)] * n for _ in range(k)]
    for i in range(m):
        A[i][0] = (-1) ** rng.randint(0, 1) * F(1, 1 << 14)
    for j in range(n):
        B[0][j] = rng.choice([-1, 0, 1]) * F(1, 1 << 14)
    return A, B, C


def check_rounding(argv):
    xmx_opt, xmx_val, xmx_run, module, manifest, device, work = argv
    module, work = pathlib.Path(module), pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    entry = accept.json.loads(pathlib.Path(manifest).read_text())[module.name.split(".")[0]]
    d = entry["d"]
    if entry["c"] != "f32" or d not in ("f16", "bf16", "bf16k"):
        raise accept.Failure("%s does not have an fp32 C and a 16-bit float D" % module.name)
    lowered = work / (module.stem + ".lowered-%s.spv" % device)
    lower(xmx_opt, xmx_val, module, device, lowered)
    rng = accept.random.Random(accept.zlib.crc32(module.name.encode()))
    tiles = [halfway_tile(rng, entry) for _ in range(2)]  # two work-groups, one tile each
    paths = accept.write_tiles(work, module.stem, entry, tiles)
    want, differ = [], 0
    for A, B, C in tiles:
        for value in accept.flat(accept.matmul(A, B, C)):
            once = accept.round_bits(value, d)
            twice = accept.round_bits(accept.bits_value(accept.round_bits(value, "f32"), "f32"), d)
            want.append(once)
            differ += once != twice
    if differ < 8:
        raise accept.Failure("the inputs do not tell one rounding from two (%d elements)" % differ)
    sg = entry["sg"]
    dump = work / ("%s.d.bin" % module.stem)
    launch = ["--global", str(2 * sg), "--local", str(sg)]
    for p in paths:
        launch += ["--arg", "buffer:file=%s" % p]
    launch += ["--arg", "buffer:zero:%d" % (2 * entry["m"] * entry["n"] * accept.SIZE[d]),
               "--dump", "3=%s" % dump]
    PairedRun(xmx_run, module, None)(None, lowered, device, launch, ["--mma-fp", "exact"])
    accept.compare(accept.decode(dump.read_bytes(), d), [{w} for w in want], d,
                   "%s lowered for %s, D" % (module.name, device))
    return "%s lowered for %s: D rounded once, as the input module (%d of %d elements differ " \
        "from two roundings)" % (module.name, device, differ, len(want))


def check_refuse(argv):
    xmx_opt, module, work, want = argv[:4]
    flags = argv[4:]
    pathlib.Path(work).mkdir(parents=True, exist_ok=True)
    out_path = pathlib.Path(work) / (pathlib.Path(module).stem + ".refused.spv")
    if out_path.exists():
        out_path.unlink()
    code, out, err = run([xmx_opt] + flags + [module, "-o", str(out_path)])
    if code != 1 or want not in err:
        raise accept.Failure("expected exit 1 saying %r, got exit %d:\n%s" % (want, code, err))
    if out_path.exists():
        raise accept.Failure("xmx-opt wrote %s although the pass failed" % out_path)
    return "refused: %s" % err.strip().splitlines()[0]


def main():
    modes = {"accept": check_accept, "suite": check_suite, "same": check_same,
             "rounding": check_rounding, "refuse": check_refuse}
    if len(sys.argv) < 2 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    try:
        summary = modes[sys.argv[1]](sys.argv[2:])
    except accept.Failure as f:
        print("FAIL %s" % f)
        return 1
    print("ok %s" % summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
