// The shared labs' measure documents as text and CSV (shared_measure_table, measured_table.h):
// each lab's own columns, the model's wavefronts, the checks as the kernels reported them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "measure_shared.h"

namespace warplens::app {
namespace {

nlohmann::json header(const char* lab) {
  return {{"device", "NVIDIA H100 80GB HBM3"},
          {"compute_capability", "9.0"},
          {"sm_count", 132},
          {"lab", lab},
          {"gbps_definition", "bytes the program asked to read + write / median time, 1e9 B/s"}};
}

std::string written(const std::string& format, const nlohmann::json& doc) {
  std::ostringstream out;
  write_measurement(out, format, doc, shared_measure_table(doc));
  return out.str();
}

TEST(SharedMeasureTable, TransposeRowsCarryTheirChecks) {
  auto doc = header("transpose");
  const auto row = [](const char* kernel, double gbps, double pct, bool ok) {
    return nlohmann::json{{"kernel", kernel},
                          {"tile", 32},
                          {"rows_per_block", 8},
                          {"n", 8192},
                          {"gbps", gbps},
                          {"percent_of_copy", pct},
                          {"verified", ok},
                          {"refused", false},
                          {"check", ok ? "verified: 67108864 of 67108864 match" : "WRONG"},
                          {"timing", {{"median_ms", 0.25}}}};
  };
  doc["measurements"] = {row("copy", 2650.0, 100.0, true), row("naive", 690.2, 26.0, true),
                         row("padded", 2400.45, 90.6, false)};
  const std::string text = written("text", doc);
  EXPECT_NE(text.find("lab     transpose"), std::string::npos) << text;
  EXPECT_EQ(text.find("model "), std::string::npos) << text;  // no access model in this doc
  EXPECT_NE(text.find("kernel  tile  rows     n    GB/s  % of copy  check"), std::string::npos)
      << text;
  EXPECT_NE(text.find("naive     32     8  8192   690.2       26.0  verified"), std::string::npos)
      << text;
  const std::string csv = written("csv", doc);
  EXPECT_NE(csv.find("device,lab,kernel,value,unit,median_ms,verified_or_model_wavefronts\n"),
            std::string::npos);
  EXPECT_NE(csv.find("NVIDIA H100 80GB HBM3,transpose,padded,2400.450,GB/s,0.25000,WRONG\n"),
            std::string::npos)
      << csv;
}

TEST(SharedMeasureTable, TheBankProbeGivesTheModelsWavefronts) {
  auto doc = header("banks");
  doc["model"] = {{"access", "analyze --lab banks --stride 32"}, {"wavefronts_per_request", 32}};
  doc["measurements"] = {{{"kernel", "bank probe"},
                          {"cycles_per_request", 64.12},
                          {"gbps", 1205.3},
                          {"bytes_per_clock_per_sm", 4.0},
                          {"percent_of_128_bytes_per_clock", 3.1},
                          {"sm_clock_mhz", 1755.0},
                          {"timing", {{"median_ms", 1.5}}}}};
  const std::string text = written("text", doc);
  EXPECT_NE(text.find("model   32 wavefronts per request  (analyze --lab banks --stride 32)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("64.12"), std::string::npos) << text;
  EXPECT_NE(text.find("1755"), std::string::npos) << text;
  EXPECT_NE(written("csv", doc).find(",banks,bank probe,64.120,cycles/request,1.50000,32\n"),
            std::string::npos)
      << written("csv", doc);
}

}  // namespace
}  // namespace warplens::app
