#include "interp/load/loader.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_set>
#include <utility>

#include "builtins/upgrade.hpp"
#include "common/align.hpp"
#include "grammar/grammar.hpp"
#include "interp/load/invariant_code.hpp"
#include "interp/load/loop_unrolling.hpp"
#include "interp/load/opcode_table.hpp"
#include "interp/load/phi_coalescing.hpp"
#include "interp/load/post_dominators.hpp"
#include "interp/load/variable_promotion.hpp"
#include "ir/id_operands.hpp"

namespace xmx::interp {

const Instr kExitInstr{};

namespace {

// Instructions that take no time: structure hints and lifetime markers.
bool IsIgnored(spv::Op op) { return FamilyOf(op) == OpcodeFamily::kNoEffect; }

// The binder of each family of opcode_table.hpp (a switch, so that a family added there and not
// here is a -Wswitch error). The loader emits nothing for kNoEffect and binds kPhi itself.
FamilyBinder BinderOf(OpcodeFamily family) {
  switch (family) {
    case OpcodeFamily::kNoEffect:
    case OpcodeFamily::kPhi:
      return nullptr;
    case OpcodeFamily::kArith:
      return BindArith;
    case OpcodeFamily::kConvert:
      return BindConvert;
    case OpcodeFamily::kComposite:
      return BindComposite;
    case OpcodeFamily::kMemory:
      return BindMemory;
    case OpcodeFamily::kAtomic:
      return BindAtomic;
    case OpcodeFamily::kControl:
      return BindControl;
    case OpcodeFamily::kGroup:
      return BindGroup;
    case OpcodeFamily::kIntelSubgroups:
      return BindIntelSubgroups;
    case OpcodeFamily::kImageBlock:
      return BindImageBlock;
    case OpcodeFamily::kMatrixMad:
      return BindMatrixMad;
    case OpcodeFamily::kBlock2d:
      return BindBlock2d;
    case OpcodeFamily::kExtInst:
      return BindExtInst;
    case OpcodeFamily::kCoop:
      return BindCoop;
  }
  return nullptr;
}

}  // namespace

Loader::Loader(const ir::Module& module, const ir::TypeTable& types, const ir::ModuleInfo& info,
               Program& program, LoadOptions options)
    : module_(module),
      types_(types),
      info_(info),
      program_(program),
      options_(std::move(options)),
      value_types_(module) {
  for (const ir::Instruction& inst : module.ext_inst_imports()) {
    if (inst.StringOperand(0) == "OpenCL.std") opencl_std_set_ = inst.result_id();
  }
  module.ForEachInstruction([this](const ir::Instruction& inst) {
    if (inst.has_result_id()) defined_ids_.insert(inst.result_id());
  });
  for (const ir::Function& f : module.functions()) {
    for (const ir::BasicBlock& b : f.blocks) blocks_[b.id()] = &b;
  }
}

bool Loader::Fail(const ir::Instruction& inst, std::string message) {
  if (!error_) {
    Diagnostic d;
    d.message = std::move(message);
    if (inst.source_index() != ir::Instruction::kNotFromBinary) {
      d.instruction_index = inst.source_index();
    }
    d.opcode = static_cast<uint32_t>(inst.opcode());
    error_ = std::move(d);
  }
  return true;
}

bool Loader::FailLoad(std::string message, std::optional<size_t> instruction_index) {
  if (!error_) {
    Diagnostic d;
    d.message = std::move(message);
    d.instruction_index = instruction_index;
    error_ = std::move(d);
  }
  return false;
}

std::optional<spv::FPRoundingMode> Loader::RoundingMode(uint32_t id) const {
  const ir::DecorationInfo* d = info_.FindDecoration(id, spv::Decoration::FPRoundingMode);
  if (d == nullptr || d->operands.empty()) return std::nullopt;
  return static_cast<spv::FPRoundingMode>(d->operands[0]);
}

bool Loader::Saturated(uint32_t id) const {
  return info_.HasDecoration(id, spv::Decoration::SaturatedConversion);
}

std::string Loader::ImportName(uint32_t function_id) const {
  const ir::DecorationInfo* d =
      info_.FindDecoration(function_id, spv::Decoration::LinkageAttributes);
  if (d == nullptr || d->operands.empty()) return info_.GetName(function_id);
  std::string name;
  for (uint32_t word : d->operands) {
    for (int i = 0; i < 4; ++i) {
      const char c = static_cast<char>(word >> (8 * i));
      if (c == '\0') return name;
      name.push_back(c);
    }
  }
  return name;
}

void Loader::ResolveLater(const Instr** target, uint32_t label) {
  block_fixups_.emplace_back(target, label);
}
void Loader::ResolveFunctionLater(const Instr** target, uint32_t function_id) {
  function_fixups_.emplace_back(target, function_id);
}
void Loader::ReconvergenceLater(const Instr** target, uint32_t label) {
  ipdom_fixups_.emplace_back(target, label);
}

std::vector<PhiCopy> Loader::EdgeCopies(uint32_t from, uint32_t to, bool* through_scratch) {
  std::vector<PhiCopy> copies;
  *through_scratch = false;
  auto it = blocks_.find(to);
  if (it == blocks_.end()) return copies;
  for (const ir::Instruction& inst : it->second->instructions) {
    if (inst.opcode() != spv::Op::OpPhi) break;
    for (size_t i = 0; i + 1 < inst.num_operands(); i += 2) {
      if (inst.word(i + 1) != from) continue;
      const uint32_t size = std::max<uint32_t>(TypeOfValue(inst.result_id()).lane_bytes, 1);
      const uint32_t dst = Slot(inst.result_id()), src = Slot(inst.word(i));
      if (dst != src) copies.push_back({dst, src, size});  // equal: a coalesced phi
      break;
    }
  }
  for (const PhiCopy& a : copies) {
    for (const PhiCopy& b : copies) *through_scratch |= a.dst == b.src && &a != &b;
  }
  if (*through_scratch) {
    uint32_t total = 0;
    for (const PhiCopy& c : copies) total += c.size;
    ScratchSlot(total);
  }
  return copies;
}

bool Loader::LoadFunction(const ir::Function& function) {
  current_function_ = &function;
  function_entry_[function.id()] = static_cast<uint32_t>(program_.code.size());
  matrix_folds_ = FindMatrixOperandFolds(function);
  // A loop-carried value shares its phi's slot where that is safe (phi_coalescing.hpp).
  std::unordered_set<uint32_t> coalesced;
  for (const auto& [phi, value] : CoalescablePhis(function)) {
    if (slots_.count(value) == 0) slots_[value] = Slot(phi);
    coalesced.insert(phi);
    coalesced.insert(value);
  }
  // Pointer arithmetic with invariant operands runs once, at the end of the entry block, and
  // copies among it read their operand's slot in place (invariant_code.hpp); the binders emit
  // nothing for a copy onto its own slot. Only equal register sizes share (a Physical32 pointer
  // conversion widens or narrows).
  const InvariantCode invariant = FindInvariantCode(function, coalesced);
  // Hoisted access chains that repeat an earlier one (same base, type and indices: an unrolled
  // -O0 loop computes &acc[i][j] for its load and again for its store) share its slot and are
  // bound without being dispatched; the value is the same for the whole activation.
  std::unordered_set<const ir::Instruction*> repeated;
  {
    std::map<std::vector<uint32_t>, uint32_t> first;  // opcode, type, operands -> result
    std::unordered_map<uint32_t, uint32_t> same;      // repeated result -> first result
    for (const ir::Instruction* h : invariant.hoisted) {
      const spv::Op op = h->opcode();
      if (op != spv::Op::OpAccessChain && op != spv::Op::OpInBoundsAccessChain &&
          op != spv::Op::OpPtrAccessChain && op != spv::Op::OpInBoundsPtrAccessChain) {
        continue;
      }
      std::vector<uint32_t> key{static_cast<uint32_t>(op), h->result_type_id()};
      for (size_t i = 0; i < h->num_operands(); ++i) {
        auto it = same.find(h->word(i));
        key.push_back(it != same.end() ? it->second : h->word(i));
      }
      auto [it, added] = first.emplace(std::move(key), h->result_id());
      if (added || slots_.count(h->result_id()) != 0) continue;
      slots_[h->result_id()] = Slot(it->second);
      same[h->result_id()] = it->second;
      repeated.insert(h);
    }
  }
  for (const auto& [result, operand] : invariant.copies) {
    const uint32_t bytes = TypeOfValue(result).lane_bytes;
    if (slots_.count(result) == 0 && bytes != 0 && bytes == TypeOfValue(operand).lane_bytes) {
      slots_[result] = Slot(operand);
    }
  }
  const std::unordered_set<const ir::Instruction*> hoisted(invariant.hoisted.begin(),
                                                           invariant.hoisted.end());
  // Ids that executed instructions read. A private variable none reads, without an initializer
  // (every one promoted to registers, say), is still allocated when bound, but its OpVariable
  // would only write its pointer to a slot nothing reads: it is not dispatched.
  std::unordered_set<uint32_t> read;
  for (const ir::BasicBlock& block : function.blocks) {
    for (const ir::Instruction& inst : block.instructions) {
      if (IsIgnored(inst.opcode())) continue;
      ir::ForEachIdOperand(inst, [&](uint32_t id, size_t) { read.insert(id); });
    }
  }
  // Successors per block for the post-dominators; blocks in module order.
  std::unordered_map<uint32_t, uint32_t> block_index;
  for (const ir::BasicBlock& b : function.blocks) {
    block_index.emplace(b.id(), static_cast<uint32_t>(block_index.size()));
  }
  std::vector<std::vector<uint32_t>> successors(block_index.size());
  function_labels_.clear();
  for (const ir::BasicBlock& block : function.blocks) {
    function_labels_.insert(block.id());
    // A block must end in its one terminator: the handlers of a block run in sequence until
    // a terminator returns the next block, so code past a missing one would run into whatever
    // follows (another block, another function, the end of the program).
    const ir::Instruction* last =
        block.instructions.empty() ? &block.label : &block.instructions.back();
    if (!ir::IsBlockTerminator(last->opcode())) {
      Fail(*last, "block %" + std::to_string(block.id()) + " does not end in a terminator");
      return false;
    }
    for (const ir::Instruction& inst : block.instructions) {
      if (&inst != last && ir::IsBlockTerminator(inst.opcode())) {
        Fail(inst, "a terminator in the middle of block %" + std::to_string(block.id()));
        return false;
      }
    }
  }
  // Phis are never emitted (each edge copies their values, EdgeCopies), so they get the
  // instruction checks here, before any edge reads them: an undefined or mistyped incoming value
  // would otherwise become a copy between overlapping slots.
  for (const ir::BasicBlock& block : function.blocks) {
    for (const ir::Instruction& inst : block.instructions) {
      if (inst.opcode() == spv::Op::OpPhi && !CheckInstruction(*this, inst)) return false;
    }
  }
  for (const ir::BasicBlock& block : function.blocks) {
    current_block_ = block.id();
    block_start_[block.id()] = static_cast<uint32_t>(program_.code.size());
    std::vector<uint32_t>& succ = successors[block_index[block.id()]];
    for (const ir::Instruction& inst : block.instructions) {
      const spv::Op op = inst.opcode();
      if (&block == &function.blocks.front() && &inst == &block.instructions.back()) {
        for (const ir::Instruction* h : invariant.hoisted) {  // before the entry's terminator
          if (!EmitInstruction(*h, repeated.count(h) == 0)) return false;
        }
      }
      if (op == spv::Op::OpPhi || IsIgnored(op) || hoisted.count(&inst)) continue;
      ir::ForEachBranchTarget(inst, [&](uint32_t label) {
        succ.push_back(block_index.count(label) ? block_index[label] : kExitBlock);
      });
      switch (op) {
        case spv::Op::OpReturn:
        case spv::Op::OpReturnValue:
        case spv::Op::OpUnreachable:
        case spv::Op::OpKill:
          succ.push_back(kExitBlock);
          break;
        default:
          break;
      }
      const bool unread_variable = op == spv::Op::OpVariable && inst.num_operands() == 1 &&
                                   read.count(inst.result_id()) == 0;
      if (!EmitInstruction(inst, !unread_variable)) return false;
    }
  }
  const std::vector<uint32_t> ipdom = ImmediatePostDominators(successors);
  std::vector<uint32_t> labels(block_index.size());
  for (const auto& [label, index] : block_index) labels[index] = label;
  for (const auto& [label, index] : block_index) {
    ipdom_[label] = ipdom[index] == kExitBlock ? 0 : labels[ipdom[index]];
  }
  return true;
}

bool Loader::EmitInstruction(const ir::Instruction& inst, bool dispatch) {
  if (!CheckInstruction(*this, inst)) return false;
  Instr out;
  out.source_index = static_cast<uint32_t>(
      inst.source_index() == ir::Instruction::kNotFromBinary ? 0 : inst.source_index());
  // One family executes each opcode (opcode_table.hpp); the cooperative-matrix family sees the
  // forms of a few other families' opcodes first and declines the rest.
  bool bound = false;
  if (const std::optional<OpcodeFamily> family = FamilyOf(inst.opcode())) {
    if (IsCoopForm(inst.opcode())) bound = BindCoop(*this, inst, out);
    const FamilyBinder bind = BinderOf(*family);
    if (!bound && bind != nullptr) bound = bind(*this, inst, out);
  }
  if (failed()) return false;
  if (!bound) {
    const uint32_t op = static_cast<uint32_t>(inst.opcode());
    const grammar::Instruction* g = grammar::FindInstruction(op);
    Fail(inst, std::string("xmx-run does not execute ") +
                   (g != nullptr ? g->name : "opcode " + std::to_string(op)));
    return false;
  }
  if (out.fn != nullptr && dispatch && !FoldIntoMatrixMad(*this, inst, out)) {
    program_.code.push_back(out);
  }
  return true;
}

bool Loader::LoadGlobals() {
  for (const ir::Instruction& inst : module_.globals()) {
    if (inst.opcode() != spv::Op::OpVariable) continue;
    const uint32_t id = inst.result_id();
    const TypeInfo& pointer = Type(inst.result_type_id());
    const TypeInfo& pointee = Type(pointer.pointee);
    std::string why;
    if (pointer.kind != ir::TypeKind::kPointer) {
      return Fail(inst, "the variable's type is not a pointer");
    }
    if (!SupportedType(pointer.pointee, &why)) return Fail(inst, why);
    // The initializer's bytes are laid out by the pointee's type.
    if (inst.num_operands() >= 2 && ValueTypeId(inst.word(1)) != pointer.pointee) {
      return Fail(inst, "the initializer does not have the variable's type");
    }
    VariableInfo var;
    var.storage = pointer.storage;
    var.bytes = pointee.memory_bytes;
    if (var.bytes > kMaxVariableBytes) {
      return Fail(inst, "a variable of " + std::to_string(var.bytes) +
                            " bytes is larger than xmx-run allocates (" +
                            std::to_string(kMaxVariableBytes) + ")");
    }
    var.alignment = std::max<uint64_t>(pointee.alignment, 1);
    var.slot = Slot(id);
    var.name = info_.GetName(id);
    if (const ir::DecorationInfo* d = info_.FindDecoration(id, spv::Decoration::BuiltIn)) {
      var.builtin = static_cast<spv::BuiltIn>(d->operands[0]);
    }
    if (!var.builtin && var.storage == spv::StorageClass::Input) {
      // LLVM's backend may import builtins by name: "__spirv_BuiltInGlobalInvocationId".
      const std::string name = ImportName(id);
      constexpr std::string_view kPrefix = "__spirv_BuiltIn";
      if (name.rfind(kPrefix, 0) == 0) {
        const grammar::OperandKind* kind = grammar::FindOperandKind("BuiltIn");
        if (kind != nullptr) {
          for (const grammar::Enumerant& e : kind->enumerants) {
            if (name.substr(kPrefix.size()) == e.name)
              var.builtin = static_cast<spv::BuiltIn>(e.value);
          }
        }
      }
      if (!var.builtin) return Fail(inst, "Input variable '" + name + "' is not a builtin");
    }
    if (inst.num_operands() >= 2) {
      var.initializer.assign(var.bytes, 0);
      if (!ConstantBytes(inst.word(1), var.initializer.data(), pointee, true)) {
        return Fail(inst, "xmx-run cannot evaluate this variable's initializer");
      }
    }
    switch (var.storage) {
      case spv::StorageClass::Input:
        var.index = static_cast<uint32_t>(program_.private_variables.size());
        program_.private_variables.push_back(std::move(var));
        break;
      case spv::StorageClass::Workgroup:
        var.index = static_cast<uint32_t>(program_.local_variables.size());
        program_.local_variables.push_back(std::move(var));
        break;
      case spv::StorageClass::CrossWorkgroup:
      case spv::StorageClass::UniformConstant:
        var.index = static_cast<uint32_t>(program_.global_variables.size());
        program_.global_variables.push_back(std::move(var));
        break;
      default:
        return Fail(inst, "xmx-run does not support module-scope variables in this storage class");
    }
  }
  return true;
}

uint32_t Loader::AddPrivateVariable(VariableInfo var) {
  var.index = static_cast<uint32_t>(program_.private_variables.size());
  program_.private_variables.push_back(std::move(var));
  return program_.private_variables.back().index;
}

void Loader::RecordPrivateAddress(uint32_t id, PrivateAddress address) {
  if (address.variable >= program_.private_variables.size() ||
      address.offset > program_.private_variables[address.variable].bytes) {
    return;
  }
  private_addresses_[id] = address;
}

std::optional<PrivateAddress> Loader::PrivateAddressOf(uint32_t id) const {
  auto it = private_addresses_.find(id);
  if (it == private_addresses_.end()) return std::nullopt;
  return it->second;
}

bool Loader::LoadKernelInterface(const ir::Function& kernel) {
  uint32_t index = 0;
  for (const ir::Instruction& param : kernel.parameters) {
    KernelParameter p;
    p.slot = Slot(param.result_id());
    p.name = info_.GetName(param.result_id());
    const TypeInfo& type = Type(param.result_type_id());
    p.lane_bytes = type.lane_bytes;
    if (type.kind == ir::TypeKind::kPointer) {
      bool by_value = false;
      for (const ir::DecorationInfo& d : info_.GetDecorations(param.result_id())) {
        by_value |= d.decoration == spv::Decoration::FuncParamAttr && !d.operands.empty() &&
                    d.operands[0] == static_cast<uint32_t>(spv::FunctionParameterAttribute::ByVal);
      }
      switch (type.storage) {
        case spv::StorageClass::CrossWorkgroup:
        case spv::StorageClass::Generic:
          p.kind = KernelParameter::Kind::kGlobalPointer;
          break;
        case spv::StorageClass::UniformConstant:
          p.kind = KernelParameter::Kind::kConstantPointer;
          break;
        case spv::StorageClass::Workgroup:
          p.kind = KernelParameter::Kind::kLocalPointer;
          break;
        case spv::StorageClass::Function:
          if (!by_value)
            return Fail(param, "kernel parameter " + std::to_string(index) +
                                   " is a private pointer without ByVal");
          p.kind = KernelParameter::Kind::kByValue;
          p.pointee_bytes = Type(type.pointee).memory_bytes;
          {
            // Each work-item gets its own copy, which the kernel may modify.
            VariableInfo copy;
            copy.bytes = p.pointee_bytes;
            copy.alignment = std::max<uint64_t>(Type(type.pointee).alignment, 1);
            copy.name = "by-value argument " + std::to_string(index);
            p.private_variable = AddPrivateVariable(std::move(copy));
          }
          break;
        default:
          return Fail(param, "kernel parameter " + std::to_string(index) +
                                 " has a pointer type xmx-run cannot pass");
      }
    } else if (type.kind == ir::TypeKind::kInt || type.kind == ir::TypeKind::kFloat ||
               type.kind == ir::TypeKind::kVector) {
      p.kind = KernelParameter::Kind::kScalar;
      p.type = type.value;
    } else if (type.kind == ir::TypeKind::kImage) {
      const std::optional<ir::ImageFormatInfo>& image = type.type->image;
      if (!image || image->dim != spv::Dim::Dim2D || image->arrayed != 0 ||
          image->multisampled != 0) {
        return Fail(param, "kernel parameter " + std::to_string(index) +
                               ": xmx-run passes only 2D images (image2d_t), not arrayed, "
                               "multisampled or of another dimension");
      }
      p.kind = KernelParameter::Kind::kImage;
      p.read_only = type.type->access == spv::AccessQualifier::ReadOnly;
    } else {
      return Fail(param, "kernel parameter " + std::to_string(index) +
                             " has a type xmx-run cannot pass (structs are passed ByVal)");
    }
    program_.parameters.push_back(std::move(p));
    ++index;
  }
  return true;
}

bool Loader::Run(const std::string& kernel_name) {
  Result<KernelSummary> kernel = FindKernel(module_, kernel_name);
  if (!kernel) {
    error_ = kernel.diagnostics().front();
    return false;
  }
  // FindKernel trusts OpEntryPoint; what it names must be a function with a body.
  const ir::Function* kernel_function = info_.GetFunction(kernel->function_id);
  if (kernel_function == nullptr || kernel_function->IsDeclaration()) {
    std::optional<size_t> entry_index;
    for (const ir::Instruction& entry : module_.entry_points()) {
      if (entry.num_operands() > 1 && entry.word(1) == kernel->function_id &&
          entry.source_index() != ir::Instruction::kNotFromBinary) {
        entry_index = entry.source_index();
      }
    }
    return FailLoad("OpEntryPoint '" + kernel->name + "' names %" +
                        std::to_string(kernel->function_id) +
                        (kernel_function == nullptr ? ", which is not a function"
                                                    : ", a function declaration with no body"),
                    entry_index);
  }
  program_.kernel_name = kernel->name;
  program_.subgroup_size = kernel->subgroup_size.value_or(options_.subgroup_size);
  if (program_.subgroup_size == 0 || program_.subgroup_size > 64) {
    // A subgroup's lanes are the bits of a 64-bit mask.
    return FailLoad("subgroup size " + std::to_string(program_.subgroup_size) +
                    ": xmx-run runs subgroups of 1 to 64 invocations");
  }
  for (int i = 0; i < 3; ++i) program_.required_local_size[i] = kernel->local_size[i];
  program_.pointer_bytes = static_cast<uint32_t>(types_.pointer_size().value_or(8));
  uniform_ = UniformValues(module_, info_, kernel->function_id);
  // Fail() returns true (a binder's "handled"): a phase that failed is known by failed().
  if (!LoadGlobals() || failed()) return false;
  // The kernel and every function it reaches; declarations (imports) are bound by their callers.
  std::vector<uint32_t> order{kernel->function_id};
  std::unordered_map<uint32_t, bool> seen{{kernel->function_id, true}};
  for (size_t i = 0; i < order.size(); ++i) {
    for (uint32_t callee : info_.GetCallees(order[i])) {
      const ir::Function* f = info_.GetFunction(callee);
      if (f != nullptr && !f->IsDeclaration() && !seen[callee]) {
        seen[callee] = true;
        order.push_back(callee);
      }
    }
  }
  program_.code.reserve(1024);
  for (uint32_t id : order) {
    if (!LoadFunction(*info_.GetFunction(id)) || failed()) return false;
  }
  if (!LoadKernelInterface(*info_.GetFunction(kernel->function_id)) || failed()) return false;
  // Resolve block, function and reconvergence targets now that the code has its final address.
  const Instr* base = program_.code.data();
  for (auto& [target, label] : block_fixups_) *target = base + block_start_.at(label);
  for (auto& [target, function] : function_fixups_) *target = base + function_entry_.at(function);
  for (auto& [target, label] : ipdom_fixups_) {
    const uint32_t post = ipdom_.count(label) ? ipdom_[label] : 0;
    *target = post == 0 ? kExit : base + block_start_.at(post);
  }
  program_.kernel_entry = base + function_entry_.at(kernel->function_id);
  // At least one line, so that a kernel with no values still has a register file to copy.
  program_.register_bytes = AlignUp<uint32_t>(std::max<uint32_t>(program_.register_bytes, 1), 64);
  program_.register_image.resize(program_.register_bytes, 0);
  program_.private_layout = PrivateLayout::Of(program_.private_variables);
  for (uint32_t* count : program_.variable_counts) *count = program_.private_layout.variables;
  return !failed();
}

Result<KernelSummary> FindKernel(const ir::Module& module, const std::string& name) {
  ir::ModuleInfo info(module);
  std::vector<const ir::EntryPoint*> kernels;
  for (const ir::EntryPoint& e : info.entry_points()) {
    if (e.model == spv::ExecutionModel::Kernel) kernels.push_back(&e);
  }
  const ir::EntryPoint* chosen = nullptr;
  if (name.empty()) {
    if (kernels.size() != 1) {
      std::string names;
      for (const ir::EntryPoint* k : kernels) names += (names.empty() ? "" : ", ") + k->name;
      Diagnostic d;
      d.message = kernels.empty() ? "the module has no kernel"
                                  : "the module has " + std::to_string(kernels.size()) +
                                        " kernels (" + names + "): choose one with --kernel";
      return Result<KernelSummary>::Failure(std::move(d));
    }
    chosen = kernels[0];
  } else {
    for (const ir::EntryPoint* k : kernels) {
      if (k->name == name) chosen = k;
    }
    if (chosen == nullptr) {
      Diagnostic d;
      d.message = "the module has no kernel named '" + name + "'";
      return Result<KernelSummary>::Failure(std::move(d));
    }
  }
  KernelSummary summary;
  summary.function_id = chosen->function_id;
  summary.name = chosen->name;
  if (auto mode = info.FindExecutionMode(chosen->function_id, spv::ExecutionMode::SubgroupSize)) {
    if (!mode->operands.empty()) summary.subgroup_size = mode->operands[0];
  }
  if (auto mode = info.FindExecutionMode(chosen->function_id, spv::ExecutionMode::LocalSize)) {
    for (size_t i = 0; i < 3 && i < mode->operands.size(); ++i) {
      summary.local_size[i] = mode->operands[i];
    }
  }
  return summary;
}

Result<Program> LoadProgram(const ir::Module& module, const LoadOptions& options) {
  // Calls of built-ins that stand for instructions run as those instructions (builtins/
  // upgrade.hpp); each keeps its call's place, so reports name the call.
  std::optional<builtins::UpgradeResult> upgraded;
  if (builtins::HasBuiltinImports(module)) {
    upgraded = builtins::UpgradeBuiltinCalls(module);
    if (!upgraded->ok()) return Result<Program>::Failure(std::move(upgraded->errors));
  }
  const ir::Module* code = upgraded ? &upgraded->module : &module;
  // Private variables that only whole loads and stores touch become registers
  // (variable_promotion.hpp). A kernel that cannot be found is left to the loader to report.
  std::optional<ir::Module> transformed;
  if (options.promote_variables && MayPromoteVariables(*code)) {
    if (Result<KernelSummary> kernel = FindKernel(*code, options.kernel)) {
      transformed = PromotePrivateVariables(*code, kernel->function_id);
      if (transformed) code = &*transformed;
    }
  }
  // Then loops with a constant trip count become straight-line code (loop_unrolling.hpp).
  if (options.unroll_loops && MayUnrollLoops(*code)) {
    if (transformed) {
      // The promoted copy is the loader's own: unroll it in place (code already points at it).
      UnrollConstantTripLoops(*transformed);
    } else {
      // The module as read is the caller's: unroll a copy, kept only if a loop went.
      ir::Module unrolled = *code;
      if (UnrollConstantTripLoops(unrolled)) {
        transformed = std::move(unrolled);
        code = &*transformed;
      }
    }
  }
  ir::TypeTable types(*code);
  ir::ModuleInfo info(*code);
  Program program;
  Loader loader(*code, types, info, program, options);
  if (!loader.Run(options.kernel)) {
    Diagnostic fallback;
    fallback.message = "loading failed";
    return Result<Program>::Failure(loader.error().value_or(std::move(fallback)));
  }
  return Result<Program>(std::move(program));
}

}  // namespace xmx::interp
