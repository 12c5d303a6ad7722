#!/usr/bin/env python3
"""Proof by execution of xmx-opt's passes on the corpus (issue 12, point 3).

usage:
  check_opt_passes.py XMX_OPT XMX_VAL XMX_RUN WORKDIR [--ours] [--pass FLAGS]... [--only GLOB]
      Every corpus module with a run description (test/run/*.json for the four builds of each
      portable kernel, test/opt/runs/*.json for the extension kernels, which name their modules:
      corpus file patterns, or paths from the repository's root)
      is run before and after each pass (opt_harness.py): the output must pass xmx-val and give
      byte-identical dumps. --ours adds every pass of ours that `xmx-opt --help` lists (a pass
      taking =DEVICE gets the run's device, else pvc); --pass adds one installed pass or recipe
      (FLAGS split on spaces). Prints per pass the outcomes and the executed instructions
      before and after on the modules it changed. Exit 1 if any case failed.
  check_opt_passes.py --case XMX_OPT XMX_VAL XMX_RUN WORKDIR MODULE FLAG... [--expect TEXT]
                      [--expect-changed] -- XMX_RUN_ARGS...
      One module: xmx-opt FLAG... must keep what it computes (XMX_RUN_ARGS name the launch and
      its --dump INDEX=NAME), say TEXT on standard error, and (--expect-changed) change it.
  check_opt_passes.py --help-flags XMX_OPT MODULE WORKDIR
      Every pass flag `xmx-opt --help` lists (placeholders filled in) is accepted: xmx-opt exits
      0 or 1 on MODULE, never 2 (usage) nor by a signal.
  check_opt_passes.py --same-as-spirv-opt XMX_OPT SPIRV_OPT WORKDIR FLAG
      On every core-only corpus module spirv-opt FLAG accepts, xmx-opt FLAG writes the same bytes
      unless it said it skipped a pass (-O and -Os run as their passes one by one in xmx-opt, so
      this checks that expansion too).
"""
import fnmatch
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import opt_harness  # noqa: E402

TEST_DIR = pathlib.Path(__file__).resolve().parent.parent
CORPUS = TEST_DIR / "corpus" / "spv"
BUILDS = ["llc22.O0", "llc22.O2", "spirv15.O0", "spirv15.O2"]


def launch_args(run, base_dir):
    args = ["--kernel", run["kernel"], "--global", ",".join(str(v) for v in run["global"])]
    if "local" in run:
        args += ["--local", ",".join(str(v) for v in run["local"])]
    if "device" in run:
        args += ["--device", run["device"]]
    if "subgroup-size" in run:
        args += ["--subgroup-size", str(run["subgroup-size"])]
    for spec in run["args"]:
        if spec.startswith("buffer:file="):
            spec = "buffer:file=" + str((base_dir / spec[len("buffer:file="):]).resolve())
        args += ["--arg", spec]
    return args


def cases():
    """(name, module, xmx-run args, dump indices) for every module with a run description."""
    found = []
    for path in sorted((TEST_DIR / "run").glob("*.json")):
        if path.name == "manifest.json":
            continue
        run = json.loads(path.read_text())
        stem = path.name.split(".")[0]
        for build in BUILDS:
            module = CORPUS / ("%s.%s.spv" % (stem, build))
            if module.exists():
                found.append(("%s.%s" % (path.stem, build), module,
                              launch_args(run, path.parent), list(run["dump"])))
    for path in sorted((TEST_DIR / "opt" / "runs").glob("*.json")):
        run = json.loads(path.read_text())
        for pattern in run["modules"]:
            # A pattern with a directory is relative to the repository, else to the corpus.
            where = TEST_DIR.parent if "/" in pattern else CORPUS
            for module in sorted(where.glob(pattern)):
                # Named by run and module: one run file may serve several sources.
                found.append(("%s.%s" % (path.stem, module.name[:-len(".spv")]), module,
                              launch_args(run, path.parent), list(run["dump"])))
    return found


def our_passes(xmx_opt):
    """The flags of our passes, from the "Our passes:" section of xmx-opt --help."""
    text = subprocess.run([xmx_opt, "--help"], capture_output=True, text=True).stdout
    section = text.split("Our passes:", 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("  --")]


def concrete(flag, args):
    """A pass flag for one case: [=DEVICE] dropped (--device gives it), =DEVICE the run's."""
    if flag.endswith("[=DEVICE]"):
        return flag[:-len("[=DEVICE]")]
    if flag.endswith("=DEVICE"):
        return flag[:-len("DEVICE")] + (opt_harness.device_of(args) or "pvc")
    return flag


def check_passes(argv):
    xmx_opt, xmx_val, xmx_run, work = argv[:4]
    tools = {"xmx-opt": xmx_opt, "xmx-val": xmx_val, "xmx-run": xmx_run}
    passes, only = [], "*"
    rest = argv[4:]
    while rest:
        option = rest.pop(0)
        if option == "--ours":
            passes += our_passes(xmx_opt)
        elif option == "--pass":
            passes.append(rest.pop(0))
        elif option == "--only":
            only = rest.pop(0)
        else:
            sys.exit("unknown option " + option)
    if not passes:
        sys.exit("no pass to check")
    work = pathlib.Path(work)
    baselines = {}
    failed = 0
    for flags in passes:
        counts = {}
        before = after = 0
        for name, module, args, dumps in cases():
            if not fnmatch.fnmatch(name, only):
                continue
            pass_flags = [concrete(f, args) for f in flags.split()]
            outcome, baseline = opt_harness.check(
                tools, pass_flags, module, args, dumps, work / name, baselines.get(name))
            if baseline is not None:
                baselines[name] = baseline
            counts[outcome.status] = counts.get(outcome.status, 0) + 1
            if outcome.status == "same" and outcome.before is not None:
                before += outcome.before
                after += outcome.after or 0
            if outcome.status == "failed":
                failed += 1
                print("FAIL %s on %s: %s" % (flags, name, outcome.detail))
            elif outcome.status in ("refused", "skipped"):
                print("  %s %s on %s: %s" % (outcome.status, flags, name, outcome.detail))
        change = " (%+.1f%%)" % (100.0 * (after - before) / before) if before else ""
        print("%s: %s; executed instructions on the modules it changed: %d -> %d%s" % (
            flags, ", ".join("%s %d" % kv for kv in sorted(counts.items())), before, after,
            change))
    sys.exit(1 if failed else 0)


def same_as_spirv_opt(argv):
    xmx_opt, spirv_opt, work, flag = argv
    work = pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    compared, differ = 0, []
    for module in sorted(CORPUS.glob("*.spv")):
        theirs, ours = work / "spirv-opt.spv", work / "xmx-opt.spv"
        proc = subprocess.run([spirv_opt, flag, str(module), "-o", str(theirs)],
                              capture_output=True, timeout=120)
        if proc.returncode != 0:
            continue  # not core-only, invalid for spirv-val, or a crash of the installed tool
        proc = subprocess.run([xmx_opt, flag, str(module), "-o", str(ours)], capture_output=True,
                              text=True, timeout=120)
        if proc.returncode != 0 or "skipped" in proc.stderr:
            continue
        compared += 1
        if ours.read_bytes() != theirs.read_bytes():
            differ.append(module.name)
    print("%s: %d modules compared, %d differ %s" % (flag, compared, len(differ), differ))
    sys.exit(1 if differ or compared < 20 else 0)


def one_case(argv):
    if "--" not in argv or len(argv) < 6:
        sys.exit(__doc__)
    split = argv.index("--")
    (xmx_opt, xmx_val, xmx_run, work, module), options = argv[:5], argv[5:split]
    args, dumps = opt_harness.split_dumps(argv[split + 1:])
    flags, expect, changed = [], [], False
    while options:
        option = options.pop(0)
        if option == "--expect":
            expect.append(options.pop(0))
        elif option == "--expect-changed":
            changed = True
        else:
            flags.append(option)
    tools = {"xmx-opt": xmx_opt, "xmx-val": xmx_val, "xmx-run": xmx_run}
    outcome, _ = opt_harness.check(tools, flags, module, args, list(dumps), work)
    problems = []
    if outcome.status not in ("same", "unchanged"):
        problems.append("%s: %s" % (outcome.status, outcome.detail))
    elif changed and outcome.status != "same":
        problems.append("xmx-opt %s did not change the module" % " ".join(flags))
    problems += ["xmx-opt did not say %r (it said: %s)" % (text, outcome.said)
                 for text in expect if text not in outcome.said]
    print("%s: %s, executed instructions %s -> %s" % (" ".join(flags), outcome.status,
                                                     outcome.before, outcome.after))
    sys.exit("; ".join(problems) if problems else 0)


def help_flags(argv):
    xmx_opt, module, work = argv
    work = pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    text = subprocess.run([xmx_opt, "--help"], capture_output=True, text=True).stdout
    installed = text.split("The installed SPIRV-Tools' passes", 1)[1].splitlines()[1:]
    flags = ["-O", "-Os"] + our_passes(xmx_opt) + [line.strip() for line in installed
                                                   if line.startswith("  --")]
    bad = []
    for flag in flags:
        concrete = flag.split("[")[0].replace("=<n>", "=2").replace("=DEVICE", "=pvc")
        concrete = concrete.replace("=<set>:<binding>", "=0:0").replace("=<spec", "=1:2")
        concrete = concrete.split(" ")[0]
        proc = subprocess.run([xmx_opt, concrete, module, "-o", str(work / "out.spv")],
                              capture_output=True, text=True, timeout=120)
        if proc.returncode not in (0, 1):
            bad.append("%s: exit %d %s" % (concrete, proc.returncode, proc.stderr.strip()))
    print("%d pass flags tried" % len(flags))
    if len(flags) < 60:
        bad.append("only %d pass flags listed" % len(flags))
    sys.exit("\n".join(bad) if bad else 0)


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--same-as-spirv-opt":
        same_as_spirv_opt(sys.argv[2:])
    elif sys.argv[1:2] == ["--case"]:
        one_case(sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "--help-flags":
        help_flags(sys.argv[2:])
    elif len(sys.argv) >= 5 and not sys.argv[1].startswith("--"):
        check_passes(sys.argv[1:])
    else:
        sys.exit(__doc__)
