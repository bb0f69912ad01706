#include "copy_pattern.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace warplens {

IndexParams index_params(const gpu::CopyParams& params) {
  IndexParams p;
  p.kind = params.kind;
  p.offset = params.offset;
  p.stride = params.stride;
  p.seed = params.seed;
  return p;
}

model::AccessPattern struct_field_pattern(const gpu::CopyParams& params, int warp, int field) {
  model::AccessPattern p;
  p.space = model::Space::Global;
  p.op = model::Op::Load;
  p.word_bytes = 4;
  p.block = {params.block_threads, 1};
  p.warp = warp;
  const std::string g = "(32*warp + lane)";
  p.index = params.layout == gpu::StructLayout::StructOfArrays
                ? std::to_string(field * gpu::kStructCount) + " + " + g
                : "3*" + g + " + " + std::to_string(field);
  return p;
}

std::string index_text(const gpu::CopyParams& params, index_expr::ExpressionStyle style) {
  const index_expr::Env env = index_env(std::int64_t{0}, index_params(params));
  return with_index_function(
      params.kind, [&](const auto& f) { return index_expr::to_expression_text(f, env, style); });
}

int trace_slots(const gpu::CopyParams& params, int warps) {
  return params.layout == gpu::StructLayout::None ? warps : gpu::kStructFields;
}

model::AccessPattern copy_access_pattern(const gpu::CopyParams& params, int warp) {
  if (params.layout != gpu::StructLayout::None) return struct_field_pattern(params, warp, 0);
  if (params.matrix_width != 0) {
    // Block (0, 0) of the matrix kernel: element = row x pitch + column, in floats.
    model::AccessPattern p;
    p.space = model::Space::Global;
    p.op = model::Op::Load;
    p.word_bytes = 4;
    p.block = {params.block_threads / params.block_y, params.block_y};
    p.warp = warp;
    const std::string pitch = std::to_string(gpu::matrix_pitch_bytes(params) / 4);
    p.index = params.matrix_by_column ? "tx*" + pitch + " + ty" : "ty*" + pitch + " + tx";
    return p;
  }
  model::AccessPattern p;
  p.space = model::Space::Global;
  p.op = params.side == gpu::PatternSide::Read ? model::Op::Load : model::Op::Store;
  p.word_bytes = params.word_bytes;
  p.block = {params.block_threads, 1};
  p.warp = warp;
  p.index = index_text(params, index_expr::ExpressionStyle::Analyze);
  return p;
}

TraceRecords host_twin_trace(const gpu::CopyParams& params, int first_warp, int warps) {
  const IndexParams index = index_params(params);
  TraceRecords trace{};
  if (params.matrix_width != 0) {
    const std::int64_t bx = params.block_threads / params.block_y,
                       pitch = gpu::matrix_pitch_bytes(params);
    for (int slot = 0; slot < warps; ++slot) {
      for (int lane = 0; lane < kTraceLanes; ++lane) {
        const std::int64_t tid = 32LL * (first_warp + slot) + lane;
        const MatrixCell cell =
            matrix_cell(tid % bx, tid / bx, 0, 0, bx, params.block_y, params.matrix_by_column);
        const auto byte = static_cast<std::uint64_t>(cell.row * pitch + cell.column * 4);
        trace[slot * kTraceLanes + lane] = {static_cast<std::uint32_t>(byte & 0xffffffffu),
                                            static_cast<std::uint32_t>(byte >> 32), 4u, 1u};
      }
    }
    return trace;
  }
  if (params.layout != gpu::StructLayout::None) {
    const bool soa = params.layout == gpu::StructLayout::StructOfArrays;
    for (int field = 0; field < gpu::kStructFields; ++field) {
      for (int lane = 0; lane < kTraceLanes; ++lane) {
        const auto byte = static_cast<std::uint64_t>(struct_field_index(
                              32LL * first_warp + lane, field, soa, gpu::kStructCount)) *
                          4u;
        trace[field * kTraceLanes + lane] = {static_cast<std::uint32_t>(byte & 0xffffffffu),
                                             static_cast<std::uint32_t>(byte >> 32), 4u, 1u};
      }
    }
    return trace;
  }
  for (int slot = 0; slot < warps; ++slot) {
    for (int lane = 0; lane < kTraceLanes; ++lane) {
      const std::int64_t thread = 32LL * (first_warp + slot) + lane;
      const auto byte = static_cast<std::uint64_t>(element_index(thread, index)) *
                        static_cast<std::uint64_t>(params.word_bytes);
      trace[slot * kTraceLanes + lane] = {static_cast<std::uint32_t>(byte & 0xffffffffu),
                                          static_cast<std::uint32_t>(byte >> 32),
                                          static_cast<std::uint32_t>(params.word_bytes), 1u};
    }
  }
  return trace;
}

TraceRecords model_trace(const gpu::CopyParams& params, int first_warp, int warps) {
  TraceRecords trace{};
  if (params.layout != gpu::StructLayout::None) {
    for (int field = 0; field < gpu::kStructFields; ++field) {
      put_accesses(model::evaluate_lanes(struct_field_pattern(params, first_warp, field)), 4, field,
                   trace);
    }
    return trace;
  }
  for (int slot = 0; slot < warps; ++slot) {
    const auto lanes = model::evaluate_lanes(copy_access_pattern(params, first_warp + slot));
    put_accesses(lanes, params.word_bytes, slot, trace);
  }
  return trace;
}

namespace {

// One warp request: one count per distinct sector its lanes touch (as __match_any_sync groups
// them in the kernel), with the bytes the lanes on that sector asked for.
void count_request(std::int64_t* sectors, int lanes, int word_bytes, SectorHeatmap& heat) {
  std::sort(sectors, sectors + lanes);
  for (int l = 0; l < lanes;) {
    int k = l;
    while (k < lanes && sectors[k] == sectors[l]) ++k;
    if (sectors[l] < kHeatSectors) {
      auto& h = heat[static_cast<std::size_t>(sectors[l])];
      h.requests += 1;
      h.bytes += static_cast<std::uint32_t>((k - l) * word_bytes);
    }
    l = k;
  }
}

}  // namespace

SectorHeatmap host_twin_heatmap(const gpu::CopyParams& params, std::int64_t threads) {
  SectorHeatmap heat{};
  if (params.matrix_width != 0) {
    // The blocks whose rows fall in the heatmap's bytes, warp by warp as the kernel runs them.
    const auto plan = gpu::plan_copy(params, gpu::kModelBufferBytes);
    const std::int64_t bx = params.block_threads / params.block_y, by = params.block_y;
    const std::int64_t window_rows = std::min<std::int64_t>(
        plan.rows, (kHeatSectors * 32 + plan.pitch_bytes - 1) / plan.pitch_bytes);
    const std::int64_t grid_x =
        params.matrix_by_column ? (window_rows + bx - 1) / bx : std::int64_t{plan.grid_x};
    const std::int64_t grid_y =
        params.matrix_by_column ? std::int64_t{plan.grid_y} : (window_rows + by - 1) / by;
    for (std::int64_t bj = 0; bj < grid_y; ++bj) {
      for (std::int64_t bi = 0; bi < grid_x; ++bi) {
        for (int warp = 0; warp < params.block_threads / 32; ++warp) {
          std::int64_t sectors[32];
          int lanes = 0;
          for (int lane = 0; lane < 32; ++lane) {
            const std::int64_t tid = 32LL * warp + lane;
            const MatrixCell c =
                matrix_cell(tid % bx, tid / bx, bi, bj, bx, by, params.matrix_by_column);
            if (c.row >= plan.rows || c.column >= params.matrix_width) continue;
            sectors[lanes++] = (c.row * plan.pitch_bytes + c.column * 4) / 32;
          }
          count_request(sectors, lanes, 4, heat);
        }
      }
    }
    return heat;
  }
  const bool soa = params.layout == gpu::StructLayout::StructOfArrays;
  const IndexParams index = index_params(params);
  const int requests = params.layout == gpu::StructLayout::None ? 1 : gpu::kStructFields;
  // Every pattern but the scattered one only grows with the thread index: stop at the first
  // warp past the heatmap's sectors.
  const bool grows =
      params.layout != gpu::StructLayout::None || params.kind != IndexKind::Scattered;
  for (int request = 0; request < requests; ++request) {
    for (std::int64_t first = 0; first < threads; first += 32) {
      const int lanes = static_cast<int>(std::min<std::int64_t>(32, threads - first));
      std::int64_t sectors[32];
      std::int64_t lowest = INT64_MAX;
      for (int l = 0; l < lanes; ++l) {
        const std::int64_t e = params.layout == gpu::StructLayout::None
                                   ? element_index(first + l, index)
                                   : struct_field_index(first + l, request, soa, gpu::kStructCount);
        sectors[l] = e * params.word_bytes / 32;
        lowest = std::min(lowest, sectors[l]);
      }
      if (grows && lowest >= kHeatSectors) break;
      count_request(sectors, lanes, params.word_bytes, heat);
    }
  }
  return heat;
}

model::WarpAccesses accesses_from_trace(const TraceRecords& trace, int slot) {
  model::WarpAccesses lanes{};
  for (int l = 0; l < kTraceLanes; ++l) {
    const LaneTraceRecord& r = trace[slot * kTraceLanes + l];
    model::LaneAccess& a = lanes[l];
    a.lane = l;
    a.active = r.active != 0;
    if (!a.active) continue;
    a.address = static_cast<std::int64_t>(trace_address(r));
    a.index = r.word_bytes ? a.address / r.word_bytes : 0;
    a.tx = l;
  }
  return lanes;
}

void put_accesses(const model::WarpAccesses& lanes, int word_bytes, int slot, TraceRecords& trace) {
  for (int l = 0; l < kTraceLanes; ++l) {
    LaneTraceRecord& r = trace[slot * kTraceLanes + l];
    if (!lanes[l].active) {
      r = {};
      continue;
    }
    const auto a = static_cast<std::uint64_t>(lanes[l].address);
    r = {static_cast<std::uint32_t>(a & 0xffffffffu), static_cast<std::uint32_t>(a >> 32),
         static_cast<std::uint32_t>(word_bytes), 1u};
  }
}

}  // namespace warplens
