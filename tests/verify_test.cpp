// The verify catalog and its model side, without a GPU: size and coverage (loads and stores,
// 1-16-byte words, global and shared), unique names, the model's per-request cost for rows
// whose answer is known from the lecture, and `warplens verify`'s exit code without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "counter_checks.h"
#include "gpu.h"
#include "test_support.h"
#include "verify.h"

namespace warplens::test {
namespace {

using app::CounterCase;

const std::vector<CounterCase>& catalog() {
  static const std::vector<CounterCase> cases = app::verify_catalog(512);
  return cases;
}

const CounterCase& find(const std::string& name) {
  for (const CounterCase& c : catalog()) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no case " + name);
}

double model(const std::string& name) {
  return app::model_per_request(find(name), gpu::kModelBufferBytes);
}

TEST(VerifyCatalog, HasAtLeastHundredUniquelyNamedRows) {
  EXPECT_GE(catalog().size(), 100u);
  std::set<std::string> names;
  for (const CounterCase& c : catalog()) EXPECT_TRUE(names.insert(c.name).second) << c.name;
}

TEST(VerifyCatalog, CoversLoadsStoresWordSizesAndBothSpaces) {
  for (bool shared : {false, true}) {
    for (bool store : {false, true}) {
      for (int word : {1, 2, 4, 8, 16}) {
        const bool found =
            std::any_of(catalog().begin(), catalog().end(), [&](const CounterCase& c) {
              return c.shared() == shared && c.store() == store && c.word_bytes() == word;
            });
        EXPECT_TRUE(found) << (shared ? "shared " : "global ") << (store ? "store " : "load ")
                           << word << "-byte words";
      }
    }
  }
}

TEST(VerifyCatalog, HoldsEveryBuiltInScenarioWithAnAccess) {
  for (const char* name : {"aligned", "misaligned", "scattered", "store-stride-2", "aos",
                           "matrix-columns", "bank-stride-32", "tile-swizzle", "transpose-naive",
                           "transpose", "matmul", "reduction-divergent", "reduction-sequential"}) {
    EXPECT_NO_THROW((void)find(name)) << name;
  }
  EXPECT_EQ(find("transpose-naive").kind, app::CaseKind::TransposeGlobal);
  EXPECT_EQ(find("transpose").kind, app::CaseKind::Bank);
}

TEST(VerifyModel, GlobalSectorsPerRequest) {
  EXPECT_DOUBLE_EQ(model("aligned"), 4.0);
  // The launch's last warp is partial (the offset leaves fewer than 32 elements for it): the
  // mean over the launch's 2^22 warps sits a hair below 5.
  EXPECT_NEAR(model("misaligned"), 5.0, 1e-5);
  EXPECT_DOUBLE_EQ(model("permuted"), 4.0);
  EXPECT_DOUBLE_EQ(model("same-word"), 1.0);
  EXPECT_DOUBLE_EQ(model("stride-2"), 8.0);
  EXPECT_DOUBLE_EQ(model("stride-32"), 32.0);
  EXPECT_DOUBLE_EQ(model("word-16"), 16.0);
  EXPECT_DOUBLE_EQ(model("store-stride-2"), 8.0);
  // The vectorized transpose's float2 accesses: a warp's 256 contiguous bytes, 8 sectors.
  EXPECT_EQ(find("global/ld/8B/transpose-vectorized-read").word_bytes(), 8);
  EXPECT_DOUBLE_EQ(model("global/ld/8B/transpose-vectorized-read"), 8.0);
  EXPECT_DOUBLE_EQ(model("global/st/8B/transpose-vectorized-write"), 8.0);
  EXPECT_DOUBLE_EQ(model("global/ld/4B/transpose-tiled-read"), 4.0);  // names as before
  EXPECT_DOUBLE_EQ(model("global/ld/1B/aligned"), 1.0);
  EXPECT_NEAR(model("global/st/16B/offset-1"), 17.0, 1e-5);
  // Struct {x, y, z}: 12-byte stride for each of the three loads; structure of arrays: 4 each.
  EXPECT_DOUBLE_EQ(model("aos"), 12.0);
  EXPECT_DOUBLE_EQ(model("soa"), 4.0);
  // A column of a matrix: every lane in its own sector.
  EXPECT_DOUBLE_EQ(model("matrix-columns"), 32.0);
  // 120 floats per row, blocks 32 wide: three warps of 4 sectors and one of 24 lanes (96 bytes,
  // 3 sectors) per row, pitched or not (480-byte rows start on a sector boundary).
  EXPECT_DOUBLE_EQ(model("matrix-rows-pitched"), 3.75);
  EXPECT_DOUBLE_EQ(model("matrix-rows"), 3.75);
  // 400-byte rows: rows start at 16 bytes into a sector every other row; the full 128-byte
  // pieces then cost 5 sectors, and the last 16-byte piece of each row 1 sector either way.
  const double m100 = model("global/ld/4B/matrix-100-rows-block-32x8");
  EXPECT_GT(m100, 3.0);
  EXPECT_LT(m100, 5.0);
  // Scattered: nearly every lane in a sector of its own.
  EXPECT_GT(model("scattered"), 31.0);
  EXPECT_LE(model("scattered"), 32.0);
  EXPECT_DOUBLE_EQ(model("transpose-naive"), 32.0);
  EXPECT_DOUBLE_EQ(model("global/ld/4B/transpose-naive-read"), 4.0);
}

TEST(VerifyModel, SharedWavefrontsPerRequest) {
  EXPECT_DOUBLE_EQ(model("bank-stride-1"), 1.0);
  EXPECT_DOUBLE_EQ(model("bank-stride-2"), 2.0);
  EXPECT_DOUBLE_EQ(model("bank-stride-32"), 32.0);
  EXPECT_DOUBLE_EQ(model("bank-broadcast"), 1.0);
  EXPECT_DOUBLE_EQ(model("tile-column-32x32"), 32.0);
  EXPECT_DOUBLE_EQ(model("tile-column-32x33"), 1.0);
  EXPECT_DOUBLE_EQ(model("tile-swizzle"), 1.0);
  EXPECT_DOUBLE_EQ(model("bank-word-8"), 2.0);
  EXPECT_DOUBLE_EQ(model("bank-word-16"), 4.0);
  EXPECT_DOUBLE_EQ(model("shared/ld/4B/stride-16"), 16.0);
  EXPECT_DOUBLE_EQ(model("shared/st/4B/stride-8"), 8.0);
  EXPECT_DOUBLE_EQ(model("shared/ld/16B/stride-2"), 8.0);
  EXPECT_DOUBLE_EQ(model("shared/ld/1B/stride-4"), 1.0);
  // The vectorized transpose's tile[64][65], lanes two words apart: 2-way both ways.
  EXPECT_EQ(find("transpose-vectorized").kind, app::CaseKind::Bank);
  EXPECT_DOUBLE_EQ(model("transpose-vectorized"), 2.0);
  EXPECT_DOUBLE_EQ(model("shared/st/4B/transpose-vectorized-32-tile-write"), 2.0);
  // tile 16: tile[32][33], a warp of 16 x 2 lanes
  EXPECT_GE(model("shared/ld/4B/transpose-vectorized-16-tile-read"), 1.0);
}

TEST(VerifyModel, ToleranceIsExactButForSharedStores) {
  const app::Tolerance load = app::case_tolerance(find("bank-stride-2"));
  EXPECT_DOUBLE_EQ(load.above, 0.01);
  EXPECT_DOUBLE_EQ(load.below, 0.01);
  const app::Tolerance store = app::case_tolerance(find("shared/st/4B/stride-2"));
  EXPECT_DOUBLE_EQ(store.above, 1.5);
  EXPECT_DOUBLE_EQ(store.below, 0.01);
  EXPECT_FALSE(store.note.empty());
  EXPECT_DOUBLE_EQ(app::case_tolerance(find("store-stride-2")).above, 0.01);
}

TEST(VerifyModel, EveryRowHasAModel) {
  for (const CounterCase& c : catalog()) {
    if (c.kind == app::CaseKind::Copy && c.copy.matrix_width != 0) continue;  // slow-ish, above
    const double m = app::model_per_request(c, gpu::kModelBufferBytes);
    EXPECT_GE(m, 1.0) << c.name;
    EXPECT_LE(m, c.shared() ? 128.0 : 32.0) << c.name;
  }
}

TEST(VerifyCli, ExitsThreeWithoutADevice) {
  if (gpu::query_device().device) GTEST_SKIP() << "a CUDA device is present";
  const CommandResult r = run_command(std::string(WARPLENS_BINARY) + " verify");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("no CUDA device"), std::string::npos) << r.output;
  const CommandResult bad =
      run_command(std::string(WARPLENS_BINARY) + " verify --filter nothing-x");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
}

}  // namespace
}  // namespace warplens::test
