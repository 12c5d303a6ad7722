// Module-level facts the later layers keep asking for: entry points and their execution modes,
// names, decorations per id (decoration groups resolved), capabilities, extensions, functions by
// id and the call graph.
//
// A snapshot: it holds pointers into the module; build a new one after editing the module.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "binary/id_table.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {

struct EntryPoint {
  spv::ExecutionModel model;
  uint32_t function_id;
  std::string name;
  std::span<const uint32_t> interface;  // ids of the interface variables
  const Instruction* inst;
};

struct ExecutionModeInfo {
  spv::ExecutionMode mode;
  std::span<const uint32_t> operands;  // literals, or ids for OpExecutionModeId
  bool operands_are_ids;
  const Instruction* inst;
};

// One decoration applied to an id (or to a member of it), whichever instruction applied it:
// OpDecorate, OpDecorateId, OpDecorateString, OpMemberDecorate*, or a decoration group.
struct DecorationInfo {
  spv::Decoration decoration;
  std::optional<uint32_t> member;      // for member decorations
  std::span<const uint32_t> operands;  // the words after the decoration
  const Instruction* inst;             // the decorating instruction (for groups: the group's)
};

class ModuleInfo {
 public:
  explicit ModuleInfo(const Module& module);

  std::span<const EntryPoint> entry_points() const { return entry_points_; }
  const EntryPoint* FindEntryPoint(std::string_view name) const;
  // Modes of the entry point function `function_id`, in module order.
  std::vector<ExecutionModeInfo> GetExecutionModes(uint32_t function_id) const;
  std::optional<ExecutionModeInfo> FindExecutionMode(uint32_t function_id,
                                                     spv::ExecutionMode mode) const;

  // From OpName / OpMemberName; empty when there is none.
  std::string GetName(uint32_t id) const;
  std::string GetMemberName(uint32_t id, uint32_t member) const;

  std::span<const DecorationInfo> GetDecorations(uint32_t id) const;
  // The first decoration `decoration` of `id` itself (not of a member), if any.
  const DecorationInfo* FindDecoration(uint32_t id, spv::Decoration decoration) const;
  bool HasDecoration(uint32_t id, spv::Decoration decoration) const {
    return FindDecoration(id, decoration) != nullptr;
  }

  bool HasCapability(spv::Capability capability) const {
    return capabilities_.count(static_cast<uint32_t>(capability)) != 0;
  }
  bool HasExtension(std::string_view name) const {
    return extensions_.count(std::string(name)) != 0;
  }

  const Function* GetFunction(uint32_t id) const;
  // Functions called by `function_id` (OpFunctionCall), each once, in order of first call.
  std::span<const uint32_t> GetCallees(uint32_t function_id) const;

 private:
  struct FunctionEntry {
    const Function* function;
    std::vector<uint32_t> callees;
  };

  void AddDecoration(uint32_t target, const DecorationInfo& info);

  std::vector<EntryPoint> entry_points_;
  // By the function they apply to (a module may have thousands of kernels), in module order.
  std::unordered_map<uint32_t, std::vector<const Instruction*>> execution_modes_;
  binary::IdTable<const Instruction*> names_;
  std::vector<const Instruction*> member_names_;
  binary::IdTable<uint32_t> decoration_slot_;
  std::vector<std::vector<DecorationInfo>> decorations_;
  std::unordered_set<uint32_t> capabilities_;
  std::unordered_set<std::string> extensions_;
  binary::IdTable<uint32_t> function_slot_;
  std::vector<FunctionEntry> functions_;
};

}  // namespace xmx::ir
