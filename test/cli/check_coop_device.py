#!/usr/bin/env python3
"""Per-device cooperative-matrix tests (coop.device.* rules, xmx-query).

usage: check_coop_device.py cases --xmx-as AS --xmx-val VAL --dir DIR
       check_coop_device.py consistency --xmx-as AS --xmx-val VAL --xmx-query Q --dir DIR

cases: every entry of DIR/cases.json is a module (a hand-written DIR/FILE, or the template
DIR/muladd_template.spvasm filled in with the entry's parameters) validated with
`xmx-val --format json` on a device (or a profile in DIR); the verdict and the rules that fire
(error and warning severity) must be the expected ones.

consistency: for a grid of element types, shapes and subgroup sizes on pvc, dg2, bmg and xe3p,
`xmx-query --m --n --k` says valid (exit 0) exactly when xmx-val accepts the module of that
combination (and xmx-query answers 1 otherwise); a few combinations are pinned to the verdict
COOPERATIVE-MATRIX.md A3 gives them, so the comparison cannot pass with both tools wrong alike.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# How each SYCL type is written in the template: the component type id and the operand bit per
# role (A, B, C, D), following COOPERATIVE-MATRIX.md A4 (DPC++'s choices).
COMPONENTS = {
    "s8": ("%i8", {"a": "MatrixASignedComponentsKHR", "b": "MatrixBSignedComponentsKHR"}),
    "u8": ("%i8", {}),
    "s32": ("%i32", {"c": "MatrixCSignedComponentsKHR", "d": "MatrixResultSignedComponentsKHR"}),
    "fp16": ("%f16", {}),
    "fp32": ("%f32", {}),
    "tf32": ("%f32", {"a": "MatrixAAndBTF32ComponentsINTEL", "b": "MatrixAAndBTF32ComponentsINTEL"}),
    "bf16": ("%i16", {"a": "MatrixAAndBBFloat16ComponentsINTEL",
                      "b": "MatrixAAndBBFloat16ComponentsINTEL",
                      "c": "MatrixCBFloat16ComponentsINTEL",
                      "d": "MatrixResultBFloat16ComponentsINTEL"}),
    "bf16k": ("%bf16", {}),  # SPV_KHR_bfloat16 component type: no bit
    "i16": ("%i16", {}),  # 16-bit integers without any bit: read as bf16 (A4)
    "s16": ("%i16", {"a": "MatrixASignedComponentsKHR", "b": "MatrixBSignedComponentsKHR"}),
    "i32": ("%i32", {}),  # an accumulator without signedness bits: still s32
}


def fill_template(template, p):
    types = {role: COMPONENTS[p[role]][0] for role in "abcd"}
    bits = []
    for role in "abcd":
        bit = COMPONENTS[p[role]][1].get(role)
        # The INTEL A-and-B bits describe both matrices: set only when A and B both want them
        # (a mixed fp16 x bf16 uses the KHR bfloat16 type, "bf16k", which needs no bit).
        if bit and "AndB" in bit and COMPONENTS[p["a"]][1].get("a") != \
                COMPONENTS[p["b"]][1].get("b"):
            continue
        if bit and bit not in bits:
            bits.append(bit)
    used = []
    for role in "abcd":
        if types[role] not in used:
            used.append(types[role])
    ptr = {t: "%ptr_" + t[1:] for t in used}
    ptr_defs = "\n".join("%s = OpTypePointer CrossWorkgroup %s" % (ptr[t], t) for t in used)
    same_cd = types["c"] == types["d"]
    values = {
        "SG": str(p.get("sg", 16)), "SCOPE": str(p.get("scope", 3)),
        "M": str(p["m"]), "N": str(p["n"]), "K": str(p["k"]),
        "A": types["a"], "B": types["b"], "C": types["c"], "D": types["d"],
        "BF16_DEF": "%bf16 = OpTypeFloat 16 BFloat16KHR" if "%bf16" in used else "",
        "PTR_DEFS": ptr_defs,
        "PTR_A": ptr[types["a"]], "PTR_B": ptr[types["b"]],
        "PTR_C": ptr[types["c"]], "PTR_D": ptr[types["d"]],
        "D_TYPE": "%MC" if same_cd else "%MD",
        "D_DEF": "" if same_cd else
        "%MD = OpTypeCooperativeMatrixKHR {} %scope %c_m %c_n %use_acc".format(types["d"]),
        "OPERANDS": "|".join(bits),
    }
    lines = []
    for line in template.splitlines():
        if p.get("sg", 16) is None and "SubgroupSize {SG}" in line:
            continue  # a kernel that does not declare its subgroup size
        if not line.startswith(";"):
            for key, value in values.items():
                line = line.replace("{" + key + "}", value)
        lines.append(line)
    return "\n".join(lines) + "\n"


class Tools:
    def __init__(self, args, workdir):
        self.args, self.workdir, self.count = args, workdir, 0

    def assemble(self, text):
        self.count += 1
        src = os.path.join(self.workdir, "m%d.spvasm" % self.count)
        out = os.path.join(self.workdir, "m%d.spv" % self.count)
        with open(src, "w") as f:
            f.write(text)
        proc = subprocess.run([self.args.xmx_as, src, "-o", out], capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit("xmx-as failed on:\n%s\n%s" % (text, proc.stderr))
        return out

    def validate(self, module, device_args):
        proc = subprocess.run([self.args.xmx_val, "--format", "json"] + device_args + [module],
                              capture_output=True, text=True, timeout=120)
        if proc.returncode not in (0, 1):
            sys.exit("xmx-val exit %d: %s" % (proc.returncode, proc.stderr))
        result = json.loads(proc.stdout)
        if result["valid"] != (proc.returncode == 0):
            sys.exit("xmx-val exit code %d disagrees with its JSON" % proc.returncode)
        return result

    def query(self, args):
        proc = subprocess.run([self.args.xmx_query, "--format", "json"] + args,
                              capture_output=True, text=True, timeout=60)
        if proc.returncode not in (0, 1):
            sys.exit("xmx-query %s: exit %d: %s" % (" ".join(args), proc.returncode, proc.stderr))
        answer = json.loads(proc.stdout)
        if answer.get("valid") != (proc.returncode == 0):
            sys.exit("xmx-query %s: exit %d disagrees with valid=%r" %
                     (" ".join(args), proc.returncode, answer.get("valid")))
        return proc.returncode == 0


def run_cases(args, tools):
    with open(os.path.join(args.dir, "cases.json")) as f:
        cases = json.load(f)
    with open(os.path.join(args.dir, "muladd_template.spvasm")) as f:
        template = f.read()
    failures = []
    for case in cases:
        if "file" in case:
            with open(os.path.join(args.dir, case["file"])) as f:
                module = tools.assemble(f.read())
        else:
            module = tools.assemble(fill_template(template, case["template"]))
        if "profile" in case:
            device_args = ["--device-profile", os.path.join(args.dir, case["profile"])]
        else:
            device_args = ["--device", case["device"]]
        device_args += case.get("extra_args", [])
        result = tools.validate(module, device_args)
        fired = sorted({d["rule"] for d in result["diagnostics"]
                        if d["rule"].startswith("coop.device") and
                        d["severity"] in ("error", "warning", "remark")})
        expected = sorted(case["rules"])
        if result["valid"] != case["valid"] or fired != expected:
            failures.append("%s: valid %r rules %r (expected valid %r rules %r)\n%s" %
                            (case["name"], result["valid"], fired, case["valid"], expected,
                             json.dumps(result["diagnostics"], indent=1)))
        for needle in case.get("message_contains", []):
            if not any(needle in d["message"] for d in result["diagnostics"]):
                failures.append("%s: no message contains %r" % (case["name"], needle))
    if failures:
        sys.exit("\n".join(failures))
    print("%d cases passed" % len(cases))


# Combinations checked for consistency: (types, shapes) per device family.
TYPE_SETS = [
    ("bf16", "bf16", "fp32", "fp32"), ("bf16", "bf16", "bf16", "fp32"),
    ("bf16k", "bf16k", "fp32", "fp32"), ("fp16", "fp16", "fp16", "fp32"),
    ("fp16", "fp16", "fp32", "fp32"), ("s8", "s8", "s32", "s32"), ("u8", "s8", "s32", "s32"),
    ("tf32", "tf32", "fp32", "fp32"), ("fp16", "bf16k", "fp32", "fp32"),
]
SHAPES = [(m, n, k) for m in (1, 3, 8, 16, 32) for n in (8, 16, 32, 64) for k in (8, 16, 32)]

# Verdicts written from COOPERATIVE-MATRIX.md A3 by hand: (device, sg, types, shape) -> valid.
PINNED = {
    ("pvc", 16, ("bf16", "bf16", "fp32", "fp32"), (3, 16, 16)): True,
    ("pvc", 16, ("bf16", "bf16", "fp32", "fp32"), (32, 64, 16)): True,
    ("pvc", 16, ("bf16", "bf16", "fp32", "fp32"), (32, 32, 16)): False,
    ("pvc", 16, ("fp16", "fp16", "fp16", "fp32"), (16, 16, 16)): True,
    ("pvc", 16, ("tf32", "tf32", "fp32", "fp32"), (8, 16, 8)): True,
    ("pvc", 16, ("s8", "s8", "s32", "s32"), (8, 16, 32)): True,
    ("pvc", 16, ("s8", "s8", "s32", "s32"), (16, 16, 32)): False,
    ("dg2", 8, ("bf16", "bf16", "fp32", "fp32"), (32, 32, 16)): True,
    ("dg2", 8, ("bf16", "bf16", "fp32", "fp32"), (16, 16, 16)): False,
    ("dg2", 8, ("tf32", "tf32", "fp32", "fp32"), (8, 8, 8)): False,
    ("dg2", 8, ("u8", "s8", "s32", "s32"), (1, 8, 32)): True,
    ("bmg", 16, ("bf16", "bf16", "bf16", "fp32"), (1, 64, 32)): True,
    ("bmg", 16, ("fp16", "fp16", "fp32", "fp32"), (8, 8, 16)): False,
}


def query_type(t):
    return "bf16" if t == "bf16k" else t


def run_consistency(args, tools):
    with open(os.path.join(args.dir, "muladd_template.spvasm")) as f:
        template = f.read()
    plan = []
    for device, sizes in (("pvc", (16, 32)), ("dg2", (8, 16)), ("bmg", (16,)), ("xe3p", (16,))):
        for sg in sizes:
            for types in TYPE_SETS:
                for shape in SHAPES:
                    plan.append((device, sg, types, shape))
    # Every module costs an xmx-as and an xmx-val: check all of pvc's bf16/fp32 grid and a
    # deterministic sample of the rest (every 7th), plus every pinned combination.
    chosen = [p for i, p in enumerate(plan)
              if (p[0] == "pvc" and p[1] == 16 and p[2] == TYPE_SETS[0]) or i % 7 == 0 or
              (p[0], p[1], p[2], p[3]) in PINNED]
    counts = {True: 0, False: 0}
    failures = []
    for device, sg, types, shape in chosen:
        params = dict(zip("abcd", types), m=shape[0], n=shape[1], k=shape[2], sg=sg)
        module = tools.assemble(fill_template(template, params))
        result = tools.validate(module, ["--device", device])
        errors = [d for d in result["diagnostics"] if d["severity"] == "error"]
        val_ok = result["valid"]
        query_ok = tools.query(["--device", device, "--a", query_type(types[0]),
                                "--b", query_type(types[1]), "--c", types[2], "--d", types[3],
                                "--m", str(shape[0]), "--n", str(shape[1]), "--k", str(shape[2]),
                                "--subgroup-size", str(sg)])
        counts[query_ok] += 1
        where = "%s SG%d %s %dx%dx%d" % (device, sg, "/".join(types), *shape)
        if val_ok != query_ok:
            failures.append("%s: xmx-query %s, xmx-val %s %s" %
                            (where, "valid" if query_ok else "not valid",
                             "accepts" if val_ok else "rejects",
                             [e["message"] for e in errors]))
        if not val_ok and any(not e["rule"].startswith("coop.device") for e in errors):
            failures.append("%s: rejected by rules other than coop.device.*: %s" %
                            (where, [(e["rule"], e["message"]) for e in errors]))
        pinned = PINNED.get((device, sg, types, shape))
        if pinned is not None and pinned != query_ok:
            failures.append("%s: A3 says %s" % (where, "valid" if pinned else "not valid"))
    if failures:
        sys.exit("\n".join(failures))
    if counts[True] < 10 or counts[False] < 10:
        sys.exit("too few valid (%d) or invalid (%d) combinations checked" %
                 (counts[True], counts[False]))
    print("%d combinations agree (%d valid, %d not valid)" %
          (len(chosen), counts[True], counts[False]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["cases", "consistency"])
    parser.add_argument("--xmx-as", required=True)
    parser.add_argument("--xmx-val", required=True)
    parser.add_argument("--xmx-query")
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        tools = Tools(args, workdir)
        if args.mode == "cases":
            run_cases(args, tools)
        else:
            if not args.xmx_query:
                sys.exit("consistency needs --xmx-query")
            run_consistency(args, tools)


if __name__ == "__main__":
    main()
