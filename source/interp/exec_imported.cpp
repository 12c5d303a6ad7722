// Calls of imported functions (OpFunction with LinkageAttributes Import and no body). Producers
// leave some OpenCL builtins as such calls, to be resolved by the driver's library by mangled
// name (LLVM's backend does so for the OpenCL 1.x atomics, sub_group_barrier, the 8/16-bit
// intel_sub_group_broadcast and the address-space queries). xmx-run resolves those it knows the
// same way; any other import is an error naming the function.
#include <string_view>

#include "interp/exec_shared.hpp"
#include "interp/exec_support.hpp"
#include "interp/loader.hpp"

namespace xmx::interp {
namespace {

// The name and the parameter mangling of an Itanium-mangled function name `_Z<len><name>...`.
bool Demangle(std::string_view mangled, std::string_view* name, std::string_view* params) {
  if (mangled.substr(0, 2) != "_Z") return false;
  size_t i = 2, length = 0;
  while (i < mangled.size() && mangled[i] >= '0' && mangled[i] <= '9') {
    length = length * 10 + static_cast<size_t>(mangled[i++] - '0');
  }
  if (length == 0 || i + length > mangled.size()) return false;
  *name = mangled.substr(i, length);
  *params = mangled.substr(i + length);
  return true;
}

// The builtin type code of the first pointer parameter's pointee ('i' int, 'j' uint, 'l' long,
// 'm' ulong), skipping address-space, volatile and _Atomic qualifiers.
char PointeeCode(std::string_view params) {
  size_t i = 0;
  if (i < params.size() && params[i] == 'P') ++i;
  while (i < params.size()) {
    const char c = params[i];
    if (c == 'V' || c == 'K') {
      ++i;
    } else if (c == 'U') {
      size_t j = i + 1, length = 0;
      while (j < params.size() && params[j] >= '0' && params[j] <= '9') {
        length = length * 10 + static_cast<size_t>(params[j++] - '0');
      }
      i = j + length;
    } else {
      return c;
    }
  }
  return '\0';
}

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
                        std::string_view params, Instr& out) {
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
    const char code = PointeeCode(params);
    const bool is_signed = code == 'i' || code == 'l' || code == 'a' || code == 's';
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
  std::string_view name, params;
  if (Demangle(mangled, &name, &params)) {
    if (BindImportedAtomic(loader, inst, name, params, out)) return true;
    if (BindSplitMatrixMad(loader, inst, name, out)) return true;
    if (name == "sub_group_barrier") {
      out.fn = ExecSubgroupBarrier;
      return true;
    }
    if (name == "intel_sub_group_broadcast" || name == "sub_group_broadcast") {
      if (inst.num_operands() != 3 ||
          loader.TypeOfValue(inst.word(1)).lane_bytes !=
              loader.Type(inst.result_type_id()).lane_bytes ||
          loader.Type(inst.result_type_id()).lane_bytes == 0 ||
          !IsScalarInt(loader.TypeOfValue(inst.word(2)))) {
        return WrongSignature(loader, inst, name,
                              "a value of the result's type and an integer sub-group local id");
      }
      out.fn = ExecGroupBroadcast;
      out.result = loader.Slot(inst.result_id());
      out.op[0] = loader.Slot(inst.word(1));
      out.op[1] = loader.Slot(inst.word(2));
      out.count = loader.TypeOfValue(inst.word(2)).lane_bytes;
      out.size = loader.Type(inst.result_type_id()).lane_bytes;
      out.aux = 4;  // the whole subgroup, like OpGroupBroadcast
      return true;
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
