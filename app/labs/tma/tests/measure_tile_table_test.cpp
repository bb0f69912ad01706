// The tile lab's measure document as text and CSV (tile_measure_table, measured_table.h), as the
// verb writes it from its document (no GPU).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "measure_tile.h"

namespace warplens::app {
namespace {

nlohmann::json document() {
  nlohmann::json row = {{"fill", "tma"},
                        {"swizzle", "128B"},
                        {"element_bytes", 4},
                        {"rows", 32},
                        {"cols", 32},
                        {"pitch_bytes", 128},
                        {"layout", "Sw<3,2,3> o (32,32):(32,1)"},
                        {"read", "column 0"},
                        {"model_wavefronts", 4},
                        {"fill_cycles", 1234.0},
                        {"placement", "model's"},
                        {"cycles_per_request", 10.5},
                        {"verified", true},
                        {"counted_wavefronts", 4.0}};
  return {{"device", "NVIDIA H100 80GB HBM3"},
          {"compute_capability", "9.0"},
          {"sm_count", 132},
          {"lab", "tile"},
          {"measurements", nlohmann::json::array({row})}};
}

TEST(TileMeasureTable, TextNamesTheDeviceAndTheReadsNumbers) {
  std::ostringstream out;
  write_measurement(out, "text", document(), tile_measure_table(document()));
  const std::string text = out.str();
  EXPECT_NE(text.find("NVIDIA H100 80GB HBM3 (CC 9.0)"), std::string::npos) << text;
  EXPECT_NE(text.find("Sw<3,2,3> o (32,32):(32,1)"), std::string::npos) << text;
  EXPECT_NE(text.find("4.00"), std::string::npos) << text;
  EXPECT_NE(text.find("10.5"), std::string::npos) << text;
}

TEST(TileMeasureTable, CsvHasOneLinePerRowUnderItsHeader) {
  std::ostringstream out;
  write_measurement(out, "csv", document(), tile_measure_table(document()));
  const std::string csv = out.str();
  EXPECT_EQ(csv.rfind("fill,swizzle", 0), 0u) << csv;
  int lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 2) << csv;
}

}  // namespace
}  // namespace warplens::app
