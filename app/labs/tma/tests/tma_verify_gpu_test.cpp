// verify's tile cases through the counter checker on the GPU (ctest label "gpu"): every row's
// counters, read as the difference of two launches, agree with the model. Skipped without a
// device or where counters are refused. Prints verify's figures per row.
#include <gtest/gtest.h>

#include <cstdio>

#include "counter_checks.h"
#include "gpu.h"
#include "tile_verify.h"

namespace warplens::test {
namespace {

TEST(TileVerifyGpu, EveryTileRowAgrees) {
  const auto q = gpu::query_device();
  if (!q.device) GTEST_SKIP() << "no CUDA device: " << q.reason;
  std::unique_ptr<app::CounterChecker> checker;
  try {
    checker = std::make_unique<app::CounterChecker>(*q.device);
  } catch (const gpu::CountersUnavailable& e) {
    GTEST_SKIP() << e.what();
  }
  const auto cases = app::tile_verify_cases(10 * q.device->cc_major + q.device->cc_minor);
  int agree = 0;
  for (const app::CounterCase& c : cases) {
    const app::CounterCheck r = checker->check(c);
    std::printf("%-44s model %5.2f hardware %5.2f %s %s\n", c.name.c_str(), r.model,
                r.hardware.value_or(-1), r.agree ? "agrees" : "DIFFERS", r.note.c_str());
    EXPECT_TRUE(r.agree) << c.name << ": " << r.note;
    agree += r.agree;
  }
  std::printf("%d of %zu tile rows agree\n", agree, cases.size());
}

}  // namespace
}  // namespace warplens::test
