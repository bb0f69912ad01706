// The cache labs' host side, compiled in every build: the carveout tables of the CUDA C++
// Programming Guide (as quoted in the seeds), the rounding of a carveout request, the parameter
// checks and the read-path kernel's expected checksum.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cache_lab.h"

namespace warplens::gpu {

namespace {

std::string kib_text(std::int64_t bytes) {
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  return std::to_string(bytes) + " bytes";
}

CarveoutTable make_table(int major, int minor, int unified, std::vector<int> caps, int per_block,
                         int reserved, const char* source) {
  CarveoutTable t;
  t.cc_major = major;
  t.cc_minor = minor;
  t.unified_kib = unified;
  t.capacities_kib = std::move(caps);
  t.max_shared_per_block_kib = per_block;
  t.reserved_per_block_kib = reserved;
  t.source = source;
  return t;
}

}  // namespace

// --- carveout tables ---------------------------------------------------------------------------

std::optional<CarveoutTable> carveout_table(int major, int minor) {
  const char* guide = "CUDA C++ Programming Guide, Compute Capabilities";
  if (major == 7 && (minor == 0 || minor == 2))
    return make_table(major, minor, 128, {0, 8, 16, 32, 64, 96}, 96, 0,
                      "CUDA C++ Programming Guide, CC 7.x Shared Memory (seeds: Volta, 128 KB)");
  if (major == 7 && minor == 5)
    return make_table(major, minor, 96, {32, 64}, 64, 0,
                      "CUDA C++ Programming Guide, CC 7.x Shared Memory (seeds: Turing, 96 KB)");
  if (major == 8 && (minor == 0 || minor == 7))
    return make_table(major, minor, 192, {0, 8, 16, 32, 64, 100, 132, 164}, 163, 1,
                      "CUDA C++ Programming Guide, CC 8.x Shared Memory (seeds: 8.0, 192 KB)");
  if (major == 8 && (minor == 6 || minor == 9))
    return make_table(major, minor, 128, {0, 8, 16, 32, 64, 100}, 99, 1,
                      "CUDA C++ Programming Guide, CC 8.x Shared Memory (seeds: 8.6/8.9, 128 KB)");
  if (major == 9 && minor == 0)
    return make_table(major, minor, 256, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, 227, 1,
                      "CUDA C++ Programming Guide, CC 9.0 Shared Memory (seeds: H100, 256 KB)");
  if (major == 10 && minor == 0)
    return make_table(major, minor, 256, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}, 227, 1,
                      guide);
  if (major == 12 && minor == 0)
    return make_table(major, minor, 128, {0, 8, 16, 32, 64, 100}, 99, 1, guide);
  return std::nullopt;
}

CarveoutTable require_carveout_table(int major, int minor) {
  auto t = carveout_table(major, minor);
  if (!t)
    throw std::invalid_argument("no carveout table for compute capability " +
                                std::to_string(major) + "." + std::to_string(minor) +
                                " (known: 7.0, 7.2, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 12.0)");
  return *t;
}

void check_carveout(int percent) {
  if (percent < -1 || percent > 100)
    throw std::invalid_argument("carveout " + std::to_string(percent) +
                                " is outside -1..100 (-1 driver default, 0 max L1, 100 max "
                                "shared, else a percentage of the largest shared capacity)");
}

int blocks_by_shared(int capacity_kib, std::int64_t block_shared_bytes) {
  if (block_shared_bytes <= 0) return INT_MAX;
  return static_cast<int>(std::int64_t{capacity_kib} * 1024 / block_shared_bytes);
}

CarveoutChoice carveout_capacity(const CarveoutTable& table, int percent,
                                 std::int64_t block_shared_bytes, int blocks_wanted) {
  check_carveout(percent);
  if (table.capacities_kib.empty())
    throw std::invalid_argument("the carveout table has no capacities");
  if (block_shared_bytes < 0) throw std::invalid_argument("negative shared memory per block");
  const auto& caps = table.capacities_kib;
  const std::int64_t largest = std::int64_t{table.max_capacity_kib()} * 1024;
  if (block_shared_bytes > largest)
    throw std::invalid_argument("a block needing " + kib_text(block_shared_bytes) +
                                " of shared memory fits no capacity (largest " +
                                std::to_string(table.max_capacity_kib()) + " KiB)");
  // The smallest capacity holding `bytes`, the largest when none does.
  auto smallest_holding = [&](std::int64_t bytes) {
    return table.smallest_holding_kib(bytes).value_or(caps.back());
  };
  CarveoutChoice r;
  r.percent = percent;
  r.driver_default = percent == kCarveoutDefault;
  if (r.driver_default) {
    const std::int64_t want = block_shared_bytes * std::max(blocks_wanted, 1);
    r.rounded_kib = smallest_holding(std::min(want, largest));
  } else {
    r.requested_kib = table.max_capacity_kib() * percent / 100.0;
    // Capacities are whole KiB: c >= requested_kib exactly when c KiB >= ceil(requested bytes).
    r.rounded_kib =
        smallest_holding(static_cast<std::int64_t>(std::ceil(r.requested_kib * 1024.0)));
  }
  r.shared_kib = std::max(r.rounded_kib, smallest_holding(block_shared_bytes));
  r.raised_for_block = r.shared_kib > r.rounded_kib;
  r.l1_kib = table.unified_kib - r.shared_kib;
  return r;
}

CarveoutChoice carveout_capacity(int major, int minor, int percent, std::int64_t block_shared_bytes,
                                 int blocks_wanted) {
  return carveout_capacity(require_carveout_table(major, minor), percent, block_shared_bytes,
                           blocks_wanted);
}

std::vector<int> carveouts_per_capacity(const CarveoutTable& table) {
  std::vector<int> out = {kCarveoutDefault};
  const int largest = table.max_capacity_kib();
  if (table.capacities_kib.empty() || largest <= 0) return out;
  for (std::size_t i = 0; i < table.capacities_kib.size(); ++i) {
    const int cap = table.capacities_kib[i];
    // The largest whole percent whose request (percent x largest / 100) is still <= cap.
    const int percent = i == 0 ? kCarveoutMaxL1 : std::min(100, cap * 100 / largest);
    if (carveout_capacity(table, percent).rounded_kib != cap) continue;  // no percent lands here
    if (out.back() != percent) out.push_back(percent);
  }
  return out;
}

void check_dynamic_shared(std::int64_t bytes, std::int64_t optin_limit_bytes) {
  if (bytes < 0)
    throw std::invalid_argument("dynamic shared memory " + std::to_string(bytes) +
                                " bytes is negative");
  if (bytes > optin_limit_bytes)
    throw std::invalid_argument("dynamic shared memory " + kib_text(bytes) +
                                " is over this GPU's opt-in limit of " +
                                kib_text(optin_limit_bytes) + " per block");
}

bool needs_shared_optin(std::int64_t bytes) {
  return bytes > 48 * 1024;
}

std::string shared_optin_note(std::int64_t bytes, std::int64_t optin_limit_bytes) {
  if (!needs_shared_optin(bytes))
    return kib_text(bytes) +
           " of dynamic shared memory is within the 48 KiB every kernel may use: no opt-in";
  return kib_text(bytes) +
         " is over 48 KiB: a launch would fail unless the kernel opts in, so WarpLens sets "
         "cudaFuncAttributeMaxDynamicSharedMemorySize to it (allowed up to " +
         kib_text(optin_limit_bytes) + " per block on this GPU)";
}

void check_working_set(std::int64_t bytes) {
  const std::int64_t region_bytes = kGatherRegionBytes;
  if (bytes < kMinWorkingSetBytes)
    throw std::invalid_argument("working set " + kib_text(bytes) + " is under the minimum of " +
                                kib_text(kMinWorkingSetBytes));
  if (bytes % 128 != 0)
    throw std::invalid_argument("working set " + std::to_string(bytes) +
                                " bytes is not a multiple of 128 bytes (one cache line)");
  if (bytes > region_bytes)
    throw std::invalid_argument("working set " + kib_text(bytes) + " is larger than the " +
                                kib_text(region_bytes) + " buffer region each block gathers from");
}

// --- constant memory ---------------------------------------------------------------------------

void check_constant_k(int k) {
  if (k < 1 || k > 32)
    throw std::invalid_argument("distinct constant addresses per warp k = " + std::to_string(k) +
                                " is outside 1..32");
}

std::vector<std::vector<int>> constant_lane_groups(int k) {
  check_constant_k(k);
  std::vector<std::vector<int>> groups(static_cast<std::size_t>(k));
  for (int lane = 0; lane < 32; ++lane)
    groups[static_cast<std::size_t>(constant_word(lane, k, 0))].push_back(lane);
  return groups;
}

// --- read path ---------------------------------------------------------------------------------

void check_read_path(const ReadPathParams& p) {
  if (p.side < 64 || p.side > 8192 || (p.side & (p.side - 1)) != 0)
    throw std::invalid_argument("image side " + std::to_string(p.side) +
                                " is not a power of two in 64..8192");
  if (p.radius < 0 || p.radius > 4)
    throw std::invalid_argument("window radius " + std::to_string(p.radius) + " is outside 0..4");
  if (p.scattered_reads < 1 || p.scattered_reads > 32)
    throw std::invalid_argument("scattered reads per thread " + std::to_string(p.scattered_reads) +
                                " is outside 1..32");
}

int reads_per_thread(const ReadPathParams& p) {
  switch (p.pattern) {
    case ReadPattern::Scattered: return p.scattered_reads;
    case ReadPattern::Local2D:
    case ReadPattern::Morton: return (2 * p.radius + 1) * (2 * p.radius + 1);
    case ReadPattern::ColumnTile:
    case ReadPattern::ColumnTileMorton: return kColumnTileSide * kColumnTileSide;
  }
  return 0;
}

std::uint32_t expected_read_path_sum(const ReadPathParams& p) {
  check_read_path(p);
  const auto side = static_cast<std::uint32_t>(p.side);
  std::uint32_t sum = 0;
  if (p.pattern == ReadPattern::Scattered) {
    const std::uint32_t threads = side * side;
    for (std::uint32_t t = 0; t < threads; ++t) {
      for (int j = 0; j < p.scattered_reads; ++j) {
        std::uint32_t x = 0, y = 0;
        scattered_pixel(t, j, p.side, &x, &y);
        sum += pixel_value(x, y);
      }
    }
    return sum;
  }
  // Windows and tiles clamped to the image, every pixel the centre of one thread: pixel
  // (x', y') is read mult(x') x mult(y') times, where mult(v) counts the (centre, offset) pairs
  // along one axis that clamp to v.
  const bool tile =
      p.pattern == ReadPattern::ColumnTile || p.pattern == ReadPattern::ColumnTileMorton;
  const int first = tile ? kColumnTileFirst : -p.radius;
  const int last = tile ? kColumnTileFirst + kColumnTileSide - 1 : p.radius;
  std::vector<std::uint32_t> mult(side, 0);
  for (int v = 0; v < p.side; ++v)
    for (int d = first; d <= last; ++d)
      ++mult[static_cast<std::size_t>(std::clamp(v + d, 0, p.side - 1))];
  for (std::uint32_t y = 0; y < side; ++y) {
    std::uint32_t row = 0;
    for (std::uint32_t x = 0; x < side; ++x) row += pixel_value(x, y) * mult[x];
    sum += row * mult[y];
  }
  return sum;
}

const char* to_string(ReadPath path) {
  switch (path) {
    case ReadPath::Plain: return "plain";
    case ReadPath::Ldg: return "ldg";
    case ReadPath::Texture: return "texture";
  }
  return "?";
}

const char* to_string(ReadPattern pattern) {
  switch (pattern) {
    case ReadPattern::Scattered: return "scattered";
    case ReadPattern::Local2D: return "local-2d";
    case ReadPattern::Morton: return "morton";
    case ReadPattern::ColumnTile: return "column-tile";
    case ReadPattern::ColumnTileMorton: return "column-tile-morton";
  }
  return "?";
}

ReadPath parse_read_path(const std::string& text) {
  for (auto v : {ReadPath::Plain, ReadPath::Ldg, ReadPath::Texture})
    if (text == to_string(v)) return v;
  throw std::invalid_argument("unknown read path '" + text + "' (plain, ldg, texture)");
}

ReadPattern parse_read_pattern(const std::string& text) {
  for (auto v : {ReadPattern::Scattered, ReadPattern::Local2D, ReadPattern::Morton,
                 ReadPattern::ColumnTile, ReadPattern::ColumnTileMorton})
    if (text == to_string(v)) return v;
  throw std::invalid_argument("unknown read pattern '" + text +
                              "' (scattered, local-2d, morton, column-tile, column-tile-morton)");
}

}  // namespace warplens::gpu
