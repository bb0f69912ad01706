// `warplens verify` on a real GPU (ctest label "gpu"): every catalog row's hardware counters
// agree with the model within the row's tolerance, and a read-out takes well under 100 ms.
// Skipped without a CUDA device or where the driver does not let this user read counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <vector>

#include "counter_checks.h"
#include "counters.h"
#include "gpu.h"
#include "verify.h"

namespace warplens::test {
namespace {

class VerifyGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const gpu::DeviceQuery query = gpu::query_device();
    if (!query.device) GTEST_SKIP() << "no CUDA device: " << query.reason;
    device_ = *query.device;
    try {
      checker_.emplace(device_);
    } catch (const gpu::CountersUnavailable& e) {
      GTEST_SKIP() << e.what();
    }
  }
  gpu::DeviceInfo device_;
  std::optional<app::CounterChecker> checker_;
};

TEST_F(VerifyGpuTest, EveryCatalogRowAgrees) {
  std::vector<double> readouts;
  for (const app::CounterCase& c : app::verify_catalog(device_.pitch_alignment)) {
    const app::CounterCheck r = checker_->check(c);
    ASSERT_TRUE(r.hardware.has_value()) << c.name << ": " << r.note;
    EXPECT_TRUE(r.agree) << c.name << ": model " << r.model << ", hardware " << *r.hardware << " ("
                         << r.note << ")";
    readouts.push_back(r.readout_ms);
  }
  std::sort(readouts.begin(), readouts.end());
  const double median = readouts[readouts.size() / 2];
  std::printf("read-out: median %.1f ms, max %.1f ms over %zu patterns\n", median, readouts.back(),
              readouts.size());
  EXPECT_LT(median, 100.0);
}

TEST_F(VerifyGpuTest, StoreProbeCountsOnlyItsOwnStores) {
  // The bank probe's fill is skipped for store probes: the instructions counted are exactly
  // blocks x warps x repeats.
  app::CounterCase c;
  c.kind = app::CaseKind::Bank;
  c.probe.op = gpu::SharedOp::Store;
  c.probe.block_x = 64;
  const gpu::CounterSession::MetricValues read = checker_->read(c);
  ASSERT_EQ(read.values.size(), 2u);  // wavefronts, instructions
  EXPECT_DOUBLE_EQ(read.values[1], 1.0 * device_.sm_count * 2 * app::kBankCounterRepeats);
}

}  // namespace
}  // namespace warplens::test
