#include "interp/load/uniformity.hpp"

#include <unordered_map>

#include "grammar/grammar.hpp"

namespace xmx::interp {
namespace {

bool IsConstant(spv::Op op) {
  switch (op) {
    case spv::Op::OpConstantTrue:
    case spv::Op::OpConstantFalse:
    case spv::Op::OpConstant:
    case spv::Op::OpConstantComposite:
    case spv::Op::OpConstantNull:
    case spv::Op::OpConstantSampler:
    case spv::Op::OpSpecConstantTrue:
    case spv::Op::OpSpecConstantFalse:
    case spv::Op::OpSpecConstant:
    case spv::Op::OpSpecConstantComposite:
    case spv::Op::OpSpecConstantOp:
      return true;
    default:
      return false;
  }
}

bool SharedBySubgroup(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::NumWorkgroups:
    case spv::BuiltIn::GlobalSize:
    case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::EnqueuedWorkgroupSize:
    case spv::BuiltIn::GlobalOffset:
    case spv::BuiltIn::WorkDim:
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::SubgroupMaxSize:
    case spv::BuiltIn::NumSubgroups:
    case spv::BuiltIn::NumEnqueuedSubgroups:
    case spv::BuiltIn::SubgroupId:
      return true;
    default:
      return false;
  }
}

// Instructions whose result depends on nothing but their id operands (no memory, no lane id,
// no other invocation).
bool IsPure(spv::Op op) {
  using spv::Op;
  switch (op) {
    case Op::OpSNegate:
    case Op::OpFNegate:
    case Op::OpIAdd:
    case Op::OpFAdd:
    case Op::OpISub:
    case Op::OpFSub:
    case Op::OpIMul:
    case Op::OpFMul:
    case Op::OpUDiv:
    case Op::OpSDiv:
    case Op::OpFDiv:
    case Op::OpUMod:
    case Op::OpSRem:
    case Op::OpSMod:
    case Op::OpFRem:
    case Op::OpFMod:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic:
    case Op::OpShiftLeftLogical:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor:
    case Op::OpBitwiseAnd:
    case Op::OpNot:
    case Op::OpConvertFToU:
    case Op::OpConvertFToS:
    case Op::OpConvertSToF:
    case Op::OpConvertUToF:
    case Op::OpUConvert:
    case Op::OpSConvert:
    case Op::OpFConvert:
    case Op::OpConvertPtrToU:
    case Op::OpConvertUToPtr:
    case Op::OpPtrCastToGeneric:
    case Op::OpGenericCastToPtr:
    case Op::OpBitcast:
    case Op::OpCopyObject:
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpCompositeConstruct:
    case Op::OpVectorShuffle:
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic:
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpUGreaterThan:
    case Op::OpSGreaterThan:
    case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual:
    case Op::OpLogicalEqual:
    case Op::OpLogicalNotEqual:
    case Op::OpLogicalOr:
    case Op::OpLogicalAnd:
    case Op::OpLogicalNot:
    case Op::OpSelect:
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain:
      return true;
    default:
      return false;
  }
}

}  // namespace

UniformValues::UniformValues(const ir::Module& module, const ir::ModuleInfo& info,
                             uint32_t kernel_id) {
  std::unordered_map<uint32_t, spv::StorageClass> pointer_storage;  // OpTypePointer id -> class
  std::unordered_set<uint32_t> shared_builtins;                     // variables
  for (const ir::Instruction& inst : module.globals()) {
    const spv::Op op = inst.opcode();
    if (op == spv::Op::OpTypePointer) {
      pointer_storage[inst.result_id()] = static_cast<spv::StorageClass>(inst.word(0));
    } else if (IsConstant(op)) {
      ids_.insert(inst.result_id());
    } else if (op == spv::Op::OpVariable) {
      const auto storage = static_cast<spv::StorageClass>(inst.word(0));
      if (storage == spv::StorageClass::CrossWorkgroup ||
          storage == spv::StorageClass::UniformConstant ||
          storage == spv::StorageClass::Workgroup) {
        ids_.insert(inst.result_id());
      }
      const ir::DecorationInfo* builtin =
          info.FindDecoration(inst.result_id(), spv::Decoration::BuiltIn);
      if (storage == spv::StorageClass::Input && builtin != nullptr && !builtin->operands.empty() &&
          SharedBySubgroup(static_cast<spv::BuiltIn>(builtin->operands[0]))) {
        shared_builtins.insert(inst.result_id());
      }
    }
  }
  const ir::Function* kernel = info.GetFunction(kernel_id);
  if (kernel == nullptr) return;
  for (const ir::Instruction& param : kernel->parameters) {
    auto it = pointer_storage.find(param.result_type_id());
    if (it == pointer_storage.end() || it->second != spv::StorageClass::Function) {
      ids_.insert(param.result_id());
    }
  }
  // Blocks need not come in dominance order, so propagate until nothing changes; each round
  // only adds, and an instruction needs all its operands, so this ends.
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::BasicBlock& block : kernel->blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (!inst.has_result_id() || ids_.count(inst.result_id()) != 0) continue;
        bool uniform = false;
        if (inst.opcode() == spv::Op::OpLoad) {
          uniform = shared_builtins.count(inst.word(0)) != 0;
        } else if (IsPure(inst.opcode())) {
          uniform = true;
          for (size_t i = 0; i < inst.num_operands() && uniform; ++i) {
            const ir::OperandView operand = inst.operand(i);
            if (grammar::IsIdKind(operand.kind)) uniform = ids_.count(operand.word()) != 0;
          }
        }
        if (uniform) {
          ids_.insert(inst.result_id());
          changed = true;
        }
      }
    }
  }
}

}  // namespace xmx::interp
