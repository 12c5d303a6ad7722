// Which private loads and stores around a matrix instruction the loader may let it perform
// (source/interp/load/matrix_operand_folding.hpp): folding moves a load later and a store
// earlier, so every case where the move would cross another access, or where the loaded value
// has another reader, must stay unfolded.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "interp/load/matrix_operand_folding.hpp"
#include "val_test_support.hpp"

namespace xmx::interp {
namespace {

const char* const kKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int16
               OpCapability SubgroupMatrixMultiplyAccumulateINTEL
               OpExtension "SPV_INTEL_subgroup_matrix_multiply_accumulate"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %a1 "a1"
               OpName %b1 "b1"
               OpName %c1 "c1"
               OpName %r1 "r1"
               OpName %a2 "a2"
               OpName %b2 "b2"
               OpName %r2 "r2"
               OpName %a3 "a3"
               OpName %b3 "b3"
               OpName %r3 "r3"
               OpName %a4 "a4"
               OpName %r4 "r4"
               OpName %a5 "a5"
               OpName %b5 "b5"
               OpName %r5 "r5"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %ushort = OpTypeInt 16 0
   %v8ushort = OpTypeVector %ushort 8
     %v8uint = OpTypeVector %uint 8
      %ptr_a = OpTypePointer Function %v8ushort
      %ptr_b = OpTypePointer Function %v8uint
      %fn_ty = OpTypeFunction %void
    %uint_32 = OpConstant %uint 32
          %k = OpFunction %void None %fn_ty
      %entry = OpLabel
         %va = OpVariable %ptr_a Function
         %vb = OpVariable %ptr_b Function
         %vc = OpVariable %ptr_b Function
         %a1 = OpLoad %v8ushort %va
         %b1 = OpLoad %v8uint %vb
         %c1 = OpLoad %v8uint %vc
         %r1 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8uint %uint_32 %a1 %b1 %c1 MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL
         %pc = OpBitcast %ptr_b %vc
               OpStore %pc %r1
         %a2 = OpLoad %v8ushort %va
               OpStore %vb %r1
         %b2 = OpLoad %v8uint %vb
         %r2 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8uint %uint_32 %a2 %b2 %r1 MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL
         %a3 = OpLoad %v8ushort %va
         %b3 = OpLoad %v8uint %vb
         %r3 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8uint %uint_32 %a3 %b3 %r2 MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL
         %a4 = OpLoad %v8ushort %va
         %r4 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8uint %uint_32 %a4 %b3 %r3 MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL
          %x = OpLoad %v8uint %vc
               OpStore %vc %r4
         %a5 = OpLoad %v8ushort %va
         %b5 = OpLoad %v8uint %vb
               OpBranch %next
       %next = OpLabel
         %r5 = OpSubgroupMatrixMultiplyAccumulateINTEL %v8uint %uint_32 %a5 %b5 %x MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL
               OpStore %vc %r5
               OpReturn
               OpFunctionEnd
)";

class MatrixOperandFoldingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    words_ = val::testing::Assemble(kKernel);
    Diagnostic error;
    module_ = ir::Module::FromWords(words_, &error);
    ASSERT_TRUE(module_) << error.Format();
  }
  const ir::Function& Kernel() const { return module_->functions().front(); }
  const ir::Instruction* Def(const std::string& name) const {
    const uint32_t id = val::testing::NamedId(*module_, name);
    for (const ir::BasicBlock& block : Kernel().blocks) {
      for (const ir::Instruction& inst : block.instructions) {
        if (inst.has_result_id() && inst.result_id() == id) return &inst;
      }
    }
    return nullptr;
  }

  std::vector<uint32_t> words_;
  std::optional<ir::Module> module_;
};

TEST_F(MatrixOperandFoldingTest, FoldsLoadsWithOneReaderAndNoWriteBeforeTheirMatrixInstruction) {
  const MatrixOperandFolds folds = FindMatrixOperandFolds(Kernel());
  const std::pair<const char*, const char*> folded[] = {{"a1", "r1"}, {"b1", "r1"}, {"c1", "r1"},
                                                        {"b2", "r2"}, {"a3", "r3"}, {"a4", "r4"}};
  for (const auto& [load, mad] : folded) {
    auto it = folds.loads.find(Def(load));
    ASSERT_NE(it, folds.loads.end()) << load;
    EXPECT_EQ(it->second, Def(mad)) << load;
  }
  // a2: a store lies between it and r2; b3: r3 and r4 both read it; a5, b5: another block.
  for (const char* load : {"a2", "b3", "a5", "b5"}) {
    EXPECT_EQ(folds.loads.count(Def(load)), 0u) << load;
  }
  EXPECT_EQ(folds.loads.size(), std::size(folded));
}

TEST_F(MatrixOperandFoldingTest, FoldsAStoreOfTheResultOnlyPastRegisterComputations) {
  const MatrixOperandFolds folds = FindMatrixOperandFolds(Kernel());
  // r1's store follows a pointer cast; r2 and r3 are followed by loads (which may read what a
  // store of them writes), r4's store by a load of the same variable; r5 is stored right away.
  ASSERT_EQ(folds.stores.count(Def("r1")), 1u);
  EXPECT_EQ(folds.stores.at(Def("r1"))->opcode(), spv::Op::OpStore);
  EXPECT_EQ(folds.stores.at(Def("r1"))->word(1), Def("r1")->result_id());
  for (const char* mad : {"r2", "r3", "r4"}) EXPECT_EQ(folds.stores.count(Def(mad)), 0u) << mad;
  ASSERT_EQ(folds.stores.count(Def("r5")), 1u);
  EXPECT_EQ(folds.stores.at(Def("r5"))->word(1), Def("r5")->result_id());
  EXPECT_EQ(folds.stores.size(), 2u);
}

}  // namespace
}  // namespace xmx::interp
