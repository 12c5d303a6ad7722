// TypeTable on test/ir/types.spv (see types.spvasm): decoded types, constant values and the
// OpenCL byte sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string_view>

#include "ir/type_table.hpp"
#include "spirv_files.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {
namespace {

Module LoadTypesModule() {
  return spirv_files::ReadModule(std::filesystem::path(XMX_TEST_DIR) / "ir" / "types.spv");
}

class IrTypesTest : public ::testing::Test {
 protected:
  IrTypesTest() : module_(LoadTypesModule()), types_(module_) {}

  // The id named `name` by an OpName.
  uint32_t Id(std::string_view name) const {
    for (const Instruction& inst : module_.debug()) {
      if (inst.opcode() == spv::Op::OpName && inst.StringOperand(1) == name) return inst.word(0);
    }
    ADD_FAILURE() << "no OpName " << name;
    return 0;
  }
  const Type& T(std::string_view name) const {
    const Type* type = types_.GetType(Id(name));
    EXPECT_NE(type, nullptr) << name;
    static const Type kNone{};
    return type ? *type : kNone;
  }

  Module module_;
  TypeTable types_;
};

TEST_F(IrTypesTest, Scalars) {
  EXPECT_EQ(T("void").kind, TypeKind::kVoid);
  EXPECT_EQ(T("bool").kind, TypeKind::kBool);
  EXPECT_EQ(T("char").kind, TypeKind::kInt);
  EXPECT_EQ(T("char").width, 8u);
  EXPECT_FALSE(T("uint").is_signed);
  EXPECT_TRUE(T("sint").is_signed);
  EXPECT_EQ(T("ulong").width, 64u);
  EXPECT_EQ(T("half").kind, TypeKind::kFloat);
  EXPECT_EQ(T("half").width, 16u);
  EXPECT_FALSE(T("half").float_encoding);
  EXPECT_EQ(T("double").width, 64u);
  EXPECT_EQ(types_.GetType(Id("c_uint_5")), nullptr);  // a constant, not a type
}

TEST_F(IrTypesTest, Composites) {
  EXPECT_EQ(T("float3").kind, TypeKind::kVector);
  EXPECT_EQ(T("float3").element, Id("float"));
  EXPECT_EQ(T("float3").count, 3u);
  EXPECT_EQ(T("arr_uint_5").kind, TypeKind::kArray);
  EXPECT_EQ(T("arr_uint_5").element, Id("uint"));
  EXPECT_EQ(T("arr_uint_5").length_id, Id("c_uint_5"));
  EXPECT_EQ(T("arr_uint_5").length, 5u);
  EXPECT_EQ(T("rt_uint").kind, TypeKind::kRuntimeArray);
  const Type& st = T("st");
  EXPECT_EQ(st.kind, TypeKind::kStruct);
  ASSERT_EQ(st.members.size(), 4u);
  EXPECT_EQ(st.members[1], Id("double"));
  EXPECT_EQ(T("fn").kind, TypeKind::kFunction);
  EXPECT_EQ(T("fn").element, Id("void"));
  EXPECT_EQ(std::vector<uint32_t>(T("fn").members.begin(), T("fn").members.end()),
            (std::vector<uint32_t>{Id("ptr_global"), Id("uint")}));
  EXPECT_EQ(T("event").kind, TypeKind::kEvent);
  EXPECT_EQ(T("sampler").kind, TypeKind::kSampler);
  ASSERT_TRUE(T("image").image);
  EXPECT_EQ(T("image").image->dim, spv::Dim::Dim2D);
  EXPECT_EQ(T("image").access, spv::AccessQualifier::ReadOnly);
}

TEST_F(IrTypesTest, PointersByStorageClass) {
  EXPECT_EQ(T("ptr_global").kind, TypeKind::kPointer);
  EXPECT_EQ(T("ptr_global").element, Id("st"));
  EXPECT_EQ(T("ptr_global").storage_class, spv::StorageClass::CrossWorkgroup);
  EXPECT_EQ(T("ptr_local").storage_class, spv::StorageClass::Workgroup);
  EXPECT_EQ(T("ptr_private").storage_class, spv::StorageClass::Function);
  EXPECT_EQ(T("ptr_generic").storage_class, spv::StorageClass::Generic);
  EXPECT_EQ(T("ptr_constant").storage_class, spv::StorageClass::UniformConstant);
}

TEST_F(IrTypesTest, CooperativeMatrix) {
  const Type& coop = T("coop");
  EXPECT_EQ(coop.kind, TypeKind::kCooperativeMatrix);
  EXPECT_EQ(coop.element, Id("float"));
  EXPECT_EQ(types_.GetConstantUInt32(coop.scope_id), 3u);
  EXPECT_EQ(types_.GetConstantUInt32(coop.rows_id), 2u);
  EXPECT_EQ(types_.GetConstantUInt32(coop.columns_id), 16u);
  EXPECT_EQ(types_.GetConstantUInt32(coop.use_id), 0u);
  EXPECT_FALSE(coop.byte_size);
}

TEST_F(IrTypesTest, IntegerConstants) {
  EXPECT_EQ(types_.GetConstantUInt32(Id("c_uint_5")), 5u);
  EXPECT_EQ(types_.GetConstantUInt(Id("c_uint_max")), 0xFFFFFFFFu);
  EXPECT_EQ(types_.GetConstantInt(Id("c_uint_max")), -1);
  EXPECT_EQ(types_.GetConstantUInt(Id("c_char_m1")), 255u);
  EXPECT_EQ(types_.GetConstantInt(Id("c_char_m1")), -1);
  EXPECT_FALSE(types_.GetConstantUInt32(Id("c_char_m1")));  // 8-bit, not 32-bit
  EXPECT_EQ(types_.GetConstantUInt(Id("c_short_7")), 7u);
  EXPECT_EQ(types_.GetConstantInt(Id("c_sint_m3")), -3);
  EXPECT_EQ(types_.GetConstantUInt(Id("c_sint_m3")), 0xFFFFFFFDu);
  EXPECT_EQ(types_.GetConstantUInt(Id("c_ulong_big")), 0xFFFFFFFF00000001u);
  EXPECT_EQ(types_.GetConstantInt(Id("c_ulong_big")), -0xFFFFFFFFll);
  EXPECT_EQ(types_.GetConstantUInt32(Id("c_null_uint")), 0u);
  EXPECT_FALSE(types_.GetConstantUInt(Id("c_float")));
  EXPECT_FALSE(types_.GetConstantUInt(Id("c_uint4")));
  EXPECT_FALSE(types_.GetConstantUInt(Id("uint")));
}

TEST_F(IrTypesTest, FloatAndBoolConstants) {
  EXPECT_EQ(types_.GetConstantFloat(Id("c_half")), 1.5);
  EXPECT_EQ(types_.GetConstantFloat(Id("c_half_sub")), -std::ldexp(1.0, -24));
  EXPECT_EQ(types_.GetConstantFloat(Id("c_float")), -2.5);
  EXPECT_EQ(types_.GetConstantFloat(Id("c_double")), 1e100);
  EXPECT_EQ(types_.GetConstantFloat(Id("c_null_float")), 0.0);
  EXPECT_FALSE(types_.GetConstantFloat(Id("c_uint_5")));
  EXPECT_EQ(types_.GetConstantBool(Id("c_true")), true);
  EXPECT_EQ(types_.GetConstantBool(Id("c_false")), false);
  EXPECT_FALSE(types_.GetConstantBool(Id("c_uint_5")));
}

TEST_F(IrTypesTest, CompositeAndSpecConstants) {
  const Constant* composite = types_.GetConstant(Id("c_uint4"));
  ASSERT_NE(composite, nullptr);
  EXPECT_EQ(composite->kind, ConstantKind::kComposite);
  EXPECT_EQ(composite->type_id, Id("uint4"));
  EXPECT_EQ(
      std::vector<uint32_t>(composite->words.begin(), composite->words.end()),
      (std::vector<uint32_t>{Id("c_uint_5"), Id("c_uint_max"), Id("c_null_uint"), Id("c_uint_5")}));
  const Constant* spec = types_.GetConstant(Id("c_spec"));
  ASSERT_NE(spec, nullptr);
  EXPECT_TRUE(spec->is_spec);
  EXPECT_FALSE(types_.GetConstantUInt(Id("c_spec")));  // may be overridden
  EXPECT_EQ(types_.GetConstantUInt(Id("c_spec"), /*allow_spec=*/true), 7u);
  EXPECT_FALSE(types_.GetConstantBool(Id("c_spec_true")));
  EXPECT_EQ(types_.GetConstantBool(Id("c_spec_true"), /*allow_spec=*/true), true);
}

TEST_F(IrTypesTest, ByteSizesUnderPhysical64) {
  EXPECT_EQ(types_.pointer_size(), 8u);
  EXPECT_EQ(types_.GetByteSize(Id("char")), 1u);
  EXPECT_EQ(types_.GetByteSize(Id("half")), 2u);
  EXPECT_EQ(types_.GetByteSize(Id("double")), 8u);
  EXPECT_EQ(types_.GetByteSize(Id("half2")), 4u);
  // A 3-component vector takes the size and alignment of 4 components.
  EXPECT_EQ(types_.GetByteSize(Id("float3")), 16u);
  EXPECT_EQ(types_.GetAlignment(Id("float3")), 16u);
  EXPECT_EQ(types_.GetByteSize(Id("arr_uint_5")), 20u);
  EXPECT_EQ(types_.GetAlignment(Id("arr_uint_5")), 4u);
  EXPECT_EQ(types_.GetByteSize(Id("arr_float3_2")), 32u);
  // {char @0, double @8, float3 @16, short @32}, padded to its 16-byte alignment.
  EXPECT_EQ(types_.GetByteSize(Id("st")), 48u);
  EXPECT_EQ(types_.GetAlignment(Id("st")), 16u);
  // CPacked: no padding.
  EXPECT_EQ(types_.GetByteSize(Id("packed")), 11u);
  EXPECT_EQ(types_.GetAlignment(Id("packed")), 1u);
  EXPECT_EQ(types_.GetByteSize(Id("ptr_global")), 8u);
  EXPECT_FALSE(types_.GetByteSize(Id("rt_uint")));
  EXPECT_FALSE(types_.GetByteSize(Id("fn")));
  EXPECT_FALSE(types_.GetByteSize(Id("void")));
}

TEST_F(IrTypesTest, PointerSizeFollowsTheAddressingModel) {
  module_.memory_model()->SetWord(0, static_cast<uint32_t>(spv::AddressingModel::Physical32));
  const TypeTable physical32(module_);
  EXPECT_EQ(physical32.pointer_size(), 4u);
  EXPECT_EQ(physical32.GetByteSize(Id("ptr_local")), 4u);
  module_.memory_model()->SetWord(0, static_cast<uint32_t>(spv::AddressingModel::Logical));
  const TypeTable logical(module_);
  EXPECT_FALSE(logical.pointer_size());
  EXPECT_FALSE(logical.GetByteSize(Id("ptr_local")));
  EXPECT_EQ(logical.GetByteSize(Id("st")), 48u);
}

}  // namespace
}  // namespace xmx::ir
