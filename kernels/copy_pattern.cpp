#include "copy_pattern.h"

#include <string>

namespace warplens {

model::AccessPattern copy_read_pattern(const gpu::CopyParams& params, int warp) {
  model::AccessPattern p;
  p.space = model::Space::Global;
  p.op = model::Op::Load;
  p.word_bytes = params.word_bytes;
  p.block = {params.block_threads, 1};
  p.warp = warp;
  p.index =
      std::to_string(params.offset) + " + " + std::to_string(params.stride) + "*(32*warp + lane)";
  return p;
}

TraceRecords host_twin_trace(const gpu::CopyParams& params, int warp) {
  TraceRecords trace{};
  for (int lane = 0; lane < kTraceLanes; ++lane) {
    const std::int64_t thread = 32LL * warp + lane;
    const auto byte =
        static_cast<std::uint64_t>(copy_read_index(thread, params.offset, params.stride)) *
        static_cast<std::uint64_t>(params.word_bytes);
    trace[lane] = {static_cast<std::uint32_t>(byte & 0xffffffffu),
                   static_cast<std::uint32_t>(byte >> 32),
                   static_cast<std::uint32_t>(params.word_bytes), 1u};
  }
  return trace;
}

model::WarpAccesses accesses_from_trace(const TraceRecords& trace) {
  model::WarpAccesses lanes{};
  for (int l = 0; l < kTraceLanes; ++l) {
    const LaneTraceRecord& r = trace[l];
    model::LaneAccess& a = lanes[l];
    a.lane = l;
    a.active = r.active != 0;
    if (!a.active) continue;
    a.address =
        static_cast<std::int64_t>((static_cast<std::uint64_t>(r.address_hi) << 32) | r.address_lo);
    a.index = r.word_bytes ? a.address / r.word_bytes : 0;
    a.tx = l;
  }
  return lanes;
}

TraceRecords trace_from_accesses(const model::WarpAccesses& lanes, int word_bytes) {
  TraceRecords trace{};
  for (int l = 0; l < kTraceLanes; ++l) {
    if (!lanes[l].active) continue;
    const auto a = static_cast<std::uint64_t>(lanes[l].address);
    trace[l] = {static_cast<std::uint32_t>(a & 0xffffffffu), static_cast<std::uint32_t>(a >> 32),
                static_cast<std::uint32_t>(word_bytes), 1u};
  }
  return trace;
}

}  // namespace warplens
