// The loader: a validated module and a kernel name become a Program (program.hpp) for one
// subgroup size. Each instruction family binds the opcodes opcode_table.hpp gives it
// (<family>/exec_*.cpp); the loader owns the register allocation, types, constants, variables,
// blocks and edges.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "device/coop_layout.hpp"
#include "interp/load/matrix_operand_folding.hpp"
#include "interp/load/uniformity.hpp"
#include "interp/model/program.hpp"
#include "ir/module_info.hpp"
#include "ir/type_table.hpp"
#include "ir/value_types.hpp"
#include "xmx/diagnostic.hpp"
#include "xmx/module.hpp"
#include "xmx/result.hpp"

namespace xmx::interp {

// The element mapping is the device layer's (device/coop_layout.hpp).
using device::CoopCoord;
using device::CoopLayout;
using device::CoopUse;

struct LoadOptions {
  std::string kernel;              // empty: the module's only kernel
  uint32_t subgroup_size = 16;     // used when the kernel declares none
  bool ordered_matrix_fp = false;  // --mma-fp=ordered
  // Private variables used only by whole loads and stores become registers
  // (variable_promotion.hpp); the tests turn it off to hold the result to the unpromoted one.
  bool promote_variables = true;
  // Loops with a constant trip count are unrolled and straight-line blocks merged
  // (loop_unrolling.hpp); the tests turn it off likewise.
  bool unroll_loops = true;
};

// Compiles the kernel. A failure carries one error diagnostic saying why, with the index of
// the instruction to blame (its instruction_index, and opcode) when there is one.
Result<Program> LoadProgram(const ir::Module& module, const LoadOptions& options);

// Finds the kernel `name` (or the only kernel) and its required subgroup size, if any, without
// compiling it: the tools use it to pick the subgroup size before loading.
struct KernelSummary {
  uint32_t function_id = 0;
  std::string name;
  std::optional<uint32_t> subgroup_size;  // SubgroupSize execution mode
  uint32_t local_size[3] = {0, 0, 0};     // LocalSize execution mode
};
Result<KernelSummary> FindKernel(const ir::Module& module, const std::string& name);

// A pointer value the loader knows without running the kernel: in every lane, that work-item's
// copy of private variable `variable` (its index among the private variables), `offset` bytes
// in, with 0 <= offset <= the variable's size. An OpVariable of a function is one; so are its
// pointer casts and its access chains with constant indices.
struct PrivateAddress {
  uint32_t variable = 0;
  uint64_t offset = 0;
};

// How the loader sees a type.
struct TypeInfo {
  ir::TypeKind kind = ir::TypeKind::kOther;
  ValueType value;            // scalars and vectors (pointers: kPointer, 8 bytes)
  uint32_t lane_bytes = 0;    // bytes per lane of a value of this type in registers
  uint64_t memory_bytes = 0;  // bytes it takes in memory (OpenCL layout), 0 when unsized
  uint64_t alignment = 1;
  uint32_t pointee = 0;                                     // kPointer
  spv::StorageClass storage = spv::StorageClass::Function;  // kPointer
  const ir::Type* type = nullptr;
};

// Limits that keep a valid but enormous kernel from exhausting the host: one variable (private,
// local or program-scope), and one value held in registers (per lane).
inline constexpr uint64_t kMaxVariableBytes = uint64_t{1} << 30;
inline constexpr uint64_t kMaxValueBytes = uint64_t{1} << 20;
// The register file of one subgroup (every value slot of the kernel times the subgroup size):
// beyond this the module is refused at load, before any launch limit could apply, and register
// offsets (32-bit) can never wrap.
inline constexpr uint64_t kMaxRegisterBytes = uint64_t{1} << 28;

class Loader {
 public:
  Loader(const ir::Module& module, const ir::TypeTable& types, const ir::ModuleInfo& info,
         Program& program, LoadOptions options);

  const ir::Module& module() const { return module_; }
  const ir::TypeTable& types() const { return types_; }
  const ir::ModuleInfo& info() const { return info_; }
  Program& program() { return program_; }
  const LoadOptions& options() const { return options_; }
  uint32_t subgroup_size() const { return program_.subgroup_size; }

  // Register offset of the value `id`, allocated on first use (constants are materialised).
  uint32_t Slot(uint32_t id);
  // The type of a value (its result type) or of a type id.
  const TypeInfo& TypeOfValue(uint32_t id);
  const TypeInfo& Type(uint32_t type_id);
  uint32_t ValueTypeId(uint32_t id) const;
  // Byte offsets of a struct's members in memory (OpenCL layout; CPacked structs unpadded).
  const std::vector<uint64_t>& MemberOffsets(uint32_t struct_type_id);
  // A constant's integer value (zero-extended), if `id` is an integer constant.
  std::optional<uint64_t> ConstantValue(uint32_t id) const;
  // A register slot filled with `bytes` per lane (a literal turned into a value).
  uint32_t ImmediateSlot(const std::vector<uint8_t>& lane_value);
  // Scratch register bytes per lane that handlers may use freely (never live across
  // instructions); at least `bytes`.
  uint32_t ScratchSlot(uint32_t bytes);

  // The instruction index of the first instruction of block `label`, for branches: resolved
  // after all code is emitted. `*target` is patched then.
  void ResolveLater(const Instr** target, uint32_t label);
  void ResolveFunctionLater(const Instr** target, uint32_t function_id);
  // Phi copies for the edge from block `from` to block `to`.
  std::vector<PhiCopy> EdgeCopies(uint32_t from, uint32_t to, bool* through_scratch);
  // The immediate post-dominator of the block `label` (patched later).
  void ReconvergenceLater(const Instr** target, uint32_t label);

  // Registers a Function-storage variable (one copy per work-item); returns its index.
  uint32_t AddPrivateVariable(VariableInfo var);
  // Records that the pointer `id` is `address` (an offset past the variable's end is not
  // recorded), or what `id` is: set by the binders of the instructions that define such pointers,
  // which come before their users (dominance orders the blocks).
  void RecordPrivateAddress(uint32_t id, PrivateAddress address);
  std::optional<PrivateAddress> PrivateAddressOf(uint32_t id) const;

  // Fails the load because of `inst` (only the first failure is kept). Returns true, a
  // binder's "handled" (FamilyBinder below), so a binder can `return loader.Fail(...)`.
  bool Fail(const ir::Instruction& inst, std::string message);
  // Fails the load for a reason no single binder reports (the kernel, the register file);
  // `instruction_index` names an instruction of the module when one is to blame. Returns false.
  bool FailLoad(std::string message, std::optional<size_t> instruction_index = std::nullopt);
  // Whether some instruction of the module defines `id` (load_checks.cpp).
  bool IsDefined(uint32_t id) const { return defined_ids_.count(id) != 0; }
  // Whether `label` is a block of the function being loaded.
  bool IsLabelOfCurrentFunction(uint32_t label) const { return function_labels_.count(label) != 0; }
  // Whether xmx-run has a layout for values of this type (integer and float widths it
  // implements, through vectors, arrays and structs); otherwise *why says what is missing.
  bool SupportedType(uint32_t type_id, std::string* why);
  // The element mapping of a cooperative-matrix type at this program's subgroup size
  // (loader_coop.cpp), or nullopt with *why saying why there is none.
  std::optional<CoopLayout> CoopLayoutOf(uint32_t type_id, std::string* why);
  bool failed() const { return error_.has_value(); }
  const std::optional<Diagnostic>& error() const { return error_; }

  // Whether `id` is proven the same in every active invocation (uniformity.hpp): an operand
  // that must be dynamically uniform then needs no run-time check.
  bool KnownUniform(uint32_t id) const { return uniform_.Contains(id); }
  // The private loads and stores of the function being loaded that its matrix instructions may
  // perform themselves (matrix_operand_folding.hpp), and those folded so far.
  MatrixOperandFolds& matrix_folds() { return matrix_folds_; }

  // Decorations.
  std::optional<spv::FPRoundingMode> RoundingMode(uint32_t id) const;
  bool Saturated(uint32_t id) const;
  // The imported function's linkage name when `function_id` is a declaration.
  std::string ImportName(uint32_t function_id) const;
  uint32_t opencl_std_set() const { return opencl_std_set_; }
  const ir::Function* CurrentFunction() const { return current_function_; }
  uint32_t CurrentBlock() const { return current_block_; }

  bool Run(const std::string& kernel_name);

 private:
  bool MaterialiseConstant(uint32_t id, uint32_t slot, const TypeInfo& type);
  bool ConstantBytes(uint32_t id, uint8_t* out, const TypeInfo& type, bool memory_layout);
  bool LoadGlobals();
  bool LoadFunction(const ir::Function& function);
  // Binds one instruction and appends it to the program (nothing for a copy onto its own slot,
  // nor when `dispatch` is false: the binding's effects at load time are all it needs).
  bool EmitInstruction(const ir::Instruction& inst, bool dispatch = true);
  bool LoadKernelInterface(const ir::Function& kernel);
  bool ComputeReconvergence(const ir::Function& function);
  bool FinishFixups();
  // Reserves `lane_bytes` per lane at the end of the register file; its offset, or 0 with the
  // load failed when the file would outgrow kMaxRegisterBytes (`what` names the value).
  uint32_t ReserveRegisters(uint64_t lane_bytes, const std::string& what);

  const ir::Module& module_;
  const ir::TypeTable& types_;
  const ir::ModuleInfo& info_;
  Program& program_;
  LoadOptions options_;
  std::optional<Diagnostic> error_;
  UniformValues uniform_;
  MatrixOperandFolds matrix_folds_;
  std::unordered_map<uint32_t, TypeInfo> type_info_;
  std::unordered_map<uint32_t, std::vector<uint64_t>> member_offsets_;
  std::unordered_map<uint32_t, uint32_t> slots_;
  const ir::ValueTypes value_types_;
  std::unordered_map<uint32_t, uint32_t> block_start_;     // label -> code index
  std::unordered_map<uint32_t, uint32_t> function_entry_;  // function id -> code index
  std::unordered_map<uint32_t, uint32_t> ipdom_;           // label -> label (0: exit)
  std::unordered_map<uint32_t, const ir::BasicBlock*> blocks_;
  std::unordered_set<uint32_t> defined_ids_, function_labels_;
  std::unordered_map<uint32_t, std::string> supported_types_;  // type id -> problem ("" none)
  std::unordered_map<uint32_t, PrivateAddress> private_addresses_;
  std::vector<std::pair<const Instr**, uint32_t>> block_fixups_, function_fixups_, ipdom_fixups_;
  uint32_t scratch_slot_ = 0, scratch_bytes_ = 0;
  uint32_t opencl_std_set_ = 0;
  const ir::Function* current_function_ = nullptr;
  uint32_t current_block_ = 0;
};

// A family's binder turns the instructions opcode_table.hpp gives the family into `out`:
// returns true when it filled `out` (or failed through Loader::Fail), false when it declines
// `inst` (the cooperative-matrix binder declines the forms of kCoopForms it does not execute;
// any other decline is reported as an instruction xmx-run does not execute).
using FamilyBinder = bool (*)(Loader& loader, const ir::Instruction& inst, Instr& out);

bool BindArith(Loader&, const ir::Instruction&, Instr&);
bool BindConvert(Loader&, const ir::Instruction&, Instr&);
bool BindComposite(Loader&, const ir::Instruction&, Instr&);
bool BindMemory(Loader&, const ir::Instruction&, Instr&);
bool BindAtomic(Loader&, const ir::Instruction&, Instr&);
bool BindControl(Loader&, const ir::Instruction&, Instr&);
bool BindGroup(Loader&, const ir::Instruction&, Instr&);
bool BindIntelSubgroups(Loader&, const ir::Instruction&, Instr&);
bool BindImageBlock(Loader&, const ir::Instruction&, Instr&);  // exec_image_block.cpp
bool BindMatrixMad(Loader&, const ir::Instruction&, Instr&);
// Takes over a bound load or store that matrix_folds() names when its access qualifies (returns
// true: it is not dispatched, its matrix instruction performs it); exec_matrix_mad.cpp.
bool FoldIntoMatrixMad(Loader& loader, const ir::Instruction& inst, const Instr& bound);
bool BindBlock2d(Loader&, const ir::Instruction&, Instr&);
bool BindExtInst(Loader&, const ir::Instruction&, Instr&);
bool BindCoop(Loader&, const ir::Instruction&, Instr&);  // exec_coop*.cpp
// An OpFunctionCall of an imported declaration (LinkageAttributes Import): the builtins that
// producers leave as calls (e.g. the split matrix multiply-accumulate functions).
bool BindImportedCall(Loader&, const ir::Instruction&, Instr&);

// The operand facts every binder relies on (defined ids, supported types, operand shapes per
// opcode class), checked before binding (load_checks.cpp). False after Loader::Fail.
bool CheckInstruction(Loader& loader, const ir::Instruction& inst);

}  // namespace xmx::interp
