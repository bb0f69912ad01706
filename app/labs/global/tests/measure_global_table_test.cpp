// The global lab's measure document as text and CSV (global_measure_table, measured_table.h):
// every number written is the document's, the CSV keeps its documented columns.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "measure_global.h"

namespace warplens::app {
namespace {

nlohmann::json row(const char* pattern, int word_bytes, long long offset, long long stride,
                   double gbps, int sectors, double efficiency) {
  const double median_ms = 8.0 * (1 << 20) / (gbps * 1e6);
  return {{"word_bytes", word_bytes},
          {"pattern", pattern},
          {"seed", 1},
          {"side", "read"},
          {"path", "default"},
          {"layout", "none"},
          {"matrix_width", 0},
          {"matrix_by_column", false},
          {"pitch_bytes", 0},
          {"offset", offset},
          {"stride", stride},
          {"threads", 1 << 20},
          {"requested_bytes", 8 << 20},
          {"median_ms", median_ms},
          {"min_ms", 0.97 * median_ms},
          {"max_ms", 1.05 * median_ms},
          {"runs", 15},
          {"gbps", gbps},
          {"percent_of_memcpy", 100.0 * gbps / 2900.0},
          {"model_sectors_per_request", sectors},
          {"model_efficiency", efficiency}};
}

nlohmann::json document() {
  const nlohmann::json timing = {{"median_ms", 0.74}, {"min_ms", 0.73}, {"max_ms", 0.75}};
  return {{"device", "NVIDIA H100 80GB HBM3"},
          {"compute_capability", "9.0"},
          {"sm_count", 132},
          {"l2_bytes", 50LL << 20},
          {"buffer_bytes", 512LL << 20},
          {"runs", 15},
          {"memcpy_d2d_gbps", 2900.0},
          {"memcpy_d2d_bytes", 1LL << 30},
          {"memcpy_d2d_timing", timing},
          {"ideal_copy_gbps", 2871.0},
          {"ideal_copy_bytes", 1LL << 30},
          {"ideal_copy_timing", timing},
          {"theoretical_gbps", 3352.3},
          {"measurements",
           {row("strided", 4, 0, 1, 2876.4, 4, 1.0), row("strided", 4, 0, 32, 201.7, 32, 0.125)}}};
}

std::string written(const std::string& format) {
  std::ostringstream out;
  const auto doc = document();
  write_measurement(out, format, doc, global_measure_table(doc));
  return out.str();
}

TEST(GlobalMeasureTable, TextHasTheReferencesAndOneLinePerPattern) {
  const std::string text = written("text");
  EXPECT_NE(text.find("device  NVIDIA H100 80GB HBM3 (CC 9.0, 132 SMs, L2 50 MiB)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("buffer  512 MiB in + 512 MiB out; median of 15 timed runs"),
            std::string::npos);
  EXPECT_NE(text.find("cudaMemcpy D2D                 2900.0 GB/s"), std::string::npos) << text;
  EXPECT_NE(text.find("99.0 % of cudaMemcpy"), std::string::npos) << text;  // 2871 / 2900
  // One line per pattern: its name, GB/s, % of memcpy, spread, sectors, efficiency.
  std::istringstream lines(text);
  std::string line;
  int patterns = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("strided W=4 K=0 S=32 ", 0) == 0) {
      ++patterns;
      EXPECT_NE(line.find("201.7"), std::string::npos) << line;
      EXPECT_NE(line.find("7.0"), std::string::npos) << line;   // % of memcpy
      EXPECT_NE(line.find(" 32 "), std::string::npos) << line;  // sectors per request
      EXPECT_NE(line.find("12.5"), std::string::npos) << line;  // efficiency %
    }
    if (line.rfind("strided W=4 K=0 S=1 ", 0) == 0) ++patterns;
  }
  EXPECT_EQ(patterns, 2) << text;
}

TEST(GlobalMeasureTable, CsvKeepsItsColumns) {
  const std::string csv = written("csv");
  std::istringstream lines(csv);
  std::string header, first, second, extra;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "device,word_bytes,offset,stride,threads,median_ms,min_ms,max_ms,runs,gbps,"
            "memcpy_d2d_gbps,percent_of_memcpy,model_sectors_per_request");
  ASSERT_TRUE(std::getline(lines, first));
  ASSERT_TRUE(std::getline(lines, second));
  EXPECT_FALSE(std::getline(lines, extra));
  EXPECT_EQ(second.rfind("NVIDIA H100 80GB HBM3,4,0,32,1048576,", 0), 0u) << second;
  EXPECT_NE(second.find(",15,201.7,2900.0,7.0,32"), std::string::npos) << second;
}

}  // namespace
}  // namespace warplens::app
