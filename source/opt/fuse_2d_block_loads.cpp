// --fuse-2d-block-loads: finding the groups of side-by-side blocks in each basic block and
// rewriting each group as one instruction (see fuse_2d_block_loads.hpp).
#include "opt/fuse_2d_block_loads.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "device/block2d_classes.hpp"
#include "ir/block2d_operands.hpp"
#include "opt/module_builder.hpp"
#include "opt/passes.hpp"
#include "opt/subgroup_sizes.hpp"

namespace xmx::opt {
namespace {

using fuse_detail::AffineValue;
using fuse_detail::AffineValues;
using spv::Op;

// One 2D block load or prefetch that may join a group.
struct Candidate {
  ir::InstructionList::iterator inst;
  size_t position = 0;  // in its basic block
  device::Block2dOp op{};
  ir::Block2dOperands operands;  // ids, and where each operand sits (the shared decoder)
  uint32_t element_size = 0, block_width = 0, block_height = 0, block_count = 0;
  AffineValue x, y;
};

// What members of one group must share, besides the x symbol.
struct GroupKey {
  Op opcode;
  uint32_t element_size, block_width, block_height, block_count;
  uint32_t base, memory_width, memory_height, memory_pitch;
  uint32_t y_symbol, y_component;
  int64_t y_offset;
  uint32_t x_symbol, x_component;

  auto Tie() const {
    return std::tie(opcode, element_size, block_width, block_height, block_count, base,
                    memory_width, memory_height, memory_pitch, y_symbol, y_component, y_offset,
                    x_symbol, x_component);
  }
  bool operator<(const GroupKey& other) const { return Tie() < other.Tie(); }
};

class Fuser {
 public:
  Fuser(ir::Module& module, const device::DeviceProfile& profile)
      : module_(module), profile_(profile), builder_(module) {}

  // Analyses are taken once, before any edit: the edits only add instructions (whose list nodes
  // leave the recorded pointers valid) and erase result-less ones nobody looks up.
  bool Run() {
    ComputeSubgroupSizes();
    const ir::DefUse def_use(module_);
    const ir::TypeTable types(module_);
    const AffineValues values(def_use, types);
    bool changed = false;
    for (ir::Function& function : module_.functions()) {
      for (ir::BasicBlock& block : function.blocks) {
        changed |= FuseInBlock(function, block, def_use, types, values);
      }
    }
    return changed;
  }

  bool out_of_ids() const { return builder_.out_of_ids(); }

 private:
  // The subgroup size of each function, when every kernel that reaches it fixes the same one.
  void ComputeSubgroupSizes() {
    const ReachingSubgroupSizes sizes = FindReachingSubgroupSizes(module_);
    for (const auto& [function, list] : sizes.by_function) {
      if (const uint32_t size = sizes.Fixed(function); size != 0) {
        subgroup_size_.emplace(function, size);
      }
    }
  }

  bool FuseInBlock(ir::Function& function, ir::BasicBlock& block, const ir::DefUse& def_use,
                   const ir::TypeTable& types, const AffineValues& values) {
    std::unordered_map<uint32_t, size_t> defined_at;  // ids defined in this block -> position
    std::vector<Candidate> segment;
    std::vector<std::vector<Candidate>> groups;
    size_t position = 0;
    for (auto it = block.instructions.begin(); it != block.instructions.end(); ++it, ++position) {
      if (it->has_result_id()) defined_at.emplace(it->result_id(), position);
      if (std::optional<Candidate> candidate = Decode(it, position, types, values)) {
        segment.push_back(*candidate);
        continue;
      }
      if (fuse_detail::ClassifyMemoryEffect(*it, def_use, types) ==
          fuse_detail::MemoryEffect::kMayWriteShared) {
        FindGroups(segment, function, defined_at, &groups);
        segment.clear();
      }
    }
    FindGroups(segment, function, defined_at, &groups);
    bool changed = false;
    for (const std::vector<Candidate>& group : groups) changed |= Rewrite(function, block, group);
    return changed;
  }

  // A load or prefetch with constant dimensions; stores never fuse (no device lists a Block
  // Count above 1 for them), nor does an instruction with more operands than its encoding.
  static std::optional<Candidate> Decode(ir::InstructionList::iterator it, size_t position,
                                         const ir::TypeTable& types, const AffineValues& values) {
    const std::optional<ir::Block2dOperands> operands = ir::DecodeBlock2dOperands(*it);
    if (!operands || operands->positions->private_pointer_is_source ||
        it->num_operands() != operands->positions->operand_count) {
      return std::nullopt;
    }
    const std::optional<device::Block2dOp> op = device::Block2dOpOf(operands->positions->op_class);
    if (!op) return std::nullopt;
    Candidate c;
    c.inst = it;
    c.position = position;
    c.op = *op;
    c.operands = *operands;
    const std::optional<uint32_t> dims[] = {types.GetConstantUInt32(operands->element_size),
                                            types.GetConstantUInt32(operands->block_width),
                                            types.GetConstantUInt32(operands->block_height),
                                            types.GetConstantUInt32(operands->block_count)};
    for (const auto& d : dims) {
      if (!d || *d == 0 || *d > 64) return std::nullopt;
    }
    c.element_size = *dims[0];
    c.block_width = *dims[1];
    c.block_height = *dims[2];
    c.block_count = *dims[3];
    c.x = values.Component(operands->coordinate, 0);
    c.y = values.Component(operands->coordinate, 1);
    return c;
  }

  // Whether the device's table allows a Block Count of `count` for this shape. A row the
  // profile marks as a convention is not used: the output would draw a warning.
  bool DeviceAllows(const Candidate& c, uint32_t count) const {
    const device::Block2dMatch match =
        device::MatchBlock2d(profile_, c.op, c.element_size, c.block_width, c.block_height, count);
    if (match.status == device::MatchStatus::kNoTable) return true;
    return match.status == device::MatchStatus::kMatched && match.row != nullptr &&
           match.row->provenance.confidence != device::Confidence::kConvention;
  }

  void FindGroups(const std::vector<Candidate>& segment, const ir::Function& function,
                  const std::unordered_map<uint32_t, size_t>& defined_at,
                  std::vector<std::vector<Candidate>>* groups) const {
    std::map<GroupKey, std::map<int64_t, Candidate>> by_key;  // x offset -> first such load
    for (const Candidate& c : segment) {
      const ir::Instruction& inst = *c.inst;
      const GroupKey key{inst.opcode(),
                         c.element_size,
                         c.block_width,
                         c.block_height,
                         c.block_count,
                         c.operands.base_pointer,
                         c.operands.memory_width,
                         c.operands.memory_height,
                         c.operands.memory_pitch,
                         c.y.symbol,
                         c.y.component,
                         c.y.offset,
                         c.x.symbol,
                         c.x.component};
      by_key[key].emplace(c.x.offset, c);  // keeps the first load of a repeated block
    }
    const bool subgroup_size_known = subgroup_size_.count(function.id()) != 0;
    for (const auto& [key, loads] : by_key) {
      if (loads.size() < 2) continue;
      const Candidate& any = loads.begin()->second;
      if (any.op != device::Block2dOp::kPrefetch && !subgroup_size_known) continue;
      const int64_t step = int64_t{any.block_width} * any.block_count;
      std::vector<Candidate> run;
      auto flush = [&]() {
        size_t i = 0;
        while (i < run.size()) {
          size_t take = 0;
          for (uint32_t n : {4u, 2u}) {
            if (i + n <= run.size() && DeviceAllows(any, any.block_count * n)) {
              take = n;
              break;
            }
          }
          if (take == 0) {
            ++i;
            continue;
          }
          std::vector<Candidate> group(run.begin() + i, run.begin() + i + take);
          if (CoordinateAvailable(group, defined_at)) {
            groups->push_back(std::move(group));
            i += take;
          } else {
            ++i;
          }
        }
        run.clear();
      };
      for (const auto& [offset, c] : loads) {
        if (!run.empty() && offset != run.back().x.offset + step) flush();
        run.push_back(c);
      }
      flush();
    }
  }

  // The fused instruction stands where the first member (in program order) stood and takes the
  // coordinate of the leftmost member, which must be defined by then.
  static bool CoordinateAvailable(const std::vector<Candidate>& group,
                                  const std::unordered_map<uint32_t, size_t>& defined_at) {
    size_t first = group.front().position;
    for (const Candidate& c : group) first = std::min(first, c.position);
    auto it = defined_at.find(group.front().operands.coordinate);
    return it == defined_at.end() || it->second < first;
  }

  bool Rewrite(ir::Function& function, ir::BasicBlock& block, const std::vector<Candidate>& group) {
    const Candidate& leftmost = group.front();
    const Candidate* first = &group.front();
    for (const Candidate& c : group) {
      if (c.position < first->position) first = &c;
    }
    const uint32_t fused_count = leftmost.block_count * static_cast<uint32_t>(group.size());
    const uint32_t count_id = builder_.IntConstant(32, fused_count);
    if (count_id == 0) return false;
    ir::Instruction fused = *leftmost.inst;
    fused.debug_lines().clear();
    fused.SetWord(leftmost.operands.positions->block_count, count_id);

    if (leftmost.op == device::Block2dOp::kPrefetch) {
      block.instructions.insert(first->inst, std::move(fused));
      for (const Candidate& c : group) EraseKeepingLines(block, c.inst);
      return true;
    }

    // Loads: the fused load writes a private staging array; each member copies its block out.
    if (!module_.HasCapability(spv::Capability::Addresses)) return false;  // OpCopyMemorySized
    const uint32_t subgroup_size = subgroup_size_.at(function.id());
    const uint64_t member_bytes = fuse_detail::PayloadBytesPerInvocation(
        {leftmost.op, leftmost.element_size, leftmost.block_width, leftmost.block_height,
         leftmost.block_count},
        subgroup_size);
    // Array elements as wide as the member payload allows, and at least Element Size wide so the
    // staging array is aligned as the instruction requires its private pointer to be.
    uint32_t chunk = leftmost.element_size == 8 ? 8
                     : member_bytes % 4 == 0    ? 4
                     : member_bytes % 2 == 0    ? 2
                                                : 1;
    if (member_bytes == 0 || member_bytes % chunk != 0) return false;
    const uint32_t chunk_type = builder_.IntType(chunk * 8);
    const uint32_t array_type =
        chunk_type == 0
            ? 0
            : builder_.ArrayType(chunk_type,
                                 static_cast<uint32_t>(member_bytes / chunk * group.size()));
    const uint32_t chunk_pointer = builder_.PointerType(spv::StorageClass::Function, chunk_type);
    const uint32_t size_id = builder_.IntConstant(32, member_bytes);
    if (array_type == 0 || chunk_pointer == 0 || size_id == 0) return false;
    const uint32_t staging = builder_.AddFunctionVariable(function, array_type);
    if (staging == 0) return false;

    auto element_pointer = [&](uint64_t index) -> std::optional<ir::Instruction> {
      const uint32_t index_id = builder_.IntConstant(32, index);
      const uint32_t id = index_id == 0 ? 0 : builder_.NewId();
      if (id == 0) return std::nullopt;
      ir::Instruction chain(Op::OpInBoundsAccessChain, chunk_pointer, id);
      chain.AddIdOperand(staging);
      chain.AddIdOperand(index_id);
      return chain;
    };
    std::optional<ir::Instruction> destination = element_pointer(0);
    if (!destination) return false;
    const uint32_t staging_start = destination->result_id();
    fused.SetWord(*leftmost.operands.positions->private_pointer, staging_start);
    block.instructions.insert(first->inst, std::move(*destination));
    block.instructions.insert(first->inst, std::move(fused));
    for (size_t b = 0; b < group.size(); ++b) {
      const Candidate& member = group[b];
      uint32_t source_id = staging_start;  // block 0 starts where the fused load wrote
      if (b != 0) {
        std::optional<ir::Instruction> source = element_pointer(b * member_bytes / chunk);
        if (!source) return false;
        source_id = source->result_id();
        block.instructions.insert(member.inst, std::move(*source));
      }
      ir::Instruction copy(Op::OpCopyMemorySized);
      copy.AddIdOperand(member.operands.private_pointer);
      copy.AddIdOperand(source_id);
      copy.AddIdOperand(size_id);
      copy.debug_lines() = std::move(member.inst->debug_lines());
      block.instructions.insert(member.inst, std::move(copy));
      block.instructions.erase(member.inst);
    }
    return true;
  }

  // Erases a prefetch; its OpLine goes to the instruction after it.
  static void EraseKeepingLines(ir::BasicBlock& block, ir::InstructionList::iterator it) {
    auto next = std::next(it);
    if (next != block.instructions.end() && next->debug_lines().empty()) {
      next->debug_lines() = std::move(it->debug_lines());
    }
    block.instructions.erase(it);
  }

  ir::Module& module_;
  const device::DeviceProfile& profile_;
  ModuleBuilder builder_;
  std::map<uint32_t, uint32_t> subgroup_size_;  // function -> its one subgroup size
};

}  // namespace

PassStatus Fuse2dBlockLoads(ir::Module& module, PassContext& context) {
  const device::DeviceProfile* profile = context.device;
  if (profile == nullptr) profile = device::FindBuiltinProfile(device::kDefaultProfileName);
  if (profile == nullptr) {
    Diagnostic d;
    d.message = "no device profile";
    context.diagnostics.push_back(std::move(d));
    return PassStatus::kFailed;
  }
  if (profile->block2d.kind == device::TableKind::kNone) return PassStatus::kUnchanged;
  // Kept to give the module back untouched if the id bound runs out half way.
  const ir::Module original = module;
  Fuser fuser(module, *profile);
  const bool changed = fuser.Run();
  if (fuser.out_of_ids()) {
    module = original;
    Diagnostic d;
    d.message = "the module's id bound leaves no id for the fused loads";
    context.diagnostics.push_back(std::move(d));
    return PassStatus::kFailed;
  }
  return changed ? PassStatus::kChanged : PassStatus::kUnchanged;
}

}  // namespace xmx::opt
