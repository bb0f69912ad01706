// The own-kernel lab's measure document as text and CSV (kernel_measure_table,
// measured_table.h): each row's model beside its GPU trace, the totals beside the counters.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

#include "measure_kernel.h"

namespace warplens::app {
namespace {

nlohmann::json op(double requests, double per_request) {
  return {{"requests", requests}, {"cost", requests * per_request}, {"per_request", per_request}};
}

nlohmann::json document(bool counters) {
  nlohmann::json doc = {{"device", "NVIDIA H100 80GB HBM3"},
                        {"architecture", "sm_90"},
                        {"nvrtc", "12.4"},
                        {"compile_ms", 41.6},
                        {"rows",
                         {{{"row", 1},
                           {"access", "in[i]"},
                           {"unit", "sectors"},
                           {"per_request", 4},
                           {"gpu_trace_per_request", 4},
                           {"trace_matches_model", true},
                           {"out_of_range_lanes_grid", 0}},
                          {{"row", 2},
                           {"access", "out[i * 32]"},
                           {"unit", "sectors"},
                           {"per_request", 32},
                           {"gpu_trace_per_request", 32},
                           {"trace_matches_model", false},
                           {"out_of_range_lanes_grid", 96}}}},
                        {"model_totals",
                         {{"global_load", op(32768, 4)},
                          {"global_store", op(32768, 32)},
                          {"shared_load", op(0, 0)},
                          {"shared_store", op(0, 0)},
                          {"exact", true}}},
                        {"gbps", 412.5},
                        {"timing", {{"median_ms", 0.0203}, {"runs", 20}}},
                        {"model_gbps", 398.0},
                        {"memcpy_gbps", 2900.0},
                        {"check", "out matches the host simulation"}};
  if (counters)
    doc["counters"] = {{"global_load", op(32768, 4)},
                       {"global_store", op(32768, 32)},
                       {"shared_load", op(0, 0)},
                       {"shared_store", op(0, 0)}};
  else
    doc["counters_unavailable"] = "counters are off (WARPLENS_NO_COUNTERS)";
  return doc;
}

std::string written(const std::string& format, const nlohmann::json& doc) {
  std::ostringstream out;
  write_measurement(out, format, doc, kernel_measure_table(doc));
  return out.str();
}

TEST(KernelMeasureTable, RowsTotalsAndTheLaunchInText) {
  const std::string text = written("text", document(true));
  EXPECT_NE(text.find("NVIDIA H100 80GB HBM3, sm_90 (NVRTC 12.4, compiled in 42 ms)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  2  out[i * 32]     32  sectors         32  DIFFERS"), std::string::npos)
      << text;
  EXPECT_NE(text.find("global_store  model  32.00 per request (32768 requests)  counters  32.00"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("shared_load"), std::string::npos) << text;  // neither saw one
  EXPECT_NE(text.find("412.5 GB/s (median 0.0203 ms of 20), bandwidth model 398 GB/s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("out matches the host simulation"), std::string::npos);
  const std::string without = written("text", document(false));
  EXPECT_NE(without.find("counters: counters are off"), std::string::npos) << without;
}

TEST(KernelMeasureTable, CsvHasOneLinePerRow) {
  EXPECT_EQ(written("csv", document(true)),
            "row,access,unit,model_per_request,gpu_trace_per_request,trace_matches_model,"
            "out_of_range_lanes_grid\n"
            "1,in[i],sectors,4,4,true,0\n"
            "2,out[i * 32],sectors,32,32,false,96\n");
}

}  // namespace
}  // namespace warplens::app
