#include "text/friendly_names.hpp"

#include <charconv>

#include "text/number_format.hpp"
#include "xmx/spirv_enums.hpp"

namespace xmx::text {
namespace {

using spv::BuiltIn;
using spv::Op;

// The canonical decimal spelling of a uint32_t ("0", "17"; not "017"), or nothing.
bool ParseCanonicalNumber(std::string_view s, uint32_t* value) {
  if (s.empty() || s.size() > 10 || (s.size() > 1 && s[0] == '0')) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > 0xFFFFFFFFu) return false;
  *value = static_cast<uint32_t>(v);
  return true;
}

// spirv-dis names these built-in variables after their GLSL or OpenCL spelling.
const char* BuiltInName(uint32_t built_in) {
  switch (static_cast<BuiltIn>(built_in)) {
    case BuiltIn::Position:
      return "gl_Position";
    case BuiltIn::PointSize:
      return "gl_PointSize";
    case BuiltIn::ClipDistance:
      return "gl_ClipDistance";
    case BuiltIn::CullDistance:
      return "gl_CullDistance";
    case BuiltIn::VertexId:
      return "gl_VertexID";
    case BuiltIn::InstanceId:
      return "gl_InstanceID";
    case BuiltIn::PrimitiveId:
      return "gl_PrimitiveID";
    case BuiltIn::InvocationId:
      return "gl_InvocationID";
    case BuiltIn::Layer:
      return "gl_Layer";
    case BuiltIn::ViewportIndex:
      return "gl_ViewportIndex";
    case BuiltIn::TessLevelOuter:
      return "gl_TessLevelOuter";
    case BuiltIn::TessLevelInner:
      return "gl_TessLevelInner";
    case BuiltIn::TessCoord:
      return "gl_TessCoord";
    case BuiltIn::PatchVertices:
      return "gl_PatchVertices";
    case BuiltIn::FragCoord:
      return "gl_FragCoord";
    case BuiltIn::PointCoord:
      return "gl_PointCoord";
    case BuiltIn::FrontFacing:
      return "gl_FrontFacing";
    case BuiltIn::SampleId:
      return "gl_SampleID";
    case BuiltIn::SamplePosition:
      return "gl_SamplePosition";
    case BuiltIn::SampleMask:
      return "gl_SampleMask";
    case BuiltIn::FragDepth:
      return "gl_FragDepth";
    case BuiltIn::HelperInvocation:
      return "gl_HelperInvocation";
    case BuiltIn::NumWorkgroups:
      return "gl_NumWorkGroups";
    case BuiltIn::WorkgroupSize:
      return "gl_WorkGroupSize";
    case BuiltIn::WorkgroupId:
      return "gl_WorkGroupID";
    case BuiltIn::LocalInvocationId:
      return "gl_LocalInvocationID";
    case BuiltIn::GlobalInvocationId:
      return "gl_GlobalInvocationID";
    case BuiltIn::LocalInvocationIndex:
      return "gl_LocalInvocationIndex";
    case BuiltIn::WorkDim:
      return "WorkDim";
    case BuiltIn::GlobalSize:
      return "GlobalSize";
    case BuiltIn::EnqueuedWorkgroupSize:
      return "EnqueuedWorkgroupSize";
    case BuiltIn::GlobalOffset:
      return "GlobalOffset";
    case BuiltIn::GlobalLinearId:
      return "GlobalLinearId";
    case BuiltIn::SubgroupSize:
      return "SubgroupSize";
    case BuiltIn::SubgroupMaxSize:
      return "SubgroupMaxSize";
    case BuiltIn::NumSubgroups:
      return "NumSubgroups";
    case BuiltIn::NumEnqueuedSubgroups:
      return "NumEnqueuedSubgroups";
    case BuiltIn::SubgroupId:
      return "SubgroupId";
    case BuiltIn::SubgroupLocalInvocationId:
      return "SubgroupLocalInvocationId";
    case BuiltIn::VertexIndex:
      return "gl_VertexIndex";
    case BuiltIn::InstanceIndex:
      return "gl_InstanceIndex";
    case BuiltIn::SubgroupEqMask:
      return "SubgroupEqMaskKHR";
    case BuiltIn::SubgroupGeMask:
      return "SubgroupGeMaskKHR";
    case BuiltIn::SubgroupGtMask:
      return "SubgroupGtMaskKHR";
    case BuiltIn::SubgroupLeMask:
      return "SubgroupLeMaskKHR";
    case BuiltIn::SubgroupLtMask:
      return "SubgroupLtMaskKHR";
    default:
      return nullptr;
  }
}

// An enumerant's name, or what SPIRV-Tools substitutes for an unknown value.
std::string EnumName(grammar::OperandKindId kind, uint32_t value) {
  if (const grammar::Enumerant* e = grammar::FindEnumerant(kind, value)) return e->name;
  return "StorageClass" + std::to_string(value);
}

}  // namespace

void FriendlyNames::Reset(uint32_t bound, size_t max_dense) {
  arena_.clear();
  dense_.assign(std::min<size_t>(bound, max_dense), Entry{});
  sparse_.clear();
  used_numbers_dense_.assign(dense_.size(), 0);
  used_numbers_sparse_.clear();
  used_names_.clear();
  next_suffix_.clear();
}

std::string FriendlyNames::Sanitize(std::string_view name) {
  if (name.empty()) return "_";
  std::string result(name);
  for (char& c : result) {
    const bool valid =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!valid) c = '_';
  }
  return result;
}

void FriendlyNames::AppendDecimal(uint32_t value, std::string* out) {
  char buf[16];
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  out->append(buf, result.ptr);
}

size_t FriendlyNames::DecimalLength(uint32_t value) {
  size_t n = 1;
  while (value >= 10) {
    value /= 10;
    ++n;
  }
  return n;
}

FriendlyNames::Entry* FriendlyNames::Slot(uint32_t id) {
  return id < dense_.size() ? &dense_[id] : &sparse_[id];
}

bool FriendlyNames::Claim(std::string_view name) {
  uint32_t number;
  if (ParseCanonicalNumber(name, &number)) {
    if (number < used_numbers_dense_.size()) {
      if (used_numbers_dense_[number]) return false;
      used_numbers_dense_[number] = 1;
      return true;
    }
    return used_numbers_sparse_.insert(number).second;
  }
  return used_names_.emplace(name).second;
}

void FriendlyNames::Store(uint32_t id, std::string_view name) {
  Entry* e = Slot(id);
  e->present = true;
  uint32_t number;
  if (ParseCanonicalNumber(name, &number) && number == id) {
    e->length = kNumeric;
    return;
  }
  e->offset = static_cast<uint32_t>(arena_.size());
  e->length = static_cast<uint32_t>(name.size());
  arena_.append(name);
}

void FriendlyNames::Save(uint32_t id, std::string_view suggested) {
  if (Has(id)) return;
  std::string name = Sanitize(suggested);
  if (!Claim(name)) {
    // Try name_0, name_1, ... as SPIRV-Tools does, but resume where the last search for this
    // base stopped: names are never released, so the skipped suffixes are still taken. This
    // keeps a module with many equal OpNames linear.
    name.push_back('_');
    uint32_t& index = next_suffix_[name];
    const size_t base_length = name.size();
    for (;; ++index) {
      name.resize(base_length);
      AppendDecimal(index, &name);
      if (Claim(name)) break;
    }
    ++index;
  }
  Store(id, name);
}

void FriendlyNames::SaveNumeric(uint32_t id) {
  if (Has(id)) return;
  if (id < used_numbers_dense_.size() && !used_numbers_dense_[id]) {
    used_numbers_dense_[id] = 1;  // the common case, without building the string
    Entry* e = Slot(id);
    e->present = true;
    e->length = kNumeric;
    return;
  }
  Save(id, std::to_string(id));
}

void FriendlyNames::OnInstruction(const binary::ParsedInstruction& inst) {
  const std::span<const uint32_t> w = inst.words;
  const uint32_t result_id = inst.result_id;
  switch (static_cast<Op>(inst.opcode)) {
    case Op::OpName:
      if (w.size() >= 3) Save(w[1], binary::DecodeString(w.subspan(2)));
      break;
    case Op::OpDecorate:
      // Decorations come after OpName, so an OpName takes precedence.
      if (w.size() > 3 && w[2] == static_cast<uint32_t>(spv::Decoration::BuiltIn)) {
        if (const char* name = BuiltInName(w[3])) Save(w[1], name);
      }
      break;
    case Op::OpTypeVoid:
      Save(result_id, "void");
      break;
    case Op::OpTypeBool:
      Save(result_id, "bool");
      break;
    case Op::OpTypeInt: {
      std::string signedness;
      std::string root;
      switch (w[2]) {
        case 8:
          root = "char";
          break;
        case 16:
          root = "short";
          break;
        case 32:
          root = "int";
          break;
        case 64:
          root = "long";
          break;
        default:
          root = std::to_string(w[2]);
          signedness = "i";
          break;
      }
      if (w[3] == 0) signedness = "u";
      Save(result_id, signedness + root);
    } break;
    case Op::OpTypeFloat:
      // SPV_KHR_bfloat16's encoding operand; newer SPIRV-Tools name such a type "bfloat16".
      if (w.size() > 3 && w[2] == 16 &&
          w[3] == static_cast<uint32_t>(spv::FPEncoding::BFloat16KHR)) {
        Save(result_id, "bfloat16");
        break;
      }
      switch (w[2]) {
        case 16:
          Save(result_id, "half");
          break;
        case 32:
          Save(result_id, "float");
          break;
        case 64:
          Save(result_id, "double");
          break;
        default:
          Save(result_id, "fp" + std::to_string(w[2]));
          break;
      }
      break;
    case Op::OpTypeVector:
      Save(result_id, "v" + std::to_string(w[3]) + Name(w[2]));
      break;
    case Op::OpTypeMatrix:
      Save(result_id, "mat" + std::to_string(w[3]) + Name(w[2]));
      break;
    case Op::OpTypeArray:
      Save(result_id, "_arr_" + Name(w[2]) + "_" + Name(w[3]));
      break;
    case Op::OpTypeRuntimeArray:
      Save(result_id, "_runtimearr_" + Name(w[2]));
      break;
    case Op::OpTypePointer:
      Save(result_id,
           "_ptr_" + EnumName(grammar::OperandKindId::kStorageClass, w[2]) + "_" + Name(w[3]));
      break;
    case Op::OpTypePipe:
      Save(result_id, "Pipe" + EnumName(grammar::OperandKindId::kAccessQualifier, w[2]));
      break;
    case Op::OpTypeEvent:
      Save(result_id, "Event");
      break;
    case Op::OpTypeDeviceEvent:
      Save(result_id, "DeviceEvent");
      break;
    case Op::OpTypeReserveId:
      Save(result_id, "ReserveId");
      break;
    case Op::OpTypeQueue:
      Save(result_id, "Queue");
      break;
    case Op::OpTypeOpaque:
      Save(result_id, "Opaque_" + Sanitize(binary::DecodeString(w.subspan(2))));
      break;
    case Op::OpTypePipeStorage:
      Save(result_id, "PipeStorage");
      break;
    case Op::OpTypeNamedBarrier:
      Save(result_id, "NamedBarrier");
      break;
    case Op::OpTypeStruct:
      Save(result_id, "_struct_" + std::to_string(result_id));
      break;
    case Op::OpConstantTrue:
      Save(result_id, "true");
      break;
    case Op::OpConstantFalse:
      Save(result_id, "false");
      break;
    case Op::OpConstant: {
      if (inst.operands.size() < 3) break;
      const binary::ParsedOperand& value = inst.operands[2];
      scratch_.clear();
      Append(inst.result_type_id, &scratch_);
      scratch_.push_back('_');
      const size_t value_start = scratch_.size();
      AppendNumber(value.number_kind, value.number_bit_width,
                   w.subspan(value.offset, value.num_words), &scratch_);
      // 'n' marks a negative value; other invalid characters become '_' in Save.
      for (size_t i = value_start; i < scratch_.size(); ++i) {
        if (scratch_[i] == '-') scratch_[i] = 'n';
      }
      Save(result_id, scratch_);
    } break;
    default:
      if (result_id) SaveNumeric(result_id);
      break;
  }
}

}  // namespace xmx::text
