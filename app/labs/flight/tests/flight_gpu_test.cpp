// The bytes-in-flight lab on the GPU (label gpu; skipped without a device): the ladder's plateaus
// come in order L1 < L2 < DRAM, the loaded-latency probe verifies at idle and under load, GB/s
// grows with bytes in flight below the knee, every copy (plain and staged) verifies word by word,
// and a refused parameter leaves the lab usable.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

#include "flight_lab.h"
#include "flight_session.h"

namespace warplens {
namespace {

class FlightGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto q = gpu::query_device();
    if (!q.device) GTEST_SKIP() << "no CUDA device: " << q.reason;
    device_ = *q.device;
    lab_ = std::make_unique<gpu::FlightLab>(device_);
  }
  gpu::DeviceInfo device_;
  std::unique_ptr<gpu::FlightLab> lab_;
};

TEST_F(FlightGpu, LadderPlateausInOrder) {
  const auto& lv = lab_->limits().levels;
  std::vector<gpu::LatencyPoint> row;
  for (auto ws : gpu::ladder_working_sets(lv.l2_bytes)) {
    auto p = lab_->measure_latency({ws, gpu::LoadPath::Default, 1}, 3);
    EXPECT_TRUE(p.verified) << p.check;
    row.push_back(p);
  }
  const auto pl = gpu::find_plateaus(row, lv);
  ASSERT_TRUE(pl.l1_ns && pl.l2_ns && pl.dram_ns);
  EXPECT_LT(*pl.l1_ns, *pl.l2_ns);
  EXPECT_LT(*pl.l2_ns, *pl.dram_ns);
  EXPECT_LT(*pl.l1_cycles, *pl.l2_cycles);
  // __ldcg skips L1: its small working sets sit near the L2 plateau, not the L1 one.
  const auto cg = lab_->measure_latency({16 * 1024, gpu::LoadPath::L2Only, 1}, 3);
  EXPECT_TRUE(cg.verified) << cg.check;
  EXPECT_GT(cg.ns_per_load, 1.5 * *pl.l1_ns);
  const auto warp = lab_->measure_latency({16 * 1024, gpu::LoadPath::Default, 32}, 3);
  EXPECT_TRUE(warp.verified) << warp.check;
}

// One small chase per row: what the sanitizers run (the full ladder is slow under them).
TEST_F(FlightGpu, SmallChaseVerifies) {
  for (const auto& row : app::ladder_rows()) {
    const auto p = lab_->measure_latency({64 * 1024, row.path, row.lanes}, 1);
    EXPECT_TRUE(p.verified) << app::ladder_row_label(row) << ": " << p.check;
    EXPECT_GT(p.cycles_per_load, 0);
  }
}

TEST_F(FlightGpu, BandwidthGrowsWithBytesInFlightBelowTheKnee) {
  const auto memcpy = lab_->measure_memcpy();
  const auto& sm = lab_->limits().sm;
  // Fixed word and residency (2 blocks of 256 threads by shared memory), loads 1, 2, 4.
  double last = 0;
  for (int loads : {1, 2, 4}) {
    gpu::StreamParams p;
    p.loads_per_thread = loads;
    p.dynamic_shared_bytes = gpu::shared_for_blocks(sm, 256, 2);
    const auto m = lab_->measure_stream(p);
    EXPECT_TRUE(m.verified) << m.check;
    if (last > 0 && last < 0.9 * memcpy.gbps) {
      EXPECT_GT(m.gbps, 1.1 * last) << loads << " loads";
    }
    last = m.gbps;
  }
}

TEST_F(FlightGpu, StagedCopiesVerifyOrSayWhyNot) {
  for (auto kind : {gpu::AsyncKind::CpAsync, gpu::AsyncKind::Tma}) {
    const auto a = lab_->measure_async(kind);
    if (a.unsupported) {
      EXPECT_NE(a.unsupported->find("needs CC"), std::string::npos);
      continue;
    }
    EXPECT_TRUE(a.verified) << gpu::to_string(kind) << ": " << a.check;
    EXPECT_GT(a.gbps, 0);
    EXPECT_GT(a.bytes_in_flight_per_sm, 0);
  }
}

// The loaded-latency probe: every chase ends where the host's cycle says, the copy runs during
// the timed hops of every loaded point, and the points make the model's curves.
TEST_F(FlightGpu, LoadedLatencyProbeVerifiesAndMakesTheModelsCurves) {
  std::vector<gpu::LoadedLatencyPoint> points;
  const auto loads = gpu::probe_copy_blocks(lab_->limits().sm);
  ASSERT_GE(loads.size(), 2u);
  for (int load : {loads.front(), loads.back()})
    for (int batch : {0, gpu::kProbeBatchSmall, gpu::kProbeBatchLarge}) {
      const auto p = lab_->measure_loaded_latency(load, batch, 1);
      EXPECT_TRUE(p.verified) << load << " blocks/SM, batch " << batch << ": " << p.check;
      EXPECT_GT(p.ns_per_load, 0);
      EXPECT_GT(p.cycles_per_load, 0);
      if (load > 0)
        EXPECT_GT(p.copy_gbps, 0);
      else
        EXPECT_EQ(p.copy_gbps, 0);
      points.push_back(p);
    }
  const auto model = gpu::loaded_latency_model(points);
  ASSERT_TRUE(model);
  EXPECT_EQ(model->latency.gbps.size(), 2u);
  EXPECT_EQ(model->batch.gbps.size(), 2u);
  EXPECT_THROW(lab_->measure_loaded_latency(loads.back() + 1, 0), std::invalid_argument);
  EXPECT_THROW(lab_->measure_loaded_latency(0, 1000), std::invalid_argument);
  EXPECT_THROW(lab_->measure_loaded_latency(1, 0, 1, nullptr, 2), std::invalid_argument);
  // The heavier copy (4 loads of 16 B per thread before its store) runs and moves more than the
  // one-load copy at the same blocks per SM.
  const auto heavy =
      lab_->measure_loaded_latency(loads.back(), 0, 1, nullptr, gpu::kProbeCopyLoadsMany);
  EXPECT_TRUE(heavy.verified) << heavy.check;
  EXPECT_EQ(heavy.copy_loads_per_thread, gpu::kProbeCopyLoadsMany);
  EXPECT_GT(heavy.copy_gbps, points[3].copy_gbps);
}

TEST_F(FlightGpu, RefusedParameterLeavesTheLabUsable) {
  gpu::StreamParams bad;
  bad.word_bytes = 3;
  EXPECT_THROW(lab_->measure_stream(bad), std::invalid_argument);
  EXPECT_THROW(lab_->measure_latency({100, gpu::LoadPath::Default, 1}), std::invalid_argument);
  const auto m = lab_->measure_stream(gpu::StreamParams{});
  EXPECT_TRUE(m.verified) << m.check;
  EXPECT_GT(m.gbps, 0);
}

}  // namespace
}  // namespace warplens
