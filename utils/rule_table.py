#!/usr/bin/env python3
"""The rule-id registry (source/common/rule_ids.def) and what depends on it.

  rule_table.py write  REPO   regenerate README.md's rule tables from the registry
  rule_table.py readme REPO   fail when README.md's rule tables differ from the registry
  rule_table.py tests  REPO   fail when a test expects an id the registry lacks, when a
                              registered id is exercised by no test, or when source code spells
                              a registered id as a string literal instead of its constant

README.md holds each generated table between `<!-- rule-table:NAME -->` and
`<!-- end rule-table:NAME -->`; the text around them is written by hand.
"""

import pathlib
import re
import sys

DEF = pathlib.Path("source/common/rule_ids.def")
README = pathlib.Path("README.md")

# The README's tables: the registry's table name -> the columns it shows.
TABLES = {
    "val": "severity",
    "coop": "severity",
    "coop_device": "severity",
    "run_ub": None,
    "run_value": None,
}

# The description may be split into adjacent string literals (clang-format keeps lines short).
ENTRY = re.compile(
    r'XMX_RULE\(\s*(\w+),\s*"([^"]+)",\s*(\w+),\s*"([^"]*)",\s*((?:"[^"]*"\s*)+)\)', re.S)
ID_SHAPE = re.compile(r"^[a-z][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*$")


class Rule:
    def __init__(self, constant, rule_id, table, severity, description):
        self.constant = constant
        self.id = rule_id
        self.table = table
        self.severity = severity
        self.description = description


def read_registry(repo):
    text = (repo / DEF).read_text()
    # Comments may mention XMX_RULE; only lines that start with it are entries.
    body = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))
    rules = []
    for m in ENTRY.finditer(body):
        constant, rule_id, table, severity, literals = m.groups()
        description = "".join(re.findall(r'"([^"]*)"', literals))
        rules.append(Rule(constant, rule_id, table, severity, description))
    problems = []
    if body.count("XMX_RULE(") != len(rules):
        problems.append(f"{DEF}: {body.count('XMX_RULE(')} XMX_RULE entries, "
                        f"{len(rules)} readable (a description with '\"'?)")
    seen_ids, seen_constants = set(), set()
    for r in rules:
        if not ID_SHAPE.match(r.id):
            problems.append(f"{DEF}: '{r.id}' is not a rule id (lower case, dot-separated)")
        if r.id in seen_ids:
            problems.append(f"{DEF}: '{r.id}' registered twice")
        if r.constant in seen_constants:
            problems.append(f"{DEF}: constant {r.constant} used twice")
        if r.table not in TABLES and r.table != "other":
            problems.append(f"{DEF}: '{r.id}' is in unknown table '{r.table}'")
        seen_ids.add(r.id)
        seen_constants.add(r.constant)
    return rules, problems


def render(rules, table):
    severity = TABLES[table]
    if severity:
        lines = ["| rule | severity | fires when |", "|---|---|---|"]
    else:
        lines = ["| rule | what |", "|---|---|"]
    for r in rules:
        if r.table != table:
            continue
        if severity:
            lines.append(f"| `{r.id}` | {r.severity} | {r.description} |")
        else:
            lines.append(f"| `{r.id}` | {r.description} |")
    return "\n".join(lines)


def regenerate(readme_text, rules):
    """README text with every table regenerated; (text, problems)."""
    problems = []
    for table in TABLES:
        begin, end = f"<!-- rule-table:{table} -->", f"<!-- end rule-table:{table} -->"
        pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.S)
        if len(pattern.findall(readme_text)) != 1:
            problems.append(f"README.md: expected one '{begin}' ... '{end}' block")
            continue
        block = f"{begin}\n{render(rules, table)}\n{end}"
        readme_text = pattern.sub(lambda _: block, readme_text)
    return readme_text, problems


# --- which ids the tests expect -------------------------------------------------------------------

TEST_SUFFIXES = {".cmake", ".py", ".cpp", ".hpp", ".spvasm", ".cl", ".txt", ".json", ".md",
                 ".expected", ""}
# A token that looks like an id of one of the registry's families. File names (ending in an
# extension) and dotted test names are not ids.
FILE_EXTENSIONS = {"spv", "spvasm", "cl", "cmake", "py", "json", "txt", "bc", "ll", "bin", "md",
                   "cpp", "hpp", "h", "out", "expected", "dump", "o", "sh", "def"}


def test_files(repo):
    for path in sorted((repo / "test").rglob("*")):
        if path.is_file() and (path.suffix in TEST_SUFFIXES or path.name.startswith("expected")):
            yield path


def expected_ids(repo, rules):
    """{id: [files]} for every id a test names as a rule: quoted ("mma.m.table"), in brackets as
    xmx-run prints it ([memory.null]), after `rule:` (the invalid-module headers), or as a bare
    argument of a .cmake test command. Only tokens of a registered family count, so that a dotted
    test name or a file name is not taken for an id."""
    families = {r.id.split(".")[0] for r in rules}
    family = "|".join(re.escape(f) for f in sorted(families, key=len, reverse=True))
    name = r"((?:%s)(?:\.[a-z0-9][a-z0-9-]*)*)" % family
    contexts = [
        re.compile(r"[\"']%s[\"']" % name),
        re.compile(r"\[%s\]" % name),
        re.compile(r"\b(?:rule|expect):?\s+`?%s\b(?![.-])" % name),
    ]
    single_word_ids = {r.id for r in rules if "." not in r.id}
    cmake_argument = re.compile(r"(?<=\s)%s(?=\s)" % name)
    found = {}
    for path in test_files(repo):
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        rel = str(path.relative_to(repo))
        patterns = contexts + ([cmake_argument] if path.suffix == ".cmake" else [])
        for pattern in patterns:
            for m in pattern.finditer(text):
                rule_id = m.group(1)
                if rule_id.rsplit(".", 1)[-1] in FILE_EXTENSIONS:
                    continue
                if "." not in rule_id and rule_id not in single_word_ids:
                    continue  # a bare family name ("memory") is a word, not an id
                found.setdefault(rule_id, []).append(rel)
    return found


def without_comment(line):
    """The code of a C++ line: up to a // that is not inside a string literal."""
    in_string = False
    for i, c in enumerate(line):
        if c == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return line[:i]
    return line


def literal_ids_in_source(repo, rules):
    """(file, line, id) for every string literal in the library's layers that spells a registered
    id."""
    ids = {r.id for r in rules}
    literal = re.compile(r'"([a-z][a-z0-9.-]*)"')
    out = []
    for path in sorted((repo / "source").rglob("*")):
        # The tools are programs on the public API (include/xmx), which the registry is not part
        # of: they may spell an id they print.
        if path.suffix not in {".cpp", ".hpp"} or "tools" in path.relative_to(repo).parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            line = without_comment(line)
            for m in literal.finditer(line):
                if m.group(1) in ids:
                    out.append((str(path.relative_to(repo)), number, m.group(1)))
    return out


def check_tests(repo, rules):
    problems = []
    registered = {r.id for r in rules}
    found = expected_ids(repo, rules)
    namespaces = {r.id.rsplit(".", i)[0] for r in rules for i in range(1, r.id.count(".") + 1)}
    for rule_id, files in sorted(found.items()):
        # A test may match a namespace of ids ("coop.device" for every coop.device.* rule).
        if rule_id not in registered and rule_id not in namespaces:
            problems.append(f"{files[0]}: expects rule '{rule_id}', which {DEF} does not register")
    for r in rules:
        if r.id not in found:
            problems.append(f"{DEF}: '{r.id}' is exercised by no test under test/")
    for path, line, rule_id in literal_ids_in_source(repo, rules):
        problems.append(f"{path}:{line}: rule id \"{rule_id}\" spelled as a literal; use "
                        f"rules::{next(r.constant for r in rules if r.id == rule_id)}")
    return problems


def main(argv):
    if len(argv) != 3 or argv[1] not in {"write", "readme", "tests"}:
        print(__doc__, file=sys.stderr)
        return 2
    repo = pathlib.Path(argv[2])
    rules, problems = read_registry(repo)
    if argv[1] in {"write", "readme"}:
        old = (repo / README).read_text()
        new, more = regenerate(old, rules)
        problems += more
        if argv[1] == "write" and not problems:
            (repo / README).write_text(new)
        elif argv[1] == "readme" and new != old:
            problems.append("README.md's rule tables differ from the registry: run "
                            "utils/rule_table.py write .")
    else:
        problems += check_tests(repo, rules)
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"{len(rules)} rule ids: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
