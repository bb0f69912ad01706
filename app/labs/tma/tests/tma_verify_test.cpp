// verify's tile cases (tile_verify.h), no GPU: unique names, each case's model from the bank
// model, and the cases a GPU without the TMA or ldmatrix cannot run left out.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tile_verify.h"

namespace warplens::test {
namespace {

const app::CounterCase& find(const std::vector<app::CounterCase>& cases, const std::string& name) {
  for (const app::CounterCase& c : cases) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no case " + name);
}

TEST(TileVerify, HopperGetsEveryModeReadAndLdmatrixForm) {
  const auto cases = app::tile_verify_cases(90);
  std::set<std::string> names;
  for (const app::CounterCase& c : cases) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_EQ(c.kind, app::CaseKind::LabLaunch);
    EXPECT_TRUE(c.shared());
    EXPECT_FALSE(c.store());
    EXPECT_TRUE(c.lab_launch.launch) << c.name;
  }
  // 2 fills x 4 modes x 3 sizes x 3 reads = 72, ldmatrix: 2 fills x 4 modes x 6 forms = 48,
  // padded: 1 column + 6 ldmatrix.
  EXPECT_EQ(cases.size(), 72u + 48u + 7u);
  EXPECT_EQ(find(cases, "tile/tma/none/4B/column-0").lab_launch.model, 32);
  EXPECT_EQ(find(cases, "tile/tma/128B/4B/column-0").lab_launch.model, 4);
  EXPECT_EQ(find(cases, "tile/tma/128B/4B/row-0").lab_launch.model, 1);
  const auto& ldsm = find(cases, "tile/tma/none/2B/ldmatrix.x4");
  EXPECT_EQ(ldsm.lab_launch.model, 32);
  EXPECT_TRUE(ldsm.lab_launch.ldmatrix);
  EXPECT_EQ(ldsm.word_bytes(), 16);
  EXPECT_EQ(find(cases, "tile/tma/128B/2B/ldmatrix.x4.trans").lab_launch.model, 4);
  EXPECT_EQ(find(cases, "tile/threads/none/2B/pitch-144/ldmatrix.x4").lab_launch.model, 4);
  EXPECT_EQ(app::case_metrics(ldsm)[1], "smsp__inst_executed_op_ldsm.sum");
}

TEST(TileVerify, OlderGpusGetWhatTheyCanRun) {
  const auto ampere = app::tile_verify_cases(86);
  for (const app::CounterCase& c : ampere) {
    EXPECT_EQ(c.name.rfind("tile/tma/", 0), std::string::npos) << c.name;
  }
  EXPECT_EQ(ampere.size(), 36u + 24u + 7u);
  const auto volta = app::tile_verify_cases(70);
  for (const app::CounterCase& c : volta) EXPECT_FALSE(c.lab_launch.ldmatrix) << c.name;
  EXPECT_EQ(volta.size(), 36u + 1u);
}

}  // namespace
}  // namespace warplens::test
