#!/usr/bin/env python3
"""xmx-query's command line (CLI.md): the general, default and validation forms of each table
on pvc, dg2 and bmg, JSON that parses, text output, user profiles and usage errors (exit 2).
Expected values are written by hand from COOPERATIVE-MATRIX.md A3 and SPEC-NOTES A.4 / B.5.

usage: check_query.py XMX_QUERY PROFILE_DIR
"""
import json
import os
import subprocess
import sys

BF16 = ["--a", "bf16", "--b", "bf16", "--c", "fp32"]


def combos_with(answer, a, b, c, d, m_text, n, k, sg):
    return [x for x in answer["combinations"]
            if (x["a"], x["b"], x["c"], x["d"], x["m_text"], x["n"], x["k"], x["subgroup_size"]) ==
            (a, b, c, d, m_text, n, k, sg)]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    query, profiles = sys.argv[1], sys.argv[2]
    failures = []

    def run(args, code, check=None, stderr_has=None, json_out=True):
        cmd = [query] + args + (["--format", "json"] if json_out else [])
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        where = " ".join(args)
        if proc.returncode != code:
            failures.append("%s: exit %d, expected %d\n%s%s" %
                            (where, proc.returncode, code, proc.stdout, proc.stderr))
            return
        if stderr_has is not None and stderr_has not in proc.stderr:
            failures.append("%s: stderr %r lacks %r" % (where, proc.stderr, stderr_has))
        if code == 2:
            if proc.stdout:
                failures.append("%s: a usage error printed to standard output" % where)
            return
        if check is None:
            return
        try:
            answer = json.loads(proc.stdout) if json_out else proc.stdout
            problem = check(answer)
        except (ValueError, KeyError, IndexError, TypeError) as e:
            problem = "%s: %r" % (type(e).__name__, e)
        if problem:
            failures.append("%s: %s\n%s" % (where, problem, proc.stdout))

    def expect(condition, what):
        return None if condition else what

    # --- general ---
    run(["--device", "pvc"], 0, lambda j: expect(
        j["form"] == "general" and j["table"] == "cooperative-matrix" and
        len(j["combinations"]) == 53 and
        all(c["subgroup_size"] == 16 for c in j["combinations"]) and
        combos_with(j, "bf16", "bf16", "fp32", "fp32", "1..8", 16, 16, 16) and
        combos_with(j, "fp16", "fp16", "fp16", "fp32", "32", 64, 32, 16) and
        combos_with(j, "tf32", "tf32", "fp32", "fp32", "1..8", 16, 8, 16) and
        combos_with(j, "u8", "s8", "s32", "s32", "1..8", 16, 32, 16),
        "not the SIMD16 list of A3"))
    run(["--device", "bmg"], 0, lambda j: expect(len(j["combinations"]) == 53, "bmg != pvc list"))
    run(["--device", "dg2"], 0, lambda j: expect(
        len(j["combinations"]) == 7 and
        combos_with(j, "bf16", "bf16", "fp32", "fp32", "32", 32, 16, 8) and
        combos_with(j, "fp16", "fp16", "fp32", "fp32", "1..8", 8, 16, 8),
        "not the SIMD8 list of A3"))
    run(["--device", "pvc", "--subgroup-size", "32"], 0,
        lambda j: expect(j["combinations"] == [], "pvc has no SG32 joint_matrix rows"))
    run(["--device", "opencl"], 0,
        lambda j: expect(j["table_kind"] == "no_table" and "combinations" not in j, "opencl"))
    run(["--device", "pvc"], 0, lambda t: expect(
        t.startswith("device pvc: cooperative matrix (joint_matrix) combinations\n") and
        "bf16  bf16  fp32  fp32  1..8  16  16  16" in t, "text listing"), json_out=False)

    # --- default ---
    run(["--device", "pvc"] + BF16, 0, lambda j: expect(
        j["form"] == "default" and j["default"] == {"m": 32, "n": 64, "k": 32} and
        len(j["combinations"]) == 6 and j["types"]["d"] == "fp32", "pvc bf16 default"))
    run(["--device", "bmg", "--a", "fp16", "--b", "fp16", "--c", "fp16", "--d", "fp32"], 0,
        lambda j: expect(j["default"] == {"m": 32, "n": 64, "k": 32}, "bmg fp16 mixed default"))
    run(["--device", "dg2"] + BF16, 0, lambda j: expect(
        j["default"] == {"m": 32, "n": 32, "k": 16} and len(j["combinations"]) == 2, "dg2 bf16"))
    run(["--device", "dg2", "--a", "s8", "--b", "u8", "--c", "s32"], 0,
        lambda j: expect(j["default"] == {"m": 8, "n": 8, "k": 32}, "dg2 int8 default"))
    run(["--device", "dg2", "--a", "fp16", "--b", "fp16", "--c", "fp16", "--d", "fp32"], 1,
        lambda j: expect(j["supported"] is False, "dg2 has no fp16 accumulator"))

    # --- validation ---
    run(["--device", "pvc"] + BF16 + ["--m", "3", "--n", "16", "--k", "16"], 0,
        lambda j: expect(j["valid"] is True and j["combination"]["m_text"] == "1..8", "M 3"))
    run(["--device", "pvc"] + BF16 + ["--m", "32", "--n", "64", "--k", "16"], 0,
        lambda j: expect(j["valid"] is True, "32x64x16"))
    run(["--device", "pvc"] + BF16 + ["--m", "24", "--n", "16", "--k", "16"], 1,
        lambda j: expect(j["valid"] is False and j["nearest"][0] == {"m": 16, "n": 16, "k": 16},
                         "24x16x16"))
    run(["--device", "pvc"] + BF16 + ["--m", "24", "--n", "16", "--k", "16"], 1, lambda t: expect(
        t.startswith("not valid: Shape (M x N x K) 24x16x16 is not supported") and
        "nearest valid (M x N x K): 16x16x16" in t, "text"), json_out=False)
    run(["--device", "pvc"] + BF16 + ["--m", "8", "--n", "16", "--k", "16",
                                      "--subgroup-size", "32"], 1,
        lambda j: expect("Subgroup size 32" in j["message"], "SG32 on pvc"))
    run(["--device", "dg2"] + BF16 + ["--m", "16", "--n", "16", "--k", "16"], 1,
        lambda j: expect(j["valid"] is False, "dg2 16x16x16"))
    run(["--device", "dg2"] + BF16 + ["--m", "32", "--n", "32", "--k", "16"], 0,
        lambda j: expect(j["combination"]["subgroup_size"] == 8, "dg2 32x32x16"))
    run(["--device", "bmg", "--a", "tf32", "--b", "tf32", "--c", "fp32",
         "--m", "8", "--n", "16", "--k", "8"], 0, lambda j: expect(j["valid"], "bmg tf32"))
    run(["--device", "bmg", "--a", "s4", "--b", "s4", "--c", "s32",
         "--m", "8", "--n", "16", "--k", "64"], 1, lambda j: expect(not j["valid"], "no int4"))
    run(["--device", "opencl"] + BF16 + ["--m", "24", "--n", "16", "--k", "16"], 0,
        lambda j: expect(j["valid"] is True and j["table_kind"] == "no_table", "opencl"))
    run(["--device", "xe3p"] + BF16 + ["--m", "8", "--n", "16", "--k", "16"], 0,
        lambda t: expect("note: a convention row" in t, "xe3p note"), json_out=False)

    # --- the native instruction's table answers for one instruction ---
    run(["--device", "pvc", "--table", "matrix"] + BF16 + ["--m", "3", "--n", "16", "--k", "16"],
        1, lambda j: expect(j["table"] == "matrix" and j["nearest"], "native M 3"))
    run(["--device", "pvc", "--table", "matrix"] + BF16 + ["--m", "8", "--n", "16", "--k", "16"],
        0, lambda j: expect(j["combination"]["operands"] == "0x3000", "native 8x16x16"))
    run(["--device", "dg2", "--table", "matrix"], 0,
        lambda j: expect(len(j["combinations"]) == 10, "dg2 native: 4 + 4 + 2"))

    # --- 2D block shapes ---
    run(["--device", "pvc", "--table", "block2d"], 0, lambda j: expect(
        len(j["rows"]) > 10 and j["subgroup_sizes"] == [16, 32], "pvc block2d listing"))
    run(["--device", "pvc", "--table", "block2d", "--op", "load_transform"], 0, lambda j: expect(
        {r["element_size"] for r in j["rows"]} == {1, 2}, "load_transform rows"))
    run(["--device", "pvc", "--table", "block2d", "--op", "load", "--element-size", "2",
         "--width", "16", "--height", "8"], 0, lambda j: expect(j["valid"], "16x8 load"))
    run(["--device", "pvc", "--table", "block2d", "--op", "load", "--element-size", "2",
         "--width", "8", "--height", "8"], 1,
        lambda j: expect("Block Width 8" in j["message"], "8-wide 16-bit load"))
    run(["--device", "pvc", "--table", "block2d", "--op", "store", "--element-size", "4",
         "--width", "16", "--height", "8", "--subgroup-size", "8"], 1,
        lambda j: expect("subgroup size 8" in j["message"], "block2d at SG 8"))
    run(["--device", "pvc", "--table", "block2d", "--op", "store", "--element-size", "4",
         "--width", "16", "--height", "8", "--subgroup-size", "32"], 0,
        lambda t: expect("note: the subgroup size is a convention" in t, "SG32 note"),
        json_out=False)
    run(["--device", "dg2", "--table", "block2d"], 0,
        lambda j: expect(j["table_kind"] == "none", "dg2 has no 2D block IO"))
    run(["--device", "dg2", "--table", "block2d", "--op", "load", "--element-size", "2",
         "--width", "16", "--height", "8"], 1, lambda j: expect(j["valid"] is False, "dg2"))

    # --- user profiles ---
    broken = os.path.join(profiles, "broken_coop_profile.json")
    run(["--device-profile", broken], 2,
        stderr_has="broken_coop_profile.json: +cooperative_matrix[3].k: expected a non-negative "
                   "integer, found -4")
    none = os.path.join(profiles, "no_coop_profile.json")
    run(["--device-profile", none], 0, lambda j: expect(j["table_kind"] == "none", "none"))
    run(["--device-profile", none] + BF16 + ["--m", "8", "--n", "16", "--k", "16"], 1,
        lambda j: expect(j["valid"] is False, "a device without cooperative matrices"))

    # --- usage errors ---
    for args, text in [
        ([], "--device NAME or --device-profile FILE is required"),
        (["--device", "nosuch"], "unknown device 'nosuch'"),
        (["--device", "pvc", "--a", "bf16"], "the types need --a, --b and --c"),
        (["--device", "pvc", "--m", "8"], "--m, --n and --k need the element types"),
        (["--device", "pvc", "--m", "8"] + BF16, "validation needs all of --m, --n and --k"),
        (["--device", "pvc", "--a", "bfloat16", "--b", "bf16", "--c", "fp32"],
         "--a: unknown element type 'bfloat16'"),
        (["--device", "pvc", "--table", "tensor"], "--table"),
        (["--device", "pvc", "--op", "load"], "are for --table block2d"),
        (["--device", "pvc", "--table", "block2d"] + BF16, "are for the matrix tables"),
        (["--device", "pvc", "--table", "block2d", "--width", "16"], "go together"),
        (["--device", "pvc", "--table", "block2d", "--width", "16", "--height", "8"],
         "needs --op and --element-size"),
        (["--device", "pvc", "--device-profile", none], "excludes"),
        (["--device", "pvc", "--subgroup-size", "0"], "--subgroup-size must be positive"),
        (["--device", "pvc", "--bogus"], "bogus"),
        (["--device", "pvc", "--m", "-1"] + BF16, "--m"),
    ]:
        run(args, 2, stderr_has=text, json_out=False)
    run(["--help"], 0, json_out=False)
    run(["--version"], 0, lambda t: expect(t.startswith("xmx-query (xmx-spirv)"), "version"),
        json_out=False)

    if failures:
        sys.exit("\n\n".join(failures))
    print("all xmx-query checks passed")


if __name__ == "__main__":
    main()
