// The bytes-in-flight lab's measure document as text and CSV (flight_measure_table,
// measured_table.h): one table per kind of row, the model's line beside each Little's-law copy,
// the summary's worst errors, as the verb writes them from its document.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "measure_flight.h"

namespace warplens::app {
namespace {

nlohmann::json copy_row(const char* section, double gbps) {
  return {{"section", section},   {"word_bytes", 16},          {"loads_per_thread", 8},
          {"block_threads", 256}, {"dynamic_shared_bytes", 0}, {"grid_stride", false},
          {"warps_per_sm", 8},    {"limiter", "blocks"},       {"bytes_in_flight_per_sm", 32768},
          {"gbps", gbps},         {"verified", true}};
}

nlohmann::json document() {
  nlohmann::json littles = copy_row("littles-law", 2702.0);
  littles["model_gbps"] = 2882.0;
  littles["error_pct"] = -6.25;
  littles["below_knee"] = false;
  nlohmann::json plain = copy_row("async", 2860.0);
  plain["kind"] = "plain";
  return {
      {"device", "NVIDIA H100 80GB HBM3"},
      {"compute_capability", "9.0"},
      {"sm_count", 132},
      {"lab", "flight"},
      {"limits", {{"l1_bytes", 262144}, {"l2_bytes", 52428800}, {"theoretical_gbps", 3352.32}}},
      {"memcpy_gbps", 2876.0},
      {"plateaus",
       {{"default 1 lane",
         {{"l1_ns", 19.4}, {"l2_ns", 140.25}, {"dram_ns", 536.0}, {"tlb_step_bytes", nullptr}}}}},
      {"model", "L0 x (1 + GB/s / peak) + tau x batch"},
      {"model_latency_ns", 536.0},
      {"linear_batch_ns_per_byte", 0.264},
      {"rows",
       {{{"section", "latency"},
         {"path", "default"},
         {"lanes", 1},
         {"working_set_bytes", 16384},
         {"ns_per_load", 19.44},
         {"cycles_per_load", 38.5},
         {"verified", true}},
        littles,
        plain,
        {{"section", "async"}, {"kind", "tma"}, {"unsupported", "needs CC 9.0"}}}},
      {"summary",
       {{"worst_error_below_knee_pct", 1.7},
        {"worst_error_above_knee_pct", 6.25},
        {"best_copy_pct_of_memcpy", 99.4}}}};
}

std::string written(const std::string& format) {
  std::ostringstream out;
  const auto doc = document();
  write_measurement(out, format, doc, flight_measure_table(doc));
  return out.str();
}

TEST(FlightMeasureTable, EachKindOfRowHasItsTableAndTheSummaryFollows) {
  const std::string text = written("text");
  EXPECT_NE(text.find("NVIDIA H100 80GB HBM3 (CC 9.0, 132 SMs): L1 256 KiB, L2 51200 KiB, "
                      "cudaMemcpy 2876 GB/s, theoretical 3352 GB/s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("plateaus default 1 lane   L1 19.4  L2 140.2  DRAM 536.0 ns"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[latency]"), std::string::npos);
  EXPECT_EQ(text.find("[loaded-latency]"), std::string::npos);  // no probe rows: no table
  EXPECT_EQ(text.find("cp.async and the TMA"), std::string::npos);
  EXPECT_NE(text.find("tma   needs CC 9.0"), std::string::npos) << text;
  // The Little's-law copy: 32 KiB in flight, its GB/s, % of memcpy, the line and the error.
  EXPECT_NE(text.find("32.0  2702      93.9        2882  -6.2     above  verified"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("summary: model's worst error below the knee 1.7 %, above it 6.2 %; best "
                      "copy 99.4 % of cudaMemcpy"),
            std::string::npos)
      << text;
}

TEST(FlightMeasureTable, CsvHasEveryRowWithItsKindsCells) {
  std::istringstream lines(written("csv"));
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "section,kind,path,lanes,working_set_bytes,ns_per_load,cycles_per_load,word_bytes,"
            "loads_per_thread,block_threads,dynamic_shared_bytes,grid_stride,warps_per_sm,"
            "bytes_in_flight_per_sm,gbps,model_gbps,error_pct,verified");
  int rows = 0;
  while (std::getline(lines, line)) {
    ++rows;
    if (line.rfind("littles-law", 0) == 0) {
      EXPECT_EQ(line, "littles-law,,,,,,,16,8,256,0,false,8,32768,2702.0,2882.0,-6.25,true");
    }
  }
  EXPECT_EQ(rows, 4);
}

}  // namespace
}  // namespace warplens::app
