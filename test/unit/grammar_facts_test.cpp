// The facts the generator derives from our grammar files (operand roles and positions, opcode
// classes) and the decoders built on them (ir/block2d_operands, ir/matrix_mad_operands), checked
// against the operand orders the extension specifications give (SPEC-NOTES A.2, B.2).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "device/block2d_classes.hpp"
#include "grammar/grammar.hpp"
#include "ir/block2d_operands.hpp"
#include "ir/matrix_mad_operands.hpp"
#include "xmx/device.hpp"

namespace xmx {
namespace {

using grammar::OpcodeClass;
using grammar::OpcodeFamily;
using grammar::OperandRole;

ir::Instruction WithIds(spv::Op opcode, uint32_t count, uint32_t first_id = 100) {
  ir::Instruction inst(opcode);
  for (uint32_t i = 0; i < count; ++i) inst.AddIdOperand(first_id + i);
  return inst;
}

TEST(GrammarFacts, OperandPositionsFollowTheSpecification) {
  const grammar::Instruction* load = grammar::FindInstruction("OpSubgroup2DBlockLoadINTEL");
  const grammar::Instruction* store = grammar::FindInstruction("OpSubgroup2DBlockStoreINTEL");
  ASSERT_NE(load, nullptr);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(grammar::OperandIndex(*load, OperandRole::kElementSize), 0u);
  EXPECT_EQ(grammar::OperandIndex(*load, OperandRole::kBlockCount), 3u);
  EXPECT_EQ(grammar::OperandIndex(*load, OperandRole::kSrcBasePointer), 4u);
  EXPECT_EQ(grammar::OperandIndex(*load, OperandRole::kDstPointer), 9u);
  EXPECT_EQ(grammar::OperandIndex(*load, OperandRole::kSrcPointer), std::nullopt);
  // A.2: the store's private source comes before the global destination.
  EXPECT_EQ(grammar::OperandIndex(*store, OperandRole::kSrcPointer), 4u);
  EXPECT_EQ(grammar::OperandIndex(*store, OperandRole::kDstBasePointer), 5u);
  EXPECT_EQ(grammar::OperandIndex(*store, OperandRole::kCoordinate), 9u);

  // Result Type and Result are not counted.
  const grammar::Instruction* mad =
      grammar::FindInstruction("OpSubgroupMatrixMultiplyAccumulateINTEL");
  ASSERT_NE(mad, nullptr);
  EXPECT_EQ(grammar::OperandIndex(*mad, OperandRole::kKDim), 0u);
  EXPECT_EQ(grammar::OperandIndex(*mad, OperandRole::kMatrixC), 3u);
  EXPECT_EQ(grammar::OperandIndex(*mad, OperandRole::kMatrixMultiplyAccumulateOperands), 4u);
  // A core instruction has no roles.
  const grammar::Instruction* iadd = grammar::FindInstruction("OpIAdd");
  ASSERT_NE(iadd, nullptr);
  for (const grammar::Operand& operand : iadd->operands)
    EXPECT_EQ(operand.role, OperandRole::kNone);
  EXPECT_EQ(grammar::OperandName(store->operands[4]), "Src Pointer");
}

TEST(GrammarFacts, OpcodeClassesNameOneInstructionEach) {
  EXPECT_EQ(grammar::ClassOf(static_cast<uint32_t>(spv::Op::OpSubgroup2DBlockLoadTransformINTEL)),
            OpcodeClass::kBlock2dLoadTransform);
  EXPECT_EQ(grammar::ClassOf(static_cast<uint32_t>(spv::Op::OpIAdd)), OpcodeClass::kNone);
  EXPECT_EQ(grammar::FamilyOf(static_cast<uint32_t>(spv::Op::OpCooperativeMatrixMulAddKHR)),
            OpcodeFamily::kCooperativeMatrix);
  EXPECT_EQ(grammar::ClassOf(0xFFFFu), OpcodeClass::kNone);

  std::set<std::string> names;
  for (const grammar::OpcodeClassInfo& c : grammar::ClassesOf(OpcodeFamily::kBlock2d)) {
    EXPECT_EQ(c.family, OpcodeFamily::kBlock2d);
    EXPECT_STREQ(c.family_name, "block2d");
    const grammar::Instruction* inst = grammar::FindInstruction(c.id);
    ASSERT_NE(inst, nullptr);
    EXPECT_EQ(inst->opcode_class, c.id);
    names.insert(inst->name);
  }
  EXPECT_EQ(names, (std::set<std::string>{
                       "OpSubgroup2DBlockLoadINTEL", "OpSubgroup2DBlockLoadTransformINTEL",
                       "OpSubgroup2DBlockLoadTransposeINTEL", "OpSubgroup2DBlockPrefetchINTEL",
                       "OpSubgroup2DBlockStoreINTEL"}));
  EXPECT_EQ(grammar::ClassesOf(OpcodeFamily::kMatrixMad).size(), 2u);
  EXPECT_TRUE(grammar::ClassesOf(OpcodeFamily::kNone).empty());
}

// Every 2D block instruction of the grammar has a device name and back, and its names come from
// the grammar: a sixth instruction without a Block2dOp fails here.
TEST(GrammarFacts, DeviceNamesOfBlock2dInstructions) {
  for (const grammar::OpcodeClassInfo& c : grammar::ClassesOf(OpcodeFamily::kBlock2d)) {
    const std::optional<device::Block2dOp> op = device::Block2dOpOf(c.id);
    ASSERT_TRUE(op.has_value()) << c.member_name;
    EXPECT_EQ(device::OpcodeClassOf(*op), c.id);
    EXPECT_EQ(device::Block2dOpName(*op), c.member_name);
    EXPECT_EQ(device::Block2dInstructionName(*op), grammar::FindInstruction(c.id)->name);
    EXPECT_NE(ir::FindBlock2dOperandPositions(static_cast<spv::Op>(c.opcode)), nullptr);
  }
  EXPECT_EQ(device::Block2dInstructionName(device::Block2dOp::kLoadTranspose),
            "OpSubgroup2DBlockLoadTransposeINTEL");
  EXPECT_EQ(device::Block2dOpName(device::Block2dOp::kLoadTransform), "load_transform");
  EXPECT_EQ(device::Block2dOpOf(OpcodeClass::kMatrixMadUnscaled), std::nullopt);
}

TEST(Block2dOperands, DecodesLoadsStoresAndPrefetches) {
  const std::optional<ir::Block2dOperands> load =
      ir::DecodeBlock2dOperands(WithIds(spv::Op::OpSubgroup2DBlockLoadTransposeINTEL, 10));
  ASSERT_TRUE(load.has_value());
  EXPECT_EQ(load->element_size, 100u);
  EXPECT_EQ(load->block_count, 103u);
  EXPECT_EQ(load->base_pointer, 104u);
  EXPECT_EQ(load->memory_width, 105u);
  EXPECT_EQ(load->coordinate, 108u);
  EXPECT_EQ(load->private_pointer, 109u);
  EXPECT_FALSE(load->positions->private_pointer_is_source);
  EXPECT_EQ(load->positions->base_pointer_name(), "Src Base Pointer");
  EXPECT_EQ(load->positions->private_pointer_name(), "Dst Pointer");

  const std::optional<ir::Block2dOperands> store =
      ir::DecodeBlock2dOperands(WithIds(spv::Op::OpSubgroup2DBlockStoreINTEL, 10));
  ASSERT_TRUE(store.has_value());
  EXPECT_EQ(store->private_pointer, 104u);
  EXPECT_EQ(store->base_pointer, 105u);
  EXPECT_EQ(store->memory_width, 106u);
  EXPECT_EQ(store->memory_pitch, 108u);
  EXPECT_EQ(store->coordinate, 109u);
  EXPECT_TRUE(store->positions->private_pointer_is_source);
  EXPECT_EQ(store->positions->base_pointer_name(), "Dst Base Pointer");
  EXPECT_EQ(store->positions->private_pointer_name(), "Src Pointer");

  const std::optional<ir::Block2dOperands> prefetch =
      ir::DecodeBlock2dOperands(WithIds(spv::Op::OpSubgroup2DBlockPrefetchINTEL, 9));
  ASSERT_TRUE(prefetch.has_value());
  EXPECT_EQ(prefetch->private_pointer, 0u);
  EXPECT_FALSE(prefetch->positions->private_pointer.has_value());
  EXPECT_EQ(prefetch->positions->operand_count, 9u);
  EXPECT_EQ(prefetch->positions->private_pointer_name(), "");

  // Too short, or not a 2D block instruction.
  EXPECT_FALSE(ir::DecodeBlock2dOperands(WithIds(spv::Op::OpSubgroup2DBlockLoadINTEL, 9)));
  EXPECT_FALSE(ir::DecodeBlock2dOperands(WithIds(spv::Op::OpIAdd, 2)));
  EXPECT_FALSE(ir::IsBlock2dOpcode(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL));
}

TEST(MatrixMadOperands, DecodesBothForms) {
  ir::Instruction mad(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL, 1, 2);
  for (uint32_t id : {10u, 11u, 12u, 13u}) mad.AddIdOperand(id);
  std::optional<ir::MatrixMadOperands> decoded = ir::DecodeMatrixMadOperands(mad);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->op_class, OpcodeClass::kMatrixMadUnscaled);
  EXPECT_EQ(decoded->k_dim, 10u);
  EXPECT_EQ(decoded->c, 13u);
  EXPECT_EQ(decoded->operands, 0u);  // absent: None
  EXPECT_FALSE(decoded->scale_a.has_value());
  mad.AddOperand(grammar::OperandKindId::kMatrixMultiplyAccumulateOperands, {0x3000Cu});
  decoded = ir::DecodeMatrixMadOperands(mad);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->operands, 0x3000Cu);

  ir::Instruction scaled(spv::Op::OpSubgroupScaledMatrixMultiplyAccumulateINTEL, 1, 2);
  for (uint32_t id : {10u, 11u, 12u, 13u, 14u, 15u}) scaled.AddIdOperand(id);
  scaled.AddOperand(grammar::OperandKindId::kMatrixMultiplyAccumulateOperands, {0x300000u});
  decoded = ir::DecodeMatrixMadOperands(scaled);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(decoded->scale_a, 14u);
  EXPECT_EQ(decoded->scale_b, 15u);
  EXPECT_EQ(decoded->operands, 0x300000u);

  ir::Instruction short_mad(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL, 1, 2);
  for (uint32_t id : {10u, 11u, 12u}) short_mad.AddIdOperand(id);
  EXPECT_FALSE(ir::DecodeMatrixMadOperands(short_mad));
  EXPECT_FALSE(ir::DecodeMatrixMadOperands(WithIds(spv::Op::OpSubgroup2DBlockLoadINTEL, 10)));
}

}  // namespace
}  // namespace xmx
