"""Proof by execution for xmx-opt's passes (issue 12): one pass on one module with one launch.

The module is run by xmx-run as it is and after xmx-opt PASS; the optimized module must pass
xmx-val and every buffer xmx-run dumps must be byte-identical to the original's (exact float
model of the matrix instruction, the default). A pass the installed SPIRV-Tools cannot run safely
on the module is refused by xmx-opt (exit 1, "refused" in its message): counted, not a failure.
A module xmx-opt leaves unchanged needs no run (nor does its original). Used by check_opt_passes.py (corpus modules with
run descriptions) and opt_run_wrapper.py (the row modules' own checks).
"""
import pathlib
import re
import subprocess

TIMEOUT = 300


class Outcome:
    def __init__(self, status, detail="", before=None, after=None, said=""):
        self.status = status  # "same", "unchanged", "refused", "skipped", "failed"
        self.detail = detail
        self.said = said  # what xmx-opt printed (warnings)
        self.before = before  # executed instructions (xmx-run --stats)
        self.after = after


def split_dumps(args):
    """Separates --dump INDEX=PATH (and --dump=...) from the other xmx-run arguments."""
    rest, dumps = [], {}
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--dump" and i + 1 < len(args):
            index, path = args[i + 1].split("=", 1)
            dumps[index] = path
            i += 2
            continue
        if arg.startswith("--dump="):
            index, path = arg[len("--dump="):].split("=", 1)
            dumps[index] = path
        else:
            rest.append(arg)
        i += 1
    return rest, dumps


def device_of(args):
    for i, arg in enumerate(args):
        if arg == "--device" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--device="):
            return arg.split("=", 1)[1]
    return None


def run(cmd):
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None
    return proc


def instructions(proc):
    """Executed instructions, from xmx-run --stats (on standard error)."""
    found = re.search(rb"^instructions: (\d+)$", proc.stderr or b"", re.M)
    return int(found.group(1)) if found else None


def tail(proc):
    text = (proc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
    return " | ".join(text[-3:])


def launch(xmx_run, module, args, dumps, out_dir):
    """Runs xmx-run with --stats, dumps into out_dir; returns (process, {index: bytes})."""
    out_dir.mkdir(parents=True, exist_ok=True)
    # One thread: the executed-instruction count then does not depend on how work-groups
    # interleave (atomics and barriers make it vary a little with several).
    threads = [] if any(a.startswith("--threads") for a in args) else ["--threads", "1"]
    cmd = [xmx_run, str(module)] + args + ["--stats"] + threads
    for index in dumps:
        cmd += ["--dump", "%s=%s" % (index, out_dir / ("dump%s.bin" % index))]
    proc = run(cmd)
    if proc is None or proc.returncode != 0:
        return proc, None
    return proc, {i: (out_dir / ("dump%s.bin" % i)).read_bytes() for i in dumps}


def check(tools, pass_flags, module, args, dumps, work, baseline=None):
    """tools: dict with xmx-opt, xmx-val, xmx-run paths. args: xmx-run arguments without the
    module and without --dump; dumps: {index: anything}. baseline: a cached (instructions,
    dumps) of the original module, or None to compute it when needed. Returns the outcome and
    the baseline (None when no run was needed)."""
    work = pathlib.Path(work)
    work.mkdir(parents=True, exist_ok=True)
    device = device_of(args)

    def original():
        proc, base = launch(tools["xmx-run"], module, args, dumps, work / "before")
        if base is None:
            return None, "timeout" if proc is None else tail(proc)
        return (instructions(proc), base), ""

    optimized = work / "optimized.spv"
    cmd = [tools["xmx-opt"]] + pass_flags + [str(module), "-o", str(optimized)]
    if device:
        cmd[1:1] = ["--device", device]
    proc = run(cmd)
    if proc is None:
        return Outcome("failed", "xmx-opt timed out: " + " ".join(cmd)), baseline
    said = (proc.stderr or b"").decode("utf-8", "replace")
    if proc.returncode != 0:
        if proc.returncode == 1 and " refused: " in said:
            line = next(x for x in said.splitlines() if " refused: " in x)
            return Outcome("refused", line), baseline
        if baseline is None:
            baseline, why = original()
            if baseline is None:  # an invalid input, which xmx-opt rightly rejects too
                return Outcome("skipped", "the original module does not run: " + why), None
        return Outcome("failed", "xmx-opt exit %d: %s" % (proc.returncode, tail(proc))), baseline
    if optimized.read_bytes() == pathlib.Path(module).read_bytes():
        return Outcome("unchanged", said=said), baseline

    if baseline is None:
        baseline, why = original()
        if baseline is None:
            return Outcome("skipped", "the original module does not run: " + why), None
    val = [tools["xmx-val"]] + (["--device", device] if device else []) + [str(optimized)]
    proc = run(val)
    if proc is None or proc.returncode != 0:
        return Outcome("failed", "xmx-val rejects the output: " + (tail(proc) if proc else
                                                                   "timeout")), baseline
    proc, after = launch(tools["xmx-run"], optimized, args, dumps, work / "after")
    if after is None:
        why = "timeout" if proc is None else tail(proc)
        return Outcome("failed", "the optimized module does not run: " + why), baseline
    for index, data in baseline[1].items():
        if after[index] != data:
            first = next((k for k in range(min(len(data), len(after[index])))
                          if data[k] != after[index][k]), min(len(data), len(after[index])))
            return Outcome("failed", "dump of argument %s differs at byte %d" % (index, first),
                           baseline[0], instructions(proc)), baseline
    return Outcome("same", before=baseline[0], after=instructions(proc), said=said), baseline
