// Readers of one row (or one limits object) of a device profile, for ReadProfile
// (profile_reader.cpp). Each throws ProfileError naming the JSON path of what is wrong.
#pragma once

#include <string>

#include "device/profile_json.hpp"
#include "xmx/device.hpp"

namespace xmx::device::internal {

MatrixMadRow ReadMatrixMadRow(const json& object, const std::string& path);
Block2dRow ReadBlock2dRow(const json& object, const std::string& path);
SubgroupTypeRow ReadSubgroupTypeRow(const json& object, const std::string& path);
SplitMatrixMadRow ReadSplitRow(const json& object, const std::string& path);
CooperativeMatrixRow ReadCooperativeMatrixRow(const json& object, const std::string& path);
ExtensionEntry ReadExtension(const json& value, const std::string& path);
Block2dLimits ReadBlock2dLimits(const json& value, const std::string& path);

}  // namespace xmx::device::internal
