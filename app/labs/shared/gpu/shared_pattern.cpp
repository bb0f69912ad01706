#include "shared_pattern.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "copy_pattern.h"
#include "layout_access.h"

namespace warplens {

namespace {

std::string num(int v) {
  return std::to_string(v);
}

// "k + " when k is not zero.
std::string plus_offset(int offset) {
  return offset ? num(offset) + " + " : "";
}

void check_warp(const gpu::BankProbeParams& params, int warp) {
  const std::int64_t threads = std::int64_t{params.block_x} * params.block_y;
  if (params.block_x < 1 || params.block_y < 1 || threads > 1024)
    throw std::invalid_argument("block " + num(params.block_x) + "x" + num(params.block_y) +
                                " is not 1..1024 threads");
  gpu::check_block_warp(params.block_x, params.block_y, warp);
  // The index function divides by the tile width and multiplies strides: unchecked fields
  // divided by zero ([banks] tile_width = 0 with swizzle, found by fuzz_scenario).
  gpu::check_shared_index(params.index);
}

}  // namespace

model::Op to_model_op(gpu::SharedOp op) {
  return op == gpu::SharedOp::Load ? model::Op::Load : model::Op::Store;
}

model::AccessPattern shared_access_pattern(const gpu::BankProbeParams& params, int warp) {
  const SharedIndexParams& p = params.index;
  model::AccessPattern pattern;
  pattern.space = model::Space::Shared;
  pattern.op = to_model_op(params.op);
  pattern.word_bytes = p.word_bytes;
  pattern.block = {params.block_x, params.block_y};
  pattern.warp = warp;
  const std::string tid = params.block_y == 1 ? "tx" : "(ty*bdx + tx)";
  const std::string k = plus_offset(p.offset);
  switch (p.kind) {
    case SharedPatternKind::Strided:
      pattern.index = p.stride == 1   ? k + tid
                      : p.stride == 0 ? num(p.offset)
                                      : k + num(p.stride) + "*" + tid;
      break;
    case SharedPatternKind::Tile: {
      // A lane of several words (the vectorized transpose): element `field` of them.
      const std::string x = p.lane_elements == 1 ? "tx"
                                                 : "(" + num(p.lane_elements) + "*tx" +
                                                       (p.field ? " + " + num(p.field) : "") + ")";
      const std::string row = p.by_column ? x : "ty";
      const std::string column = p.by_column ? "ty" : x;
      const std::string swizzled =
          p.swizzle ? "(" + column + " ^ (" + row + " % " + num(p.tile_width) + "))" : column;
      pattern.index = k + row + "*" + num(p.pitch_elements) + " + " + swizzled;
      break;
    }
    case SharedPatternKind::Struct:
      pattern.index = k + num(p.struct_words) + "*" + tid + (p.field ? " + " + num(p.field) : "");
      break;
    case SharedPatternKind::Interleaved:
      pattern.index = k + "2*" + tid + (p.part ? " + 1" : "");
      break;
    case SharedPatternKind::Blocked: pattern.index = k + tid + (p.part ? " + bdx*bdy" : ""); break;
    case SharedPatternKind::MatmulA:
      pattern.index = k + "ty*" + num(p.pitch_elements) + (p.field ? " + " + num(p.field) : "");
      break;
    case SharedPatternKind::MatmulB:
      pattern.index = k + (p.field ? num(p.field * p.pitch_elements) + " + " : "") + "tx";
      break;
    case SharedPatternKind::Layout:
      // The model's own spelling of the layout as an index (model/layout_access.h).
      pattern.index =
          model::layout_index_expression(model::parse_layout(shared_layout_text(p)), tid);
      break;
  }
  return pattern;
}

SharedIndexParams shared_layout_index(const model::CuteLayout& layout, int word_bytes) {
  std::vector<std::int64_t> shape, stride;
  const auto flatten = [](const model::IntTuple& t, std::vector<std::int64_t>& out,
                          const auto& self) -> void {
    if (!t.is_tuple) {
      out.push_back(t.value);
      return;
    }
    for (const model::IntTuple& m : t.modes) self(m, out, self);
  };
  flatten(layout.shape, shape, flatten);
  flatten(layout.stride, stride, flatten);
  if (shape.size() > static_cast<std::size_t>(kSharedLayoutModes)) {
    throw std::invalid_argument(
        "the layout " + layout.text() + " has " + std::to_string(shape.size()) +
        " leaf modes; a bank-lab pattern takes at most " + num(kSharedLayoutModes));
  }
  const auto as_int = [&](std::int64_t v) {
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
      throw std::invalid_argument("the layout " + layout.text() + " holds " + std::to_string(v) +
                                  ", outside the bank probe's integers");
    }
    return static_cast<int>(v);
  };
  SharedIndexParams p;
  p.kind = SharedPatternKind::Layout;
  p.word_bytes = word_bytes;
  p.offset = as_int(layout.offset);
  p.layout_modes = static_cast<int>(shape.size());
  for (std::size_t m = 0; m < shape.size(); ++m) {
    p.layout_shape[m] = as_int(shape[m]);
    p.layout_stride[m] = as_int(stride[m]);
  }
  if (layout.swizzle) {
    p.swizzle_bits = layout.swizzle->bits;
    p.swizzle_base = layout.swizzle->base;
    p.swizzle_shift = layout.swizzle->shift;
  }
  p.active_threads = as_int(std::min<std::int64_t>(layout.size(), 1 << 30));
  gpu::check_shared_index(p);
  return p;
}

std::string shared_layout_text(const SharedIndexParams& p) {
  std::string shape = "(", stride = "(";
  for (int m = 0; m < p.layout_modes && m < kSharedLayoutModes; ++m) {
    shape += (m ? "," : "") + num(p.layout_shape[m]);
    stride += (m ? "," : "") + num(p.layout_stride[m]);
  }
  std::string text = shape + "):" + stride + ")";
  if (p.offset != 0) text = num(p.offset) + " o " + text;
  if (p.swizzle_bits > 0 || p.offset != 0) {
    text = "Sw<" + num(p.swizzle_bits) + "," + num(p.swizzle_base) + "," + num(p.swizzle_shift) +
           "> o " + text;
  }
  return text;
}

std::string shared_analyze_command(const gpu::BankProbeParams& params, int warp,
                                   model::HardwareModel hw) {
  const model::AccessPattern p = shared_access_pattern(params, warp);
  std::string command = "warplens analyze --space shared";
  if (p.op == model::Op::Store) command += " --op store";
  if (p.word_bytes != 4) command += " --word-bytes " + num(p.word_bytes);
  if (!(p.block == model::BlockShape{32, 1})) command += " --block " + model::to_string(p.block);
  if (warp) command += " --warp " + num(warp);
  if (hw != model::HardwareModel::Modern)
    command += " --model " + std::string(model::to_string(hw));
  return command + " --index '" + p.index + "'";
}

model::WarpAccesses shared_model_accesses(const gpu::BankProbeParams& params, int warp) {
  check_warp(params, warp);
  const SharedIndexParams& p = params.index;
  const int threads = params.block_x * params.block_y;
  model::WarpAccesses lanes{};
  for (int lane = 0; lane < kTraceLanes; ++lane) {
    model::LaneAccess& a = lanes[static_cast<std::size_t>(lane)];
    a.lane = lane;
    const int tid = kTraceLanes * warp + lane;
    if (tid >= threads || !shared_thread_active(tid, p)) continue;
    a.active = true;
    a.tx = tid % params.block_x;
    a.ty = tid / params.block_x;
    a.index = shared_element_index(a.tx, a.ty, params.block_x, params.block_y, p);
    if (a.index < 0)
      throw std::invalid_argument("lane " + num(lane) + " gets the negative index " +
                                  std::to_string(a.index));
    a.address = a.index * p.word_bytes;
  }
  return lanes;
}

TraceRecords shared_model_trace(const gpu::BankProbeParams& params, int warp) {
  TraceRecords trace{};
  put_accesses(shared_model_accesses(params, warp), params.index.word_bytes, 0, trace);
  return trace;
}

model::SharedAnalysis analyze_probe(const gpu::BankProbeParams& params, int warp,
                                    model::HardwareModel hardware) {
  return model::analyze_shared(shared_model_accesses(params, warp), params.index.word_bytes,
                               to_model_op(params.op), hardware);
}

}  // namespace warplens
