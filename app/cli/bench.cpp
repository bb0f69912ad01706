// warplens-bench: the measured table for the notes. Reference copies (cudaMemcpy, the ideal
// copy, the naive one-word copy) and every point of the offset and stride sweeps, each the
// median of repeated timed launches with its min-max spread, next to the bandwidth model's
// prediction, each sweep headed by the calibration it measured (every probe's GB/s and the terms
// fitted to them); the worst and median prediction errors; then the shared-memory labs' tables
// (bench_shared.h). Needs a CUDA device (exit 3 without). The verbs with options, kernels-once
// and soak, are in bench_cli.h.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench_cli.h"
#include "bench_counters.h"
#include "bench_frames.h"
#include "bench_shared.h"
#include "bench_stats.h"
#include "gpu.h"
#include "sweeps.h"

namespace {

using namespace warplens;
using bench::median;

std::string spread(double bytes, const gpu::Timing& t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.0f-%.0f", bytes / (t.max_ms * 1e6), bytes / (t.min_ms * 1e6));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (bench::is_option_verb(argc, argv)) return bench::run_option_verb(argc, argv);
  // warplens-bench [RUNS] [shared|counters]: "shared" prints only the shared-memory tables.
  const int runs = argc > 1 ? std::max(10, std::atoi(argv[1])) : 15;
  const bool shared_only = argc > 2 && std::string(argv[2]) == "shared";
  if (argc > 2 && std::string(argv[2]) == "frames") {  // no CUDA device needed
    try {
      bench::print_frame_tables(std::max(3, runs / 3));
      return 0;
    } catch (const std::exception& e) {
      std::cerr << "warplens-bench: " << e.what() << "\n";
      return 1;
    }
  }
  // "counters": only the hardware-counter read-out table (bench_counters.h).
  const bool counters_only = argc > 2 && std::string(argv[2]) == "counters";
  const auto query = gpu::query_device();
  if (!query.device) {
    std::cerr << "warplens-bench: " << query.reason << "\n";
    return 3;
  }
  const auto& d = *query.device;
  try {
    if (argc > 2 && std::string(argv[2]) == "profiler")
      return bench::print_profiler_effect(d, runs);
    if (counters_only) {
      std::printf("device   %s (CC %d.%d, %d SMs)\n", d.name.c_str(), d.cc_major, d.cc_minor,
                  d.sm_count);
      return bench::print_counter_table(d, runs);
    }
    if (shared_only) {
      std::printf("device   %s (CC %d.%d, %d SMs); every row: median of %d timed launches\n",
                  d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count, runs);
      bench::print_shared_tables(d, runs);
      return 0;
    }
    gpu::CopyLab lab(d);
    std::printf("device   %s (CC %d.%d, %d SMs, L2 %lld MiB, theoretical %.0f GB/s)\n",
                d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count,
                static_cast<long long>(d.l2_bytes >> 20), d.theoretical_gbps);
    std::printf(
        "buffers  %lld MiB in + %lld MiB out; every row: median of %d timed launches after 3 "
        "warm-up\n",
        static_cast<long long>(lab.buffer_bytes() >> 20),
        static_cast<long long>(lab.buffer_bytes() >> 20), runs);
    std::printf("GB/s     bytes asked to read + write per second, 10^9 B/s\n\n");

    const auto memcpy = lab.measure_memcpy(runs);
    const auto ideal = lab.measure_ideal_copy(runs);
    const auto minimal = lab.measure_minimal_copy(runs);
    const auto naive = lab.measure({4, 0, 1, 256}, runs);
    std::printf("%-34s %9s %18s %9s\n", "reference copy", "GB/s", "min-max", "% memcpy");
    std::printf("%-34s %9.1f %18s %9.1f\n", "cudaMemcpy device-to-device", memcpy.gbps,
                spread(2.0 * static_cast<double>(memcpy.bytes), memcpy.timing).c_str(), 100.0);
    std::printf("%-34s %9.1f %18s %9.1f\n", "ideal copy (16 B per thread)", ideal.gbps,
                spread(2.0 * static_cast<double>(ideal.bytes), ideal.timing).c_str(),
                100 * ideal.gbps / memcpy.gbps);
    std::printf("%-34s %9.1f %18s %9.1f\n", "minimal copy (float, int index)", minimal.gbps,
                spread(2.0 * static_cast<double>(minimal.bytes), minimal.timing).c_str(),
                100 * minimal.gbps / memcpy.gbps);
    std::printf("%-34s %9.1f %18s %9.1f\n", "naive copy (one float per thread)", naive.gbps,
                spread(static_cast<double>(naive.plan.requested_bytes), naive.timing).c_str(),
                100 * naive.gbps / memcpy.gbps);

    std::printf("\n%-34s %9s %18s %9s\n", "scattered 4-byte reads, load path", "GB/s", "min-max",
                "% memcpy");
    for (auto path : {gpu::LoadPath::Default, gpu::LoadPath::L2Only, gpu::LoadPath::ReadOnly}) {
      gpu::CopyParams scattered;
      scattered.kind = IndexKind::Scattered;
      scattered.seed = 2024;
      scattered.path = path;
      const auto m = lab.measure(scattered, runs);
      const std::string name =
          std::string("  ") + (path == gpu::LoadPath::Default  ? "default (ld.global)"
                               : path == gpu::LoadPath::L2Only ? "__ldcg (L2 only)"
                                                               : "__ldg (read-only cache)");
      std::printf("%-34s %9.1f %18s %9.1f\n", name.c_str(), m.gbps,
                  spread(static_cast<double>(m.plan.requested_bytes), m.timing).c_str(),
                  100 * m.gbps / memcpy.gbps);
    }
    for (auto layout : {gpu::StructLayout::ArrayOfStructs, gpu::StructLayout::StructOfArrays}) {
      gpu::CopyParams s;
      s.layout = layout;
      const auto m = lab.measure(s, runs);
      std::printf("%-34s %9.1f %18s %9.1f\n",
                  layout == gpu::StructLayout::ArrayOfStructs ? "struct {x,y,z}: array of structs"
                                                              : "struct {x,y,z}: struct of arrays",
                  m.gbps, spread(static_cast<double>(m.plan.requested_bytes), m.timing).c_str(),
                  100 * m.gbps / memcpy.gbps);
    }

    for (bool by_column : {false, true}) {
      for (bool pitched : {false, true}) {
        gpu::CopyParams m;
        m.matrix_width = 120;
        m.matrix_pitched = pitched;
        m.matrix_by_column = by_column;
        m.block_y = 8;
        m.pitch_alignment = d.pitch_alignment;
        const auto r = lab.measure(m, runs);
        char name[80];
        std::snprintf(name, sizeof name, "matrix 120 wide, %s, pitch %lld B",
                      by_column ? "by column" : "by row",
                      static_cast<long long>(r.plan.pitch_bytes));
        std::printf("%-34s %9.1f %18s %9.1f\n", name, r.gbps,
                    spread(static_cast<double>(r.plan.requested_bytes), r.timing).c_str(),
                    100 * r.gbps / memcpy.gbps);
      }
    }

    double worst = 0;
    std::string worst_where;
    std::vector<double> errors;  // |model - measured| / measured, every sweep point
    // Sweep points take 3x the launches of the rows above (45 by default): on the H200 a
    // point's launches spread 5 % (median) and up to 40 % from fastest to slowest, and medians
    // of 15 moved 2 % (median; 10 % at worst) between two runs of this bench.
    const int sweep_runs = std::max(3 * runs, 45);
    const auto sweep = [&](app::SweepAxis axis, int word_bytes) {
      gpu::CopyParams base;
      base.word_bytes = word_bytes;
      const auto r = app::run_sweep(lab, d, axis, base, sweep_runs, nullptr);
      // The GPU is shared and its clocks move: time cudaMemcpy again after the sweep, so a
      // sweep taken while the device changed speed shows as drift instead of as a model error.
      const auto after = lab.measure_memcpy(runs);
      const double drift = (after.gbps - r.memcpy.gbps) / r.memcpy.gbps;
      const gpu::Calibration& c = r.calibration;
      std::printf(
          "\n%s sweep, %d-byte words (coalesced %.0f GB/s; median of %d launches a point)\n",
          app::to_string(axis), word_bytes, c.coalesced_gbps.at(word_bytes), sweep_runs);
      std::printf(
          "calibration: memcpy %.0f GB/s; 4-byte words at stride 1 %.0f, stride 2 %.0f GB/s -> "
          "overlap k %.2f; 16-byte words at stride 8 %.0f, stride 64 %.0f GB/s -> sparse "
          "efficiency min(1, (%.0f B / gap)^%.3f)\n",
          c.memcpy_gbps, c.coalesced_gbps.at(4), c.overlap_gbps, c.overlap_exponent,
          c.sparse_near_gbps, c.sparse_far_gbps, c.sparse_knee_bytes, c.sparse_exponent);
      std::printf("cudaMemcpy before the sweep %.0f GB/s, after %.0f GB/s (drift %+.1f %%)%s\n",
                  r.memcpy.gbps, after.gbps, 100 * drift,
                  std::abs(drift) > 0.05 ? "  <- the device changed speed during the sweep" : "");
      std::printf("%8s %9s %18s %11s %8s\n", app::to_string(axis), "GB/s", "min-max", "model GB/s",
                  "error");
      for (const auto& pt : r.points) {
        const double err = (pt.predicted_gbps - pt.measured.gbps) / pt.measured.gbps;
        // A point whose slowest launch took over 1.5x its fastest was disturbed.
        const bool unstable = pt.measured.timing.max_ms > 1.5 * pt.measured.timing.min_ms;
        const std::string range =
            spread(static_cast<double>(pt.measured.plan.requested_bytes), pt.measured.timing);
        std::printf("%8.0f %9.1f %18s %11.1f %7.1f%%%s\n", pt.x, pt.measured.gbps, range.c_str(),
                    pt.predicted_gbps, 100 * err, unstable ? "  unstable" : "");
        errors.push_back(std::abs(err));
        if (std::abs(err) > worst) {
          worst = std::abs(err);
          worst_where = std::string(app::to_string(axis)) + " " +
                        std::to_string(static_cast<int>(pt.x)) + ", " + std::to_string(word_bytes) +
                        "-byte words";
        }
      }
    };
    sweep(app::SweepAxis::Offset, 4);
    sweep(app::SweepAxis::Offset, 16);
    sweep(app::SweepAxis::Stride, 4);
    sweep(app::SweepAxis::Stride, 8);
    sweep(app::SweepAxis::Stride, 16);
    std::printf("\nworst model error over all sweep points: %.1f %% (%s)\n", 100 * worst,
                worst_where.c_str());
    std::printf("median model error over all sweep points: %.1f %%\n", 100 * median(errors));
    bench::print_shared_tables(d, runs);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "warplens-bench: " << e.what() << "\n";
    return 1;
  }
}
