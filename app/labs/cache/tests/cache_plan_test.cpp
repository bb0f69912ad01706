// The cache labs' host side (no GPU): the carveout tables of the Programming Guide and the seeds,
// how a carveout request rounds up, the parameter checks and their messages, the constant
// cache's lane groups, Morton order and the read-path checksum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cache_lab.h"

namespace warplens::test {
namespace {

using gpu::carveout_capacity;

/// The message `f` throws as std::invalid_argument, or "" when it does not throw.
template <typename F>
std::string refusal(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(CarveoutTable, CapacitiesPerComputeCapability) {
  const auto h100 = gpu::require_carveout_table(9, 0);
  EXPECT_EQ(h100.capacities_kib, (std::vector<int>{0, 8, 16, 32, 64, 100, 132, 164, 196, 228}));
  EXPECT_EQ(h100.unified_kib, 256);
  EXPECT_EQ(h100.max_shared_per_block_kib, 227);
  EXPECT_EQ(h100.reserved_per_block_kib, 1);
  const auto a100 = gpu::require_carveout_table(8, 0);
  EXPECT_EQ(a100.capacities_kib, (std::vector<int>{0, 8, 16, 32, 64, 100, 132, 164}));
  EXPECT_EQ(a100.unified_kib, 192);
  for (int minor : {6, 9}) {
    const auto t = gpu::require_carveout_table(8, minor);
    EXPECT_EQ(t.capacities_kib, (std::vector<int>{0, 8, 16, 32, 64, 100}));
    EXPECT_EQ(t.unified_kib, 128);
    EXPECT_EQ(t.max_shared_per_block_kib, 99);
  }
  const auto volta = gpu::require_carveout_table(7, 0);
  EXPECT_EQ(volta.capacities_kib, (std::vector<int>{0, 8, 16, 32, 64, 96}));
  EXPECT_EQ(volta.unified_kib, 128);
  const auto turing = gpu::require_carveout_table(7, 5);
  EXPECT_EQ(turing.capacities_kib, (std::vector<int>{32, 64}));
  EXPECT_EQ(turing.unified_kib, 96);
  EXPECT_FALSE(gpu::carveout_table(6, 1).has_value());
  EXPECT_NE(refusal([] { gpu::require_carveout_table(6, 1); }).find("compute capability 6.1"),
            std::string::npos);
}

TEST(CarveoutCapacity, RoundsUpToTheNextSupportedCapacity) {
  // The seeds' examples: 50 % of Volta's 96 KB is 48 KB, rounded up to 64 KB; 50 % on CC 8.0
  // maps to 100 KB, not 82 KB.
  EXPECT_EQ(carveout_capacity(7, 0, 50).rounded_kib, 64);
  EXPECT_DOUBLE_EQ(carveout_capacity(7, 0, 50).requested_kib, 48.0);
  EXPECT_EQ(carveout_capacity(8, 0, 50).rounded_kib, 100);
  EXPECT_EQ(carveout_capacity(8, 0, 50).l1_kib, 92);
  // H100: max L1, max shared, and points between.
  EXPECT_EQ(carveout_capacity(9, 0, 0).shared_kib, 0);
  EXPECT_EQ(carveout_capacity(9, 0, 0).l1_kib, 256);
  EXPECT_EQ(carveout_capacity(9, 0, 100).shared_kib, 228);
  EXPECT_EQ(carveout_capacity(9, 0, 100).l1_kib, 28);
  EXPECT_EQ(carveout_capacity(9, 0, 50).shared_kib, 132);  // 114 KB -> 132
  EXPECT_EQ(carveout_capacity(9, 0, 1).shared_kib, 8);     // 2.28 KB -> 8
  EXPECT_EQ(carveout_capacity(9, 0, 28).shared_kib, 64);   // 63.84 KB -> 64
  EXPECT_EQ(carveout_capacity(9, 0, 29).shared_kib, 100);  // 66.12 KB -> 100
  // Turing has no 0 KB configuration: max L1 still leaves 32 KB of shared memory.
  EXPECT_EQ(carveout_capacity(7, 5, 0).shared_kib, 32);
  EXPECT_EQ(carveout_capacity(7, 5, 0).l1_kib, 64);
}

TEST(CarveoutCapacity, EveryPercentGivesASupportedCapacityThatGrowsWithThePercent) {
  for (const auto& cc : std::vector<std::pair<int, int>>{{7, 0}, {7, 5}, {8, 0}, {8, 6}, {9, 0}}) {
    const auto t = gpu::require_carveout_table(cc.first, cc.second);
    const std::set<int> caps(t.capacities_kib.begin(), t.capacities_kib.end());
    int previous = -1;
    for (int p = 0; p <= 100; ++p) {
      const auto c = carveout_capacity(t, p);
      EXPECT_TRUE(caps.count(c.shared_kib)) << p;
      EXPECT_GE(c.shared_kib, c.requested_kib) << p;
      EXPECT_GE(c.shared_kib, previous) << p;
      EXPECT_EQ(c.shared_kib + c.l1_kib, t.unified_kib);
      previous = c.shared_kib;
    }
  }
}

TEST(CarveoutCapacity, AHintNeverMakesABlockImpossible) {
  // Max L1 with a block of 48 KiB + 1 KiB reserved: the driver must configure 64 KiB.
  const auto c = carveout_capacity(9, 0, 0, 49 * 1024);
  EXPECT_EQ(c.rounded_kib, 0);
  EXPECT_EQ(c.shared_kib, 64);
  EXPECT_TRUE(c.raised_for_block);
  EXPECT_EQ(c.l1_kib, 192);
  EXPECT_NE(refusal([] { carveout_capacity(9, 0, 100, 229 * 1024); }).find("fits no capacity"),
            std::string::npos);
}

TEST(CarveoutCapacity, DriverDefaultIsTheAssumedSmallestCapacityForFullOccupancy) {
  // No shared memory: everything to L1.
  EXPECT_EQ(carveout_capacity(9, 0, -1).shared_kib, 0);
  EXPECT_TRUE(carveout_capacity(9, 0, -1).driver_default);
  // 8 blocks of 8 KiB + 1 KiB reserved = 72 KiB: 100 KiB.
  EXPECT_EQ(carveout_capacity(9, 0, -1, 9 * 1024, 8).shared_kib, 100);
  // 8 blocks of 40 KiB cannot fit: the largest capacity.
  EXPECT_EQ(carveout_capacity(9, 0, -1, 41 * 1024, 8).shared_kib, 228);
}

TEST(CarveoutCapacity, BlocksByShared) {
  EXPECT_EQ(gpu::blocks_by_shared(228, 57 * 1024), 4);
  EXPECT_EQ(gpu::blocks_by_shared(228, 58 * 1024), 3);
  EXPECT_EQ(gpu::blocks_by_shared(0, 1024), 0);
  EXPECT_GT(gpu::blocks_by_shared(8, 0), 1000);
}

TEST(Checks, CarveoutOutsideTheRangeIsRefused) {
  for (int p : {-1, 0, 1, 50, 100}) EXPECT_EQ(refusal([p] { gpu::check_carveout(p); }), "");
  EXPECT_EQ(refusal([] { gpu::check_carveout(101); }),
            "carveout 101 is outside -1..100 (-1 driver default, 0 max L1, 100 max shared, else "
            "a percentage of the largest shared capacity)");
  EXPECT_NE(refusal([] { gpu::check_carveout(-2); }), "");
  EXPECT_NE(refusal([] { carveout_capacity(9, 0, 150); }), "");
}

TEST(Checks, DynamicSharedMemoryOverTheOptInLimit) {
  constexpr std::int64_t kOptIn = 227 * 1024;
  EXPECT_EQ(refusal([] { gpu::check_dynamic_shared(kOptIn, kOptIn); }), "");
  EXPECT_EQ(refusal([] { gpu::check_dynamic_shared(230 * 1024, kOptIn); }),
            "dynamic shared memory 230 KiB is over this GPU's opt-in limit of 227 KiB per block");
  EXPECT_NE(refusal([] { gpu::check_dynamic_shared(-4, kOptIn); }), "");
  EXPECT_FALSE(gpu::needs_shared_optin(48 * 1024));
  EXPECT_TRUE(gpu::needs_shared_optin(48 * 1024 + 4));
  EXPECT_NE(
      gpu::shared_optin_note(64 * 1024, kOptIn).find("cudaFuncAttributeMaxDynamicSharedMemorySize"),
      std::string::npos);
  EXPECT_NE(gpu::shared_optin_note(16 * 1024, kOptIn).find("no opt-in"), std::string::npos);
}

TEST(Checks, WorkingSet) {
  EXPECT_EQ(refusal([] { gpu::check_working_set(64 * 1024); }), "");
  EXPECT_EQ(refusal([] { gpu::check_working_set(gpu::kGatherRegionBytes); }), "");
  EXPECT_EQ(refusal([] { gpu::check_working_set(3 << 20); }),
            "working set 3072 KiB is larger than the 2048 KiB buffer region each block gathers "
            "from");
  EXPECT_NE(refusal([] { gpu::check_working_set(1000); }).find("under the minimum"),
            std::string::npos);
  EXPECT_NE(refusal([] { gpu::check_working_set(4100); }).find("multiple of 128"),
            std::string::npos);
}

TEST(Constant, LaneGroupsShareOneRead) {
  const auto one = gpu::constant_lane_groups(1);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].size(), 32u);  // broadcast: every lane on one word
  const auto all = gpu::constant_lane_groups(32);
  ASSERT_EQ(all.size(), 32u);
  for (int g = 0; g < 32; ++g) EXPECT_EQ(all[static_cast<std::size_t>(g)], std::vector<int>{g});
  const auto three = gpu::constant_lane_groups(3);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0].size(), 11u);  // lanes 0, 3, ..., 30
  EXPECT_EQ(three[2].size(), 10u);
  EXPECT_EQ(three[1].front(), 1);
  EXPECT_EQ(three[1][1], 4);
  for (int k = 1; k <= 32; ++k) {
    for (int step = 0; step < 16; ++step) {
      std::set<int> words;
      for (int lane = 0; lane < 32; ++lane) {
        const int w = gpu::constant_word(lane, k, step);
        EXPECT_GE(w, 0);
        EXPECT_LT(w, gpu::kConstantWords);
        words.insert(w);
      }
      EXPECT_EQ(static_cast<int>(words.size()), k);
    }
  }
  EXPECT_NE(refusal([] { gpu::check_constant_k(0); }), "");
  EXPECT_NE(refusal([] { gpu::check_constant_k(33); }), "");
}

TEST(Morton, InterleavesTheBits) {
  EXPECT_EQ(gpu::morton_encode(0, 0), 0u);
  EXPECT_EQ(gpu::morton_encode(1, 0), 1u);
  EXPECT_EQ(gpu::morton_encode(0, 1), 2u);
  EXPECT_EQ(gpu::morton_encode(1, 1), 3u);
  EXPECT_EQ(gpu::morton_encode(2, 0), 4u);
  EXPECT_EQ(gpu::morton_encode(3, 3), 15u);
  // An aligned 2^n x 2^n square is one contiguous run of 4^n indices, and the map is a
  // bijection on a 64 x 64 image.
  std::set<std::uint32_t> seen;
  for (std::uint32_t y = 0; y < 64; ++y)
    for (std::uint32_t x = 0; x < 64; ++x) seen.insert(gpu::morton_encode(x, y));
  EXPECT_EQ(seen.size(), 4096u);
  EXPECT_EQ(*seen.rbegin(), 4095u);
  for (std::uint32_t y = 8; y < 16; ++y)
    for (std::uint32_t x = 16; x < 24; ++x) {
      EXPECT_GE(gpu::morton_encode(x, y), gpu::morton_encode(16, 8));
      EXPECT_LT(gpu::morton_encode(x, y), gpu::morton_encode(16, 8) + 64);
    }
}

TEST(ReadPath, ChecksAndNames) {
  gpu::ReadPathParams p;
  EXPECT_EQ(refusal([&] { gpu::check_read_path(p); }), "");
  p.side = 1000;
  EXPECT_EQ(refusal([&] { gpu::check_read_path(p); }),
            "image side 1000 is not a power of two in 64..8192");
  p.side = 256;
  p.radius = 5;
  EXPECT_NE(refusal([&] { gpu::check_read_path(p); }), "");
  for (auto path : {gpu::ReadPath::Plain, gpu::ReadPath::Ldg, gpu::ReadPath::Texture})
    EXPECT_EQ(gpu::parse_read_path(gpu::to_string(path)), path);
  for (auto q : {gpu::ReadPattern::Scattered, gpu::ReadPattern::Local2D, gpu::ReadPattern::Morton,
                 gpu::ReadPattern::ColumnTile, gpu::ReadPattern::ColumnTileMorton})
    EXPECT_EQ(gpu::parse_read_pattern(gpu::to_string(q)), q);
  EXPECT_EQ(std::string(gpu::to_string(gpu::ReadPattern::ColumnTileMorton)), "column-tile-morton");
  EXPECT_NE(refusal([] { gpu::parse_read_pattern("tile"); }).find("column-tile"),
            std::string::npos);
  EXPECT_TRUE(gpu::reads_morton(gpu::ReadPattern::ColumnTileMorton));
  EXPECT_FALSE(gpu::reads_morton(gpu::ReadPattern::ColumnTile));
  p = {};
  p.pattern = gpu::ReadPattern::ColumnTile;
  EXPECT_EQ(gpu::reads_per_thread(p), 16);
  p.pattern = gpu::ReadPattern::Local2D;
  p.radius = 1;
  EXPECT_EQ(gpu::reads_per_thread(p), 9);
  EXPECT_NE(refusal([] { gpu::parse_read_path("surface"); }).find("plain, ldg, texture"),
            std::string::npos);
}

TEST(ReadPath, ExpectedSumMatchesTheDirectWindowSum) {
  gpu::ReadPathParams p;
  p.side = 64;
  p.radius = 2;
  std::uint32_t direct = 0;
  for (int y = 0; y < p.side; ++y)
    for (int x = 0; x < p.side; ++x)
      for (int dy = -p.radius; dy <= p.radius; ++dy)
        for (int dx = -p.radius; dx <= p.radius; ++dx)
          direct += gpu::pixel_value(static_cast<std::uint32_t>(std::clamp(x + dx, 0, p.side - 1)),
                                     static_cast<std::uint32_t>(std::clamp(y + dy, 0, p.side - 1)));
  EXPECT_EQ(gpu::expected_read_path_sum(p), direct);
  p.pattern = gpu::ReadPattern::Scattered;
  p.scattered_reads = 3;
  std::uint32_t scattered = 0;
  for (std::uint32_t t = 0; t < 64u * 64u; ++t)
    for (int j = 0; j < 3; ++j) {
      std::uint32_t x = 0, y = 0;
      gpu::scattered_pixel(t, j, 64, &x, &y);
      EXPECT_LT(x, 64u);
      EXPECT_LT(y, 64u);
      scattered += gpu::pixel_value(x, y);
    }
  EXPECT_EQ(gpu::expected_read_path_sum(p), scattered);
}

// The column tiles: every pixel is one thread's centre, a warp is 32 centres down one column.
TEST(ReadPath, ColumnTileCentresCoverTheImageOnceAndWarpsAreColumns) {
  for (int side : {64, 256}) {
    const auto blocks = static_cast<std::uint32_t>((side / 16) * (side / 16));
    std::vector<int> hits(static_cast<std::size_t>(side) * side, 0);
    for (std::uint32_t b = 0; b < blocks; ++b) {
      for (std::uint32_t tid = 0; tid < 256; ++tid) {
        std::uint32_t x = 0, y = 0;
        gpu::column_tile_centre(b, tid, side, &x, &y);
        ASSERT_LT(x, static_cast<std::uint32_t>(side));
        ASSERT_LT(y, static_cast<std::uint32_t>(side));
        ++hits[static_cast<std::size_t>(y) * side + x];
        // The warp's lane 0 sets the column; every lane is one row further down it.
        std::uint32_t x0 = 0, y0 = 0;
        gpu::column_tile_centre(b, tid / 32 * 32, side, &x0, &y0);
        EXPECT_EQ(x, x0);
        EXPECT_EQ(y, y0 + tid % 32);
      }
    }
    EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
  }
}

// What the tiles do to one load of a warp, counted with the model's units: row-major, 32 rows of
// one column are 32 sectors in 32 lines; in Morton order (aligned to 32 rows) 16 sectors in 8.
TEST(ReadPath, AColumnOfThirtyTwoRowsInMortonOrderIsSixteenSectorsInEightLines) {
  const int side = 256;
  std::set<std::uint32_t> row_major_sectors, row_major_lines, morton_sectors, morton_lines;
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    std::uint32_t x = 0, y = 0;
    gpu::column_tile_centre(5, lane, side, &x, &y);
    const std::uint32_t rm = (y * static_cast<std::uint32_t>(side) + x) * 4;
    const std::uint32_t mo = gpu::morton_encode(x, y) * 4;
    row_major_sectors.insert(rm / 32);
    row_major_lines.insert(rm / 128);
    morton_sectors.insert(mo / 32);
    morton_lines.insert(mo / 128);
  }
  EXPECT_EQ(row_major_sectors.size(), 32u);
  EXPECT_EQ(row_major_lines.size(), 32u);
  EXPECT_EQ(morton_sectors.size(), 16u);
  EXPECT_EQ(morton_lines.size(), 8u);
}

TEST(ReadPath, ExpectedSumMatchesTheDirectColumnTileSum) {
  gpu::ReadPathParams p;
  p.side = 64;
  p.pattern = gpu::ReadPattern::ColumnTile;
  std::uint32_t direct = 0;
  for (std::uint32_t b = 0; b < 16; ++b)
    for (std::uint32_t tid = 0; tid < 256; ++tid) {
      std::uint32_t x = 0, y = 0;
      gpu::column_tile_centre(b, tid, p.side, &x, &y);
      for (int dy = gpu::kColumnTileFirst; dy < gpu::kColumnTileFirst + gpu::kColumnTileSide; ++dy)
        for (int dx = gpu::kColumnTileFirst; dx < gpu::kColumnTileFirst + gpu::kColumnTileSide;
             ++dx)
          direct += gpu::pixel_value(
              static_cast<std::uint32_t>(std::clamp(static_cast<int>(x) + dx, 0, p.side - 1)),
              static_cast<std::uint32_t>(std::clamp(static_cast<int>(y) + dy, 0, p.side - 1)));
    }
  EXPECT_EQ(gpu::expected_read_path_sum(p), direct);
  p.pattern = gpu::ReadPattern::ColumnTileMorton;  // the same pixels from another layout
  EXPECT_EQ(gpu::expected_read_path_sum(p), direct);
  p.pattern = gpu::ReadPattern::Local2D;
  p.radius = 2;
  EXPECT_NE(gpu::expected_read_path_sum(p), direct);
}

// The shared-hungry sweep: one carveout per supported capacity, each landing on its capacity.
TEST(CarveoutSweep, OnePercentPerSupportedCapacity) {
  const auto h100 = gpu::require_carveout_table(9, 0);
  EXPECT_EQ(gpu::carveouts_per_capacity(h100),
            (std::vector<int>{-1, 0, 3, 7, 14, 28, 43, 57, 71, 85, 100}));
  for (int major_minor : {70, 75, 80, 86, 89, 90, 100, 120}) {
    const auto t = gpu::require_carveout_table(major_minor / 10, major_minor % 10);
    const auto sweep = gpu::carveouts_per_capacity(t);
    ASSERT_FALSE(sweep.empty());
    EXPECT_EQ(sweep.front(), gpu::kCarveoutDefault);
    std::set<int> capacities;
    for (std::size_t i = 1; i < sweep.size(); ++i) {
      EXPECT_NO_THROW(gpu::check_carveout(sweep[i]));
      if (i > 1) {
        EXPECT_GT(sweep[i], sweep[i - 1]);
      }
      capacities.insert(gpu::carveout_capacity(t, sweep[i]).rounded_kib);
    }
    EXPECT_EQ(capacities, std::set<int>(t.capacities_kib.begin(), t.capacities_kib.end()))
        << "CC " << major_minor;
    EXPECT_EQ(sweep.back(), 100);
  }
}

}  // namespace
}  // namespace warplens::test
