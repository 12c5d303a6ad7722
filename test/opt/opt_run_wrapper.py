#!/usr/bin/env python3
"""Stands for xmx-run in the row modules' own checks (test/cli/check_*_rows.py,
check_split_mad.py): each launch runs the module as given and optimized by xmx-opt, through
opt_harness.check (the output must pass xmx-val and dump the same bytes), then hands the
optimized module's dumps to the check, which compares them with its model.

Environment: XMX_OPT_WRAP_TOOLS=XMX_OPT,XMX_VAL,XMX_RUN, XMX_OPT_WRAP_PASS (the pass flags,
space-separated), XMX_OPT_WRAP_WORK (a scratch directory). Each launch appends one line to
WORK/report.txt (module, outcome, executed instructions before and after). Exit codes: xmx-run's
for the original module, 1 when the optimized module differs or xmx-opt fails.
"""
import os
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import opt_harness  # noqa: E402


def main():
    xmx_opt, xmx_val, xmx_run = os.environ["XMX_OPT_WRAP_TOOLS"].split(",")
    flags = os.environ["XMX_OPT_WRAP_PASS"].split()
    work = pathlib.Path(os.environ["XMX_OPT_WRAP_WORK"])
    if len(sys.argv) < 2:
        sys.exit("usage: opt_run_wrapper.py MODULE XMX_RUN_ARGS...")
    module = sys.argv[1]
    args, dumps = opt_harness.split_dumps(sys.argv[2:])
    # --expect compares inside xmx-run: keep it for the optimized module's own run below.
    case = work / pathlib.Path(module).stem
    tools = {"xmx-opt": xmx_opt, "xmx-val": xmx_val, "xmx-run": xmx_run}
    outcome, baseline = opt_harness.check(tools, flags, module, args, list(dumps), case)
    work.mkdir(parents=True, exist_ok=True)
    with open(work / "report.txt", "a") as report:
        report.write("%s %s %s -> %s %s\n" % (pathlib.Path(module).name, outcome.status,
                                             outcome.before, outcome.after, outcome.detail))
    if outcome.status in ("skipped", "unchanged", "refused"):
        # Nothing else to run: the check sees xmx-run's own run of the module as given.
        os.execv(xmx_run, [xmx_run, module] + sys.argv[2:])
    if outcome.status != "same":
        sys.exit("xmx-opt %s: %s" % (" ".join(flags), outcome.detail))
    # Both runs dumped the same bytes; the check now compares them with its model.
    for index, path in dumps.items():
        shutil.copyfile(case / "after" / ("dump%s.bin" % index), path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
