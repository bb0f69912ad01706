// The field's words (app/core/glossary.h): which terms a text uses, and the docs' table equal to
// `warplens list --glossary`.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "glossary.h"
#include "test_support.h"

namespace warplens::app {
namespace {

std::vector<std::string> names(std::string_view text) {
  std::vector<std::string> out;
  for (const GlossaryTerm* t : terms_in(text)) out.emplace_back(t->term);
  return out;
}

TEST(Glossary, FindsEachTermAsAWordOrItsPluralOnce) {
  using V = std::vector<std::string>;
  EXPECT_EQ(names("Wavefronts per request: 4 (model)"), (V{"request", "wavefront"}));
  EXPECT_EQ(names("4 sectors, 100.0 % of the bytes moved used"), (V{"sector", "bytes moved used"}));
  EXPECT_EQ(names("3.2 B/clk/SM (2 % of 128)"), V{"B/clk/SM"});
  EXPECT_EQ(names("Tile: the TMA's 128-byte swizzle"), (V{"swizzle", "TMA"}));
  EXPECT_EQ(names("CuTe layout: Sw<3,3,3> o (32,64):(64,1)"), V{"CuTe"});
  EXPECT_EQ(names("the Fermi caching load (-dlcm=ca)"), V{"-dlcm"});
  // Not inside a longer word, and an upper-case term only as written.
  EXPECT_TRUE(names("subrequests, sectorial, banked, tma").empty());
  EXPECT_EQ(names("bank conflict: 2 banks"), (V{"bank", "bank conflict"}));
  EXPECT_TRUE(names("").empty());
}

TEST(Glossary, EveryTermHasAMeaningAndASourceAndIsFoundInItself) {
  for (const GlossaryTerm& t : glossary()) {
    EXPECT_GT(std::string(t.meaning).size(), 20u) << t.term;
    EXPECT_GT(std::string(t.source).size(), 5u) << t.term;
    const auto found = names(t.term);
    EXPECT_NE(std::find(found.begin(), found.end(), t.term), found.end()) << t.term;
  }
}

TEST(Glossary, TheDocsPageHoldsTheTableTheCommandPrints) {
  const auto r = test::run_command(test::kWarplens + " list --glossary");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, glossary_markdown());
  std::ifstream in(std::string(WARPLENS_SOURCE_DIR) + "/docs/reference/glossary.md");
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(page.empty());
  EXPECT_NE(page.find(glossary_markdown()), std::string::npos)
      << "docs/reference/glossary.md: paste `warplens list --glossary` into it";
}

}  // namespace
}  // namespace warplens::app
