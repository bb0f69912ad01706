// The cache lab's measure document as text and CSV (cache_measure_table, measured_table.h): one
// table per kind of row, only for the kinds measured, and the CSV's x/value reading of each.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "measure_cache.h"

namespace warplens::app {
namespace {

nlohmann::json document() {
  const nlohmann::json model = {{"shared_kib", 100}, {"l1_kib", 156}};
  return {{"device", "NVIDIA H100 80GB HBM3"},
          {"compute_capability", "9.0"},
          {"sm_count", 132},
          {"lab", "cache"},
          {"limits", {{"table_check", "the capacities agree with the API"}}},
          {"table",
           {{"capacities_kib", {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}},
            {"unified_kib", 256},
            {"source", "CUDA C++ Programming Guide, Compute Capability 9.0"}}},
          {"l1_hit_note", "counters are off"},
          {"measurements",
           {{{"section", "carveout"},
             {"kernel", "occupancy"},
             {"carveout", 50},
             {"dynamic_shared_bytes", 57344},
             {"blocks_per_sm", 1},
             {"occupancy_percent", 12.5},
             {"limiter", "shared memory"},
             {"opt_in", true},
             {"model", model},
             {"model_blocks_per_sm", 1}},
            {{"section", "carveout"},
             {"kernel", "carveout-sweep"},
             {"carveout", -1},
             {"dynamic_shared_bytes", 20480},
             {"asked_capacity_kib", nullptr},
             {"model", model},
             {"model_blocks_per_sm", 4},
             {"blocks_per_sm", 4},
             {"observed_blocks_per_sm", 4},
             {"verified", true},
             {"timing", {{"median_ms", 0.125}}}},
            {{"section", "l1"},
             {"carveout", 0},
             {"working_set_bytes", 65536},
             {"ns_per_access", 0.0123},
             {"gbps", 1300.25},
             {"expected_l1_kib", 256},
             {"fits_l1", true},
             {"verified", true},
             {"l1_hit_rate_pct", 99.5},
             {"timing", {{"median_ms", 0.5}}}},
            {{"section", "constant"},
             {"k", 4},
             {"ns_per_request", 0.75},
             {"cycles_per_request", 4.02},
             {"verified", false},
             {"timing", {{"median_ms", 0.01}}}}}}};
}

std::string written(const std::string& format) {
  std::ostringstream out;
  const auto doc = document();
  write_measurement(out, format, doc, cache_measure_table(doc));
  return out.str();
}

TEST(CacheMeasureTable, OneTablePerKindMeasured) {
  const std::string text = written("text");
  EXPECT_NE(text.find("shared capacities 0 8 16 32 64 100 132 164 196 228 KiB of 256 KiB"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("[carveout] occupancy"), std::string::npos) << text;
  EXPECT_NE(text.find("[carveout] sweep"), std::string::npos) << text;
  EXPECT_EQ(text.find("shared-hungry kernel"), std::string::npos) << text;  // none measured
  EXPECT_EQ(text.find("[read-path]"), std::string::npos) << text;
  EXPECT_NE(text.find("(driver)"), std::string::npos) << text;  // the default asks nothing
  EXPECT_NE(text.find("> 48 KiB"), std::string::npos) << text;  // opted in
  EXPECT_NE(text.find("fits     verified  99.5 %"), std::string::npos) << text;
  EXPECT_NE(text.find("WRONG"), std::string::npos) << text;  // the constant row's check
  EXPECT_NE(text.find("L1 hit rate (l1): counters are off"), std::string::npos) << text;
}

TEST(CacheMeasureTable, CsvReadsEachRowAsXAndValue) {
  EXPECT_EQ(written("csv"),
            "device,section,kernel,carveout,x_name,x,value_name,value,median_ms,verified,"
            "l1_hit_rate_pct\n"
            "NVIDIA H100 80GB HBM3,carveout,occupancy,50,dynamic_shared_bytes,57344,"
            "blocks_per_sm,1.0000,0.00000,,\n"
            "NVIDIA H100 80GB HBM3,carveout,carveout-sweep/20KiB,-1,asked_capacity_kib,100,"
            "observed_blocks_per_sm,4.0000,0.12500,verified,\n"
            "NVIDIA H100 80GB HBM3,l1,l1,0,working_set_bytes,65536,ns_per_access,0.0123,0.50000,"
            "verified,99.50\n"
            "NVIDIA H100 80GB HBM3,constant,constant,0,k,4,ns_per_request,0.7500,0.01000,WRONG,\n");
}

}  // namespace
}  // namespace warplens::app
