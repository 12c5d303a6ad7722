// A GoogleTest fixture for the tests of the loader's analyses (uniformity, invariant code, phi
// coalescing): a module assembled from text and read, with its ids found by their debug names.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "val_test_support.hpp"
#include "xmx/module.hpp"

namespace xmx::interp::testing {

class AssembledModuleTest : public ::testing::Test {
 protected:
  // Assembles `text` into words_ and reads it into module_; false, with the test failed, when
  // the module does not read.
  bool Read(const std::string& text) {
    words_ = val::testing::Assemble(text);
    Diagnostic error;
    module_ = ir::Module::FromWords(words_, &error);
    EXPECT_TRUE(module_) << error.Format();
    return module_.has_value();
  }

  // The id OpName names `name` (a missing name fails the test).
  uint32_t Id(const std::string& name) const { return val::testing::NamedId(*module_, name); }

  std::vector<uint32_t> words_;
  std::optional<ir::Module> module_;
};

}  // namespace xmx::interp::testing
