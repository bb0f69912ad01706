// `warplens analyze --layout` (docs/layouts.md): the same lanes, banks and wavefronts as --index
// with the layout's expression; the text shows the layout, the offsets and the expression; bad
// layouts exit 2 naming the column.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "test_support.h"

namespace warplens::test {
namespace {

nlohmann::json analyze_json(const std::string& args) {
  const auto r = run_command(kWarplens + " analyze --format json " + args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.output;
  return r.exit_code == 0 ? nlohmann::json::parse(r.output) : nlohmann::json::object();
}

TEST(LayoutCli, AgreesWithTheIndexExpressionItPrints) {
  struct Case {
    std::string args;  // --layout ... and what else
  };
  const Case cases[] = {
      {"--layout '(8,4):(32,1)' --space shared"},
      {"--layout '(8,4):(32,1)' --space global --word-bytes 8"},
      {"--layout 'Swizzle<3,4,3> o (8,64):(64,1)' --space shared --word-bytes 2"},
      {"--layout 'Sw<3,4,3> o _0 o (_8,_64):(_64,_1)' --space shared --word-bytes 4"},
      {"--layout 'Swizzle<2,0,-3> o (8,8):(8,1)' --space shared"},
      {"--layout '(32,32):(1,33)' --space shared"},
      {"--layout '(32,32):(1,33)' --space shared --block 64x1 --warp 1"},
      {"--layout '(8,(2,8)):(64,(1,2))' --space shared --word-bytes 16"},
      {"--layout 'Swizzle<3,4,3> o (8,64):(64,1)' --lane-layout '((32),(4)):((4),(1))' "
       "--space shared --word-bytes 2"},
      {"--layout '(16):(2)' --space shared --block 16x1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    const auto by_layout = analyze_json(c.args);
    ASSERT_TRUE(by_layout.contains("layout"));
    const std::string expression = by_layout["layout"]["expression"];
    EXPECT_EQ(by_layout["index"], expression);
    // The options after --space, with --index instead of --layout (and --lane-layout).
    std::string rest = c.args.substr(c.args.find(" --space"));
    const auto by_index = analyze_json("--index '" + expression + "'" + rest);
    ASSERT_EQ(by_index["lanes"].size(), 32u);
    for (int i = 0; i < 32; ++i) {
      const auto& a = by_layout["lanes"][i];
      const auto& b = by_index["lanes"][i];
      EXPECT_EQ(a["active"], b["active"]) << i;
      if (!a["active"].get<bool>()) continue;
      EXPECT_EQ(a["index"], b["index"]) << i;
      EXPECT_EQ(a["index"], by_layout["layout"]["offsets"][i]) << i;
      EXPECT_EQ(a["address"], b["address"]) << i;
      if (a.contains("bank")) {
        EXPECT_EQ(a["bank"], b["bank"]) << i;
      }
      if (a.contains("sector")) {
        EXPECT_EQ(a["sector"], b["sector"]) << i;
      }
    }
    for (const char* key : {"wavefronts_per_request", "sectors_per_request", "moved_bytes"}) {
      if (by_index.contains(key)) {
        EXPECT_EQ(by_layout[key], by_index[key]) << key;
      }
    }
  }
}

TEST(LayoutCli, TextShowsLayoutOffsetsExpressionAndBanks) {
  const auto r = run_command(kWarplens + " analyze --space shared --layout '(8,4):(32,1)'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("layout              (8,4):(32,1) (32 coordinates"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("as an index         (tx % 8) * 32 + tx / 8"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("offsets             0 32 64 96 128 160 192 224 1 33"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("wavefronts/request  8"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  coordinate"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(1,1)"), std::string::npos) << r.output;  // lane 9
}

struct BadLayoutArgs {
  std::string args;
  std::string message;
};

class LayoutBadInputTest : public ::testing::TestWithParam<BadLayoutArgs> {};

TEST_P(LayoutBadInputTest, ExitsTwoNamingTheProblem) {
  const auto r = run_command(kWarplens + " analyze " + GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(GetParam().message), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, LayoutBadInputTest,
    ::testing::Values(
        BadLayoutArgs{"--layout '(8,4:(32,1)'", "layout column 1: unbalanced tuple"},
        BadLayoutArgs{"--layout '(8,4)):(32,1)'", "layout column 6: unbalanced tuple"},
        BadLayoutArgs{"--layout '(8,4):(32,1,2)'", "layout column 7: shape and stride differ"},
        BadLayoutArgs{"--layout 'Swizzle<3,4,2> o (8,64):(64,1)'",
                      "layout column 13: Swizzle<3,4,2> overlaps itself"},
        BadLayoutArgs{"--layout '32:1' --lane-layout '(4,8:(8,1)'",
                      "lane layout column 1: unbalanced tuple"},
        BadLayoutArgs{"--layout '(4,4):(4,1)'", "thread tx = 16 is past the layout"},
        BadLayoutArgs{"--layout '32:1' --lane-layout '32:2'", "gives thread tx = 16 the index 32"},
        BadLayoutArgs{"--layout '32:1' --index lane", "excludes"},
        BadLayoutArgs{"--lane-layout '32:1' --index lane", "requires"},
        BadLayoutArgs{"--space shared", "analyze needs --index EXPR or --layout LAYOUT"}));

}  // namespace
}  // namespace warplens::test
