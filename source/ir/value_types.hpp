// The type of every value of a module: for each id, the Result Type of the instruction that
// defines it (constants, global variables, functions, their parameters, instructions in blocks,
// instructions of any opcode, known or not). Built in one walk; the validator, the bridge and the
// interpreter's loader share it instead of each building the map again.
//
// A snapshot: build a new one after editing the module.
#pragma once

#include <cstdint>

#include "binary/id_table.hpp"
#include "xmx/module.hpp"

namespace xmx::ir {

class ValueTypes {
 public:
  explicit ValueTypes(const Module& module);

  // The type id of the value `id`; 0 when `id` is undefined, or defined by an instruction
  // without a Result Type (a type, a label, ...). When a malformed module defines an id twice,
  // the first definition counts.
  uint32_t TypeId(uint32_t id) const {
    const uint32_t* type = type_of_.Get(id);
    return type ? *type : 0;
  }
  bool HasType(uint32_t id) const { return TypeId(id) != 0; }

 private:
  binary::IdTable<uint32_t> type_of_;
};

}  // namespace xmx::ir
