// ir::Instruction keeps its operands in InlineVector (inline_vector.hpp): the first few inside
// the instruction, the rest on the heap. These tests edit vectors and instructions across that
// boundary and compare them with std::vector models.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "xmx/inline_vector.hpp"
#include "xmx/module.hpp"

namespace xmx {
namespace {

template <typename T, uint32_t N>
std::vector<T> Elements(const InlineVector<T, N>& v) {
  return std::vector<T>(v.begin(), v.end());
}

TEST(IrInlineVector, GrowsPastItsInlinePartAndKeepsOrder) {
  InlineVector<uint32_t, 3> v;
  std::vector<uint32_t> model;
  for (uint32_t i = 0; i < 40; ++i) {
    v.push_back(i * 7);
    model.push_back(i * 7);
    ASSERT_EQ(Elements(v), model) << "after " << i + 1 << " elements";
  }
  EXPECT_GE(v.capacity(), 40u);
}

TEST(IrInlineVector, InsertsAndErasesInTheMiddle) {
  for (size_t start : {0u, 2u, 3u, 9u}) {
    SCOPED_TRACE(start);
    InlineVector<uint32_t, 4> v;
    std::vector<uint32_t> model(start);
    std::iota(model.begin(), model.end(), 100);
    v.append(model.data(), model.size());
    const std::vector<uint32_t> extra = {1, 2, 3, 4, 5};
    const size_t at = start / 2;
    v.insert(at, extra.data(), extra.size());
    model.insert(model.begin() + static_cast<std::ptrdiff_t>(at), extra.begin(), extra.end());
    EXPECT_EQ(Elements(v), model);
    v.erase(at + 1, 3);
    model.erase(model.begin() + static_cast<std::ptrdiff_t>(at + 1),
                model.begin() + static_cast<std::ptrdiff_t>(at + 4));
    EXPECT_EQ(Elements(v), model);
  }
}

TEST(IrInlineVector, InsertingItsOwnElementsCopiesThemFirst) {
  // Inline, and on the heap; inserting may move (or reallocate) the elements being inserted.
  for (uint32_t size : {3u, 10u}) {
    SCOPED_TRACE(size);
    InlineVector<uint32_t, 4> v;
    std::vector<uint32_t> model;
    for (uint32_t i = 0; i < size; ++i) {
      v.push_back(i + 1);
      model.push_back(i + 1);
    }
    v.insert(0, v.data() + 1, 2);
    const std::vector<uint32_t> inserted(model.begin() + 1, model.begin() + 3);
    model.insert(model.begin(), inserted.begin(), inserted.end());
    EXPECT_EQ(Elements(v), model);
    v.push_back(v[0]);
    model.push_back(model[0]);
    EXPECT_EQ(Elements(v), model);
  }
}

TEST(IrInlineVector, CopiesAndMovesLeaveIndependentVectors) {
  for (uint32_t size : {2u, 4u, 12u}) {
    SCOPED_TRACE(size);
    InlineVector<uint32_t, 4> v;
    for (uint32_t i = 0; i < size; ++i) v.push_back(i);
    const std::vector<uint32_t> model = Elements(v);

    InlineVector<uint32_t, 4> copy = v;
    copy.push_back(99);
    EXPECT_EQ(Elements(v), model);

    InlineVector<uint32_t, 4> moved = std::move(v);
    EXPECT_EQ(Elements(moved), model);
    EXPECT_TRUE(v.empty());  // NOLINT(bugprone-use-after-move): a moved-from vector is empty
    v.push_back(5);          // and usable
    EXPECT_EQ(Elements(v), std::vector<uint32_t>{5});

    InlineVector<uint32_t, 4> assigned;
    for (uint32_t i = 0; i < 9; ++i) assigned.push_back(7);
    assigned = moved;
    EXPECT_EQ(Elements(assigned), model);
    assigned = std::move(copy);
    std::vector<uint32_t> with_99 = model;
    with_99.push_back(99);
    EXPECT_EQ(Elements(assigned), with_99);
  }
}

// An instruction with more operands and words than fit inline, edited operand by operand.
TEST(IrInstructionStorage, OperandEditsAcrossTheInlineLimit) {
  ir::Instruction inst(spv::Op::OpFunctionCall, 1, 2);
  std::vector<std::vector<uint32_t>> model;
  inst.AddIdOperand(3);
  model.push_back({3});
  for (uint32_t i = 0; i < 12; ++i) {
    inst.AddIdOperand(10 + i);
    model.push_back({10 + i});
  }
  auto check = [&] {
    ASSERT_EQ(inst.num_operands(), model.size());
    std::vector<uint32_t> all;
    for (size_t i = 0; i < model.size(); ++i) {
      const ir::OperandView op = inst.operand(i);
      EXPECT_EQ(std::vector<uint32_t>(op.words.begin(), op.words.end()), model[i]) << i;
      all.insert(all.end(), model[i].begin(), model[i].end());
    }
    const std::span<const uint32_t> words = inst.operand_words();
    EXPECT_EQ(std::vector<uint32_t>(words.begin(), words.end()), all);
    EXPECT_EQ(inst.WordCount(), 3 + all.size());
  };
  check();

  // A longer operand from the instruction's own words, then a shorter one.
  const std::span<const uint32_t> own = inst.operand_words().subspan(2, 4);
  model[1] = std::vector<uint32_t>(own.begin(), own.end());
  inst.SetOperand(1, grammar::OperandKindId::kLiteralString, own);
  check();
  inst.SetOperand(1, grammar::OperandKindId::kIdRef, std::vector<uint32_t>{77});
  model[1] = {77};
  check();
  inst.SetWord(5, 55);
  model[5] = {55};
  check();
  inst.RemoveOperands(2, 8);
  model.erase(model.begin() + 2, model.begin() + 10);
  check();

  // A copy is independent of the original.
  ir::Instruction copy = inst;
  copy.SetWord(0, 1000);
  EXPECT_EQ(inst.word(0), 3u);
  std::vector<uint32_t> emitted;
  inst.AppendWords(&emitted);
  EXPECT_EQ(emitted.size(), inst.WordCount());
  EXPECT_EQ(emitted[0] & 0xFFFF, static_cast<uint32_t>(spv::Op::OpFunctionCall));
}

}  // namespace
}  // namespace xmx
