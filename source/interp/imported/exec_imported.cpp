// Calls of imported functions (OpFunction with LinkageAttributes Import and no body). Producers
// leave some OpenCL builtins as such calls, to be resolved by the driver's library by mangled
// name (LLVM's backend does so for the OpenCL 1.x atomics, sub_group_barrier and the
// address-space queries). xmx-run resolves those it knows the same way; the built-ins that
// stand for our instructions were upgraded before loading (builtins/upgrade.hpp), and the split
// matrix ones are bound here. Any other import is an error naming the function.
#include <string_view>

#include "builtins/builtin_table.hpp"
#include "builtins/itanium_names.hpp"
#include "interp/load/loader.hpp"
#include "interp/run/exec_shared.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

// The validator checks a call's arguments against the import's declaration only, and a module
// may declare a builtin with any signature: what each builtin reads is checked here.
bool IsScalarInt(const TypeInfo& t) {
  return t.kind == ir::TypeKind::kInt && t.lane_bytes >= 1 && t.lane_bytes <= 8;
}
bool IsPointer(const TypeInfo& t) { return t.kind == ir::TypeKind::kPointer; }

bool WrongSignature(Loader& loader, const ir::Instruction& inst, std::string_view name,
                    std::string_view expected) {
  return loader.Fail(inst, "call of '" + std::string(name) +
                               "' does not match the builtin: " + std::string(expected));
}

struct AtomicName {
  std::string_view name;
  AtomicOp op;        // the unsigned form for min/max
  uint32_t operands;  // value operands after the pointer
};
constexpr AtomicName kAtomics[] = {
    {"inc", AtomicOp::kIIncrement, 0},
    {"dec", AtomicOp::kIDecrement, 0},
    {"add", AtomicOp::kIAdd, 1},
    {"sub", AtomicOp::kISub, 1},
    {"xchg", AtomicOp::kExchange, 1},
    {"min", AtomicOp::kUMin, 1},
    {"max", AtomicOp::kUMax, 1},
    {"and", AtomicOp::kAnd, 1},
    {"or", AtomicOp::kOr, 1},
    {"xor", AtomicOp::kXor, 1},
    {"cmpxchg", AtomicOp::kCompareExchange, 2},
};

bool BindImportedAtomic(Loader& loader, const ir::Instruction& inst, std::string_view name,
                        const std::vector<builtins::MangledType>& params, Instr& out) {
  std::string_view op_name;
  if (name.substr(0, 7) == "atomic_") op_name = name.substr(7);
  if (name.substr(0, 5) == "atom_") op_name = name.substr(5);
  if (name.substr(0, 13) == "atomic_fetch_") {
    op_name = name.substr(13);
    if (op_name.size() > 9 && op_name.substr(op_name.size() - 9) == "_explicit") {
      op_name = op_name.substr(0, op_name.size() - 9);
    }
  }
  if (op_name.empty()) return false;
  for (const AtomicName& a : kAtomics) {
    if (a.name != op_name) continue;
    // The first parameter's pointee type says whether min/max compare signed.
    const bool is_signed = !params.empty() && params[0].IsSignedInteger();
    AtomicOp op = a.op;
    if (op == AtomicOp::kUMin && is_signed) op = AtomicOp::kSMin;
    if (op == AtomicOp::kUMax && is_signed) op = AtomicOp::kSMax;
    // Arguments: the pointer, then a.operands values of the result's type (the _explicit forms
    // add a memory order and scope, which sequential execution does not need).
    const TypeInfo& result = loader.Type(inst.result_type_id());
    bool ok = inst.num_operands() >= 2 + a.operands && IsScalarInt(result) &&
              IsPointer(loader.TypeOfValue(inst.word(1)));
    for (uint32_t i = 0; ok && i < a.operands; ++i) {
      ok = loader.TypeOfValue(inst.word(2 + i)).lane_bytes == result.lane_bytes;
    }
    if (!ok) {
      return WrongSignature(loader, inst, name,
                            "an integer result, a pointer and " + std::to_string(a.operands) +
                                " value(s) of the result's type");
    }
    const uint32_t pointer = inst.word(1);
    const uint32_t bytes = result.value.scalar.bytes;
    out.fn = AtomicHandler(bytes);
    if (out.fn == nullptr) return loader.Fail(inst, "atomics on this type are not supported");
    out.aux = static_cast<uint32_t>(op);
    out.op[0] = loader.Slot(pointer);
    out.op[1] = UINT32_MAX;
    if (a.operands == 1) out.op[1] = loader.Slot(inst.word(2));
    if (a.operands == 2) {  // atomic_cmpxchg(p, cmp, val)
      out.op[2] = loader.Slot(inst.word(2));
      out.op[1] = loader.Slot(inst.word(3));
    }
    out.result = loader.Slot(inst.result_id());
    return true;
  }
  return false;
}

}  // namespace

bool BindImportedCall(Loader& loader, const ir::Instruction& inst, Instr& out) {
  const std::string mangled = loader.ImportName(inst.word(0));
  const builtins::ParsedName parsed = builtins::ParseLinkageName(mangled);
  if (parsed.mangled) {
    const std::string_view name = parsed.name.base;
    if (BindImportedAtomic(loader, inst, name, parsed.name.params, out)) return true;
    if (name == "sub_group_barrier") {
      out.fn = ExecSubgroupBarrier;
      return true;
    }
  }
  // The built-ins of builtins/builtin_table.hpp: LoadProgram runs the module with their calls
  // upgraded to instructions, so only those without an instruction (split matrix) come here.
  for (const builtins::NameMatch& match : builtins::FindEntries(parsed.name.base)) {
    if (match.entry->target == builtins::Target::kSplitMatrixMad) {
      return BindSplitMatrixMad(loader, inst, parsed.name.base, out);
    }
  }
  // clang's OpenCL address-space builtins: to_global / to_local / to_private.
  const std::pair<std::string_view, spv::StorageClass> casts[] = {
      {"__to_global", spv::StorageClass::CrossWorkgroup},
      {"__to_local", spv::StorageClass::Workgroup},
      {"__to_private", spv::StorageClass::Function}};
  for (const auto& [cast, storage] : casts) {
    if (mangled == cast) {
      if (inst.num_operands() != 2 || !IsPointer(loader.TypeOfValue(inst.word(1))) ||
          !IsPointer(loader.Type(inst.result_type_id()))) {
        return WrongSignature(loader, inst, cast, "one pointer argument and a pointer result");
      }
      out.fn = ExecGenericCastExplicit;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(1));
      out.aux = static_cast<uint32_t>(storage);
      return true;
    }
  }
  return loader.Fail(inst, "call of imported function '" + mangled +
                               "', which xmx-run does not provide (the module needs it linked)");
}

}  // namespace xmx::interp
