// The compiled form of a kernel (ARCHITECTURE.md, "The interpreter"): the loader turns a
// validated module into one flat array of pre-decoded instructions over dense register slots, so
// the execution loop does no map lookup and no grammar walk.
//
// An instruction is a handler plus the byte offsets of its operand slots in the subgroup's
// register file (value_layout.hpp). A handler runs the instruction for every active lane of the
// subgroup and returns the next instruction to run, or nullptr to give control back to the
// scheduler (barrier, end of the kernel, a reported error).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "interp/model/value_layout.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::interp {

struct Subgroup;
struct Instr;
using Handler = const Instr* (*)(Subgroup& sg, const Instr* in);

struct Instr {
  Handler fn = nullptr;
  uint32_t result = 0;         // register offset of the result slot
  uint32_t op[4] = {};         // register offsets of operands (or small immediates)
  uint32_t count = 0;          // elements per lane for element-wise handlers
  uint32_t size = 0;           // bytes per lane of the result (or of the value moved)
  uint32_t aux = 0;            // handler-specific
  uint32_t source_index = 0;   // index of the module instruction, for reports
  const void* data = nullptr;  // handler-specific decoded data, owned by the Program
};

// Copies that implement the OpPhis of one control-flow edge: all sources are read before any
// destination is written (`through_scratch` when a destination is also a source).
struct PhiCopy {
  uint32_t dst, src, size;
};
struct Edge {
  const Instr* target = nullptr;  // first instruction of the target block; kExit for returns
  std::vector<PhiCopy> copies;
  bool through_scratch = false;
  uint32_t block = 0;  // index of the target block in its function
};

// Reconvergence information of one branch: its successors and the immediate post-dominator of
// its block (where diverged lanes meet again; nullptr = the function's exit).
struct BranchInfo {
  std::vector<Edge> edges;            // BranchConditional: true, false; Switch: default first
  std::vector<uint64_t> case_values;  // Switch: value of edges[i + 1]
  uint32_t selector_bytes = 0;        // Switch
  const Instr* reconverge = nullptr;
};

struct CallInfo {
  const Instr* entry = nullptr;    // the callee's first instruction
  std::vector<PhiCopy> arguments;  // argument slot -> parameter slot
  uint32_t return_size = 0;        // bytes per lane of the result (0 for void)
};

// A variable with storage per work-item (Function and Input storage) or per work-group
// (Workgroup) or per launch (CrossWorkgroup, UniformConstant module-scope variables).
struct VariableInfo {
  spv::StorageClass storage = spv::StorageClass::Function;
  uint64_t bytes = 0;
  uint64_t alignment = 1;
  std::vector<uint8_t> initializer;     // empty: uninitialised (zero-filled by the runtime)
  std::optional<spv::BuiltIn> builtin;  // Input variables
  uint32_t slot = 0;                    // register slot of the pointer result
  uint32_t index = 0;                   // its number among the variables of its storage class
  std::string name;
};

struct KernelParameter {
  enum class Kind : uint8_t {
    kScalar,
    kGlobalPointer,
    kLocalPointer,
    kConstantPointer,
    kByValue,
    kImage,  // a 2D image (image2d_t): a handle to its allocation
  };
  Kind kind = Kind::kScalar;
  ValueType type;  // kScalar
  uint32_t slot = 0;
  uint32_t lane_bytes = 0;
  uint64_t pointee_bytes = 0;     // kByValue: the struct's size
  uint32_t private_variable = 0;  // kByValue: each work-item's copy (a private variable)
  bool read_only = false;         // kImage: declared read_only
  std::string name;
};

struct Program {
  uint32_t subgroup_size = 16;
  uint32_t pointer_bytes = 8;  // Physical64 or Physical32
  std::vector<Instr> code;
  const Instr* kernel_entry = nullptr;
  std::string kernel_name;
  std::vector<KernelParameter> parameters;
  uint32_t register_bytes = 0;
  std::vector<uint8_t> register_image;  // constants (broadcast to every lane); the rest zero
  std::vector<VariableInfo> private_variables;  // Function and Input storage, per work-item
  uint64_t private_bytes_per_item = 0;
  std::vector<VariableInfo> local_variables;    // Workgroup
  std::vector<VariableInfo> global_variables;   // CrossWorkgroup / UniformConstant
  uint32_t required_local_size[3] = {0, 0, 0};  // LocalSize execution mode, 0 when absent
  bool uses_matrix = false;

  // Storage of the handlers' decoded data (stable addresses).
  std::deque<BranchInfo> branches;
  std::deque<CallInfo> calls;
  std::deque<Edge> edges;
  std::vector<std::shared_ptr<const void>> owned;
  // OpVariable handlers' "variables per work-item", known once every function is loaded.
  std::vector<uint32_t*> variable_counts;

  template <class T>
  const T* Own(T value) {
    auto p = std::make_shared<const T>(std::move(value));
    owned.push_back(p);
    return p.get();
  }
};

// The pseudo-instruction standing for a function's exit in reconvergence points.
extern const Instr kExitInstr;
inline const Instr* const kExit = &kExitInstr;

}  // namespace xmx::interp
