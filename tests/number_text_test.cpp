// Numbers that must not contradict their text or each other (issue 13), checked on the host:
// the tick of a historical model, the counter line's model, the shared efficiency of a
// broadcast, the matrix multiply's global reads, the spread of timed launches, the load path's
// caption and the scenarios' promises.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "analyze_report.h"
#include "model_test_support.h"
#include "number_text.h"
#include "ui_widgets.h"

namespace warplens::app {
namespace {

using model::HardwareModel;
using model::test::global;
using model::test::pattern;
using model::test::shared;
using model::test::shared_pattern;

const StatText& row(const std::vector<StatText>& rows, const std::string& name) {
  for (const StatText& r : rows)
    if (r.name == name) return r;
  throw std::runtime_error("no row " + name);
}

std::string scenario_file(const std::string& file) {
  std::ifstream in(std::string(WARPLENS_SOURCE_DIR) + "/assets/scenarios/" + file);
  std::stringstream s;
  s << in.rdbuf();
  // A TOML line-ending backslash joins the lines ("a \\\n b" reads "a b").
  std::string text = s.str();
  for (std::size_t at; (at = text.find("\\\n")) != std::string::npos;) text.erase(at, 2);
  return text;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// --- 1. historical models are never ticked against today's hardware --------------------------

TEST(HistoricalTick, KeplerWordEightRequestsAreNotConfirmedByTheGpu) {
  // word-8-kepler: Kepler splits the 8-byte load into 2 requests; the H100 issues 1.
  const auto p = pattern("lane", 8);
  const model::GlobalAnalysis kepler = global(p, HardwareModel::Kepler);
  ASSERT_EQ(kepler.requests, 2);
  // The trace as the session analyzes it (the shown model's rules) ...
  const auto rows = global_stat_texts(kepler, kepler);
  // ... is counted again by the modern rules for the GPU-trace column.
  const StatText& requests = row(rows, "requests");
  EXPECT_EQ(requests.model, "2");
  EXPECT_EQ(requests.traced, "1");
  EXPECT_EQ(requests.mark, TraceMark::ThisGpu);
  for (const char* name : {"requests", "transactions", "bytes moved", "bytes used"})
    EXPECT_NE(row(rows, name).mark, TraceMark::Agrees) << name;
  // What does not depend on the model is still confirmed.
  EXPECT_EQ(row(rows, "active lanes").mark, TraceMark::Agrees);
  EXPECT_EQ(row(rows, "sectors (32 B)").mark, TraceMark::Agrees);
  EXPECT_EQ(row(rows, "bytes requested").mark, TraceMark::Agrees);
  EXPECT_EQ(trace_column_title(true, HardwareModel::Kepler), "GPU trace, CC \u2265 7.0 rules");
}

TEST(HistoricalTick, ModernModelIsTickedRowByRow) {
  const model::GlobalAnalysis a = global(pattern("lane", 8));
  for (const StatText& r : global_stat_texts(a, a)) EXPECT_EQ(r.mark, TraceMark::Agrees) << r.name;
  model::GlobalAnalysis other = global(pattern("lane + 1", 8));
  EXPECT_EQ(row(global_stat_texts(a, other), "sectors (32 B)").mark, TraceMark::Differs);
  EXPECT_EQ(trace_column_title(true, HardwareModel::Modern), "GPU trace");
}

TEST(HistoricalTick, SharedTeachingModelsAreNotTicked) {
  // bank-g80-half-warps (4 wavefronts under G80) and bank-kepler-8-byte-banks (2 under Kepler).
  for (const auto& [index, word, hw] : {std::tuple{"2 * lane", 4, HardwareModel::G80},
                                        std::tuple{"2 * lane", 8, HardwareModel::Kepler}}) {
    const model::SharedAnalysis a = shared(shared_pattern(index, word), hw);
    const model::SharedAnalysis modern = shared(shared_pattern(index, word));
    const auto rows = shared_stat_texts(a, a);
    const StatText& wavefronts = row(rows, "wavefronts");
    EXPECT_EQ(wavefronts.model, std::to_string(a.wavefronts));
    EXPECT_EQ(wavefronts.traced, std::to_string(modern.wavefronts));
    for (const StatText& r : rows) {
      if (r.name == "active lanes" || r.name == "bytes requested") {
        EXPECT_EQ(r.mark, TraceMark::Agrees) << r.name;
      } else {
        EXPECT_EQ(r.mark, TraceMark::ThisGpu) << r.name;
      }
    }
  }
}

TEST(HistoricalTick, CounterLineNamesTheModernModel) {
  CounterCheck c;
  c.model = 8.0;  // model_per_request: always the modern rules
  c.hardware = 8.0;
  c.agree = true;
  const std::string kepler = counter_line_text(c, HardwareModel::Kepler, "sectors");
  EXPECT_EQ(kepler, "GPU 8.00 sectors/request, modern model 8.00");
  EXPECT_TRUE(
      has(counter_title_text(HardwareModel::Kepler), "vs the modern model (CC \u2265 7.0)"));
  EXPECT_TRUE(has(counter_title_text(HardwareModel::G80), "vs the modern model"));
  EXPECT_FALSE(has(counter_title_text(HardwareModel::Modern), "modern"));
  EXPECT_TRUE(has(counter_summary_text(c, HardwareModel::G80, "wavefronts"), "modern model 8.00"));
  // Under the modern model the line stays short.
  EXPECT_EQ(counter_line_text(c, HardwareModel::Modern, "sectors"),
            "GPU 8.00 sectors/request, model 8.00");
  EXPECT_EQ(counter_summary_text(c, HardwareModel::Modern, "sectors"),
            "8.00 sectors (model 8.00) \u2713");
}

// --- 2. same-word: GB/s beside 12.5 % -----------------------------------------------------------

TEST(SameWord, BandwidthSaysWhatItCounts) {
  gpu::CopyParams p;
  p.kind = IndexKind::SameWord;
  const std::string note = bandwidth_note(p);
  EXPECT_TRUE(has(note, "asks to read and write")) << note;
  EXPECT_TRUE(has(note, "10\u2079 B/s")) << note;
  EXPECT_TRUE(has(note, "one sector serves")) << note;
  EXPECT_EQ(bandwidth_note(gpu::CopyParams{}), "");
  const std::string toml = scenario_file("04-same-word.toml");
  EXPECT_TRUE(has(toml, "10\u2079 B/s")) << toml;
  EXPECT_TRUE(has(toml, "one 32-byte sector serves")) << toml;
}

// --- 3. bank-stride-2 points at the number that shows the 2x -----------------------------------

TEST(BankStrideTwo, TextPointsAtBytesPerClockNotOneWarpsCycles) {
  const std::string toml = scenario_file("17-bank-stride-2.toml");
  EXPECT_FALSE(has(toml, "twice the cycles")) << toml;
  EXPECT_TRUE(has(toml, "bytes per SM per clock")) << toml;  // as the numbers say it
  EXPECT_TRUE(has(toml, "One warp alone")) << toml;
}

// --- 4. matrix multiply: the global traffic behind GFLOP/s -------------------------------------

TEST(Matmul, GlobalReadsFallByBlockSize) {
  const std::int64_t n = 2048;
  const std::int64_t naive = gpu::matmul_global_read_bytes({0, 2048});
  EXPECT_EQ(naive, 2 * n * n * n * 4);  // every element of A and B read n times
  for (int bs : {8, 16, 32})
    EXPECT_EQ(gpu::matmul_global_read_bytes({bs, 2048}) * bs, naive) << bs;  // n / BS times
  EXPECT_EQ(matmul_reads_text({8, 2048}), "reads 8.6 GB");
  const std::string all = matmul_traffic_text(2048);
  EXPECT_EQ(all,
            "global reads of A and B, n = 2048: naive: 68.7 GB, BLOCK_SIZE 8: 8.6 GB, 16: 4.3 GB, "
            "32: 2.1 GB");
  EXPECT_TRUE(has(matmul_reuse_text(), "BLOCK_SIZE 8"));
  EXPECT_TRUE(has(scenario_file("31-matmul.toml"), "n / BLOCK_SIZE times"));
}

// --- 4b. transpose: why the vectorized kernel is faster ---------------------------------------

TEST(Transpose, VectorizedTextCountsTheBytesInFlightOfTheseParameters) {
  gpu::TransposeParams p;
  p.variant = gpu::TransposeVariant::Vectorized;  // tile 32, 8 rows: a 64 x 64 tile
  const std::string text = vectorized_transpose_text(p);
  EXPECT_TRUE(has(text, "32\u00d78 threads move a 64\u00d764 tile")) << text;
  EXPECT_TRUE(has(text, "8 loads of 8 bytes (64 bytes)")) << text;
  EXPECT_TRUE(has(text, "padded kernel's 4 of 4 bytes (16 bytes)")) << text;
  EXPECT_TRUE(has(text, "Best Practices Guide")) << text;
  p.rows_per_block = 32;
  EXPECT_TRUE(has(vectorized_transpose_text(p), "2 loads of 8 bytes (16 bytes)"));
  // The preset says what the figures show: the warp's 8-byte lanes and the bars.
  const std::string toml = scenario_file("30c-transpose-vectorized.toml");
  EXPECT_TRUE(has(toml, "variant = \"vectorized\"")) << toml;
  EXPECT_TRUE(has(toml, "256 bytes in 8 sectors")) << toml;
}

// --- 5. the spread of timed launches ------------------------------------------------------------

// B/clk/SM from the blocks' clocks (start, end, SM id): per SM the span from its first start to
// its last end; the mean over the SMs, and their clock over the event time.
TEST(Spread, PerSmRateSpansEachSmsBlocks) {
  // SM 4: two blocks over clocks 100..1100 (1000 cycles); SM 9: one block over 500 cycles.
  const std::vector<unsigned long long> clocks = {100, 900, 4, 300, 1100, 4, 0, 500, 9};
  const gpu::PerSmRate r = gpu::per_sm_rate(clocks, 4096, 0.001);  // 1 µs of events
  EXPECT_DOUBLE_EQ(r.bytes_per_clock, (2 * 4096 / 1000.0 + 4096 / 500.0) / 2);
  EXPECT_DOUBLE_EQ(r.clock_mhz, (1000 + 500) / 2.0);  // cycles per µs
  EXPECT_DOUBLE_EQ(gpu::per_sm_rate({}, 4096, 1).bytes_per_clock, 0);
}

TEST(Spread, QuartilesInterpolate) {
  const gpu::Quartiles q = gpu::quartiles_of({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(q.p25, 2);
  EXPECT_DOUBLE_EQ(q.median, 3);
  EXPECT_DOUBLE_EQ(q.p75, 4);
  const gpu::Quartiles even = gpu::quartiles_of({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(even.p25, 1.75);
  EXPECT_DOUBLE_EQ(even.median, gpu::median_of({1, 2, 3, 4}));
  EXPECT_DOUBLE_EQ(even.p75, 3.25);
  const gpu::Quartiles one = gpu::quartiles_of({7});
  EXPECT_DOUBLE_EQ(one.p25, 7);
  EXPECT_DOUBLE_EQ(one.p75, 7);
  EXPECT_DOUBLE_EQ(gpu::quartiles_of({}).median, 0);
}

TEST(Spread, OneSlowLaunchIsAnOutlierNotASwing) {
  // aligned on the H100: 14 launches near 2180 GB/s and one at half the speed.
  const double bytes = 2180e6;  // 1 ms at 2180 GB/s
  std::vector<double> ms;
  for (int i = 0; i < 14; ++i) ms.push_back(1.0 + 0.0005 * i);
  ms.push_back(2.0);
  const gpu::Timing t = gpu::summarize_times(ms);
  EXPECT_EQ(t.runs, 15);
  EXPECT_EQ(t.slow_runs, 1);
  EXPECT_EQ(t.fast_runs, 0);
  EXPECT_DOUBLE_EQ(t.max_ms, 2.0);  // kept for the bench and the JSON
  const GbpsRange r = iqr_gbps(t, bytes);
  EXPECT_GT(r.low, 2160);
  EXPECT_LT(r.high, 2180.5);
  EXPECT_LE(r.low, r.high);
  EXPECT_EQ(spread_text(t, bytes), "IQR 2169\u20132176, 1 slow launch of 15");
  // Tight launches: no outliers, however small the IQR.
  const gpu::Timing tight = gpu::summarize_times({1.0, 1.001, 1.002, 1.003, 1.01});
  EXPECT_EQ(tight.slow_runs + tight.fast_runs, 0);
  EXPECT_EQ(outlier_text(tight), "");
}

// --- 6. a broadcast is the best case of shared memory -------------------------------------------

TEST(SharedEfficiency, BroadcastIsOneWavefrontTheMinimum) {
  const model::SharedAnalysis b = shared(shared_pattern("0"));
  EXPECT_EQ(b.wavefronts, 1);
  EXPECT_DOUBLE_EQ(b.efficiency(), 1.0);
  EXPECT_DOUBLE_EQ(b.byte_efficiency(), 4.0 / 128.0);
  EXPECT_EQ(row(shared_stat_texts(b, std::nullopt), "wavefronts needed").model,
            "100.0 % (the minimum)");
  EXPECT_EQ(shared_cost_text(b), "1 wavefront (the minimum)");
  const model::SharedAnalysis two = shared(shared_pattern("2 * lane"));
  EXPECT_DOUBLE_EQ(two.efficiency(), 0.5);
  EXPECT_EQ(shared_cost_text(two), "2 wavefronts, 1 needed (50.0 % needed)");
  EXPECT_DOUBLE_EQ(shared(shared_pattern("32 * lane")).efficiency(), 1.0 / 32.0);
  EXPECT_DOUBLE_EQ(shared(shared_pattern("lane", 1)).efficiency(), 1.0);
}

TEST(SharedEfficiency, AnalyzeJsonKeepsGlobalEfficiencyAndAddsTheByteRatio) {
  const auto shared_json = analyze_json(shared_pattern("0"), HardwareModel::Modern);
  EXPECT_DOUBLE_EQ(shared_json["efficiency"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(shared_json["byte_efficiency"].get<double>(), 4.0 / 128.0);
  EXPECT_EQ(shared_json["min_wavefronts_per_request"], 1);
  const auto global_json = analyze_json(pattern("lane + 1"), HardwareModel::Modern);
  EXPECT_DOUBLE_EQ(global_json["efficiency"].get<double>(), 0.8);  // requested / moved bytes
  EXPECT_FALSE(global_json.contains("byte_efficiency"));
  // Each ratio also under its own name (issue 32): bytes used / moved, wavefronts needed / taken.
  EXPECT_DOUBLE_EQ(global_json["bytes_used"].get<double>(), 0.8);
  EXPECT_FALSE(global_json.contains("wavefronts_needed"));
  EXPECT_DOUBLE_EQ(shared_json["wavefronts_needed"].get<double>(), 1.0);
  EXPECT_FALSE(shared_json.contains("bytes_used"));
  const std::string text = analyze_text(shared_json);
  EXPECT_TRUE(has(text, "wavefronts needed   100.0 % (1 of 1)")) << text;
  EXPECT_FALSE(has(text, "efficiency")) << text;
}

// --- 7. __ldcg: what the L1 bypass changes and what it does not ---------------------------------

TEST(LoadPath, LdcgSaysTheSectorsAreTheSame) {
  gpu::CopyParams p;
  p.stride = 2;
  p.path = gpu::LoadPath::L2Only;
  EXPECT_EQ(load_path_caption(p, 0),
            "lanes 0\u201331 of warp 0 \u2022 __ldcg: cached in L2 only, "
            "L1 bypassed");
  EXPECT_TRUE(has(load_path_note(p), "the same 32-byte sectors from L2"));
  EXPECT_EQ(load_path_caption(gpu::CopyParams{}, 0), "");
  EXPECT_EQ(load_path_note(gpu::CopyParams{}), "");
  // The model honours it: the same sectors per request on either path.
  EXPECT_EQ(global(pattern("2 * lane")).sectors.size(), 8u);
}

TEST(Format, KeepsAParagraphLongerThanItsFirstBuffer) {
  // The flight lab's Little's-law note ran past 255 bytes and ended "the curve meets cudaMe" at
  // 2x on 1920x1080: format() cut it at its stack buffer.
  const std::string head(250, 'x');
  const std::string text =
      format("%s; the curve meets cudaMemcpy at %s per SM.", head.c_str(), "12.1 KiB");
  EXPECT_EQ(text, head + "; the curve meets cudaMemcpy at 12.1 KiB per SM.");
  EXPECT_EQ(format("%d B", 128), "128 B");
  EXPECT_EQ(format("%s", ""), "");
}

TEST(KeepUnitsTogether, ANumberAndItsUnitShareANoBreakSpace) {
  const std::string nb = "\u00a0";
  EXPECT_EQ(keep_units_together("33.3 %"), "33.3" + nb + "%");  // the unit ends the text
  EXPECT_EQ(keep_units_together("128 B moved, 5.8 KiB per SM, 536 ns"),
            "128" + nb + "B moved, 5.8" + nb + "KiB per SM, 536" + nb + "ns");
  EXPECT_EQ(keep_units_together("2950 GB/s (read + write)"), "2950" + nb + "GB/s (read + write)");
  // Not a unit: a word starting like one, a number before a word, a unit after a word.
  EXPECT_EQ(keep_units_together("32 Banks, 4 bytes, the B side, 2 s"),
            "32 Banks, 4 bytes, the B side, 2" + nb + "s");
  EXPECT_EQ(keep_units_together("3 "), "3 ");
  EXPECT_EQ(keep_units_together(""), "");
}

}  // namespace
}  // namespace warplens::app
