// The one writer of `warplens measure`'s output (measured_table.h): the same rows as JSON, as
// RFC 4180 CSV and as aligned text tables.
#include "measured_table.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>
#include <string>

namespace warplens::app {
namespace {

nlohmann::json two_rows() {
  return {{"device", "NVIDIA H100 80GB HBM3"},
          {"memcpy_gbps", 2910.5},
          {"measurements",
           {{{"kernel", "copy"}, {"gbps", 2876.04}, {"timing", {{"median_ms", 0.5}}}},
            {{"kernel", "a, \"quoted\" one"},
             {"gbps", 12.5},
             {"verified", false},
             {"timing", {{"median_ms", 12.25}}}}}}};
}

MeasuredTable table() {
  MeasuredTable t;
  t.head = {"device  H100"};
  t.sections.push_back({"", {}, {field("kernel", "/kernel"), field("GB/s", "/gbps", 1)}});
  t.csv = {doc_field("device", "/device"),
           field("kernel", "/kernel"),
           field("gbps", "/gbps", 1),
           field("median_ms", "/timing/median_ms", 3),
           field("verified", "/verified"),
           {"pct_of_memcpy",
            [](const nlohmann::json& r, const nlohmann::json& d) {
              return 100.0 * r["gbps"].get<double>() / d["memcpy_gbps"].get<double>();
            },
            1}};
  t.foot = {"summary: two kernels"};
  return t;
}

std::string written(const std::string& format, const nlohmann::json& doc, const MeasuredTable& t) {
  std::ostringstream out;
  write_measurement(out, format, doc, t);
  return out.str();
}

TEST(MeasuredTable, CellsAreWrittenAsTheirKindAsks) {
  EXPECT_EQ(format_cell(2.5, 2), "2.50");
  EXPECT_EQ(format_cell(7, -1), "7");
  EXPECT_EQ(format_cell(7, 1), "7.0");
  EXPECT_EQ(format_cell(nullptr, 1), "");
  EXPECT_EQ(format_cell(true, -1), "true");
  EXPECT_EQ(format_cell("WRONG", 3), "WRONG");
}

TEST(MeasuredTable, JsonIsTheDocumentItself) {
  const auto doc = two_rows();
  EXPECT_EQ(written("json", doc, table()), doc.dump(2) + "\n");
  EXPECT_EQ(nlohmann::json::parse(written("json", doc, table())), doc);
}

TEST(MeasuredTable, CsvHasOneHeaderAndOneQuotedLinePerRow) {
  EXPECT_EQ(written("csv", two_rows(), table()),
            "device,kernel,gbps,median_ms,verified,pct_of_memcpy\n"
            "NVIDIA H100 80GB HBM3,copy,2876.0,0.500,,98.8\n"
            "NVIDIA H100 80GB HBM3,\"a, \"\"quoted\"\" one\",12.5,12.250,false,0.4\n");
}

TEST(MeasuredTable, TextAlignsNumbersRightAndWordsLeft) {
  EXPECT_EQ(written("text", two_rows(), table()),
            "device  H100\n"
            "\n"
            "kernel             GB/s\n"
            "copy             2876.0\n"
            "a, \"quoted\" one    12.5\n"
            "\n"
            "summary: two kernels\n");
}

TEST(MeasuredTable, SectionsTakeTheirRowsAndAnEmptyOneIsLeftOut) {
  MeasuredTable t;
  t.sections.push_back({"[fast]",
                        [](const nlohmann::json& r) { return r["gbps"].get<double>() > 100; },
                        {field("kernel", "/kernel")}});
  t.sections.push_back({"[none]",
                        [](const nlohmann::json& r) { return r["gbps"].get<double>() < 0; },
                        {field("kernel", "/kernel")}});
  const std::string text = written("text", two_rows(), t);
  EXPECT_EQ(text, "\n[fast]\nkernel\ncopy\n");
}

TEST(MeasuredTable, RowsCanLiveElsewhereInTheDocument) {
  MeasuredTable t;
  t.rows_at = "/rows";
  t.csv = {field("n", "/n")};
  const nlohmann::json doc = {{"rows", {{{"n", 1}}, {{"n", 2}}}}};
  EXPECT_EQ(written("csv", doc, t), "n\n1\n2\n");
  EXPECT_EQ(written("csv", nlohmann::json::object(), t), "n\n");  // no rows: the header alone
}

TEST(MeasuredTable, AnUnknownFormatIsRefusedBeforeAnythingIsWritten) {
  std::ostringstream out;
  EXPECT_THROW(write_measurement(out, "xml", two_rows(), table()), std::invalid_argument);
  EXPECT_TRUE(out.str().empty());
}

}  // namespace
}  // namespace warplens::app
