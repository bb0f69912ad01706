// The tile lab on the GPU (ctest label "gpu"; skipped without a device): the tile as the TMA and
// the threads stored it, read back, equals the model's placement for every swizzle mode and
// element size; every read returns the elements the model's layout puts at its addresses; and
// the counters' wavefronts per request equal the model's for every read kind and ldmatrix form
// (the counters' part skipped where they are refused). Each case prints one line: the numbers
// a reader checks.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "counters.h"
#include "gpu.h"
#include "tma_lab.h"
#include "tma_model.h"

namespace warplens::test {
namespace {

using gpu::TileFill;
using gpu::TileParams;
using gpu::TileRead;
using gpu::TileReadKind;
using gpu::TmaSwizzle;

TileParams tile(TileFill fill, TmaSwizzle s, int element, int rows, int cols, int pitch = 0) {
  TileParams t;
  t.fill = fill;
  t.swizzle = s;
  t.element_bytes = element;
  t.rows = rows;
  t.cols = cols;
  t.pitch_bytes = pitch;
  return t;
}

class TileGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    query_ = gpu::query_device();
    if (!query_.device) GTEST_SKIP() << "no CUDA device: " << query_.reason;
    lab_ = std::make_unique<gpu::TileLab>(query_.device->index);
  }
  [[nodiscard]] bool has_tma() const { return query_.device->cc_major >= 9; }
  /// The tiles: every mode and element size by the TMA (where it has one) and by the threads,
  /// and padded rows by the threads.
  [[nodiscard]] std::vector<TileParams> tiles() const {
    std::vector<TileParams> list;
    for (TileFill fill : {TileFill::Tma, TileFill::Threads}) {
      if (fill == TileFill::Tma && !has_tma()) continue;
      for (TmaSwizzle s : gpu::kTmaSwizzles) {
        for (int e : {1, 2, 4}) {
          const int row = s == TmaSwizzle::None ? 128 : gpu::swizzle_span_bytes(s);
          list.push_back(tile(fill, s, e, 32, row / e));
        }
      }
    }
    list.push_back(tile(TileFill::Threads, TmaSwizzle::None, 2, 32, 64, 144));
    list.push_back(tile(TileFill::Threads, TmaSwizzle::None, 4, 32, 32, 132 + 12));
    return list;
  }
  gpu::DeviceQuery query_;
  std::unique_ptr<gpu::TileLab> lab_;
};

std::string name(const TileParams& t) {
  return std::string(t.fill == TileFill::Tma ? "tma" : "threads") + " " +
         std::string(to_string(t.swizzle)) + " " + std::to_string(t.element_bytes) + "B " +
         gpu::tile_layout_text(t);
}

TEST_F(TileGpuTest, ThePlacementReadBackEqualsTheModels) {
  if (!has_tma()) std::printf("no TMA on this GPU: the threads' fills only\n");
  for (const TileParams& t : tiles()) {
    const gpu::TilePlacement p = lab_->load_tile(t);
    const std::vector<std::int32_t> model = gpu::tile_placement_model(t);
    int differ = 0;
    for (std::size_t k = 0; k < model.size(); ++k) differ += p.byte_offset[k] != model[k];
    std::printf("placement %-40s %d of %zu elements where the model says, fill %.0f cycles\n",
                name(t).c_str(), static_cast<int>(model.size()) - differ, model.size(),
                p.fill_cycles);
    EXPECT_EQ(differ, 0) << name(t);
    // Every slot the model fills holds its element; the rest (padding) holds none.
    int stored = 0;
    for (std::int32_t e : p.stored_element) stored += e >= 0;
    EXPECT_EQ(stored, t.rows * t.cols) << name(t);
  }
}

/// One read's counters: wavefronts and instructions of `reads` reads less those of none.
struct Counted {
  double instructions = 0, wavefronts = 0, conflicts = 0;
};

TEST_F(TileGpuTest, EveryReadsValuesAndWavefrontsAgreeWithTheModel) {
  // Where a read is counted (H100, 2026-11-28): element loads are op_shared_ld instructions and
  // op_ld wavefronts; ldmatrix is an op_ldsm instruction whose wavefronts and conflicts are
  // counted under op_ld too (op_ldsm's wavefront counter stays 0).
  const std::vector<std::string> metrics = {
      "smsp__inst_executed_op_shared_ld.sum", "smsp__inst_executed_op_ldsm.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"};
  std::unique_ptr<gpu::CounterSession> counters;
  std::string why;
  try {
    counters = std::make_unique<gpu::CounterSession>(query_.device->index,
                                                     std::vector<std::vector<std::string>>{metrics},
                                                     gpu::CounterSession::KeepEnabled{});
  } catch (const gpu::CountersUnavailable& e) {
    why = e.what();
    std::printf("%s: values and cycles only\n", why.c_str());
  }
  constexpr int kReads = 64;
  const auto count = [&](const TileParams& t, const TileRead& r) {
    const auto none = counters->profile_group(lab_->counter_launch(t, r, 0), 0);
    const auto some = counters->profile_group(lab_->counter_launch(t, r, kReads), 0);
    const auto& names = counters->collected_metrics(0);
    const auto delta = [&](std::size_t m) {
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == metrics[m]) return some.values[i] - none.values[i];
      }
      ADD_FAILURE() << "this GPU's CUPTI does not know " << metrics[m];
      return 0.0;
    };
    Counted c;
    c.instructions = delta(r.kind == TileReadKind::Ldmatrix ? 1 : 0);
    c.wavefronts = delta(2);
    c.conflicts = delta(3);
    return c;
  };

  int cases = 0;
  for (const TileParams& t : tiles()) {
    std::vector<TileRead> reads = {
        {TileReadKind::Row, 0}, {TileReadKind::Column, 0}, {TileReadKind::Column, t.cols / 2 + 1}};
    if (t.element_bytes == 2) {
      for (int n : {1, 2, 4}) {
        for (bool trans : {false, true}) reads.push_back({TileReadKind::Ldmatrix, 0, n, trans});
      }
    }
    for (const TileRead& r : reads) {
      try {
        gpu::check_tile_read(t, r);
      } catch (const std::invalid_argument&) {
        continue;  // e.g. ldmatrix.x4 of a 32-byte row
      }
      const auto model = gpu::tile_read_analysis(t, r);
      const gpu::TileReadMeasurement m = lab_->measure_read(t, r, 1024);
      EXPECT_TRUE(m.values_ok) << name(t) << " " << gpu::tile_read_text(r) << ": " << m.check;
      std::string counted = "counters: " + (why.empty() ? std::string("-") : why);
      if (counters) {
        const Counted c = count(t, r);
        const double per = c.wavefronts / c.instructions;
        char line[160];
        std::snprintf(line, sizeof line, "%.0f instr, %.2f wavefronts/request, %.2f conflicts",
                      c.instructions, per, c.conflicts / c.instructions);
        counted = line;
        EXPECT_EQ(c.instructions, kReads) << name(t) << " " << gpu::tile_read_text(r);
        EXPECT_NEAR(per, model.wavefronts, 0.05) << name(t) << " " << gpu::tile_read_text(r);
      }
      // The whole GPU: shared memory serves one wavefront an SM a clock, so a read of W
      // wavefronts gives at most its bytes / W each clock (10 % for the spans' edges).
      const gpu::TileLanes lanes = gpu::tile_read_lanes(t, r);
      const double bytes = static_cast<double>(lanes.active) * lanes.access_bytes;
      EXPECT_GT(m.gpu_blocks, 0);
      EXPECT_GT(m.bytes_per_clock_per_sm, 0.0) << name(t) << " " << gpu::tile_read_text(r);
      EXPECT_LE(m.bytes_per_clock_per_sm, 1.1 * bytes / model.wavefronts)
          << name(t) << " " << gpu::tile_read_text(r);
      std::printf(
          "read %-40s %-22s model %2d (min %d) | %.1f cycles/request | whole GPU %.0f GB/s, "
          "%.1f B/clk/SM | %s\n",
          name(t).c_str(), gpu::tile_read_text(r).c_str(), model.wavefronts, model.min_wavefronts,
          m.cycles_per_request, m.gbps, m.bytes_per_clock_per_sm, counted.c_str());
      ++cases;
    }
  }
  EXPECT_GT(cases, 40);
}

TEST_F(TileGpuTest, RefusesTheTmaWhereTheGpuHasNone) {
  if (has_tma()) GTEST_SKIP() << "this GPU has the TMA";
  EXPECT_THROW(lab_->load_tile(tile(TileFill::Tma, TmaSwizzle::B128, 4, 32, 32)),
               std::invalid_argument);
}

}  // namespace
}  // namespace warplens::test
