#!/usr/bin/env python3
"""Merges the installed SPIRV-Headers grammar with the extension grammars in grammar/*.json and
writes the C++ tables behind source/grammar/grammar.hpp.

Every entry records its origin: `core` (from the installed SPIRV-Headers, hence known to the
installed SPIRV-Tools) or `extended` (from one of our files). An extension file uses the
SPIRV-Headers schema; an operand kind whose name already exists adds enumerants to it. Any clash
(an opcode, instruction name, enumerant name or enumerant value defined twice) stops the build with
a message that names both definitions.

An extension file may also append operands to an instruction defined elsewhere (e.g. the FPEncoding
operand SPV_KHR_bfloat16 adds to OpTypeFloat, which the installed core grammar may predate), under
"instruction_operands": [{"opname": ..., "operands": [...]}]. Appended operands must be optional or
variadic, so that every module valid before stays valid; each has origin `extended` while the
instruction keeps its own (the bridge sets such operands aside before SPIRV-Tools sees them).

Facts the layers above would otherwise restate come from our files too:
- operand roles: every named operand of an instruction one of our files defines gets a role named
  after it ('Block Width' -> OperandRole::kBlockWidth), so a layer asks "which operand is the Block
  Width" instead of counting positions;
- opcode classes: an instruction may carry "xmx_class": "<family>.<member>" (e.g.
  "block2d.load_transform"), which becomes OpcodeClass::kBlock2dLoadTransform in family
  OpcodeFamily::kBlock2d. A class names exactly one instruction.
"""

import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

# Import names of the extended instruction sets SPIRV-Tools recognises, by grammar file name.
# (The grammar files do not carry the name used in OpExtInstImport.)
EXT_INST_SETS = [
    # (file, import name, prefix match, non-semantic, operand-kind prefix)
    ("extinst.glsl.std.450.grammar.json", "GLSL.std.450", False, False, "GLSL"),
    ("extinst.opencl.std.100.grammar.json", "OpenCL.std", False, False, "OpenCLStd"),
    ("extinst.spv-amd-shader-explicit-vertex-parameter.grammar.json",
     "SPV_AMD_shader_explicit_vertex_parameter", False, False, "AMDExplicitVertex"),
    ("extinst.spv-amd-shader-trinary-minmax.grammar.json", "SPV_AMD_shader_trinary_minmax",
     False, False, "AMDTrinaryMinMax"),
    ("extinst.spv-amd-gcn-shader.grammar.json", "SPV_AMD_gcn_shader", False, False, "AMDGcn"),
    ("extinst.spv-amd-shader-ballot.grammar.json", "SPV_AMD_shader_ballot", False, False,
     "AMDBallot"),
    ("extinst.debuginfo.grammar.json", "DebugInfo", False, False, "DebugInfo"),
    ("extinst.opencl.debuginfo.100.grammar.json", "OpenCL.DebugInfo.100", False, False,
     "CLDebug100"),
    ("extinst.nonsemantic.shader.debuginfo.100.grammar.json", "NonSemantic.Shader.DebugInfo.100",
     False, True, "ShaderDebug100"),
    ("extinst.nonsemantic.clspvreflection.grammar.json", "NonSemantic.ClspvReflection.", True,
     True, "Clspv"),
    ("extinst.nonsemantic.debugprintf.grammar.json", "NonSemantic.DebugPrintf", False, True,
     "DebugPrintf"),
]

BASE_KINDS = {"IdResultType", "IdResult", "IdRef", "IdScope", "IdMemorySemantics",
              "LiteralInteger", "LiteralString", "LiteralContextDependentNumber",
              "LiteralExtInstInteger", "LiteralSpecConstantOpInteger", "PairLiteralIntegerIdRef",
              "PairIdRefLiteralInteger", "PairIdRefIdRef"}


class GrammarError(Exception):
    pass


def parse_int(v):
    if isinstance(v, int):
        return v
    return int(v, 0)


def version_word(v, default):
    if v is None:
        return default
    if v == "None":
        return 0xFFFFFFFF
    major, minor = v.split(".")
    return (int(major) << 16) | (int(minor) << 8)


def cpp_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def ident(s):
    s = re.sub(r"[^A-Za-z0-9_]", "_", s)
    return s


class Merged:
    def __init__(self):
        self.kinds = {}        # name -> dict(category, enumerants[list], bases, origin, source)
        self.kind_order = []
        self.instructions = []  # dicts with origin/source
        self.by_opcode = {}
        self.by_name = {}

    def add_kind(self, k, origin, source):
        name = k["kind"]
        if name in self.kinds:
            existing = self.kinds[name]
            if "category" in k and k["category"] != existing["category"]:
                raise GrammarError(
                    f"{source}: operand kind {name} is a {k['category']} here but a "
                    f"{existing['category']} in {existing['source']}")
            for e in k.get("enumerants", []):
                self.add_enumerant(name, e, origin, source)
            return
        if origin == "extended" and "category" not in k:
            raise GrammarError(f"{source}: new operand kind {name} needs a category")
        entry = {"category": k["category"], "enumerants": [], "bases": k.get("bases", []),
                 "origin": origin, "source": source, "names": {}, "values": {}}
        self.kinds[name] = entry
        self.kind_order.append(name)
        for e in k.get("enumerants", []):
            self.add_enumerant(name, e, origin, source)

    def add_enumerant(self, kind, e, origin, source):
        entry = self.kinds[kind]
        name = e["enumerant"]
        value = parse_int(e["value"])
        if name in entry["names"]:
            prev = entry["names"][name]
            raise GrammarError(
                f"{source}: {kind} enumerant {name} is already defined by {prev['source']}")
        if origin == "extended" and value in entry["values"]:
            prev = entry["values"][value]
            raise GrammarError(
                f"{source}: {kind} value {hex(value)} ({name}) clashes with {prev['enumerant']} "
                f"from {prev['source']}")
        rec = dict(e)
        rec["value_int"] = value
        rec["origin"] = origin
        rec["source"] = source
        entry["enumerants"].append(rec)
        entry["names"][name] = rec
        entry["values"].setdefault(value, rec)

    def add_instruction(self, inst, origin, source):
        name = inst["opname"]
        opcode = parse_int(inst["opcode"])
        if name in self.by_name:
            raise GrammarError(f"{source}: instruction {name} is already defined by "
                               f"{self.by_name[name]['source']}")
        if origin == "extended" and opcode in self.by_opcode:
            prev = self.by_opcode[opcode]
            raise GrammarError(f"{source}: opcode {opcode} ({name}) clashes with {prev['opname']} "
                               f"from {prev['source']}")
        rec = dict(inst)
        rec["opcode_int"] = opcode
        rec["origin"] = origin
        rec["source"] = source
        self.instructions.append(rec)
        self.by_name[name] = rec
        self.by_opcode.setdefault(opcode, rec)

    def append_operands(self, addition, source):
        name = addition.get("opname")
        if name not in self.by_name:
            raise GrammarError(f"{source}: instruction_operands names unknown instruction {name}")
        inst = self.by_name[name]
        existing = inst.get("operands", [])
        added = addition.get("operands", [])
        if not added:
            raise GrammarError(f"{source}: instruction_operands for {name} adds no operand")
        if existing and existing[-1].get("quantifier") == "*":
            raise GrammarError(f"{source}: cannot append operands to {name}: its last operand "
                               f"(from {inst['source']}) is variadic")
        for op in added:
            if op.get("quantifier") not in ("?", "*"):
                raise GrammarError(f"{source}: operand {op['kind']} appended to {name} must be "
                                   f"optional or variadic, or modules valid before would not be")
            if any(e["kind"] == op["kind"] and e.get("name") == op.get("name") for e in existing):
                raise GrammarError(f"{source}: {name} already has the operand {op.get('name')} "
                                   f"({op['kind']}), e.g. from a newer installed core grammar")
        for i, op in enumerate(added):
            if op.get("quantifier") == "*" and i != len(added) - 1:
                raise GrammarError(f"{source}: variadic operand {op['kind']} appended to {name} "
                                   f"must be the last one")
        ops = [dict(o) for o in existing]
        for op in added:
            rec = dict(op)
            rec["origin"] = "extended"
            ops.append(rec)
        inst["operands"] = ops


def check_operand_kinds(merged, operands, where, extra_kinds=()):
    for op in operands:
        if op["kind"] not in merged.kinds and op["kind"] not in extra_kinds:
            raise GrammarError(f"{where}: unknown operand kind {op['kind']}")


def load_generators(xml_path):
    gens = []
    if not xml_path or not os.path.exists(xml_path):
        return gens
    root = ET.parse(xml_path).getroot()
    for ids in root.iter("ids"):
        if ids.get("type") != "vendor":
            continue
        for i in ids.iter("id"):
            gens.append((int(i.get("value"), 0), i.get("vendor", ""), i.get("tool", "")))
    return gens


class Writer:
    """Accumulates the flat arrays the tables index into."""

    def __init__(self):
        self.operands = []       # C++ initialisers
        self.strings = []        # capability / extension name lists
        self.kind_ids = {}       # kind name -> enum identifier

    def operand_span(self, operands, kind_map, origin, with_roles=False):
        """`origin` is the entry's; an operand appended by another file carries its own.
        `with_roles`: the operands of one of our instructions, which get their roles."""
        start = len(self.operands)
        for op in operands:
            q = {"": "kOne", "?": "kOptional", "*": "kVariadic"}[op.get("quantifier", "")]
            role = role_ident(op.get("name", "")) if with_roles else "kNone"
            self.operands.append(
                f"{{OperandKindId::{kind_map[op['kind']]}, Quantifier::{q}, "
                f"{cpp_str(op.get('name', ''))}, "
                f"Origin::k{op.get('origin', origin).capitalize()}, OperandRole::{role}}}")
        return f"std::span<const Operand>(kOperands + {start}, {len(operands)})"

    def string_span(self, names):
        start = len(self.strings)
        self.strings.extend(cpp_str(n) for n in names)
        return f"std::span<const char* const>(kStrings + {start}, {len(names)})"


RESULT_KINDS = ("IdResultType", "IdResult")


def camel(words):
    """'load_transform' or 'Block Width' -> 'LoadTransform' / 'BlockWidth'."""
    parts = [p for p in re.split(r"[^A-Za-z0-9]+", words) if p]
    return "".join(p[0].upper() + p[1:] for p in parts)


def role_ident(operand_name):
    """The role of an operand of one of our instructions: its grammar name in CamelCase
    ('Matrix Multiply Accumulate Operands' -> kMatrixMultiplyAccumulateOperands); kNone for the
    unnamed result type and result."""
    name = camel(operand_name)
    return "k" + name if name else "kNone"


def class_ident(tag):
    family, member = tag.split(".")
    return "k" + camel(family) + camel(member)


def collect_opcode_facts(merged):
    """Checks the roles and classes of our instructions; returns (roles, families, classes) in a
    stable order. Each class is (tag, family, instruction)."""
    roles = set()
    classes = []
    families = []
    tags = {}
    for inst in merged.instructions:
        tag = inst.get("xmx_class")
        if inst["origin"] != "extended":
            continue
        where = f"{inst['source']}: {inst['opname']}"
        seen = {}
        fixed = True  # every operand so far has a fixed position
        for op in inst.get("operands", []):
            if op["kind"] in RESULT_KINDS:
                continue
            role = role_ident(op.get("name", ""))
            if role == "kNone":
                raise GrammarError(f"{where}: operand {op['kind']} needs a name (its role)")
            if role in seen:
                raise GrammarError(f"{where}: two operands have the role {role[1:]} "
                                   f"({seen[role]} and {op.get('name')})")
            if not fixed:
                raise GrammarError(f"{where}: operand {op.get('name')} follows a variadic "
                                   f"operand or one with parameters, so it has no fixed position")
            seen[role] = op.get("name")
            roles.add(role)
            # An optional operand keeps the later ones in place: SPIR-V gives optional operands
            # in order. Variadic ones and enumerant parameters move them.
            kind = merged.kinds[op["kind"]]
            has_parameters = any(e.get("parameters") for e in kind["enumerants"])
            fixed = op.get("quantifier", "") != "*" and not has_parameters
        if tag is None:
            continue
        if not re.fullmatch(r"[a-z0-9_]+\.[a-z0-9_]+", tag):
            raise GrammarError(f"{where}: xmx_class {tag!r} is not \"<family>.<member>\"")
        if tag in tags:
            raise GrammarError(f"{where}: xmx_class {tag} already names {tags[tag]}")
        tags[tag] = inst["opname"]
        family = tag.split(".")[0]
        if family not in families:
            families.append(family)
        classes.append((tag, family, inst))
    for inst in merged.instructions:
        if inst["origin"] == "core" and "xmx_class" in inst:
            raise GrammarError(f"{inst['source']}: {inst['opname']}: xmx_class on a core entry")
    # A family's classes next to each other (grammar order within it): ClassesOf is a span.
    classes.sort(key=lambda c: families.index(c[1]))
    return sorted(roles), families, classes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--core", required=True, help="spirv.core.grammar.json")
    ap.add_argument("--extinst-dir", required=True, help="folder with extinst.*.grammar.json")
    ap.add_argument("--xml", help="spir-v.xml (generator ids)")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("extensions", nargs="*", help="our grammar/*.json files")
    args = ap.parse_args()

    try:
        generate(args)
    except GrammarError as e:
        print(f"grammar error: {e}", file=sys.stderr)
        sys.exit(1)


def generate(args):
    merged = Merged()
    with open(args.core) as f:
        core = json.load(f)
    for k in core["operand_kinds"]:
        merged.add_kind(k, "core", os.path.basename(args.core))
    for inst in core["instructions"]:
        merged.add_instruction(inst, "core", os.path.basename(args.core))

    files = []
    for path in sorted(args.extensions):
        source = os.path.relpath(path)
        try:
            with open(path) as f:
                files.append((source, json.load(f)))
        except (OSError, json.JSONDecodeError) as e:
            raise GrammarError(f"{source}: cannot read: {e}")
    # New kinds first, so that one file may add enumerants to a kind another file defines.
    for source, ext in files:
        for k in ext.get("operand_kinds", []):
            if "category" in k:
                merged.add_kind(k, "extended", source)
    for source, ext in files:
        for k in ext.get("operand_kinds", []):
            if "category" not in k:
                merged.add_kind(k, "extended", source)
        for inst in ext.get("instructions", []):
            merged.add_instruction(inst, "extended", source)
    # After every file's instructions, so that a file may extend an instruction another defines.
    for source, ext in files:
        for addition in ext.get("instruction_operands", []):
            merged.append_operands(addition, source)

    for inst in merged.instructions:
        check_operand_kinds(merged, inst.get("operands", []), f"{inst['source']}: {inst['opname']}")
    for name in merged.kind_order:
        for e in merged.kinds[name]["enumerants"]:
            check_operand_kinds(merged, e.get("parameters", []),
                                f"{e['source']}: {name} {e['enumerant']}")

    # Extended instruction sets and their private operand kinds.
    ext_sets = []
    for fname, import_name, prefix, non_semantic, kprefix in EXT_INST_SETS:
        path = os.path.join(args.extinst_dir, fname)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            g = json.load(f)
        local = {}
        for k in g.get("operand_kinds", []):
            qualified = f"{kprefix}.{k['kind']}"
            local[k["kind"]] = qualified
            kk = dict(k)
            kk["kind"] = qualified
            merged.add_kind(kk, "core", fname)
        insts = []
        for inst in g["instructions"]:
            ops = []
            for op in inst.get("operands", []):
                op = dict(op)
                op["kind"] = local.get(op["kind"], op["kind"])
                ops.append(op)
            check_operand_kinds(merged, ops, f"{fname}: {inst['opname']}")
            insts.append({"opname": inst["opname"], "opcode": parse_int(inst["opcode"]),
                          "operands": ops, "capabilities": inst.get("capabilities", [])})
        # Enumerant parameters inside set-local kinds refer to set-local kinds too.
        for short, qualified in local.items():
            for e in merged.kinds[qualified]["enumerants"]:
                for p in e.get("parameters", []):
                    p["kind"] = local.get(p["kind"], p["kind"])
        insts.sort(key=lambda i: i["opcode"])
        ext_sets.append((import_name, prefix, non_semantic, insts))

    kind_map = {name: "k" + ident(name) for name in merged.kind_order}
    os.makedirs(os.path.join(args.out_dir, "grammar"), exist_ok=True)
    # The enums are part of the public API (include/xmx/module.hpp uses them): they are written
    # as installable headers, include/xmx/, apart from the tables private to source/grammar.
    os.makedirs(os.path.join(args.out_dir, "include", "xmx"), exist_ok=True)
    write_kind_ids(args.out_dir, merged, kind_map)
    write_enums(args.out_dir, merged)
    facts = collect_opcode_facts(merged)
    write_opcode_facts(args.out_dir, facts)
    write_tables(args.out_dir, merged, kind_map, ext_sets, load_generators(args.xml), core, facts)


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def write_kind_ids(out_dir, merged, kind_map):
    lines = ["// Generated by utils/generate_grammar.py. Do not edit.", "#pragma once",
             "#include <cstdint>", "namespace xmx::grammar {",
             "enum class OperandKindId : uint16_t {"]
    for name in merged.kind_order:
        lines.append(f"  {kind_map[name]},")
    lines.append("};")
    lines.append(f"inline constexpr uint16_t kNumOperandKinds = {len(merged.kind_order)};")
    lines.append("}  // namespace xmx::grammar")
    write_if_changed(os.path.join(out_dir, "include", "xmx", "operand_kind_ids.hpp"),
                     "\n".join(lines) + "\n")


def enum_ident(kind, name):
    if name[0].isdigit():
        return kind + name
    return ident(name)


def write_enums(out_dir, merged):
    """C++ enums for opcodes and every value/bit enum, extended tokens included."""
    lines = ["// Generated by utils/generate_grammar.py. Do not edit.", "#pragma once",
             "#include <cstdint>", "namespace xmx::spv {", "enum class Op : uint32_t {"]
    for inst in merged.instructions:
        lines.append(f"  {inst['opname']} = {inst['opcode_int']},")
    lines.append("};")
    for name in merged.kind_order:
        k = merged.kinds[name]
        if k["category"] not in ("ValueEnum", "BitEnum") or "." in name:
            continue
        lines.append(f"enum class {name} : uint32_t {{")
        for e in k["enumerants"]:
            lines.append(f"  {enum_ident(name, e['enumerant'])} = {hex(e['value_int'])}u,")
        lines.append("};")
    lines.append("}  // namespace xmx::spv")
    write_if_changed(os.path.join(out_dir, "include", "xmx", "spirv_enums.hpp"),
                     "\n".join(lines) + "\n")


def write_opcode_facts(out_dir, facts):
    """The operand roles and opcode classes of our instructions as C++ enums."""
    roles, families, classes = facts
    lines = ["// Generated by utils/generate_grammar.py. Do not edit.", "#pragma once",
             "#include <cstdint>", "namespace xmx::grammar {",
             "// What an operand of one of our instructions is: its grammar name ('Block Width').",
             "enum class OperandRole : uint8_t {", "  kNone,"]
    lines += [f"  {r}," for r in roles if r != "kNone"]
    lines += ["};", "// The families of the \"xmx_class\" tags in grammar/*.json.",
              "enum class OpcodeFamily : uint8_t {", "  kNone,"]
    lines += [f"  k{camel(f)}," for f in families]
    lines += ["};", "// One instruction each: \"block2d.load_transform\" -> kBlock2dLoadTransform.",
              "enum class OpcodeClass : uint8_t {", "  kNone,"]
    lines += [f"  {class_ident(tag)}," for tag, _, _ in classes]
    lines += ["};", f"inline constexpr uint8_t kNumOpcodeClasses = {len(classes) + 1};",
              "}  // namespace xmx::grammar"]
    write_if_changed(os.path.join(out_dir, "grammar", "opcode_facts.hpp"), "\n".join(lines) + "\n")


def write_tables(out_dir, merged, kind_map, ext_sets, generators, core, facts):
    w = Writer()
    body = []

    # Enumerants, per kind sorted by value (stable: first grammar entry is preferred).
    enum_inits = []
    kind_enum_span = {}
    for name in merged.kind_order:
        k = merged.kinds[name]
        ens = sorted(k["enumerants"], key=lambda e: e["value_int"])
        start = len(enum_inits)
        for e in ens:
            params = w.operand_span(e.get("parameters", []), kind_map, e["origin"])
            caps = w.string_span(e.get("capabilities", []))
            exts = w.string_span(e.get("extensions", []))
            enum_inits.append(
                f"{{{cpp_str(e['enumerant'])}, {hex(e['value_int'])}u, {params}, {caps}, {exts}, "
                f"{hex(version_word(e.get('version'), 0))}u, "
                f"{hex(version_word(e.get('lastVersion'), 0xFFFFFFFF))}u, "
                f"Origin::k{e['origin'].capitalize()}, "
                f"{'true' if e.get('provisional') else 'false'}}}")
        kind_enum_span[name] = (start, len(ens))

    base_inits = []
    kind_inits = []
    for name in merged.kind_order:
        k = merged.kinds[name]
        bstart = len(base_inits)
        for b in k["bases"]:
            base_inits.append(f"OperandKindId::{kind_map[b]}")
        cat = {"Id": "kId", "Literal": "kLiteral", "Composite": "kComposite",
               "ValueEnum": "kValueEnum", "BitEnum": "kBitEnum"}[k["category"]]
        es, en = kind_enum_span[name]
        kind_inits.append(
            f"{{OperandKindId::{kind_map[name]}, {cpp_str(name)}, OperandCategory::{cat}, "
            f"std::span<const Enumerant>(kEnumerants + {es}, {en}), "
            f"std::span<const OperandKindId>(kBases + {bstart}, {len(k['bases'])}), "
            f"Origin::k{k['origin'].capitalize()}}}")

    inst_inits = []
    for inst in sorted(merged.instructions, key=lambda i: i["opcode_int"]):
        ops = inst.get("operands", [])
        has_rt = any(o["kind"] == "IdResultType" for o in ops)
        has_r = any(o["kind"] == "IdResult" for o in ops)
        ops_span = w.operand_span(ops, kind_map, inst["origin"],
                                  with_roles=inst["origin"] == "extended")
        op_class = class_ident(inst["xmx_class"]) if "xmx_class" in inst else "kNone"
        inst_inits.append(
            f"{{{cpp_str(inst['opname'])}, {inst['opcode_int']}u, {str(has_rt).lower()}, "
            f"{str(has_r).lower()}, {ops_span}, "
            f"{w.string_span(inst.get('capabilities', []))}, "
            f"{w.string_span(inst.get('extensions', []))}, "
            f"{hex(version_word(inst.get('version'), 0))}u, "
            f"{hex(version_word(inst.get('lastVersion'), 0xFFFFFFFF))}u, "
            f"Origin::k{inst['origin'].capitalize()}, "
            f"{'true' if inst.get('provisional') else 'false'}, OpcodeClass::{op_class}}}")

    set_arrays = []
    set_inits = []
    for idx, (import_name, prefix, non_semantic, insts) in enumerate(ext_sets):
        arr = f"kExtSet{idx}"
        items = []
        for inst in insts:
            items.append(f"{{{cpp_str(inst['opname'])}, {inst['opcode']}u, "
                         f"{w.operand_span(inst['operands'], kind_map, 'core')}, "
                         f"{w.string_span(inst['capabilities'])}}}")
        set_arrays.append(f"constexpr ExtInstruction {arr}[] = {{\n    " + ",\n    ".join(items) +
                          "};")
        set_inits.append(f"{{{cpp_str(import_name)}, {str(prefix).lower()}, "
                         f"{str(non_semantic).lower()}, std::span<const ExtInstruction>({arr})}}")

    gen_inits = [f"{{{g[0]}u, {cpp_str(g[1])}, {cpp_str(g[2])}}}" for g in generators]

    # Extension strings: `core` if any core entry names it (the installed SPIRV-Tools knows it),
    # else `extended` when one of our entries does.
    ext_origin = {}
    entries = list(merged.instructions)
    for name in merged.kind_order:
        entries.extend(merged.kinds[name]["enumerants"])
    for e in entries:
        for x in e.get("extensions", []):
            if e["origin"] == "core" or x not in ext_origin:
                ext_origin[x] = e["origin"]
    ext_inits = [f"{{{cpp_str(x)}, Origin::k{o.capitalize()}}}"
                 for x, o in sorted(ext_origin.items())]

    body.append("// Generated by utils/generate_grammar.py. Do not edit.")
    body.append("// Included by source/grammar/grammar.cpp inside namespace xmx::grammar.")
    body.append(f"constexpr CoreGrammarVersion kCoreVersion = {{{core['major_version']}u, "
                f"{core['minor_version']}u, {core['revision']}u}};")
    body.append("constexpr Operand kOperands[] = {\n    " + ",\n    ".join(w.operands or
                                                                       ["{}"]) + "};")
    body.append("constexpr const char* kStrings[] = {\n    " + ",\n    ".join(w.strings or
                                                                           ['""']) + "};")
    body.append("constexpr Enumerant kEnumerants[] = {\n    " + ",\n    ".join(enum_inits) + "};")
    body.append("constexpr OperandKindId kBases[] = {\n    " + ",\n    ".join(base_inits) + "};")
    body.append("constexpr OperandKind kOperandKinds[] = {\n    " + ",\n    ".join(kind_inits) +
                "};")
    body.append("constexpr Instruction kInstructions[] = {\n    " + ",\n    ".join(inst_inits) +
                "};")
    body.extend(set_arrays)
    body.append("constexpr ExtInstSet kExtInstSets[] = {\n    " + ",\n    ".join(set_inits) + "};")
    body.append("constexpr ExtensionName kExtensionNames[] = {\n    " + ",\n    ".join(ext_inits) +
                "};")
    _, families, classes = facts
    class_inits = ["{OpcodeClass::kNone, OpcodeFamily::kNone, \"\", \"\", 0u}"]
    for tag, family, inst in classes:
        member = tag.split(".")[1]
        class_inits.append(f"{{OpcodeClass::{class_ident(tag)}, OpcodeFamily::k{camel(family)}, "
                           f"{cpp_str(family)}, {cpp_str(member)}, {inst['opcode_int']}u}}")
    body.append("constexpr OpcodeClassInfo kOpcodeClasses[] = {\n    " +
                ",\n    ".join(class_inits) + "};")
    body.append("constexpr Generator kGenerators[] = {\n    " + ",\n    ".join(gen_inits or
                                                                            ["{0u, \"\", \"\"}"]) +
                "};")
    write_if_changed(os.path.join(out_dir, "grammar", "grammar_tables.inc"), "\n".join(body) + "\n")


if __name__ == "__main__":
    main()
