// The built-in profiles are parsed on their first lookup (load_profile.cpp), possibly from
// several threads at once (xmx-run's work groups): every lookup of a name must give the one
// profile, whichever thread asks first and whether or not its base was asked for before.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "xmx/device.hpp"

namespace xmx::device {
namespace {

TEST(DeviceRegistry, ConcurrentFirstLookupsGiveOneProfilePerName) {
  const std::vector<std::string_view> names = BuiltinProfileNames();
  ASSERT_FALSE(names.empty());
  constexpr int kThreads = 4;
  // Each thread looks every name up, in an order of its own (reversed for odd threads, so that a
  // profile and its base are first asked for from different ends).
  std::vector<std::vector<const DeviceProfile*>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::vector<const DeviceProfile*>& mine = seen[t];
      mine.resize(names.size());
      for (size_t k = 0; k < names.size(); ++k) {
        const size_t i = t % 2 ? names.size() - 1 - k : k;
        mine[i] = FindBuiltinProfile(names[i]);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (size_t i = 0; i < names.size(); ++i) {
    SCOPED_TRACE(std::string(names[i]));
    ASSERT_NE(seen[0][i], nullptr);
    EXPECT_EQ(seen[0][i]->name, names[i]);
    for (int t = 1; t < kThreads; ++t) EXPECT_EQ(seen[t][i], seen[0][i]);
    EXPECT_EQ(FindBuiltinProfile(names[i]), seen[0][i]);
  }
  EXPECT_EQ(FindBuiltinProfile("no-such-device"), nullptr);
}

}  // namespace
}  // namespace xmx::device
