// The H100 runs the Little's-law model is checked on, as host data (no GPU): full runs of
// `warplens measure --lab flight --section all --format json` on an H100 80GB HBM3 (2026-11-27):
//  - runs 1 and 2 (landed d0b2cee; shared/measurements/2026-11-27/h100-flight-run{1,2}.json),
//    from before the loaded-latency probe: cudaMemcpy, the ladder's warp DRAM plateau L0 and the
//    32 Little's-law copies;
//  - run 5 (driver 580.159.04, commit b9e87ac; the file is not in the repository): the same, and
//    its 27 probe points (all verified), the first run with the probe's four-load copy.
// Shapes: a Run holds cudaMemcpy (read + write GB/s, 10^9 B/s), L0 (ns) and the copies in the
// order `measure` writes them (word bytes x loads per thread x blocks per SM); a Copy its knobs,
// bytes in flight per SM and measured GB/s (read + write, to 0.1). Probe rows: copy blocks per SM,
// the copy's loads per thread, batch bytes (0: the warp chase), ns per hop (to 0.001), the copy's
// read + write GB/s during the hops (to 0.1). Run 3 (tests/data/h100-flight-run3.json) is read
// from its file by the tests that use it.
#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "flight_lab.h"

namespace warplens::flight_runs {

struct Copy {
  int word_bytes, loads, warps_per_sm, blocks_per_sm;
  long long bytes_in_flight_per_sm;
  double gbps;
};
struct Run {
  double memcpy_gbps, latency_ns;
  std::vector<Copy> copies;
};

inline constexpr int kSms = 132;

// Run 1: cudaMemcpy 2889.6 GB/s, warp chase DRAM plateau 533.55 ns.
inline const Run kRun1 = {2889.6342,
                          533.5546,
                          {
                              {4, 1, 8, 1, 1024, 419.6},      {4, 1, 16, 2, 2048, 763.0},
                              {4, 1, 32, 4, 4096, 1336.4},    {4, 1, 64, 8, 8192, 2306.8},
                              {4, 2, 8, 1, 2048, 732.3},      {4, 2, 16, 2, 4096, 1277.8},
                              {4, 2, 32, 4, 8192, 2133.4},    {4, 2, 64, 8, 16384, 2739.1},
                              {4, 4, 8, 1, 4096, 1221.9},     {4, 4, 16, 2, 8192, 2054.0},
                              {4, 4, 32, 4, 16384, 2673.7},   {4, 4, 64, 8, 32768, 2899.6},
                              {4, 8, 8, 1, 8192, 1890.0},     {4, 8, 16, 2, 16384, 2494.0},
                              {4, 8, 32, 4, 32768, 2800.9},   {4, 8, 64, 8, 65536, 2767.6},
                              {16, 1, 8, 1, 4096, 1203.0},    {16, 1, 16, 2, 8192, 2018.4},
                              {16, 1, 32, 4, 16384, 2643.3},  {16, 1, 64, 8, 32768, 2905.6},
                              {16, 2, 8, 1, 8192, 1925.8},    {16, 2, 16, 2, 16384, 2581.9},
                              {16, 2, 32, 4, 32768, 2910.2},  {16, 2, 64, 8, 65536, 2901.1},
                              {16, 4, 8, 1, 16384, 2521.8},   {16, 4, 16, 2, 32768, 2877.2},
                              {16, 4, 32, 4, 65536, 2897.6},  {16, 4, 64, 8, 131072, 2857.6},
                              {16, 8, 8, 1, 32768, 2696.0},   {16, 8, 16, 2, 65536, 2900.1},
                              {16, 8, 32, 4, 131072, 2866.4}, {16, 8, 48, 6, 196608, 2861.5},
                          }};

// Run 2: cudaMemcpy 2896.6 GB/s, warp chase DRAM plateau 533.84 ns.
inline const Run kRun2 = {2896.6189,
                          533.8438,
                          {
                              {4, 1, 8, 1, 1024, 419.5},      {4, 1, 16, 2, 2048, 764.2},
                              {4, 1, 32, 4, 4096, 1334.3},    {4, 1, 64, 8, 8192, 2267.8},
                              {4, 2, 8, 1, 2048, 728.7},      {4, 2, 16, 2, 4096, 1269.6},
                              {4, 2, 32, 4, 8192, 2120.5},    {4, 2, 64, 8, 16384, 2725.8},
                              {4, 4, 8, 1, 4096, 1212.5},     {4, 4, 16, 2, 8192, 2045.8},
                              {4, 4, 32, 4, 16384, 2659.3},   {4, 4, 64, 8, 32768, 2877.2},
                              {4, 8, 8, 1, 8192, 1888.1},     {4, 8, 16, 2, 16384, 2569.3},
                              {4, 8, 32, 4, 32768, 2859.6},   {4, 8, 64, 8, 65536, 2868.4},
                              {16, 1, 8, 1, 4096, 1232.7},    {16, 1, 16, 2, 8192, 2060.3},
                              {16, 1, 32, 4, 16384, 2661.4},  {16, 1, 64, 8, 32768, 2885.2},
                              {16, 2, 8, 1, 8192, 1924.4},    {16, 2, 16, 2, 16384, 2594.3},
                              {16, 2, 32, 4, 32768, 2892.6},  {16, 2, 64, 8, 65536, 2900.6},
                              {16, 4, 8, 1, 16384, 2505.2},   {16, 4, 16, 2, 32768, 2842.2},
                              {16, 4, 32, 4, 65536, 2817.3},  {16, 4, 64, 8, 131072, 2874.8},
                              {16, 8, 8, 1, 32768, 2701.6},   {16, 8, 16, 2, 65536, 2890.6},
                              {16, 8, 32, 4, 131072, 2873.3}, {16, 8, 48, 6, 196608, 2838.3},
                          }};

inline std::vector<gpu::StreamMeasurement> measurements(const Run& run) {
  std::vector<gpu::StreamMeasurement> v;
  for (const auto& c : run.copies) {
    gpu::StreamMeasurement m;
    m.params.word_bytes = c.word_bytes;
    m.params.loads_per_thread = c.loads;
    m.residency.warps_per_sm = c.warps_per_sm;
    m.residency.blocks_per_sm = c.blocks_per_sm;
    m.bytes_in_flight_per_sm = c.bytes_in_flight_per_sm;
    m.gbps = c.gbps;
    m.verified = true;
    v.push_back(m);
  }
  return v;
}

inline gpu::LoadedLatencyPoint probe_point(int load, int batch, double ns, double gbps,
                                           bool verified = true, int copy_loads = 1) {
  gpu::LoadedLatencyPoint p;
  p.copy_blocks_per_sm = load;
  p.copy_loads_per_thread = copy_loads;
  p.batch_bytes = batch;
  p.ns_per_load = ns;
  p.copy_gbps = gbps;
  p.verified = verified;
  return p;
}

inline nlohmann::json measure_document(const Run& run) {
  nlohmann::json doc = {
      {"sm_count", kSms}, {"memcpy_gbps", run.memcpy_gbps}, {"model_latency_ns", run.latency_ns}};
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& c : run.copies)
    rows.push_back({{"section", "littles-law"},
                    {"word_bytes", c.word_bytes},
                    {"loads_per_thread", c.loads},
                    {"warps_per_sm", c.warps_per_sm},
                    {"blocks_per_sm", c.blocks_per_sm},
                    {"bytes_in_flight_per_sm", c.bytes_in_flight_per_sm},
                    {"gbps", c.gbps},
                    {"verified", true}});
  doc["rows"] = rows;
  return doc;
}

// Run 5 (H100 80GB HBM3, driver 580.159.04, 2026-11-27, commit b9e87ac): the first full run with
// the probe's four-load copy. Its 32 Little's-law copies and its 27 probe points (all verified),
// as `measure --lab flight --section all --format json` wrote them (GB/s to 0.1, ns to 0.001).
inline const Run kRun5 = {2877.7385,
                          533.4141,
                          {
                              {4, 1, 8, 1, 1024, 418.9},      {4, 1, 16, 2, 2048, 758.7},
                              {4, 1, 32, 4, 4096, 1332.8},    {4, 1, 64, 8, 8192, 2291.7},
                              {4, 2, 8, 1, 2048, 730.1},      {4, 2, 16, 2, 4096, 1274.1},
                              {4, 2, 32, 4, 8192, 2129.1},    {4, 2, 64, 8, 16384, 2723.1},
                              {4, 4, 8, 1, 4096, 1222.0},     {4, 4, 16, 2, 8192, 2042.3},
                              {4, 4, 32, 4, 16384, 2650.0},   {4, 4, 64, 8, 32768, 2886.2},
                              {4, 8, 8, 1, 8192, 1875.8},     {4, 8, 16, 2, 16384, 2557.9},
                              {4, 8, 32, 4, 32768, 2883.7},   {4, 8, 64, 8, 65536, 2862.0},
                              {16, 1, 8, 1, 4096, 1228.5},    {16, 1, 16, 2, 8192, 2052.8},
                              {16, 1, 32, 4, 16384, 2661.4},  {16, 1, 64, 8, 32768, 2892.6},
                              {16, 2, 8, 1, 8192, 1924.9},    {16, 2, 16, 2, 16384, 2599.9},
                              {16, 2, 32, 4, 32768, 2906.2},  {16, 2, 64, 8, 65536, 2873.3},
                              {16, 4, 8, 1, 16384, 2498.1},   {16, 4, 16, 2, 32768, 2896.6},
                              {16, 4, 32, 4, 65536, 2847.0},  {16, 4, 64, 8, 131072, 2856.2},
                              {16, 8, 8, 1, 32768, 2712.1},   {16, 8, 16, 2, 65536, 2880.2},
                              {16, 8, 32, 4, 131072, 2865.9}, {16, 8, 48, 6, 196608, 2796.7},
                          }};

struct ProbeRow {
  int copy_blocks_per_sm, copy_loads, batch_bytes;
  double ns, gbps;
};
// copy blocks per SM, the copy's loads per thread, batch bytes (0: the warp chase), ns per hop,
// the copy's read + write GB/s during the hops.
inline const std::vector<ProbeRow> kRun5Probe = {
    {0, 1, 0, 538.094, 0.0},     {0, 1, 512, 459.500, 0.0},     {0, 1, 2048, 489.875, 0.0},
    {1, 1, 0, 759.219, 1356.2},  {1, 1, 512, 630.469, 1358.1},  {1, 1, 2048, 662.031, 1355.7},
    {2, 1, 0, 1056.500, 2134.2}, {2, 1, 512, 781.375, 2133.4},  {2, 1, 2048, 810.062, 2139.7},
    {4, 1, 0, 1336.344, 2268.5}, {4, 1, 512, 852.156, 2262.7},  {4, 1, 2048, 878.812, 2278.4},
    {7, 1, 0, 2012.219, 2236.1}, {7, 1, 512, 1063.125, 2260.1}, {7, 1, 2048, 1100.750, 2267.3},
    {1, 4, 0, 1914.688, 2620.7}, {1, 4, 512, 1169.875, 2628.4}, {1, 4, 2048, 1195.938, 2626.2},
    {2, 4, 0, 2641.188, 3174.3}, {2, 4, 512, 1764.750, 2996.7}, {2, 4, 2048, 1755.500, 3013.7},
    {4, 4, 0, 3565.125, 2981.7}, {4, 4, 512, 2166.812, 2938.8}, {4, 4, 2048, 2223.062, 2909.6},
    {7, 4, 0, 4728.969, 3204.5}, {7, 4, 512, 3756.438, 3233.9}, {7, 4, 2048, 3812.438, 3210.5},
};

inline nlohmann::json run5_document(bool with_probe) {
  nlohmann::json doc = measure_document(kRun5);
  if (with_probe)
    for (const auto& p : kRun5Probe)
      doc["rows"].push_back({{"section", "loaded-latency"},
                             {"copy_blocks_per_sm", p.copy_blocks_per_sm},
                             {"copy_loads_per_thread", p.copy_loads},
                             {"batch_bytes", p.batch_bytes},
                             {"ns_per_load", p.ns},
                             {"copy_gbps", p.gbps},
                             {"verified", true}});
  return doc;
}

}  // namespace warplens::flight_runs
