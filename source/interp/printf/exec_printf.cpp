// OpenCL C printf (OpenCL.std 184): the format string is read from the kernel's constant
// memory at run time and each active lane prints in lane order. Output of a work-group is kept
// together and work-groups are printed in order, whatever the thread count.
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "interp/load/loader.hpp"
#include "interp/run/exec_support.hpp"

namespace xmx::interp {
namespace {

struct PrintfData {
  uint32_t format_slot;
  std::vector<uint32_t> arg_slots;
  std::vector<ValueType> arg_types;
  std::vector<bool> arg_is_pointer;
};

// Reads a NUL-terminated string from memory; false when it runs out of its allocation.
bool ReadString(Subgroup& sg, uint64_t pointer, std::string* out) {
  const Allocation* a = sg.group->allocations->Find(PointerAllocation(pointer));
  if (a == nullptr) return false;
  for (uint64_t o = PointerOffset(pointer); o < a->size; ++o) {
    if (a->data[o] == 0) return true;
    out->push_back(static_cast<char>(a->data[o]));
  }
  return false;
}

bool IsFloatConversion(char c) { return c != '\0' && std::strchr("fFeEgGaA", c) != nullptr; }
bool IsIntegerConversion(char c) { return c != '\0' && std::strchr("diouxXc", c) != nullptr; }

// The host's snprintf with one value; "" if it fails (a width beyond INT_MAX, say).
template <typename T>
std::string HostFormat(const std::string& format, T value) {
  char buffer[512];
  buffer[0] = '\0';
  if (std::snprintf(buffer, sizeof(buffer), format.c_str(), value) < 0) return "";
  return buffer;
}

// One conversion of a scalar: `spec` is the directive with OpenCL's length modifiers, and only
// the conversions IsFloatConversion / IsIntegerConversion accept reach here, so the host's printf
// never sees a directive that would read a pointer (%s, %n, %ls) from an integer.
std::string FormatOne(const std::string& spec, char conversion, const uint8_t* value,
                      ScalarType type) {
  std::string s = spec;
  if (IsFloatConversion(conversion)) {
    double v = type.bytes == 8   ? LoadScalar<double>(value)
               : type.bytes == 4 ? LoadScalar<float>(value)
               : type.bytes == 2 ? HalfToFloat(LoadScalar<uint16_t>(value))
                                 : static_cast<double>(*value);
    // Length modifiers of OpenCL vectors (hl, h) mean nothing to the host's printf.
    std::string clean;
    for (char c : s) {
      if (c != 'h' && c != 'l') clean.push_back(c);
    }
    return HostFormat(clean, v);
  }
  uint64_t u = 0;
  std::memcpy(&u, value, std::min<uint32_t>(type.bytes, 8));
  const int shift = 64 - 8 * type.bytes;
  const int64_t i = shift > 0 ? static_cast<int64_t>(u << shift) >> shift : static_cast<int64_t>(u);
  std::string clean;
  for (char c : s) {
    if (c != 'h' && c != 'l') clean.push_back(c);
  }
  clean.insert(clean.size() - 1, "ll");
  // The host's printf takes the "ll" length as long long, whatever int64_t is.
  if (conversion == 'd' || conversion == 'i') {
    return HostFormat(clean, static_cast<long long>(i));  // NOLINT(google-runtime-int)
  }
  if (conversion == 'c') {
    clean.erase(clean.size() - 3, 2);
    return HostFormat(clean, static_cast<int>(u & 0xFF));
  }
  return HostFormat(clean, static_cast<unsigned long long>(u));  // NOLINT(google-runtime-int)
}

const Instr* ExecPrintf(Subgroup& sg, const Instr* in) {
  const PrintfData& d = *static_cast<const PrintfData*>(in->data);
  std::string out;
  ForEachLane(sg.mask, [&](uint32_t lane) {
    std::string format;
    if (!ReadString(sg, sg.reg<uint64_t>(d.format_slot)[lane], &format)) return;
    size_t next = 0;
    for (size_t i = 0; i < format.size(); ++i) {
      if (format[i] != '%') {
        out.push_back(format[i]);
        continue;
      }
      if (i + 1 < format.size() && format[i + 1] == '%') {
        out.push_back('%');
        ++i;
        continue;
      }
      size_t j = i + 1;
      uint32_t vector = 0;
      std::string spec = "%";
      while (j < format.size() && std::strchr("-+ #0123456789.", format[j])) spec += format[j++];
      if (j < format.size() && format[j] == 'v') {
        ++j;
        while (j < format.size() && std::isdigit(static_cast<unsigned char>(format[j]))) {
          vector = vector * 10 + static_cast<uint32_t>(format[j++] - '0');
        }
      }
      while (j < format.size() && (format[j] == 'h' || format[j] == 'l')) spec += format[j++];
      if (j >= format.size()) break;
      const char conversion = format[j];
      spec += conversion;
      i = j;
      if (next >= d.arg_slots.size()) continue;
      const uint32_t arg = static_cast<uint32_t>(next++);
      const ValueType t = d.arg_types[arg];
      const uint8_t* value = sg.regs + d.arg_slots[arg] + lane * t.lane_bytes();
      if (conversion == 's' && d.arg_is_pointer[arg]) {
        std::string text;
        ReadString(sg, LoadScalar<uint64_t>(value), &text);
        out += text;
      } else if (conversion == 'p') {
        char buffer[32];
        std::snprintf(buffer, sizeof(buffer), "0x%" PRIx64, LoadScalar<uint64_t>(value));
        out += buffer;
      } else if (!IsFloatConversion(conversion) && !IsIntegerConversion(conversion)) {
        out += spec;  // %s of a non-pointer, or no OpenCL conversion: printed as written
      } else {
        const uint32_t n = vector != 0 ? std::min(vector, t.components) : 1;
        for (uint32_t c = 0; c < n; ++c) {
          if (c != 0) out.push_back(',');
          out += FormatOne(spec, conversion, value + c * t.scalar.bytes, t.scalar);
        }
      }
    }
    sg.reg<uint32_t>(in->result)[lane] = 0;
  });
  LaunchShared& launch = *sg.group->launch;
  std::lock_guard<std::mutex> lock(launch.output_mutex);
  launch.printf_chunks.emplace_back(sg.group->group_linear, std::move(out));
  return in + 1;
}

}  // namespace

bool BindPrintf(Loader& loader, const ir::Instruction& inst, Instr& out) {
  PrintfData d;
  d.format_slot = loader.Slot(inst.word(2));
  for (size_t i = 3; i < inst.num_operands(); ++i) {
    const TypeInfo& t = loader.TypeOfValue(inst.word(i));
    d.arg_slots.push_back(loader.Slot(inst.word(i)));
    d.arg_types.push_back(t.value);
    d.arg_is_pointer.push_back(t.kind == ir::TypeKind::kPointer);
  }
  out.fn = ExecPrintf;
  out.result = loader.Slot(inst.result_id());
  out.data = loader.program().Own(std::move(d));
  return true;
}

}  // namespace xmx::interp
