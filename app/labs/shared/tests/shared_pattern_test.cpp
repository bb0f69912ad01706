// The bank probe's index expression (what `analyze` evaluates) against its host twin
// (shared_element_index, what the kernels run), and the analyses the window shows.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cute_layout.h"
#include "memory_model.h"
#include "shared_lab.h"
#include "shared_pattern.h"

namespace warplens {
namespace {

gpu::BankProbeParams probe(SharedPatternKind kind, int word_bytes, int bx, int by) {
  gpu::BankProbeParams p;
  p.index.kind = kind;
  p.index.word_bytes = word_bytes;
  p.block_x = bx;
  p.block_y = by;
  return p;
}

// Every lane of every warp: the expression the model evaluates names the same element as the
// host twin.
void expect_expression_matches_twin(const gpu::BankProbeParams& p) {
  const int warps = (p.block_x * p.block_y + 31) / 32;
  for (int warp = 0; warp < warps; ++warp) {
    const auto pattern = shared_access_pattern(p, warp);
    const auto from_expression = model::evaluate_lanes(pattern);
    const auto from_twin = shared_model_accesses(p, warp);
    for (int lane = 0; lane < 32; ++lane) {
      ASSERT_EQ(from_expression[lane].active, from_twin[lane].active)
          << pattern.index << " warp " << warp << " lane " << lane;
      ASSERT_EQ(from_expression[lane].index, from_twin[lane].index)
          << pattern.index << " warp " << warp << " lane " << lane;
      ASSERT_EQ(from_expression[lane].address, from_twin[lane].address);
    }
    const auto a = model::analyze_shared(from_expression, p.index.word_bytes, pattern.op);
    const auto b = analyze_probe(p, warp);
    ASSERT_EQ(a.wavefronts, b.wavefronts) << pattern.index;
  }
}

TEST(SharedPattern, ExpressionsMatchTheHostTwinForEveryKind) {
  for (int w : {1, 2, 4, 8, 16}) {
    for (int stride : {0, 1, 2, 3, 17, 32}) {
      for (int offset : {0, 1, 5}) {
        auto p = probe(SharedPatternKind::Strided, w, 64, 2);
        p.index.stride = stride;
        p.index.offset = offset;
        expect_expression_matches_twin(p);
      }
    }
  }
  for (int t : {8, 16, 32}) {
    for (int extra : {0, 1, 4}) {
      for (bool col : {false, true}) {
        for (bool sw : {false, true}) {
          auto p = probe(SharedPatternKind::Tile, 4, t, t);
          p.index.tile_width = t;
          p.index.pitch_elements = t + extra;
          p.index.by_column = col;
          p.index.swizzle = sw;
          expect_expression_matches_twin(p);
        }
      }
    }
  }
  // Lanes of several words (the vectorized transpose's tile): element `field` of 2 tx, 2 tx + 1.
  for (int t : {8, 16, 32}) {
    for (bool col : {false, true}) {
      for (int k : {0, 1}) {
        auto p = probe(SharedPatternKind::Tile, 4, t, 8);
        p.index.tile_width = 2 * t;
        p.index.pitch_elements = 2 * t + 1;
        p.index.lane_elements = 2;
        p.index.field = k;
        p.index.by_column = col;
        expect_expression_matches_twin(p);
      }
    }
  }
  for (int n : {1, 2, 3, 4, 8}) {
    auto p = probe(SharedPatternKind::Struct, 4, 96, 1);
    p.index.struct_words = n;
    p.index.field = n - 1;
    expect_expression_matches_twin(p);
  }
  for (auto kind : {SharedPatternKind::Interleaved, SharedPatternKind::Blocked}) {
    for (int part : {0, 1}) {
      auto p = probe(kind, 4, 128, 1);
      p.index.part = part;
      expect_expression_matches_twin(p);
    }
  }
  for (auto kind : {SharedPatternKind::MatmulA, SharedPatternKind::MatmulB}) {
    for (int b : {8, 16, 32}) {
      auto p = probe(kind, 4, b, b);
      p.index.pitch_elements = b;
      p.index.field = b / 2;
      expect_expression_matches_twin(p);
    }
  }
}

TEST(SharedPattern, TheSlidesCasesCostWhatTheSlidesSay) {
  auto column = probe(SharedPatternKind::Tile, 4, 32, 32);
  column.index.by_column = true;
  EXPECT_EQ(analyze_probe(column, 0).wavefronts, 32);  // tile[32][32] read by column
  column.index.pitch_elements = 33;
  EXPECT_EQ(analyze_probe(column, 0).wavefronts, 1);  // padded tile[32][33]
  column.index.pitch_elements = 32;
  column.index.swizzle = true;
  EXPECT_EQ(analyze_probe(column, 0).wavefronts, 1);  // XOR swizzle
  // The vectorized transpose's tile[64][65], lanes two words apart: a 2-way conflict each way.
  gpu::TransposeParams vectorized;
  vectorized.variant = gpu::TransposeVariant::Vectorized;
  EXPECT_EQ(analyze_probe(gpu::transpose_tile_write(vectorized), 0).wavefronts, 2);
  EXPECT_EQ(analyze_probe(gpu::transpose_tile_read(vectorized), 0).wavefronts, 2);
  EXPECT_EQ(shared_analyze_command(gpu::transpose_tile_read(vectorized), 0),
            "warplens analyze --space shared --block 32x8 --index '(2*tx)*65 + ty'");
  auto interleaved = probe(SharedPatternKind::Interleaved, 4, 128, 1);
  EXPECT_EQ(analyze_probe(interleaved, 0).wavefronts, 2);  // shared[2*tid]
  auto blocked = probe(SharedPatternKind::Blocked, 4, 128, 1);
  blocked.index.part = 1;
  EXPECT_EQ(analyze_probe(blocked, 0).wavefronts, 1);  // shared[tid + blockDim.x]
  auto vec3 = probe(SharedPatternKind::Struct, 4, 64, 1);
  vec3.index.struct_words = 3;
  EXPECT_EQ(analyze_probe(vec3, 0).wavefronts, 1);  // struct vector {x, y, z}
  vec3.index.struct_words = 2;
  EXPECT_EQ(analyze_probe(vec3, 0).wavefronts, 2);  // struct myType {f, c}
  auto broadcast = probe(SharedPatternKind::Strided, 4, 32, 1);
  broadcast.index.stride = 0;
  const auto b = analyze_probe(broadcast, 0);
  EXPECT_EQ(b.wavefronts, 1);
  EXPECT_TRUE(b.broadcast);
  auto wide = probe(SharedPatternKind::Strided, 16, 32, 1);
  const auto w = analyze_probe(wide, 0);
  EXPECT_EQ(w.phases.size(), 2u);  // half-warps of 256 bytes (measured on an H100)
  EXPECT_EQ(w.wavefronts, 4);
  auto wide_broadcast = probe(SharedPatternKind::Strided, 16, 32, 1);
  wide_broadcast.index.stride = 0;
  EXPECT_EQ(analyze_probe(wide_broadcast, 0).wavefronts, 2);
  auto eight_broadcast = probe(SharedPatternKind::Strided, 8, 32, 1);
  eight_broadcast.index.stride = 0;
  EXPECT_EQ(analyze_probe(eight_broadcast, 0).wavefronts, 1);
}

TEST(SharedPattern, IdleLanesComeFromTheHostTwin) {
  auto p = probe(SharedPatternKind::Strided, 4, 256, 1);
  p.index.stride = 8;
  p.index.active_threads = 16;
  const auto lanes = shared_model_accesses(p, 0);
  EXPECT_TRUE(lanes[15].active);
  EXPECT_FALSE(lanes[16].active);
  const auto trace = shared_model_trace(p, 0);
  EXPECT_EQ(trace[15].address_lo, 15u * 8u * 4u);
  EXPECT_EQ(trace[16].active, 0u);
  EXPECT_EQ(analyze_probe(p, 0).active_lanes, 16);
  p.index.active_threads = 1 << 30;
  p.index.active_every = 4;
  EXPECT_EQ(analyze_probe(p, 0).active_lanes, 8);
}

TEST(SharedPattern, AnalyzeCommandNamesTheSameAccess) {
  auto p = probe(SharedPatternKind::Tile, 8, 32, 8);
  p.index.pitch_elements = 33;
  p.index.by_column = true;
  p.op = gpu::SharedOp::Store;
  EXPECT_EQ(shared_analyze_command(p, 2),
            "warplens analyze --space shared --op store --word-bytes 8 --block 32x8 --warp 2 "
            "--index 'tx*33 + ty'");
  // A teaching model travels with the command, so analyze gives the numbers the window shows.
  EXPECT_EQ(shared_analyze_command(p, 2, model::HardwareModel::G80),
            "warplens analyze --space shared --op store --word-bytes 8 --block 32x8 --warp 2 "
            "--model g80 --index 'tx*33 + ty'");
}

// A CuTe layout as a bank-lab pattern: the kernels' index function (shared_element_index) gives
// every thread the offset model::CuteLayout gives its index, on random layouts with nested
// shapes, negative strides, offsets and swizzles; the index expression analyze evaluates agrees.
TEST(SharedPattern, LayoutPatternsGiveTheLayoutsOffsets) {
  std::mt19937 rng(20261128);
  std::uniform_int_distribution<int> extent(1, 8), stride(-3, 40), coin(0, 2);
  int checked = 0;
  for (int round = 0; round < 300; ++round) {
    // (a,(b,c)):(d,(e,f)) or (a,b):(d,e), then maybe a swizzle and an offset.
    const int a = extent(rng), b = extent(rng), c = extent(rng);
    const bool nested = coin(rng) == 0;
    std::string shape =
        nested ? "(" + std::to_string(a) + ",(" + std::to_string(b) + "," + std::to_string(c) + "))"
               : "(" + std::to_string(a) + "," + std::to_string(b) + ")";
    std::string strides =
        nested ? "(" + std::to_string(stride(rng)) + ",(" + std::to_string(stride(rng)) + "," +
                     std::to_string(stride(rng)) + "))"
               : "(" + std::to_string(stride(rng)) + "," + std::to_string(stride(rng)) + ")";
    std::string text = shape + ":" + strides;
    if (coin(rng) == 0) {
      const int bits = std::uniform_int_distribution<int>(1, 3)(rng);
      text = "Swizzle<" + std::to_string(bits) + ",0," + std::to_string(bits + 2) + "> o " +
             std::to_string(200 * coin(rng)) + " o " + text;
    }
    SCOPED_TRACE(text);
    const model::CuteLayout layout = model::parse_layout(text);
    SharedIndexParams index;
    try {
      index = shared_layout_index(layout, 4);
    } catch (const std::invalid_argument&) {
      continue;  // e.g. a negative offset: refused like any pattern's
    }
    EXPECT_EQ(model::parse_layout(shared_layout_text(index)).size(), layout.size());
    gpu::BankProbeParams p;
    p.index = index;
    p.block_x = 32;
    p.block_y = 1;
    for (int tid = 0; tid < 32; ++tid) {
      ASSERT_EQ(shared_thread_active(tid, index), tid < layout.size()) << tid;
      if (tid >= layout.size()) continue;
      ASSERT_EQ(shared_element_index(tid, 0, 32, 1, index), layout(tid)) << "thread " << tid;
    }
    bool non_negative = true;
    for (int tid = 0; tid < std::min<std::int64_t>(32, layout.size()); ++tid) {
      non_negative = non_negative && layout(tid) >= 0;
    }
    // The expression describes every thread; a layout smaller than the warp leaves lanes idle.
    if (non_negative && layout.size() >= 32) expect_expression_matches_twin(p);
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

TEST(SharedPattern, ALayoutPatternNamesItsLayout) {
  const auto index = shared_layout_index(model::parse_layout("Sw<3,2,3> o (32,32):(32,1)"), 4);
  EXPECT_EQ(index.kind, SharedPatternKind::Layout);
  EXPECT_EQ(index.layout_modes, 2);
  EXPECT_EQ(shared_layout_text(index), "Sw<3,2,3> o (32,32):(32,1)");
  EXPECT_EQ(index.active_threads, 1024);
  // Column 0 of the 128-byte-swizzled float tile: tid walks down the rows (the first mode).
  EXPECT_EQ(shared_element_index(1, 0, 32, 1, index), 32 ^ (1 << 2));
  EXPECT_THROW(shared_layout_index(model::parse_layout("(2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,"
                                                       "128,256)"),
                                   4),
               std::invalid_argument);
}

TEST(SharedPattern, AWarpOutsideTheBlockIsRefused) {
  auto p = probe(SharedPatternKind::Strided, 4, 32, 1);
  EXPECT_THROW((void)shared_model_accesses(p, 1), std::invalid_argument);
  EXPECT_THROW((void)shared_model_accesses(p, -1), std::invalid_argument);
}

}  // namespace
}  // namespace warplens
