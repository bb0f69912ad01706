// The cache labs: the L1/shared carveout and what it does to occupancy and to an L1-sensitive
// kernel, the constant cache (broadcast vs distinct addresses), and the read-only / texture path
// over row-major, Morton (Z-order) and the texture's own 2D layout. No CUDA types here, so it
// compiles without the toolkit; there every CacheLab entry point throws GpuError ("built without
// the CUDA toolkit"). The tables and checks (cache_plan.cpp) are compiled in every build.
//
// Units: shared and L1 capacities in KiB (1024 bytes) where named *_kib, bytes otherwise; times
// in milliseconds unless named *_ns or cycles; GB/s = 10^9 bytes per second counting the bytes
// the program asked to read (4 per load), not the bytes the hardware moved.
// Errors: bad parameters throw std::invalid_argument with a one-line message before anything is
// launched; CUDA failures throw GpuError and leave the lab usable.
//
// Sources of the rules:
//  - Supported shared-memory capacities and unified L1 + shared size per SM: CUDA C++ Programming
//    Guide, "Compute Capabilities" (sections 7.x Shared Memory, 8.x, 9.0), quoted in the seeds'
//    carveout slides ("Compute Capab. 7.x / 8.x / 9.0"): 7.0: 128 KB, 0/8/16/32/64/96; 7.5: 96 KB,
//    32/64; 8.0 (and 8.7): 192 KB, 0..164; 8.6/8.9: 128 KB, 0..100; 9.0: 256 KB, 0..228. 10.0 and
//    12.0 are from the Programming Guide alone (not in the seeds).
//  - The carveout is a percentage of the largest supported capacity, rounded up to the next
//    supported capacity, and only a hint (seeds: "50% of the 96 KB maximum is 48 KB ... rounded up
//    to 64 KB"; "the driver may choose a different configuration").
//  - Over 48 KiB of shared memory per block needs dynamic shared memory and the opt-in
//    cudaFuncAttributeMaxDynamicSharedMemorySize (seeds, CC 8.x / 9.0 slides); 1 KiB per block is
//    reserved for the system on CC 8.0+ (seeds: "The 1 KB of shared memory not made available to
//    a thread block is reserved for system use"; the device reports it as
//    cudaDevAttrReservedSharedMemoryPerBlock).
//  - Constant memory: one read-only constant cache per SM (seeds, every CC slide); a warp's
//    constant read is served once per distinct address (Programming Guide, "Device Memory
//    Accesses: Constant Memory": "split into as many separate requests as there are different
//    memory addresses"); __constant__ and cudaMemcpyToSymbol as in the seeds' gpuGamma example.
//  - Texture objects over CUDA arrays and 2D locality, Morton (Z) order: seeds, "Texture Memory"
//    and "Space-Filling Curves: Morton Order (Z Order)".
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpu.h"

namespace warplens::gpu {

// --- carveout tables (host only) ---------------------------------------------------------------

inline constexpr int kCarveoutDefault = -1;     ///< cudaSharedmemCarveoutDefault
inline constexpr int kCarveoutMaxL1 = 0;        ///< cudaSharedmemCarveoutMaxL1
inline constexpr int kCarveoutMaxShared = 100;  ///< cudaSharedmemCarveoutMaxShared

/// The unified L1 + shared-memory store of one SM for a compute capability.
struct CarveoutTable {
  int cc_major = 0, cc_minor = 0;
  int unified_kib = 0;               ///< L1 + shared per SM
  std::vector<int> capacities_kib;   ///< shared capacities a carveout can select, ascending
  int max_shared_per_block_kib = 0;  ///< a block's limit after the opt-in (e.g. 227 on 9.0)
  int reserved_per_block_kib = 0;    ///< shared memory the system keeps per block (1 on 8.0+)
  std::string source;                ///< where the numbers come from (one line)
  [[nodiscard]] int max_capacity_kib() const {
    return capacities_kib.empty() ? 0 : capacities_kib.back();
  }
  /// The smallest capacity (KiB) that holds `bytes`, or std::nullopt when none does.
  [[nodiscard]] std::optional<int> smallest_holding_kib(std::int64_t bytes) const {
    for (int c : capacities_kib)
      if (std::int64_t{c} * 1024 >= bytes) return c;
    return std::nullopt;
  }
};

/// The table for a compute capability, or std::nullopt when the guide gives none (before 7.0,
/// or an unknown future CC). 7.2 is taken as 7.0 and 8.7 as 8.0 (the Programming Guide groups
/// them so).
std::optional<CarveoutTable> carveout_table(int cc_major, int cc_minor);
/// As carveout_table, but throws std::invalid_argument ("no carveout table for compute
/// capability 6.1 ...") when there is none.
CarveoutTable require_carveout_table(int cc_major, int cc_minor);

/// Throws std::invalid_argument unless -1 <= percent <= 100.
void check_carveout(int percent);

/// What a carveout request turns into on one SM.
struct CarveoutChoice {
  int percent = kCarveoutDefault;
  bool driver_default = false;  ///< percent == -1: the driver chooses (see carveout_capacity)
  double requested_kib = 0;     ///< percent x the largest capacity / 100 (0 for the default)
  int rounded_kib = 0;          ///< the smallest supported capacity >= requested_kib
  /// The capacity assumed configured: rounded_kib, raised to the smallest capacity that holds
  /// one block (a hint cannot make a launch impossible, so the driver overrides it).
  int shared_kib = 0;
  int l1_kib = 0;                 ///< unified_kib - shared_kib: what is left for L1
  bool raised_for_block = false;  ///< shared_kib > rounded_kib because one block needs more
};

/// The capacity a carveout request rounds up to (percent of table.max_capacity_kib(), rounded up
/// to the next supported capacity), and the L1 left. `block_shared_bytes` is what one block
/// needs (static + dynamic + the reserved KiB); `blocks_wanted` the blocks per SM that the
/// thread and block limits would allow.
/// The default (-1) is an ASSUMPTION, not a documented rule: the driver is taken to pick the
/// smallest supported capacity that holds blocks_wanted blocks (full occupancy with the most L1
/// left), or the largest capacity if none does; for a kernel without shared memory, 0 KiB (all
/// L1). CacheLab::occupancy reports what the device does, so the UI can show both.
/// Throws std::invalid_argument for a percent outside -1..100 or a block that fits no capacity.
CarveoutChoice carveout_capacity(const CarveoutTable& table, int percent,
                                 std::int64_t block_shared_bytes = 0, int blocks_wanted = 1);
CarveoutChoice carveout_capacity(int cc_major, int cc_minor, int percent,
                                 std::int64_t block_shared_bytes = 0, int blocks_wanted = 1);

/// The carveouts the shared-hungry sweep measures: the driver default (-1) first, then one
/// percent per supported capacity of `table`, ascending: 0 for the smallest capacity (max L1),
/// else the largest percent whose request still rounds up to that capacity (on CC 9.0: 3 -> 8 KiB,
/// 7 -> 16, 14 -> 32, 28 -> 64, 43 -> 100, 57 -> 132, 71 -> 164, 85 -> 196, 100 -> 228). A
/// capacity no whole percent reaches is left out. Every value passes check_carveout.
std::vector<int> carveouts_per_capacity(const CarveoutTable& table);

/// Blocks per SM from the shared-memory capacity alone: floor(capacity / block bytes) where
/// block bytes = dynamic + static + reserved; "unlimited" (INT32 max) for a block of 0 bytes.
int blocks_by_shared(int capacity_kib, std::int64_t block_shared_bytes);

/// Throws std::invalid_argument for dynamic shared memory < 0 or over `optin_limit_bytes` (the
/// device's cudaDevAttrMaxSharedMemoryPerBlockOptin, 227 KiB on an H100), e.g. "dynamic shared
/// memory 230 KiB is over this GPU's opt-in limit of 227 KiB per block".
void check_dynamic_shared(std::int64_t dynamic_shared_bytes, std::int64_t optin_limit_bytes);

/// True when a block of `dynamic_shared_bytes` needs the
/// cudaFuncAttributeMaxDynamicSharedMemorySize opt-in (over 48 KiB), and a one-line explanation for
/// the UI.
bool needs_shared_optin(std::int64_t dynamic_shared_bytes);
std::string shared_optin_note(std::int64_t dynamic_shared_bytes, std::int64_t optin_limit_bytes);

// --- L1 gather -------------------------------------------------------------------------------

/// Per-block working sets the gather buffer has room for: kGatherRegionBytes per block.
inline constexpr std::int64_t kGatherRegionBytes = std::int64_t{2} << 20;
inline constexpr std::int64_t kMinWorkingSetBytes = 1024;

/// Throws std::invalid_argument for a working set < 1 KiB, not a multiple of 128 bytes, or
/// larger than kGatherRegionBytes ("working set 3 MiB is larger than the 2 MiB buffer region
/// each block gathers from").
void check_working_set(std::int64_t working_set_bytes);

// --- constant memory -------------------------------------------------------------------------

inline constexpr int kConstantWords = 256;  ///< the __constant__ table: 256 x 4 bytes
/// Throws std::invalid_argument unless 1 <= k <= 32.
void check_constant_k(int k);

/// The word of the __constant__ table lane `lane` reads at step `step` with k distinct
/// addresses per warp: lanes l, l + k, l + 2k, ... share one word (one constant-cache read
/// serves them); steps cycle over 8 rows of 32 words so the table (1 KiB) stays cached.
WARPLENS_HOST_DEVICE inline int constant_word(int lane, int k, int step) {
  return lane % k + 32 * (step & 7);
}
/// Which lanes share a constant-cache read for k: k groups, group g = {g, g + k, ...}.
std::vector<std::vector<int>> constant_lane_groups(int k);
/// Word i of the __constant__ table (what cudaMemcpyToSymbol loads).
WARPLENS_HOST_DEVICE inline std::uint32_t constant_value(int i) {
  return static_cast<std::uint32_t>(i) * 2654435761u + 12345u;
}

// --- read-only and texture path ----------------------------------------------------------------

enum class ReadPath {
  Plain,    ///< ordinary global load (ld.global)
  Ldg,      ///< __ldg: the read-only data cache (Programming Guide, "Read-Only Data Cache Load")
  Texture,  ///< tex2D<unsigned> on a texture object over a cudaArray (the texture's own layout)
};
enum class ReadPattern {
  Scattered,  ///< each thread reads `scattered_reads` pseudo-random pixels of the whole image
  Local2D,    ///< each thread reads the (2r+1)^2 window around its pixel, row-major storage; a
              ///< warp's centres are a 16 x 2 strip, so a request covers two row segments
  Morton,     ///< the same window, the plain buffer stored in Morton (Z) order; for Texture it
              ///< is the same as Local2D (a cudaArray has its own layout)
  /// Each thread reads its own 4 x 4 tile of pixels, x-1..x+2 by y-1..y+2 around its centre (a
  /// bicubic footprint), clamped to the image; the 32 lanes of a warp are 32 centres down one
  /// column (column_tile_centre). Row-major storage: every request touches 32 rows, so 32
  /// sectors in 32 different 128-byte lines, and a thread's tile 4 rows (4 lines or more).
  ColumnTile,
  /// The same reads from the Morton-order buffer: 32 rows of one column, aligned to 32, are 16
  /// sectors in 8 lines there (pairs of rows share a sector), so a request touches about that
  /// many. For Texture the same as ColumnTile.
  ColumnTileMorton,
};

/// The ColumnTile footprint: offsets kColumnTileFirst .. kColumnTileFirst + kColumnTileSide - 1
/// on both axes around the centre.
inline constexpr int kColumnTileSide = 4;
inline constexpr int kColumnTileFirst = -1;

struct ReadPathParams {
  ReadPath path = ReadPath::Plain;
  ReadPattern pattern = ReadPattern::Local2D;
  int side = 4096;  ///< the image is side x side 32-bit unsigned pixels; power of two, 64..8192
  int radius = 2;   ///< Local2D / Morton window radius, 0..4 (the column tiles are fixed 4 x 4)
  int scattered_reads = 4;  ///< Scattered: reads per thread, 1..32
  friend bool operator==(const ReadPathParams& a, const ReadPathParams& b) {
    return a.path == b.path && a.pattern == b.pattern && a.side == b.side && a.radius == b.radius &&
           a.scattered_reads == b.scattered_reads;
  }
};
/// Throws std::invalid_argument for a side not a power of two in 64..8192, a radius outside
/// 0..4 or reads outside 1..32.
void check_read_path(const ReadPathParams& params);

/// Morton (Z-order) index of pixel (x, y), x < 2^16, y < 2^16: the bits of x and y interleaved,
/// x in the even bits. Host and device (the kernel's addresses and the tests use this one).
/// The low 16 bits of v moved to the even bit positions (bit i to bit 2i).
WARPLENS_HOST_DEVICE inline std::uint32_t morton_spread(std::uint32_t v) {
  v &= 0xffffu;
  v = (v | (v << 8)) & 0x00ff00ffu;
  v = (v | (v << 4)) & 0x0f0f0f0fu;
  v = (v | (v << 2)) & 0x33333333u;
  v = (v | (v << 1)) & 0x55555555u;
  return v;
}
WARPLENS_HOST_DEVICE inline std::uint32_t morton_encode(std::uint32_t x, std::uint32_t y) {
  return morton_spread(x) | (morton_spread(y) << 1);
}
/// The pixel value at (x, y) (16 bits, so sums stay exact mod 2^32).
WARPLENS_HOST_DEVICE inline std::uint32_t pixel_value(std::uint32_t x, std::uint32_t y) {
  std::uint32_t h = (x * 0x9e3779b1u) ^ (y * 0x85ebca77u);
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h & 0xffffu;
}
/// Scattered: the pixel thread `thread` reads at step `j`, both coordinates in 0..side-1.
WARPLENS_HOST_DEVICE inline void scattered_pixel(std::uint32_t thread, int j, int side,
                                                 std::uint32_t* x, std::uint32_t* y) {
  std::uint32_t h = thread * 0x27d4eb2fu + static_cast<std::uint32_t>(j) * 0x165667b1u;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  const auto mask = static_cast<std::uint32_t>(side - 1);
  *x = h & mask;
  *y = ((h >> 16) ^ (h * 7u)) & mask;
}
/// ColumnTile patterns: the centre pixel of thread `tid` (0..255) of block `block` (linear,
/// 0 .. (side / 16)^2 - 1; side a power of two >= 64). The image is cut into pieces 8 pixels
/// wide and 32 tall, one per block, row by row; warp w = tid / 32 of the block takes column w of
/// its piece and lane tid % 32 row lane. Every pixel is the centre of exactly one thread.
WARPLENS_HOST_DEVICE inline void column_tile_centre(std::uint32_t block, std::uint32_t tid,
                                                    int side, std::uint32_t* x, std::uint32_t* y) {
  const std::uint32_t pieces_per_row = static_cast<std::uint32_t>(side) / 8u;
  *x = (block % pieces_per_row) * 8u + tid / 32u;
  *y = (block / pieces_per_row) * 32u + tid % 32u;
}
/// Whether `pattern` reads the Morton-order buffer on the plain and __ldg paths.
WARPLENS_HOST_DEVICE constexpr bool reads_morton(ReadPattern pattern) {
  return pattern == ReadPattern::Morton || pattern == ReadPattern::ColumnTileMorton;
}
/// 4-byte reads each thread of the read-path kernel makes for `params`.
int reads_per_thread(const ReadPathParams& params);

/// The sum (mod 2^32) of every pixel every thread of the read-path kernel reads: what the GPU's
/// checksum must equal. Host only; O(side^2) for windows, O(side^2 x reads) for Scattered.
std::uint32_t expected_read_path_sum(const ReadPathParams& params);

const char* to_string(ReadPath path);  ///< plain | ldg | texture
/// scattered | local-2d | morton | column-tile | column-tile-morton
const char* to_string(ReadPattern pattern);
ReadPath parse_read_path(const std::string& text);  ///< throws std::invalid_argument
ReadPattern parse_read_pattern(const std::string& text);

// --- measurements ----------------------------------------------------------------------------

/// What the device reports next to the table.
struct CacheDeviceLimits {
  int shared_bytes_per_sm = 0;              ///< cudaDevAttrMaxSharedMemoryPerMultiprocessor
  int shared_bytes_per_block_optin = 0;     ///< cudaDevAttrMaxSharedMemoryPerBlockOptin
  int reserved_shared_bytes_per_block = 0;  ///< cudaDevAttrReservedSharedMemoryPerBlock
  int max_threads_per_sm = 0, max_blocks_per_sm = 0;
  std::optional<CarveoutTable> table;  ///< the guide's table for this CC, if any
  /// The table's largest capacity equals shared_bytes_per_sm and its per-block limit equals the
  /// opt-in limit; `table_check` says what was compared, or what differs.
  bool table_matches = false;
  std::string table_check;
};

/// The shared-hungry kernel's occupancy for a carveout and dynamic shared memory per block.
struct OccupancyInfo {
  int carveout = kCarveoutDefault;
  std::int64_t dynamic_shared_bytes = 0;
  int threads_per_block = 0;
  int static_shared_bytes = 0;       ///< cudaFuncGetAttributes: sharedSizeBytes
  int reserved_shared_bytes = 0;     ///< per block, from the device
  bool opt_in = false;               ///< cudaFuncAttributeMaxDynamicSharedMemorySize was raised
  int max_dynamic_shared_bytes = 0;  ///< the attribute after the call (cudaFuncGetAttributes)
  int preferred_carveout = 0;        ///< cudaFuncGetAttributes: preferredShmemCarveout
  std::string opt_in_note;           ///< one line for the UI
  /// cudaOccupancyMaxActiveBlocksPerMultiprocessor (it honours the function's carveout).
  int blocks_per_sm = 0;
  double occupancy_percent = 0;  ///< blocks x warps per block / max warps per SM x 100
  std::string limiter;           ///< "shared memory" | "threads" | "blocks per SM"
  /// cudaOccupancyAvailableDynamicSMemPerBlock(blocks_per_sm): the dynamic shared memory a block
  /// could have at this block count. The driver does not report the capacity it configured;
  /// implied_capacity_kib = blocks x (available + static + reserved), rounded up to a supported
  /// capacity, is shown raw for comparison only. On the H100 it does NOT track the carveout (236
  /// KiB at carveout 100 with 8 blocks of 20 KiB, 64 KiB at carveout 0), so the UI should show
  /// `model` as the capacity and blocks_per_sm as the device's verdict.
  std::int64_t available_dynamic_bytes = 0;
  int implied_capacity_kib = 0;
  /// The host table's prediction (carveout_capacity); on the H100 model_blocks_per_sm equalled
  /// blocks_per_sm for carveouts -1, 0, 50, 100 and 0..227 KiB of dynamic shared memory.
  CarveoutChoice model;         ///< the host table's prediction (carveout_capacity)
  int model_blocks_per_sm = 0;  ///< blocks the prediction allows (all limits)
};

struct L1GatherMeasurement {
  int carveout = kCarveoutDefault;
  std::int64_t working_set_bytes = 0;
  int blocks = 0, threads_per_block = 0, accesses_per_thread = 0;
  Timing timing;
  double ns_per_access = 0;  ///< median time / accesses per SM: SM-time per 4-byte lane access
  double gbps = 0;           ///< 4 bytes x all accesses / median time
  CarveoutChoice expected;   ///< the table's L1 left for this carveout (no shared memory used)
  bool fits_l1 = false;      ///< working set <= expected.l1_kib (a hint, not a measurement)
  bool verified = false;     ///< every block's sum matched (reads stayed in the block's region)
  std::string check;
};

struct SharedHungryMeasurement {
  OccupancyInfo occupancy;
  int blocks = 0, chase_steps = 0;
  Timing timing;
  /// The most blocks seen resident on one SM at once (an atomic counter per SM, %smid): what the
  /// configured carveout really allowed.
  int observed_blocks_per_sm = 0;
  bool verified = false;
  std::string check;
};

struct ConstantMeasurement {
  int k = 1;
  int blocks = 0, threads_per_block = 0, repeats = 0;
  Timing timing;
  double ns_per_request = 0;      ///< median time / warp requests per SM
  double cycles_per_request = 0;  ///< clock64 span per block / warp requests of the block
  std::vector<std::vector<int>> lane_groups;  ///< constant_lane_groups(k)
  bool verified = false;
  std::string check;
};

struct ReadPathMeasurement {
  ReadPathParams params;
  std::int64_t reads = 0;  ///< 4-byte reads of the launch: side^2 x reads_per_thread(params)
  Timing timing;
  double gbps = 0;  ///< 4 x reads / median time
  bool verified = false;
  std::string check;
};

/// Owns the cache labs' buffers (gather regions, shared-hungry outputs, the read-path image in
/// three layouts and its cudaArray/texture object, allocated on first use). One thread at a time.
class CacheLab {
 public:
  explicit CacheLab(const DeviceInfo& device);
  ~CacheLab();
  CacheLab(const CacheLab&) = delete;
  CacheLab& operator=(const CacheLab&) = delete;

  [[nodiscard]] const CacheDeviceLimits& limits() const;
  /// Threads per block of the shared-hungry kernel.
  [[nodiscard]] static constexpr int shared_hungry_threads() { return 256; }

  /// Sets the carveout (and, over 48 KiB, the opt-in) on the shared-hungry kernel and asks the
  /// occupancy API. Nothing is launched. Throws std::invalid_argument (check_carveout,
  /// check_dynamic_shared) before any CUDA call.
  OccupancyInfo occupancy(int carveout, std::int64_t dynamic_shared_bytes);

  /// The L1-sensitive kernel: one block of 1024 threads per SM, each gathering 4-byte words at
  /// pseudo-random places of its own working set (regions kGatherRegionBytes apart), the
  /// carveout set on the kernel first. The knee comes where the working set outgrows the L1 left.
  L1GatherMeasurement measure_l1_gather(int carveout, std::int64_t working_set_bytes, int runs = 7,
                                        int warmup = 2, const std::atomic<bool>* cancel = nullptr);

  /// The shared-hungry kernel: 32 blocks per SM of 256 threads, each chasing indices through its
  /// dynamic shared array (latency bound, so fewer resident blocks means longer time).
  SharedHungryMeasurement measure_shared_hungry(int carveout, std::int64_t dynamic_shared_bytes,
                                                int runs = 7, int warmup = 2,
                                                const std::atomic<bool>* cancel = nullptr);

  /// k distinct __constant__ addresses per warp request (1 = broadcast).
  ConstantMeasurement measure_constant(int k, int runs = 7, int warmup = 2,
                                       const std::atomic<bool>* cancel = nullptr);

  ReadPathMeasurement measure_read_path(const ReadPathParams& params, int runs = 7, int warmup = 2,
                                        const std::atomic<bool>* cancel = nullptr);

  // One untimed launch each, for hardware counters (as SharedLab::launch_bank_once): the same
  // kernel and grid as the measure_* call times, on the lab's stream, waited for, nothing
  // verified. The first call allocates and fills the buffers (more kernels), as does a read
  // path with a new image side: call once outside a profiled range so the range holds exactly
  // one kernel. Parameters are checked first (std::invalid_argument, nothing launched).

  /// The L1 gather with `carveout` set on it, over `working_set_bytes` per block.
  void launch_l1_gather_once(int carveout, std::int64_t working_set_bytes);
  /// The read-path kernel for `params` (path, pattern, image side, radius, reads).
  void launch_read_path_once(const ReadPathParams& params);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warplens::gpu
