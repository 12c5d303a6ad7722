"""What the end-to-end checks of the row modules of test/val/rows share: reading the manifest,
running xmx-run, and the command-line driver (check_mma_rows.py, check_block2d_rows.py,
check_subgroup_rows.py)."""
import fnmatch
import json
import pathlib
import random
import subprocess
import sys


def run_xmx(cmd):
    """Runs an xmx-run command; None on success, else the exit code and the last stderr lines."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        return "exit %d: %s" % (proc.returncode, " | ".join(proc.stderr.strip().splitlines()[-2:]))
    return None


def main(doc, kind, default_pattern, noun, check_module):
    """usage: SCRIPT XMX_RUN ROWS_DIR WORKDIR [MODULE_GLOB]. Calls
    check_module(xmx_run, module_path, manifest_entry, workdir, rng) for every table module
    (no variant) of `kind` matching the glob; it returns a list of problems. Exits 1 if any."""
    if len(sys.argv) not in (4, 5):
        sys.exit(doc)
    xmx_run, rows_dir, workdir = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    pattern = sys.argv[4] if len(sys.argv) == 5 else default_pattern
    workdir.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((rows_dir / "manifest.json").read_text())
    entries = [e for e in manifest["modules"] if e["kind"] == kind and e["variant"] is None
               and fnmatch.fnmatch(e["file"], pattern)]
    if not entries:
        sys.exit("no %s row module matches %s" % (noun, pattern))
    failed = 0
    for e in entries:
        problems = check_module(xmx_run, rows_dir / e["file"], e, workdir, random.Random(e["file"]))
        if problems:
            failed += 1
            for p in problems[:3]:
                print("FAIL %s: %s" % (e["file"], p))
    print("%d of %d %s row modules match the model" % (len(entries) - failed, len(entries), noun))
    sys.exit(1 if failed else 0)
