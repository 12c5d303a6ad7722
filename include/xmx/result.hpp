// The one error convention of libxmx: a function that can fail returns Result<T>, which holds
// either a value or the reason there is none, and in both cases every diagnostic the call produced
// (warnings and remarks ride along with a value; a failure carries at least one error).
//
// Like C++23's std::expected, but the error side is the diagnostics list the tools print, so a
// caller never has to ask twice ("did it fail?" and "what was said?").
#pragma once

#include <cassert>
#include <optional>
#include <utility>
#include <vector>

#include "xmx/diagnostic.hpp"

namespace xmx {

template <typename T>
class Result {
 public:
  // Success, with whatever warnings or remarks came with it.
  Result(T value, std::vector<Diagnostic> diagnostics = {})  // NOLINT(google-explicit-constructor)
      : value_(std::move(value)), diagnostics_(std::move(diagnostics)) {}

  // Failure: `diagnostics` says why (it should hold at least one error).
  static Result Failure(std::vector<Diagnostic> diagnostics) {
    Result result;
    result.diagnostics_ = std::move(diagnostics);
    return result;
  }
  static Result Failure(Diagnostic diagnostic) {
    return Failure(std::vector<Diagnostic>{std::move(diagnostic)});
  }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }
  std::vector<Diagnostic> TakeDiagnostics() { return std::move(diagnostics_); }

 private:
  Result() = default;

  std::optional<T> value_;
  std::vector<Diagnostic> diagnostics_;
};

// For calls that produce nothing but a verdict.
struct Done {};
using Status = Result<Done>;

inline bool HasErrors(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& diagnostic : diagnostics) {
    if (diagnostic.severity == Severity::kError) return true;
  }
  return false;
}

}  // namespace xmx
