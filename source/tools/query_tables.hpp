// The answers of xmx-query (CLI.md): the three forms of the SYCL matrix query interface (general,
// default, validation) for the cooperative-matrix (joint_matrix) table and the native matrix
// instruction's table, and the listing / filtering / validation of 2D block shapes. Each answer is
// built once as JSON and as text from the same values, with the exit code CLI.md gives it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "nlohmann/json.hpp"
#include "xmx/device.hpp"

namespace xmx::tools {

struct QueryAnswer {
  nlohmann::json json;
  std::string text;
  int exit_code = 0;  // 0 valid / answered, 1 not valid or not supported
};

enum class MatrixTable : uint8_t { kCooperative, kNative };

struct MatrixQueryInput {
  std::optional<device::MatrixTypes> types;  // absent: general form
  std::optional<device::MatrixShape> shape;  // with types: validation form
  std::optional<uint32_t> subgroup_size;
};

QueryAnswer QueryMatrixTable(const device::DeviceProfile& profile, MatrixTable table,
                             const MatrixQueryInput& input);

struct Block2dQueryInput {
  std::optional<device::Block2dOp> op;
  std::optional<uint32_t> element_size;
  std::optional<uint32_t> width, height;  // both given: validation form (op and size required)
  uint32_t count = 1;
  std::optional<uint32_t> subgroup_size;
};

QueryAnswer QueryBlock2dTable(const device::DeviceProfile& profile, const Block2dQueryInput& input);

}  // namespace xmx::tools
