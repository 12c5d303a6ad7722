// What our passes need to add declarations to a module without duplicating them: integer, float,
// vector, array and pointer types, integer constants and capabilities, each found in the module
// when it is already declared and created (at the end of its section) when it is not. SPIR-V
// forbids two declarations of the same non-aggregate type, so a pass must reuse the existing one.
//
// The builder reads the module once when constructed and then keeps its own index up to date as
// it adds declarations; a pass that adds types or constants by other means builds a new one.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "xmx/module.hpp"

namespace xmx::opt {

class ModuleBuilder {
 public:
  explicit ModuleBuilder(ir::Module& module);

  ir::Module& module() { return module_; }

  // A fresh id, or 0 when the module's id bound is exhausted (the caller then gives up).
  uint32_t NewId();
  bool out_of_ids() const { return out_of_ids_; }

  // Types. IntType(8/16/64) also declares the Int8/Int16/Int64 capability when missing.
  uint32_t VoidType();
  uint32_t BoolType();
  uint32_t IntType(uint32_t width);
  uint32_t FloatType(uint32_t width);
  uint32_t VectorType(uint32_t component_type, uint32_t count);
  uint32_t ArrayType(uint32_t element_type, uint32_t length);
  uint32_t PointerType(spv::StorageClass storage_class, uint32_t pointee);
  uint32_t FunctionType(uint32_t return_type, const std::vector<uint32_t>& parameter_types);

  // OpConstant of an integer type of `width` bits (low `width` bits of `value`).
  uint32_t IntConstant(uint32_t width, uint64_t value);
  // OpConstantTrue / OpConstantFalse.
  uint32_t BoolConstant(bool value);

  void RequireCapability(spv::Capability capability);

  // An OpConstantComposite of a vector type, every component `component`.
  uint32_t SplatConstant(uint32_t vector_type, uint32_t count, uint32_t component);

  // A function-scope variable of `pointee` type, declared after the other variables at the top of
  // the function's first block. Returns the variable's id.
  uint32_t AddFunctionVariable(ir::Function& function, uint32_t pointee);

 private:
  uint32_t AddGlobal(spv::Op opcode, uint32_t result_type, std::vector<uint32_t> operands,
                     std::vector<grammar::OperandKindId> kinds);

  ir::Module& module_;
  bool out_of_ids_ = false;
  uint32_t void_type_ = 0, bool_type_ = 0, true_ = 0, false_ = 0;
  std::map<uint32_t, uint32_t> int_types_;    // width -> id (Signedness 0)
  std::map<uint32_t, uint32_t> float_types_;  // width -> id (no encoding)
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> vector_types_;
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> array_types_;  // (element, length)
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> pointer_types_;
  std::map<std::vector<uint32_t>, uint32_t> function_types_;         // return type, parameter types
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> int_constants_;  // (type, value)
  std::map<uint32_t, uint64_t> constant_values_;                     // 32-bit int id -> value
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> splats_;         // (vector type, component)
};

}  // namespace xmx::opt
