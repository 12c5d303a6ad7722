// Finding the imported functions that are built-ins of builtin_table.hpp: an OpFunction
// declaration decorated `LinkageAttributes "<name>" Import` whose (demangled) name matches an
// entry. Its OpTypeFunction must then fit one of the entries of that name; a declaration that
// fits none is reported (rule builtin.signature) and none of its calls is upgraded.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "builtins/builtin_table.hpp"
#include "ir/module_info.hpp"
#include "ir/type_table.hpp"
#include "xmx/module.hpp"

namespace xmx::builtins {

struct RecognisedImport {
  uint32_t function_id = 0;
  std::string linkage_name;  // as the module spells it (mangled or not)
  std::string name;          // the built-in's source name
  // The entry the declaration fits, with the fields its name gives; null when it fits none.
  const BuiltinEntry* entry = nullptr;
  NameFields fields{};
  spv::Op opcode = spv::Op::OpNop;  // for kInstruction entries, signedness applied
  std::string mismatch;             // when `entry` is null: what is wrong, for the message

  // "call of 'NAME' (as OpX): ", the prefix of every diagnostic about one of its calls.
  std::string CallPrefix() const;
};

// The linkage name of `function_id` when it is an imported declaration.
std::optional<std::string> ImportedName(const ir::ModuleInfo& info, uint32_t function_id);

// Every imported built-in of the module, by function id.
std::map<uint32_t, RecognisedImport> RecogniseImports(const ir::Module& module,
                                                      const ir::ModuleInfo& info,
                                                      const ir::TypeTable& types);

// "void (pointer CrossWorkgroup, i32, ...)": a function type for messages.
std::string FunctionTypeText(const ir::TypeTable& types, uint32_t function_type_id);

}  // namespace xmx::builtins
