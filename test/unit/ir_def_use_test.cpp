// DefUse on test/ir/layout.spv (see layout.spvasm): defs and uses, kept exact across its editing
// calls; then the edited module is emitted, read back, and analysed afresh.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "ir/def_use.hpp"
#include "ir/module_info.hpp"
#include "spirv_files.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {
namespace {

Module LoadLayoutModule() {
  return spirv_files::ReadModule(std::filesystem::path(XMX_TEST_DIR) / "ir" / "layout.spv");
}

Function& FunctionNamed(Module& module, std::string_view name) {
  const ModuleInfo info(module);
  for (Function& function : module.functions()) {
    if (info.GetName(function.id()) == name) return function;
  }
  ADD_FAILURE() << "no function " << name;
  return module.functions().front();
}

// The instructions of `block` with `opcode`, in order.
std::vector<Instruction*> Find(BasicBlock& block, spv::Op opcode) {
  std::vector<Instruction*> found;
  for (Instruction& inst : block.instructions) {
    if (inst.opcode() == opcode) found.push_back(&inst);
  }
  return found;
}

bool HasUse(const DefUse& def_use, uint32_t id, const Instruction* inst, uint32_t operand) {
  const std::span<const Use> uses = def_use.GetUses(id);
  return std::find(uses.begin(), uses.end(), Use{const_cast<Instruction*>(inst), operand}) !=
         uses.end();
}

TEST(IrDefUse, DefsAndUses) {
  Module module = LoadLayoutModule();
  const DefUse def_use(module);
  Function& helper = FunctionNamed(module, "helper");
  Function& kernel = FunctionNamed(module, "gemm");
  EXPECT_EQ(def_use.GetDef(helper.id()), &helper.def);
  EXPECT_EQ(def_use.GetDef(kernel.blocks.front().id()), &kernel.blocks.front().label);
  EXPECT_EQ(def_use.GetDef(0), nullptr);
  EXPECT_EQ(def_use.GetDef(module.header().bound + 100), nullptr);

  // helper: its OpName and two calls.
  const std::vector<Instruction*> calls = Find(kernel.blocks.front(), spv::Op::OpFunctionCall);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(def_use.GetUses(helper.id()).size(), 3u);
  EXPECT_TRUE(HasUse(def_use, helper.id(), calls[0], 0));
  EXPECT_TRUE(HasUse(def_use, helper.id(), calls[1], 0));
  // A result type is a use too.
  EXPECT_TRUE(HasUse(def_use, calls[0]->result_type_id(), calls[0], Use::kResultType));
  // The OpPhi uses its incoming values and blocks.
  Instruction& phi = helper.blocks.back().instructions.front();
  EXPECT_TRUE(HasUse(def_use, phi.word(1), &phi, 1));
  // Debug lines use their OpString.
  const Instruction& line = helper.def.debug_lines().front();
  EXPECT_TRUE(HasUse(def_use, line.word(0), &line, 0));
}

TEST(IrDefUse, EditThenEmitAndReadBack) {
  Module module = LoadLayoutModule();
  DefUse def_use(module);
  Function& kernel = FunctionNamed(module, "gemm");
  BasicBlock& entry = kernel.blocks.front();
  const std::vector<Instruction*> calls = Find(entry, spv::Op::OpFunctionCall);
  ASSERT_EQ(calls.size(), 2u);
  const uint32_t helper_id = calls[0]->word(0);
  const uint32_t val = calls[0]->result_id();
  const uint32_t val2 = calls[1]->result_id();
  const uint32_t one = calls[0]->word(1);
  Instruction* store = Find(entry, spv::Op::OpStore).at(0);

  // Add: %sum = OpIAdd %uint %val %one, before the store.
  const uint32_t sum_id = module.TakeNextId();
  Instruction add(spv::Op::OpIAdd, calls[0]->result_type_id(), sum_id);
  add.AddIdOperand(val);
  add.AddIdOperand(one);
  auto store_it = std::find_if(entry.instructions.begin(), entry.instructions.end(),
                               [&](const Instruction& inst) { return &inst == store; });
  Instruction& sum = *entry.instructions.insert(store_it, std::move(add));
  def_use.Analyze(sum);
  EXPECT_EQ(def_use.GetDef(sum_id), &sum);
  EXPECT_TRUE(HasUse(def_use, val, &sum, 0));
  EXPECT_TRUE(HasUse(def_use, one, &sum, 1));

  // Replace all uses of %val2 (the store's value) with %sum.
  EXPECT_EQ(def_use.ReplaceAllUsesWith(val2, sum_id), 1u);
  EXPECT_EQ(store->word(1), sum_id);
  EXPECT_TRUE(def_use.GetUses(val2).empty());
  EXPECT_TRUE(HasUse(def_use, sum_id, store, 1));

  // Remove the now unused second call.
  def_use.Forget(*calls[1]);
  entry.instructions.remove_if([&](const Instruction& inst) { return &inst == calls[1]; });
  EXPECT_EQ(def_use.GetDef(val2), nullptr);
  EXPECT_EQ(def_use.GetUses(helper_id).size(), 2u);  // OpName and the first call

  // SetId moves a single use.
  def_use.SetId(sum, 1, val);
  EXPECT_EQ(sum.word(1), val);
  EXPECT_FALSE(HasUse(def_use, one, &sum, 1));
  EXPECT_TRUE(HasUse(def_use, val, &sum, 1));

  // Emit, read back: the edits are there, and a fresh analysis agrees.
  const std::vector<uint32_t> words = module.ToWords();
  Diagnostic error;
  std::optional<Module> reread = Module::FromWords(words, &error);
  ASSERT_TRUE(reread) << error.Format();
  EXPECT_EQ(reread->ToWords(), words);
  EXPECT_EQ(reread->header().bound, sum_id + 1);
  const DefUse fresh(*reread);
  BasicBlock& reread_entry = FunctionNamed(*reread, "gemm").blocks.front();
  ASSERT_EQ(Find(reread_entry, spv::Op::OpFunctionCall).size(), 1u);
  Instruction* reread_sum = fresh.GetDef(sum_id);
  ASSERT_NE(reread_sum, nullptr);
  EXPECT_EQ(reread_sum->opcode(), spv::Op::OpIAdd);
  EXPECT_EQ(reread_sum->word(0), val);
  EXPECT_EQ(reread_sum->word(1), val);
  EXPECT_EQ(Find(reread_entry, spv::Op::OpStore).at(0)->word(1), sum_id);
  EXPECT_EQ(fresh.GetUses(helper_id).size(), def_use.GetUses(helper_id).size());
  EXPECT_EQ(fresh.GetUses(val).size(), def_use.GetUses(val).size());
  EXPECT_EQ(fresh.GetUses(sum_id).size(), 1u);
}

TEST(IrDefUse, ReplacingATypeRewritesResultTypes) {
  Module module = LoadLayoutModule();
  DefUse def_use(module);
  Instruction* call =
      Find(FunctionNamed(module, "gemm").blocks.front(), spv::Op::OpFunctionCall).at(0);
  const uint32_t uint_id = call->result_type_id();
  const size_t uses = def_use.GetUses(uint_id).size();
  const uint32_t new_type = module.TakeNextId();
  EXPECT_EQ(def_use.ReplaceAllUsesWith(uint_id, new_type), uses);
  EXPECT_EQ(call->result_type_id(), new_type);
  EXPECT_EQ(def_use.GetUses(new_type).size(), uses);
}

}  // namespace
}  // namespace xmx::ir
