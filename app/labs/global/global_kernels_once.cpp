// The global lab's part of `warplens-bench kernels-once` (kernels_once.h): the pattern copy of
// every word size, index kind, side, load path and 2D matrix, each as the instrumented launch
// (its trace checked against the host twin), the heatmap launch (its counts checked against the
// host twin) and the timed kernel; the struct kernels; the reference copies; then each built-in
// scenario's copy. Buffers are 64 MiB (the struct kernels need their own 384 MiB lab).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "copy_pattern.h"
#include "global_scenario.h"
#include "lab_id.h"
#include "measure_global.h"

namespace warplens::app {

namespace {

// 64 MiB and a page: room for the scattered window (2^24 elements) after a small offset in words
// of up to 4 bytes (the runs below and the scattered scenario; 32 MiB left W=2 K=3 three
// elements short on the H100).
constexpr std::int64_t kSmallBuffer = (std::int64_t{64} << 20) + 4096;
// What the struct kernels need: kStructCount structs of three 4-byte fields.
constexpr std::int64_t kStructBuffer = gpu::kStructCount * gpu::kStructFields * 4;

std::string describe(const gpu::CopyParams& p) {
  char text[160];
  if (p.layout != gpu::StructLayout::None) {
    std::snprintf(text, sizeof text, "struct {x,y,z} %s", gpu::to_string(p.layout));
  } else if (p.matrix_width) {
    std::snprintf(text, sizeof text, "matrix %d wide, %s, %s, block_y %d", p.matrix_width,
                  p.matrix_pitched ? "pitched" : "unpadded",
                  p.matrix_by_column ? "by column" : "by row", p.block_y);
  } else {
    std::snprintf(text, sizeof text, "%s %s %s W=%d K=%lld S=%lld", gpu::to_string(p.kind),
                  gpu::to_string(p.side), gpu::to_string(p.path), p.word_bytes,
                  static_cast<long long>(p.offset), static_cast<long long>(p.stride));
  }
  return text;
}

// The three launches of one copy: traced, heatmap, timed kernel.
void copy_runs(KernelRunLog& log, gpu::CopyLab& lab, const gpu::CopyParams& p,
               const std::string& what) {
  log.run("pattern copy, traced (warps 0-1)", what, [&] {
    const bool same = same_trace(lab.trace_to_host(p, 0, 2), host_twin_trace(p, 0, 2));
    return RunCheck{same, same ? "trace equals the host twin" : "trace differs from the host twin"};
  });
  log.run("pattern copy, heatmap", what, [&] {
    const auto heat = lab.heatmap_to_host(p);
    const auto twin = host_twin_heatmap(p, gpu::plan_copy(p, lab.buffer_bytes()).threads);
    int wrong = 0;
    for (int i = 0; i < kHeatSectors; ++i)
      wrong += heat[i].requests != twin[i].requests || heat[i].bytes != twin[i].bytes;
    return RunCheck{wrong == 0, wrong == 0 ? "sector counts equal the host twin's"
                                           : std::to_string(wrong) + " sectors differ"};
  });
  log.run("pattern copy, timed kernel", what, [&] {
    lab.launch_once(p);
    return RunCheck{true, "launched and synchronised"};
  });
}

std::vector<gpu::CopyParams> coverage(const gpu::DeviceInfo& device) {
  std::vector<gpu::CopyParams> list;
  for (int w : {1, 2, 4, 8, 16}) {
    gpu::CopyParams p;
    p.word_bytes = w;
    p.offset = 1;
    p.stride = 3;
    list.push_back(p);
  }
  list.push_back(gpu::CopyParams{});  // stride 1, no offset: the copy a student writes first
  for (auto kind : {IndexKind::Permuted, IndexKind::SameWord, IndexKind::Scattered}) {
    for (int w : {1, 2}) {
      gpu::CopyParams p;
      p.kind = kind;
      p.word_bytes = w;
      p.offset = 3;
      p.seed = 2024;
      list.push_back(p);
    }
  }
  for (auto side : {gpu::PatternSide::Read, gpu::PatternSide::Write}) {
    for (auto path : {gpu::LoadPath::Default, gpu::LoadPath::L2Only, gpu::LoadPath::ReadOnly}) {
      gpu::CopyParams p;
      p.stride = 2;
      p.side = side;
      p.path = path;
      list.push_back(p);
    }
  }
  for (bool pitched : {false, true}) {
    for (bool by_column : {false, true}) {
      gpu::CopyParams m;
      m.matrix_width = 120;
      m.matrix_pitched = pitched;
      m.matrix_by_column = by_column;
      m.block_y = 8;
      m.pitch_alignment = device.pitch_alignment;
      list.push_back(m);
    }
  }
  return list;
}

}  // namespace

std::vector<KernelRun> global_kernels_once(const gpu::DeviceInfo& device,
                                           const std::vector<const Scenario*>& scenarios) {
  KernelRunLog log(to_string(Lab::Global));
  std::unique_ptr<gpu::CopyLab> small, structs;
  try {
    small = std::make_unique<gpu::CopyLab>(device, kSmallBuffer);
  } catch (const std::exception& e) {
    log.fail("CopyLab (64 MiB buffers)", e.what());
    return log.take();
  }
  const auto lab_for = [&](const gpu::CopyParams& p) -> gpu::CopyLab& {
    if (p.layout == gpu::StructLayout::None) return *small;
    if (!structs) structs = std::make_unique<gpu::CopyLab>(device, kStructBuffer);
    return *structs;
  };
  for (const auto& p : coverage(device)) copy_runs(log, *small, p, describe(p));
  for (auto layout : {gpu::StructLayout::ArrayOfStructs, gpu::StructLayout::StructOfArrays}) {
    gpu::CopyParams s;
    s.layout = layout;
    try {
      copy_runs(log, lab_for(s), s, describe(s));
    } catch (const std::exception& e) {
      log.fail("CopyLab (384 MiB buffers)", e.what());
    }
  }
  log.run("cudaMemcpy, ideal_copy, minimal_copy", "64 MiB", [&] {
    const double memcpy = small->measure_memcpy(1, 0).gbps;
    const double ideal = small->measure_ideal_copy(1, 0).gbps;
    const double minimal = small->measure_minimal_copy(1, 0).gbps;
    const bool ok = memcpy > 0 && ideal > 0 && minimal > 0;
    return RunCheck{ok, ok ? "each timed once" : "a reference copy measured no time"};
  });
  for (const Scenario* s : scenarios) {
    gpu::CopyParams p = global_scenario(*s).copy;
    p.pitch_alignment = device.pitch_alignment;
    try {
      copy_runs(log, lab_for(p), p, "scenario " + s->name + ": " + describe(p));
    } catch (const std::exception& e) {
      log.fail("scenario " + s->name, e.what());
    }
  }
  return log.take();
}

}  // namespace warplens::app
