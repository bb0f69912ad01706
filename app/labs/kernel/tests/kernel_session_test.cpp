// The own-kernel lab's host side (no GPU, no GL): the [kernel] preset table read and written,
// its refusals, the built-in scenarios, the launch totals' model (the tile's clearing included),
// the generated source of every built-in scenario against its golden file, and the session's
// model-only path with host sinks (which view gets which row, refused edits keep the last good
// program).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "kernel_preset.h"
#include "kernel_session.h"
#include "kernel_totals.h"
#include "layout_access.h"
#include "measure_kernel.h"
#include "scenarios.h"
#include "trace_sink.h"

#ifndef WARPLENS_SOURCE_DIR
#error "WARPLENS_SOURCE_DIR must name the repository (tests/CMakeLists.txt sets it)"
#endif

namespace warplens::app {
namespace {

KernelState parse(const std::string& toml) {
  const Scenario s = parse_scenario(toml, "test.toml");
  EXPECT_EQ(s.lab, Lab::Kernel);
  return kernel_scenario(s);
}

const char* kHead = "name = \"t\"\nlab = \"kernel\"\ntitle = \"t\"\nsummary = \"t\"\n";

std::string refusal(const std::string& toml) {
  try {
    (void)parse_scenario(std::string(kHead) + toml, "test.toml");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(accepted)";
}

const KernelState& small_program(const std::string& name) {
  static const auto programs = kernel_small_programs();
  for (const auto& [n, s] : programs)
    if (n == name) return s;
  throw std::logic_error("no small program " + name);
}

TEST(KernelScenario, BuiltInsParseAndOpenTheLab) {
  int kernels = 0;
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab != Lab::Kernel) continue;
    ++kernels;
    const KernelState& st = kernel_scenario(s);
    EXPECT_NO_THROW(gpu::check_program(st.program)) << s.name;
    EXPECT_FALSE(st.program.rows.empty()) << s.name;
  }
  EXPECT_GE(kernels, 9);
}

TEST(KernelScenario, PresetRoundTrips) {
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab != Lab::Kernel) continue;
    const KernelState& st = kernel_scenario(s);
    const std::string text = kernel_preset_toml(st, "again", "Again", "saved");
    const KernelState back = parse(text);
    EXPECT_EQ(back, st) << s.name << "\n" << text;
  }
}

TEST(KernelScenario, RefusalsNameTheProblem) {
  EXPECT_NE(refusal("[kernel]\n").find("needs rows"), std::string::npos);
  EXPECT_NE(refusal("[kernel]\nblock = [2048, 1]\n[[kernel.rows]]\nindex = \"tx\"\n")
                .find("not a CUDA block"),
            std::string::npos);
  EXPECT_NE(refusal("[kernel]\n[[kernel.rows]]\nspace = \"heap\"\nindex = \"tx\"\n")
                .find("rows[1]: space must be in, out or tile"),
            std::string::npos);
  EXPECT_NE(refusal("[kernel]\n[[kernel.rows]]\nindex = \"tx +* 2\"\n").find("row 1, column"),
            std::string::npos);
  EXPECT_NE(refusal("[kernel]\n[[kernel.rows]]\nindex = \"tx\"\nsyncc = true\n")
                .find("unknown key \"syncc\""),
            std::string::npos);
  EXPECT_NE(
      refusal("[kernel]\n[[kernel.rows]]\nspace = \"tile\"\nindex = \"tx\"\n").find("needs a tile"),
      std::string::npos);
  EXPECT_NE(refusal("[kernel]\nstep = 3\n[[kernel.rows]]\nindex = \"tx\"\n").find("step must be"),
            std::string::npos);
  EXPECT_NE(refusal("[kernel]\ntile = { elements = 100000, word_bytes = 4 }\n[[kernel.rows]]\n"
                    "index = \"tx\"\n")
                .find("tile"),
            std::string::npos);
  EXPECT_NE(refusal("[kernel]\nconstants = { tx = 3 }\n[[kernel.rows]]\nindex = \"tx\"\n"),
            "(accepted)");
  EXPECT_NE(refusal("[kernel]\ntrace = { block = [5, 0], warp = 0 }\n[[kernel.rows]]\nindex = "
                    "\"tx\"\n")
                .find("not in grid"),
            std::string::npos);
}

TEST(KernelScenario, RowsTakeACuTeLayoutAsTheirIndex) {
  // layout (and lane_layout) instead of index: the row holds the layout's index expression.
  const std::string rows =
      "[kernel]\nblock = [32, 4]\ntile = { elements = 512, word_bytes = 2 }\n"
      "[[kernel.rows]]\nspace = \"tile\"\nop = \"store\"\nword_bytes = 2\n"
      "layout = \"Swizzle<3,4,3> o (8,64):(64,1)\"\nsync = true\n"
      "[[kernel.rows]]\nspace = \"tile\"\nword_bytes = 2\nlayout = \"(8,64):(64,1)\"\n"
      "lane_layout = \"(4,8):(8,1)\"\n";
  const KernelState st = parse(std::string(kHead) + rows);
  ASSERT_EQ(st.program.rows.size(), 2u);
  EXPECT_EQ(st.program.rows[0].index, model::layout_index_expression(
                                          model::parse_layout_access("Sw<3,4,3> o (8,64):(64,1)")));
  EXPECT_EQ(st.program.rows[1].index, model::layout_index_expression(model::parse_layout_access(
                                          "(8,64):(64,1)", "(4,8):(8,1)")));
  // The rows keep the layouts they came from, to show and to save: a saved preset holds the
  // layouts (not the expressions) and reads back the same rows.
  EXPECT_EQ(st.program.rows[0].layout, "Swizzle<3,4,3> o (8,64):(64,1)");
  EXPECT_EQ(st.program.rows[1].lane_layout, "(4,8):(8,1)");
  EXPECT_EQ(row_layout_text(st.program.rows[1]),
            "CuTe layout (8,64):(64,1), lanes (4,8):(8,1) gives " + st.program.rows[1].index);
  EXPECT_EQ(row_layout_text(small_program("copy, 4 B").program.rows[0]),
            "");  // written as an index
  const std::string saved = kernel_preset_toml(st, "again", "Again", "saved");
  EXPECT_NE(saved.find("Swizzle<3,4,3> o (8,64):(64,1)"), std::string::npos) << saved;
  EXPECT_EQ(saved.find("index"), std::string::npos) << saved;
  EXPECT_EQ(parse(saved), st);
  EXPECT_NE(refusal("[kernel]\n[[kernel.rows]]\nindex = \"tx\"\nlayout = \"32:1\"\n")
                .find("rows[1]: give index or layout, not both"),
            std::string::npos);
  EXPECT_NE(refusal("[kernel]\n[[kernel.rows]]\nlayout = \"(8,4:(32,1)\"\n")
                .find("rows[1]: layout column 1: unbalanced tuple"),
            std::string::npos);
  EXPECT_NE(refusal("[kernel]\nblock = [64, 1]\n[[kernel.rows]]\nlayout = \"(8,4):(32,1)\"\n")
                .find("tx = 32 is past the layout"),
            std::string::npos);
  EXPECT_NE(refusal("[kernel]\n[[kernel.rows]]\nlayout = 32\n").find("must be strings"),
            std::string::npos);
}

TEST(KernelTotals, TiledTransposeCountsEveryWarpAndNeedsNoClearing) {
  const KernelState& st = small_program("transpose tiled, n = 256");
  // Every tile load reads a word row 2 stored before the __syncthreads(): no clearing.
  EXPECT_TRUE(gpu::tile_loads_read_stored_words(st.program));
  const gpu::KernelTotals t = gpu::model_totals(st.program, model::HardwareModel::Modern, 4096);
  EXPECT_TRUE(t.exact);
  EXPECT_EQ(t.warps, 8 * 8 * 32);  // 64 blocks of 32 warps
  EXPECT_DOUBLE_EQ(t.global_load.requests, 2048);
  EXPECT_DOUBLE_EQ(t.global_load.per_request(), 4);
  EXPECT_DOUBLE_EQ(t.global_store.per_request(), 4);
  EXPECT_DOUBLE_EQ(t.shared_load.per_request(), 32);  // tile[tx*32 + ty]: one bank
  EXPECT_DOUBLE_EQ(t.tile_clear.requests, 0);
  EXPECT_DOUBLE_EQ(t.shared_store.requests, 2048);
  EXPECT_DOUBLE_EQ(t.shared_store.cost, 2048);
  EXPECT_EQ(gpu::generate_source(st.program).find("make_uint4(0, 0, 0, 0)"), std::string::npos);
}

TEST(KernelTotals, ATileReadBeforeAnyStoreIsClearedAndCounted) {
  // tile[2*s*tx] reaches words 0..2040; row 2 stored only words 0..255.
  const KernelState& st = small_program("reduction step tile[2*s*tx]");
  EXPECT_FALSE(gpu::tile_loads_read_stored_words(st.program));
  const gpu::KernelTotals t = gpu::model_totals(st.program, model::HardwareModel::Modern, 4096);
  // 8 KiB = 512 stores of 16 B per block of 256 threads: 2 per thread, 4 wavefronts each.
  EXPECT_DOUBLE_EQ(t.tile_clear.requests, 256 * 8 * 2);
  EXPECT_DOUBLE_EQ(t.tile_clear.cost, 256 * 8 * 2 * 4);
  EXPECT_DOUBLE_EQ(t.shared_store.requests, 2048 + 4096);
  EXPECT_NE(gpu::generate_source(st.program).find("make_uint4(0, 0, 0, 0)"), std::string::npos);
  // A missing __syncthreads() between the store and the load also needs the clearing.
  KernelState racy = small_program("transpose tiled, n = 256");
  racy.program.rows[1].sync_after = false;
  EXPECT_FALSE(gpu::tile_loads_read_stored_words(racy.program));
}

TEST(KernelTotals, LargeGridsAreSampledAndScaled) {
  const Scenario& s = find_scenario("kernel-transpose-naive");
  const gpu::KernelTotals t = gpu::model_totals(kernel_scenario(s).program);
  EXPECT_FALSE(t.exact);
  EXPECT_EQ(t.warps_evaluated, gpu::kTotalsMaxWarps);
  EXPECT_DOUBLE_EQ(t.global_load.requests, 256.0 * 256 * 32);
  EXPECT_DOUBLE_EQ(t.global_store.per_request(), 32);
}

TEST(KernelTotals, WarpsWhollyOutOfRangeIssueNoRequest) {
  const KernelState& st = small_program("far out of range");
  const gpu::KernelTotals t = gpu::model_totals(st.program, model::HardwareModel::Modern, 4096);
  EXPECT_TRUE(t.exact);
  // Row 1: lane 0 of each warp at 2e9 is past in; every lane is out of range: no load request.
  EXPECT_DOUBLE_EQ(t.global_load.requests, 0);
  // Row 2 (out[-tx]): only thread 0 of each block is in range, so only warp 0 issues it (256
  // requests); row 3 is a copy: 256 blocks x 8 warps.
  EXPECT_DOUBLE_EQ(t.global_store.requests, 256 + 256 * 8);
}

// The generated source of every built-in scenario, against tests/golden/kernel-source/NAME.cu.
// WARPLENS_UPDATE_GOLDEN=1 rewrites the files (look at the diff before committing it).
TEST(KernelSource, BuiltInScenariosMatchTheirGoldenFiles) {
  const bool update = std::getenv("WARPLENS_UPDATE_GOLDEN") != nullptr;
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab != Lab::Kernel) continue;
    const std::string source = gpu::generate_source(kernel_scenario(s).program);
    const std::string path =
        std::string(WARPLENS_SOURCE_DIR) + "/tests/golden/kernel-source/" + s.name + ".cu";
    if (update) {
      std::ofstream(path, std::ios::binary) << source;
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << path << " is missing; WARPLENS_UPDATE_GOLDEN=1 writes it";
    std::stringstream golden;
    golden << in.rdbuf();
    EXPECT_EQ(source, golden.str())
        << s.name << ": the generated source changed; if that is meant, "
        << "rerun with WARPLENS_UPDATE_GOLDEN=1 and commit the diff";
    // Every access is bounds-checked.
    std::size_t checks = 0;
    for (std::size_t at = source.find("const bool wl_ok"); at != std::string::npos;
         at = source.find("const bool wl_ok", at + 1))
      ++checks;
    EXPECT_EQ(checks, kernel_scenario(s).program.rows.size()) << s.name;
  }
}

class KernelSessionTest : public ::testing::Test {
 protected:
  HostWarpTraceSink warp;
  HostSink<TraceRecords> bank;
};

TEST_F(KernelSessionTest, ModelOnlyShowsEveryRowInItsView) {
  KernelSession session(warp, bank, false);
  EXPECT_FALSE(session.gpu_mode());
  EXPECT_TRUE(session.idle());
  KernelState st = kernel_scenario(find_scenario("kernel-transpose-tiled"));
  st.step = 0;
  session.set(st);
  EXPECT_TRUE(session.error().empty()) << session.error();
  ASSERT_EQ(session.rows_model().size(), 4u);
  EXPECT_EQ(session.rows_model()[2].cost(), 32);
  // Row 1 (in): the warp view holds lane l at 4 l from the row's start (by = 0, bx = 0).
  EXPECT_FALSE(session.traced_on_gpu());
  const TraceRecords w = warp.contents();
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(w[static_cast<std::size_t>(l)].active, 1u);
    EXPECT_EQ(trace_address(w[static_cast<std::size_t>(l)]), 4u * static_cast<unsigned>(l));
  }
  // Row 3 (tile[tx*32 + ty]): the bank view, lane l at 128 l.
  st.step = 2;
  session.set(st);
  const TraceRecords b = bank.contents();
  for (int l = 0; l < 32; ++l)
    EXPECT_EQ(trace_address(b[static_cast<std::size_t>(l)]), 128u * static_cast<unsigned>(l));
  EXPECT_EQ(session.trace()[5].address_lo, 640u);
  EXPECT_NE(session.source().find("tile[tx*32 + ty]"), std::string::npos);
}

TEST_F(KernelSessionTest, StepsClampAndRefusedEditsKeepTheLastGoodProgram) {
  KernelSession session(warp, bank, false);
  KernelState st = kernel_scenario(find_scenario("kernel-copy"));
  st.step = 7;
  session.set(st);
  EXPECT_EQ(session.state().step, 1);
  KernelState bad = session.state();
  bad.program.rows[0].index = "tx / (lane - lane)";
  session.set(bad);
  EXPECT_NE(session.error().find("refused"), std::string::npos);
  EXPECT_NE(session.error().find("row 1"), std::string::npos);
  EXPECT_EQ(session.state().program.rows[0].index, "bx*bdx + tx");
  EXPECT_EQ(session.edited().program.rows[0].index, "tx / (lane - lane)");
  bad.program.rows[0].index = "bx*bdx + tx + 1";
  session.set(bad);
  EXPECT_TRUE(session.error().empty());
  EXPECT_EQ(session.state().program.rows[0].index, "bx*bdx + tx + 1");
}

TEST_F(KernelSessionTest, OutOfRangeLanesAreInactiveInTheView) {
  KernelSession session(warp, bank, false);
  KernelState st = kernel_scenario(find_scenario("kernel-copy"));
  st.program.in.elements = 16;  // lanes 16..31 of warp 0 index past in
  session.set(st);
  EXPECT_EQ(session.rows_model()[0].out_of_range_lanes, 16);
  const TraceRecords w = warp.contents();
  EXPECT_EQ(w[15].active, 1u);
  EXPECT_EQ(w[16].active, 0u);
}

TEST(KernelBandwidthModel, ScalesTheCopyByUsedBytes) {
  gpu::KernelTotals t;
  t.global_load = {100, 400};    // 4 sectors per request: 128 B each, all used
  t.global_store = {100, 3200};  // 32 sectors per request: 4 B of 32 used
  const std::int64_t asked = 100 * 128 * 2;
  EXPECT_NEAR(predicted_gbps(t, asked, 3000), 3000.0 * 25600 / (3600 * 32), 1e-9);
  EXPECT_EQ(predicted_gbps({}, asked, 3000), 0);
}

}  // namespace
}  // namespace warplens::app
