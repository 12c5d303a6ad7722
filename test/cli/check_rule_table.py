#!/usr/bin/env python3
"""utils/rule_table.py on a made-up repository: each fault it exists to catch makes it fail with a
message naming the fault, and a clean repository passes."""
import pathlib
import subprocess
import sys
import tempfile

SCRIPT = sys.argv[1]

REGISTRY = '''// a comment naming XMX_RULE( is not an entry
XMX_RULE(kAlphaOne, "alpha.one", val, "error", "the first "
                                               "rule")
XMX_RULE(kAlphaTwo, "alpha.two", coop, "warning", "the second rule")
XMX_RULE(kGone, "gone", other, "error", "a single-word id")
'''

README_TEMPLATE = '''# x
<!-- rule-table:val -->
{val}
<!-- end rule-table:val -->
<!-- rule-table:coop -->
{coop}
<!-- end rule-table:coop -->
<!-- rule-table:coop_device -->
| rule | severity | fires when |
|---|---|---|
<!-- end rule-table:coop_device -->
<!-- rule-table:run_ub -->
| rule | what |
|---|---|
<!-- end rule-table:run_ub -->
<!-- rule-table:run_value -->
| rule | what |
|---|---|
<!-- end rule-table:run_value -->
'''
VAL = "| rule | severity | fires when |\n|---|---|---|\n| `alpha.one` | error | the first rule |"
COOP = "| rule | severity | fires when |\n|---|---|---|\n| `alpha.two` | warning | the second rule |"

failures = []


def run(repo, mode, want_exit, want_text=None):
    p = subprocess.run([sys.executable, SCRIPT, mode, str(repo)], capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode != want_exit or (want_text and want_text not in out):
        failures.append(f"{mode}: exit {p.returncode} (want {want_exit}), want '{want_text}':\n{out}")


def make(root, readme=None, tests=None, source=None):
    repo = pathlib.Path(tempfile.mkdtemp(dir=root))
    (repo / "source/common").mkdir(parents=True)
    (repo / "source/common/rule_ids.def").write_text(REGISTRY)
    (repo / "README.md").write_text(readme or README_TEMPLATE.format(val=VAL, coop=COOP))
    (repo / "test").mkdir()
    for name, text in (tests or {"a.cpp": 'HasRule(r, "alpha.one"); HasRule(r, "alpha.two");\n'
                                 '// expect [gone]\n'}).items():
        (repo / "test" / name).write_text(text)
    for name, text in (source or {}).items():
        (repo / "source" / name).write_text(text)
    return repo


with tempfile.TemporaryDirectory() as root:
    clean = make(root)
    run(clean, "readme", 0)
    run(clean, "tests", 0, "3 rule ids: ok")

    stale = make(root, readme=README_TEMPLATE.format(val=VAL.replace("first", "old"), coop=COOP))
    run(stale, "readme", 1, "differ from the registry")
    run(stale, "write", 0)
    run(stale, "readme", 0)

    unknown = make(root, tests={"a.cmake": 'x "alpha.one" "alpha.two" [gone] alpha.three y\n'})
    run(unknown, "tests", 1, "expects rule 'alpha.three'")

    untested = make(root, tests={"a.py": 'expect("alpha.one"); rule: gone\n'})
    run(untested, "tests", 1, "'alpha.two' is exercised by no test")

    # A namespace of ids is a valid expectation; a file name is not an id.
    namespace = make(root, tests={"a.py": '["alpha"] "alpha.one" "alpha.two" [gone] "alpha.spv"\n'})
    run(namespace, "tests", 0)

    # In a comment an id may be quoted; in code it must be the constant.
    commented = make(root, source={"y.cpp": 'Error(inst, rules::kAlphaTwo);  // "alpha.two"\n'})
    run(commented, "tests", 0)
    literal = make(root, source={"x.cpp": 'Error(inst, "alpha.two", "message");\n'})
    run(literal, "tests", 1, 'source/x.cpp:1: rule id "alpha.two" spelled as a literal')

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("rule_table.py: ok")
