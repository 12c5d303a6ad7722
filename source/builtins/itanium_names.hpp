// Reading the Itanium-mangled names (`_Z<length><name><parameter types>`) that OpenCL C
// front ends give overloaded built-ins. Only what built-in signatures use is decoded: builtin
// scalar types, vectors (`Dv<N>_`), pointers with address-space and CV qualifiers, named types
// (`12memory_order`, `11ocl_image2d`) and substitutions (`S_`, `S<n>_`), which clang uses for a
// repeated vector or pointer type (`Dv8_iS_` is int8, int8).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace xmx::builtins {

// One parameter type. A pointer keeps its pointee's scalar and vector fields.
struct MangledType {
  // The Itanium code of the scalar (or vector component, or pointee) type: 'v' void, 'b' bool,
  // 'c' char, 'a' signed char, 'h' uchar, 's' short, 't' ushort, 'i' int, 'j' uint, 'l' long,
  // 'm' ulong, 'f' float, 'd' double, 'H' half (`Dh`); '\0' for a named type.
  char scalar = '\0';
  uint32_t vector = 0;  // components of a `Dv<N>_` vector, 0 for a scalar
  bool pointer = false;
  uint32_t address_space = 0;  // `U3AS<n>` on the pointee (0: private / none)
  std::string name;            // a named (class or vendor) type, e.g. "ocl_image2d_ro"

  // Whether the scalar code is an unsigned integer ('h', 't', 'j', 'm').
  bool IsUnsignedInteger() const;
  // Whether it is a signed integer ('c', 'a', 's', 'i', 'l').
  bool IsSignedInteger() const;
};

struct MangledName {
  std::string_view base;            // the function's source name
  std::vector<MangledType> params;  // empty for `v` (no parameters)
};

// The base name of `linkage_name` and its decoded parameters. An unmangled name gives itself
// with no parameters and `mangled` false. A mangled name whose parameters use something not
// decoded here keeps its base name with `params_known` false.
struct ParsedName {
  MangledName name;
  bool mangled = false;
  bool params_known = false;
};
ParsedName ParseLinkageName(std::string_view linkage_name);

}  // namespace xmx::builtins
