// Launch planning for the strided copy: pure C++, shared by CUDA and model-only builds.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu.h"

namespace warplens::gpu {

std::string cuda_version_text(int version) {
  if (version <= 0) return "none";
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::int64_t matrix_pitch_bytes(const CopyParams& p) {
  const std::int64_t row = std::int64_t{p.matrix_width} * 4;
  if (!p.matrix_pitched) return row;
  const std::int64_t a = std::max(1, p.pitch_alignment);
  return (row + a - 1) / a * a;
}

namespace {

CopyPlan plan_matrix(const CopyParams& p, std::int64_t buffer_bytes) {
  if (p.word_bytes != 4) {
    throw std::invalid_argument("the matrix holds 4-byte floats (word bytes 4, got " +
                                std::to_string(p.word_bytes) + ")");
  }
  if (p.matrix_width < 32 || p.matrix_width > 16384) {
    throw std::invalid_argument("matrix width must be 32..16384 floats (got " +
                                std::to_string(p.matrix_width) + ")");
  }
  if (p.block_y < 1 || p.block_threads % p.block_y != 0) {
    throw std::invalid_argument("a block of " + std::to_string(p.block_threads) +
                                " threads cannot have " + std::to_string(p.block_y) + " rows");
  }
  const std::int64_t bx = p.block_threads / p.block_y, by = p.block_y;
  CopyPlan plan;
  plan.pitch_bytes = matrix_pitch_bytes(p);
  plan.rows = buffer_bytes / plan.pitch_bytes;
  if (!p.matrix_by_column) plan.rows = std::min<std::int64_t>(plan.rows, 65535 * by);  // grid.y
  plan.threads = plan.rows * p.matrix_width;
  const std::int64_t along_x = p.matrix_by_column ? plan.rows : p.matrix_width;
  const std::int64_t along_y = p.matrix_by_column ? p.matrix_width : plan.rows;
  plan.grid_x = static_cast<unsigned>((along_x + bx - 1) / bx);
  plan.grid_y = static_cast<unsigned>((along_y + by - 1) / by);
  plan.blocks = std::int64_t{plan.grid_x} * plan.grid_y;
  plan.pattern_span_bytes = plan.rows * plan.pitch_bytes;
  plan.requested_bytes = 2 * plan.threads * 4;
  return plan;
}

}  // namespace

CopyPlan plan_copy(const CopyParams& p, std::int64_t buffer_bytes) {
  const int w = p.word_bytes;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16) {
    throw std::invalid_argument("word bytes must be 1, 2, 4, 8 or 16 (got " + std::to_string(w) +
                                ")");
  }
  if (p.stride < 1) {
    throw std::invalid_argument("stride must be at least 1 element (got " +
                                std::to_string(p.stride) + ")");
  }
  if (p.offset < 0) {
    throw std::invalid_argument("offset must be >= 0 elements (got " + std::to_string(p.offset) +
                                ")");
  }
  if (p.block_threads < 32 || p.block_threads > 1024 || p.block_threads % 32 != 0) {
    throw std::invalid_argument("threads per block must be a multiple of 32 in 32..1024 (got " +
                                std::to_string(p.block_threads) + ")");
  }
  if (p.kind != IndexKind::Strided && p.kind != IndexKind::Permuted &&
      p.kind != IndexKind::SameWord && p.kind != IndexKind::Scattered) {
    throw std::invalid_argument("unknown index kind");
  }
  const std::int64_t elements = buffer_bytes / w;
  if (p.seed > 0x7fffffffu) {
    throw std::invalid_argument("seed must be below 2^31 (got " + std::to_string(p.seed) + ")");
  }
  if (p.matrix_width != 0) return plan_matrix(p, buffer_bytes);
  if (p.layout != StructLayout::None) {
    if (w != 4) {
      throw std::invalid_argument("the struct {x, y, z} has 4-byte fields (word bytes 4, got " +
                                  std::to_string(w) + ")");
    }
    if (elements < kStructCount * kStructFields) {
      throw std::invalid_argument("the struct scenarios need " +
                                  std::to_string((kStructCount * kStructFields * w) >> 20) +
                                  " MiB; the buffer has " + std::to_string(buffer_bytes >> 20));
    }
    CopyPlan plan;
    plan.threads = kStructCount;  // AoS: structs; SoA: each array's length
    plan.index.kind = IndexKind::Strided;
    plan.index.stride = p.layout == StructLayout::ArrayOfStructs ? kStructFields : 1;
    plan.blocks = (plan.threads + p.block_threads - 1) / p.block_threads;
    plan.pattern_span_bytes = plan.threads * kStructFields * w;
    plan.requested_bytes = plan.threads * (kStructFields + 1) * w;  // three reads, one write
    return plan;
  }
  // Keep at least half the buffer for the copy itself, so the launch still defeats L2.
  if (p.offset > elements / 2) {
    throw std::invalid_argument("offset " + std::to_string(p.offset) +
                                " elements leaves less than half of the " +
                                std::to_string(buffer_bytes >> 20) + " MiB buffer to copy");
  }
  CopyPlan plan;
  plan.index.kind = p.kind;
  plan.index.offset = p.offset;
  plan.index.stride = p.stride;
  plan.index.seed = p.seed;
  const std::int64_t room = elements - p.offset;  // elements from the offset to the end
  std::int64_t last = 0;                          // largest element index used
  switch (p.kind) {
    case IndexKind::Strided:
      plan.threads = (room - 1) / p.stride + 1;
      last = p.offset + (plan.threads - 1) * p.stride;
      break;
    case IndexKind::Permuted:
      plan.threads = room / 32 * 32;
      last = p.offset + plan.threads - 1;
      break;
    case IndexKind::SameWord:
      plan.threads = std::min<std::int64_t>(((room - 1) / 32 + 1) * 32, elements);
      last = p.offset + 32 * ((plan.threads - 1) / 32);
      break;
    case IndexKind::Scattered:
      if (room < kScatterWindow) {
        throw std::invalid_argument(
            "the scattered pattern needs 2^24 elements after the offset; the " +
            std::to_string(buffer_bytes >> 20) + " MiB buffer has " + std::to_string(room));
      }
      plan.threads = kScatterWindow;
      last = p.offset + kScatterWindow - 1;
      break;
  }
  if (plan.threads < p.block_threads) {
    // The view traces the warps of block 0: they must all copy something.
    throw std::invalid_argument(
        "stride " + std::to_string(p.stride) + " leaves only " + std::to_string(plan.threads) +
        " elements in the " + std::to_string(buffer_bytes >> 20) +
        " MiB buffer, less than one block of " + std::to_string(p.block_threads) + " threads");
  }
  plan.blocks = (plan.threads + p.block_threads - 1) / p.block_threads;
  plan.pattern_span_bytes = (last + 1) * w;
  plan.requested_bytes = 2 * plan.threads * w;
  return plan;
}

const char* to_string(IndexKind kind) {
  switch (kind) {
    case IndexKind::Strided: return "strided";
    case IndexKind::Permuted: return "permuted";
    case IndexKind::SameWord: return "same-word";
    case IndexKind::Scattered: return "scattered";
  }
  return "strided";
}
const char* to_string(PatternSide side) {
  return side == PatternSide::Read ? "read" : "write";
}
const char* to_string(LoadPath path) {
  return path == LoadPath::Default ? "default" : (path == LoadPath::L2Only ? "ldcg" : "ldg");
}

const char* to_string(StructLayout layout) {
  switch (layout) {
    case StructLayout::None: return "none";
    case StructLayout::ArrayOfStructs: return "aos";
    case StructLayout::StructOfArrays: return "soa";
  }
  return "none";
}

StructLayout parse_struct_layout(const std::string& text) {
  for (StructLayout l :
       {StructLayout::None, StructLayout::ArrayOfStructs, StructLayout::StructOfArrays}) {
    if (text == to_string(l)) return l;
  }
  throw std::invalid_argument("struct layout must be none, aos or soa (got \"" + text + "\")");
}

IndexKind parse_index_kind(const std::string& text) {
  for (IndexKind k :
       {IndexKind::Strided, IndexKind::Permuted, IndexKind::SameWord, IndexKind::Scattered}) {
    if (text == to_string(k)) return k;
  }
  throw std::invalid_argument("pattern must be strided, permuted, same-word or scattered (got \"" +
                              text + "\")");
}
PatternSide parse_pattern_side(const std::string& text) {
  if (text == "read") return PatternSide::Read;
  if (text == "write") return PatternSide::Write;
  throw std::invalid_argument("pattern side must be read or write (got \"" + text + "\")");
}
LoadPath parse_load_path(const std::string& text) {
  for (LoadPath l : {LoadPath::Default, LoadPath::L2Only, LoadPath::ReadOnly}) {
    if (text == to_string(l)) return l;
  }
  throw std::invalid_argument("load path must be default, ldcg or ldg (got \"" + text + "\")");
}

}  // namespace warplens::gpu
