// Names of the device-layer enums, count rules and the small DeviceProfile queries.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>

#include "device/block2d_classes.hpp"
#include "device/match_support.hpp"
#include "xmx/device.hpp"

namespace xmx::device {
namespace {

// The grammar's class of each Block2dOp, in the enum's order: the one place where the public
// enum meets the grammar (a test checks that every block2d class of the grammar is here).
constexpr grammar::OpcodeClass kBlock2dClasses[] = {
    grammar::OpcodeClass::kBlock2dLoad,          grammar::OpcodeClass::kBlock2dLoadTransform,
    grammar::OpcodeClass::kBlock2dLoadTranspose, grammar::OpcodeClass::kBlock2dPrefetch,
    grammar::OpcodeClass::kBlock2dStore,
};
static_assert(std::size(kBlock2dClasses) == static_cast<size_t>(Block2dOp::kStore) + 1);

constexpr std::array<std::pair<ElementType, std::string_view>, 15> kElementTypeNames = {{
    {ElementType::kI4, "i4"},
    {ElementType::kU4, "u4"},
    {ElementType::kI8, "i8"},
    {ElementType::kU8, "u8"},
    {ElementType::kI16, "i16"},
    {ElementType::kI32, "i32"},
    {ElementType::kI64, "i64"},
    {ElementType::kF16, "f16"},
    {ElementType::kBF16, "bf16"},
    {ElementType::kTF32, "tf32"},
    {ElementType::kF32, "f32"},
    {ElementType::kF64, "f64"},
    {ElementType::kF8E4M3, "f8e4m3"},
    {ElementType::kF8E5M2, "f8e5m2"},
    {ElementType::kF4E2M1, "f4e2m1"},
}};

}  // namespace

std::string_view ElementTypeName(ElementType type) {
  for (const auto& [t, name] : kElementTypeNames) {
    if (t == type) return name;
  }
  return "?";
}

std::optional<ElementType> ParseElementType(std::string_view name) {
  for (const auto& [t, n] : kElementTypeNames) {
    if (n == name) return t;
  }
  return std::nullopt;
}

bool IsSpirvScalarType(ElementType type) {
  switch (type) {
    case ElementType::kI8:
    case ElementType::kI16:
    case ElementType::kI32:
    case ElementType::kI64:
    case ElementType::kF16:
    case ElementType::kF32:
    case ElementType::kF64:
      return true;
    default:
      return false;
  }
}

std::string_view ConfidenceName(Confidence confidence) {
  switch (confidence) {
    case Confidence::kSpec:
      return "spec";
    case Confidence::kDraft:
      return "draft";
    case Confidence::kImplementation:
      return "implementation";
    case Confidence::kConvention:
      return "convention";
  }
  return "spec";
}

grammar::OpcodeClass OpcodeClassOf(Block2dOp op) {
  return kBlock2dClasses[static_cast<size_t>(op)];
}

std::optional<Block2dOp> Block2dOpOf(grammar::OpcodeClass op_class) {
  for (size_t i = 0; i < std::size(kBlock2dClasses); ++i) {
    if (kBlock2dClasses[i] == op_class) return static_cast<Block2dOp>(i);
  }
  return std::nullopt;
}

// The member of the grammar's tag ("block2d.load_transform") is the device tables' spelling.
std::string_view Block2dOpName(Block2dOp op) {
  return grammar::GetOpcodeClass(OpcodeClassOf(op)).member_name;
}

std::string_view Block2dInstructionName(Block2dOp op) {
  return grammar::FindInstruction(OpcodeClassOf(op))->name;
}

std::string_view SubgroupOpName(SubgroupOp op) {
  switch (op) {
    case SubgroupOp::kShuffle:
      return "shuffle";
    case SubgroupOp::kBlockIo:
      return "block_io";
    case SubgroupOp::kImageBlockIo:
      return "image_block_io";
    case SubgroupOp::kGroupBroadcast:
      return "group_broadcast";
    case SubgroupOp::kGroupIAdd:
      return "group_iadd";
    case SubgroupOp::kGroupMinMax:
      return "group_min_max";
  }
  return "";
}

bool IsGroupOp(SubgroupOp op) {
  return op == SubgroupOp::kGroupBroadcast || op == SubgroupOp::kGroupIAdd ||
         op == SubgroupOp::kGroupMinMax;
}

uint32_t ComponentSpec::Count(uint32_t m) const {
  switch (rule) {
    case CountRule::kFixed:
      return fixed;
    case CountRule::kM:
      return m;
    case CountRule::kHalfM:
      return m / 2;
    case CountRule::kCeilHalfM:
      return (m + 1) / 2;
  }
  return 0;
}

std::string ComponentSpec::ToString() const {
  std::string out(ElementTypeName(type));
  out += " x ";
  switch (rule) {
    case CountRule::kFixed:
      return out + std::to_string(fixed);
    case CountRule::kM:
      return out + "M";
    case CountRule::kHalfM:
      return out + "M/2";
    case CountRule::kCeilHalfM:
      return out + "ceil(M/2)";
  }
  return out;
}

uint32_t PerElementSize::Get(uint32_t element_size, uint32_t fallback) const {
  for (const auto& [size, value] : values) {
    if (size == element_size) return value;
  }
  return fallback;
}

bool DeviceProfile::SupportsSubgroupSize(uint32_t size) const {
  if (any_power_of_two_subgroup_size) return size != 0 && std::has_single_bit(size);
  return std::find(subgroup_sizes.begin(), subgroup_sizes.end(), size) != subgroup_sizes.end();
}

const ExtensionEntry* DeviceProfile::FindExtension(std::string_view extension) const {
  for (const ExtensionEntry& entry : extensions) {
    if (entry.name == extension) return &entry;
  }
  return nullptr;
}

bool DeviceProfile::ExposesExtension(std::string_view extension) const {
  return any_extension || FindExtension(extension) != nullptr;
}

bool DeviceProfile::HasFeature(std::string_view feature) const {
  return std::find(subgroup_type_features.begin(), subgroup_type_features.end(), feature) !=
         subgroup_type_features.end();
}

namespace internal {

std::string FormatMismatch(const Mismatch& mismatch, std::string_view instruction,
                           std::string_view device) {
  std::string out = mismatch.field + " " + mismatch.found + " is not supported" + mismatch.context +
                    " by " + std::string(instruction) + " on device " + std::string(device);
  if (!mismatch.supported.empty()) out += "; supported: " + Join(mismatch.supported);
  return out;
}

std::string_view ScalarKindName(ScalarKind kind) {
  return kind == ScalarKind::kInt ? "int" : "float";
}

namespace {
double Log2(uint32_t v) { return std::log2(static_cast<double>(std::max<uint32_t>(v, 1))); }
double Distance(const MatrixShape& x, const MatrixShape& y) {
  return std::abs(Log2(x.m) - Log2(y.m)) + std::abs(Log2(x.n) - Log2(y.n)) +
         std::abs(Log2(x.k) - Log2(y.k));
}
}  // namespace

std::vector<MatrixShape> NearestShapes(std::vector<MatrixShape> valid, const MatrixShape& shape,
                                       size_t count) {
  std::stable_sort(valid.begin(), valid.end(), [&](const MatrixShape& x, const MatrixShape& y) {
    const double dx = Distance(x, shape), dy = Distance(y, shape);
    if (dx != dy) return dx < dy;
    return std::tie(x.m, x.n, x.k) > std::tie(y.m, y.n, y.k);
  });
  if (valid.size() > count) valid.resize(count);
  return valid;
}

std::optional<MatrixShape> LargestShape(
    const std::vector<std::pair<MatrixShape, uint32_t>>& candidates) {
  std::optional<MatrixShape> best;
  uint32_t best_subgroup_size = 0;
  for (const auto& [shape, subgroup_size] : candidates) {
    const uint64_t volume = uint64_t{shape.m} * shape.n * shape.k;
    const uint64_t best_volume = best ? uint64_t{best->m} * best->n * best->k : 0;
    if (!best || volume > best_volume ||
        (volume == best_volume && subgroup_size < best_subgroup_size)) {
      best = shape;
      best_subgroup_size = subgroup_size;
    }
  }
  return best;
}

}  // namespace internal
}  // namespace xmx::device
