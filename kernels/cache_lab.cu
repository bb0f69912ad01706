// The cache labs on the GPU: the carveout (cudaFuncAttributePreferredSharedMemoryCarveout) set on
// an L1-sensitive gather kernel and on a shared-hungry kernel, the occupancy API, the constant
// cache with k distinct addresses per warp, and the read-only / texture path over three layouts.
// Every kernel computes a checksum the host verifies; the tables and checks are in
// cache_plan.cpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cache_lab.h"
#include "cuda_support.cuh"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::DeviceBuffer;
using detail::median_of;
using detail::time_launches;
using detail::use_device;

template <typename T>
std::vector<T> to_host(const DeviceBuffer& b, std::size_t count, const char* what) {
  std::vector<T> host(count);
  check(cudaMemcpy(host.data(), b.ptr, count * sizeof(T), cudaMemcpyDeviceToHost), what);
  return host;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

/// An integer the compiler cannot see through (keeps loop-invariant-looking loads in the loop).
__device__ __forceinline__ int opaque(int v) {
  int r;
  asm volatile("mov.b32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}

// --- L1 gather ---------------------------------------------------------------------------------

constexpr int kGatherThreads = 1024;
constexpr int kGatherAccesses = 2048;  // per thread, a multiple of 8

/// Region b of the gather buffer holds the word b + 1 everywhere.
__global__ void fill_regions(unsigned* buf, long long region_words, int regions) {
  const long long total = region_words * regions;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    buf[i] = static_cast<unsigned>(i / region_words) + 1u;
}

/// Each thread gathers `accesses` 4-byte words at pseudo-random places (an LCG's high bits
/// scaled to the working set) of its block's region; independent loads, so the loop is bound by
/// how fast L1 (or, past the knee, L2) serves them.
__global__ void l1_gather(const unsigned* buf, long long region_words, unsigned working_words,
                          int accesses, unsigned* out) {
  const unsigned* base = buf + blockIdx.x * region_words;
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned state = gid * 0x9e3779b9u + 0x7f4a7c15u;
  unsigned acc = 0;
  for (int a = 0; a < accesses; a += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      state = state * 1664525u + 1013904223u;
      acc += base[__umulhi(state, working_words)];
    }
  }
  out[gid] = acc;
}

// --- shared-hungry kernel ----------------------------------------------------------------------

constexpr int kHungryThreads = CacheLab::shared_hungry_threads();
constexpr int kHungryBlocksPerSm = 32;
constexpr int kHungrySteps = 2048;
constexpr unsigned kHungryStride = 33;
constexpr int kSmSlots = 1024;  // per-SM residency counters, indexed by %smid

extern __shared__ unsigned hungry_shared[];

/// Fills its dynamic shared array with s[i] = (i + 33) mod n, then every thread chases
/// `steps` dependent loads from tid mod n: a latency-bound loop, so the time depends on how many
/// blocks (warps) an SM holds at once. Block start/end adjust a per-SM counter whose peak says
/// how many blocks were really resident together.
__global__ void shared_hungry(unsigned n, int steps, unsigned* out, int* current, int* peak) {
  const unsigned tid = threadIdx.x;
  for (unsigned i = tid; i < n; i += blockDim.x) hungry_shared[i] = (i + kHungryStride) % n;
  __syncthreads();
  const unsigned sm = sm_id() % kSmSlots;
  if (tid == 0) {
    const int before = atomicAdd(current + sm, 1);
    atomicMax(peak + sm, before + 1);
  }
  unsigned idx = n ? tid % n : tid;
  if (n)
    for (int s = 0; s < steps; ++s) idx = hungry_shared[idx];
  out[blockIdx.x * blockDim.x + tid] = idx;
  __syncthreads();
  if (tid == 0) {
    atomicSub(current + sm, 1);
    // Without the fence the decrement can still be in flight when the block retires and the
    // next block on this SM counts itself in (seen on an H100: 9 "resident" 256-thread blocks
    // on an SM that holds 8).
    __threadfence();
  }
}

// --- constant memory ---------------------------------------------------------------------------

__constant__ unsigned constant_table[kConstantWords];

constexpr int kConstantThreads = 256;
constexpr int kConstantBlocksPerSm = 4;
constexpr int kConstantRepeats = 4096;  // a multiple of 8

/// Each warp request reads constant_word(lane, k, step): k distinct words, lanes l, l + k, ...
/// on one word. The row (step & 7) goes through opaque() so the compiler keeps every load.
__global__ void constant_reads(int k, int repeats, unsigned* out, unsigned long long* clocks) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  unsigned acc = 0;
  __syncthreads();
  const long long start = clock64();
  for (int r = 0; r < repeats; r += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) acc += constant_table[constant_word(lane, k, opaque(r + u))];
  }
  __syncthreads();
  const long long end = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  if (threadIdx.x == 0) {
    unsigned long long* c = clocks + 3ull * blockIdx.x;
    c[0] = static_cast<unsigned long long>(start);
    c[1] = static_cast<unsigned long long>(end);
    c[2] = sm_id();
  }
}

// --- read path ---------------------------------------------------------------------------------

constexpr int kReadTile = 16;  // 16 x 16 threads per block, one pixel each

__global__ void fill_image(unsigned* row_major, unsigned* morton, int side) {
  const auto x = blockIdx.x * blockDim.x + threadIdx.x;
  const auto y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= static_cast<unsigned>(side) || y >= static_cast<unsigned>(side)) return;
  const unsigned v = pixel_value(x, y);
  row_major[static_cast<std::size_t>(y) * side + x] = v;
  morton[morton_encode(x, y)] = v;
}

template <ReadPath P, ReadPattern Q>
__device__ __forceinline__ unsigned read_pixel(const unsigned* row_major, const unsigned* morton,
                                               cudaTextureObject_t tex, int side, int x, int y) {
  if constexpr (P == ReadPath::Texture) {
    (void)row_major;
    (void)morton;
    (void)side;
    return tex2D<unsigned>(tex, static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
  } else {
    (void)tex;
    const unsigned* p =
        reads_morton(Q) ? morton + morton_encode(static_cast<unsigned>(x), static_cast<unsigned>(y))
                        : row_major + static_cast<std::size_t>(y) * side + x;
    if constexpr (P == ReadPath::Ldg) {
      return __ldg(p);
    } else {
      return *p;
    }
  }
}

/// Every pixel is one thread's centre (16 x 16 blocks). Local2D / Morton: the thread's own pixel,
/// its (2r+1)^2 window clamped to the image (the texture's clamp address mode does the same).
/// ColumnTile / ColumnTileMorton: the centre column_tile_centre() gives (a warp is one column of
/// 32 centres), its 4 x 4 tile clamped the same way. Scattered: scattered_pixel(thread, j). Each
/// warp writes the sum of its lanes' reads; a centre outside the image (impossible for the sides
/// check_read_path allows) reads nothing.
template <ReadPath P, ReadPattern Q>
__global__ void read_path_kernel(const unsigned* row_major, const unsigned* morton,
                                 cudaTextureObject_t tex, int side, int radius, int reads,
                                 unsigned* warp_sums) {
  const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  int x = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  int y = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  constexpr bool column_tile = Q == ReadPattern::ColumnTile || Q == ReadPattern::ColumnTileMorton;
  if constexpr (column_tile) {
    unsigned cx = 0, cy = 0;
    column_tile_centre(block, tid, side, &cx, &cy);
    x = static_cast<int>(cx);
    y = static_cast<int>(cy);
  }
  const bool inside = x >= 0 && y >= 0 && x < side && y < side;
  unsigned acc = 0;
  if (!inside) {
    // no reads: the warp still joins the shuffle below
  } else if constexpr (Q == ReadPattern::Scattered) {
    (void)radius;
    const auto thread =
        static_cast<unsigned>(y) * static_cast<unsigned>(side) + static_cast<unsigned>(x);
    for (int j = 0; j < reads; ++j) {
      unsigned px = 0, py = 0;
      scattered_pixel(thread, j, side, &px, &py);
      acc += read_pixel<P, Q>(row_major, morton, tex, side, static_cast<int>(px),
                              static_cast<int>(py));
    }
  } else {
    (void)reads;
    const int first = column_tile ? kColumnTileFirst : -radius;
    const int last = column_tile ? kColumnTileFirst + kColumnTileSide - 1 : radius;
    for (int dy = first; dy <= last; ++dy) {
      const int cy = min(max(y + dy, 0), side - 1);
      for (int dx = first; dx <= last; ++dx) {
        const int cx = P == ReadPath::Texture ? x + dx : min(max(x + dx, 0), side - 1);
        acc += read_pixel<P, Q>(row_major, morton, tex, side, cx,
                                P == ReadPath::Texture ? y + dy : cy);
      }
    }
  }
  for (int o = 16; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
  const unsigned slot = block * (kReadTile * kReadTile / 32) + tid / 32;
  const unsigned slots = static_cast<unsigned>(side) * static_cast<unsigned>(side) / 32u;
  if (tid % 32 == 0 && slot < slots) warp_sums[slot] = acc;
}

using ReadKernel = void (*)(const unsigned*, const unsigned*, cudaTextureObject_t, int, int, int,
                            unsigned*);

template <ReadPath P>
ReadKernel read_kernel_for(ReadPattern q) {
  switch (q) {
    case ReadPattern::Scattered: return read_path_kernel<P, ReadPattern::Scattered>;
    case ReadPattern::Local2D: return read_path_kernel<P, ReadPattern::Local2D>;
    case ReadPattern::Morton: return read_path_kernel<P, ReadPattern::Morton>;
    case ReadPattern::ColumnTile: return read_path_kernel<P, ReadPattern::ColumnTile>;
    case ReadPattern::ColumnTileMorton: return read_path_kernel<P, ReadPattern::ColumnTileMorton>;
  }
  return read_path_kernel<P, ReadPattern::Local2D>;
}

ReadKernel read_kernel(ReadPath p, ReadPattern q) {
  switch (p) {
    case ReadPath::Plain: return read_kernel_for<ReadPath::Plain>(q);
    case ReadPath::Ldg: return read_kernel_for<ReadPath::Ldg>(q);
    case ReadPath::Texture: return read_kernel_for<ReadPath::Texture>(q);
  }
  return read_kernel_for<ReadPath::Plain>(q);
}

std::string hex(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

}  // namespace

// --- CacheLab ----------------------------------------------------------------------------------

struct CacheLab::Impl {
  DeviceInfo device;
  CacheDeviceLimits limits;
  cudaStream_t stream = nullptr;
  DeviceBuffer gather, gather_out;
  DeviceBuffer hungry_out, hungry_current, hungry_peak;
  DeviceBuffer constant_out, constant_clocks;
  DeviceBuffer image_row_major, image_morton, warp_sums;
  cudaArray_t image_array = nullptr;
  cudaTextureObject_t image_texture = 0;
  int image_side = 0;
  std::map<std::tuple<int, int, int, int>, std::uint32_t> expected_sums;

  ~Impl() {
    release_image();
    if (stream) cudaStreamDestroy(stream);
  }
  void release_image() {
    if (image_texture) cudaDestroyTextureObject(image_texture);
    if (image_array) cudaFreeArray(image_array);
    image_texture = 0;
    image_array = nullptr;
    image_side = 0;
  }

  [[nodiscard]] int sms() const { return std::max(device.sm_count, 1); }

  void ensure_gather() {
    const long long region_words = kGatherRegionBytes / 4;
    if (gather.ensure(static_cast<std::size_t>(kGatherRegionBytes) * sms(), "the gather buffer")) {
      try {
        fill_regions<<<1024, 256, 0, stream>>>(gather.as<unsigned>(), region_words, sms());
        check(cudaGetLastError(), "fill launch");
        check(cudaStreamSynchronize(stream), "fill");
      } catch (...) {
        gather.release();
        throw;
      }
    }
    gather_out.ensure(sizeof(unsigned) * kGatherThreads * sms(), "the gather sums");
  }

  /// One L1 gather launch over `working_set_bytes` per block (gather buffer ready).
  void launch_gather(std::int64_t working_set_bytes) {
    const long long region_words = kGatherRegionBytes / 4;
    const auto words = static_cast<unsigned>(working_set_bytes / 4);
    l1_gather<<<static_cast<unsigned>(sms()), kGatherThreads, 0, stream>>>(
        gather.as<unsigned>(), region_words, words, kGatherAccesses, gather_out.as<unsigned>());
    check(cudaGetLastError(), "L1 gather launch");
  }

  /// One read-path launch for `params` (image of params.side ready).
  void launch_read_path(const ReadPathParams& params) {
    const ReadKernel k = read_kernel(params.path, params.pattern);
    const auto tiles = static_cast<unsigned>(params.side / kReadTile);
    k<<<dim3(tiles, tiles), dim3(kReadTile, kReadTile), 0, stream>>>(
        image_row_major.as<unsigned>(), image_morton.as<unsigned>(), image_texture, params.side,
        params.radius, params.scattered_reads, warp_sums.as<unsigned>());
    check(cudaGetLastError(), "read-path launch");
  }

  /// The image in row-major and Morton order and as a cudaArray behind a texture object.
  void ensure_image(int side) {
    if (image_side == side) return;
    release_image();
    const std::size_t bytes = static_cast<std::size_t>(side) * side * 4;
    image_row_major.ensure(bytes, "the row-major image");
    image_morton.ensure(bytes, "the Morton-order image");
    const auto tiles = static_cast<unsigned>(side / kReadTile);
    warp_sums.ensure(static_cast<std::size_t>(side) * side / 32 * 4, "the read-path sums");
    const dim3 block(kReadTile, kReadTile);
    fill_image<<<dim3(tiles, tiles), block, 0, stream>>>(image_row_major.as<unsigned>(),
                                                         image_morton.as<unsigned>(), side);
    check(cudaGetLastError(), "image fill launch");
    check(cudaStreamSynchronize(stream), "image fill");
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned>();
    check(cudaMallocArray(&image_array, &desc, static_cast<std::size_t>(side),
                          static_cast<std::size_t>(side)),
          "cudaMallocArray");
    try {
      check(cudaMemcpy2DToArray(image_array, 0, 0, image_row_major.ptr,
                                static_cast<std::size_t>(side) * 4,
                                static_cast<std::size_t>(side) * 4, static_cast<std::size_t>(side),
                                cudaMemcpyDeviceToDevice),
            "cudaMemcpy2DToArray");
      cudaResourceDesc res{};
      res.resType = cudaResourceTypeArray;
      res.res.array.array = image_array;
      cudaTextureDesc tex{};
      tex.addressMode[0] = cudaAddressModeClamp;
      tex.addressMode[1] = cudaAddressModeClamp;
      tex.filterMode = cudaFilterModePoint;
      tex.readMode = cudaReadModeElementType;
      tex.normalizedCoords = 0;
      check(cudaCreateTextureObject(&image_texture, &res, &tex, nullptr),
            "cudaCreateTextureObject");
    } catch (...) {
      release_image();
      throw;
    }
    image_side = side;
  }
};

CacheLab::CacheLab(const DeviceInfo& device) : impl_(new Impl) {
  Impl& im = *impl_;
  im.device = device;
  use_device(device.index);
  check(cudaStreamCreateWithFlags(&im.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  CacheDeviceLimits& l = im.limits;
  auto attr = [&](cudaDeviceAttr a, const char* what) {
    int v = 0;
    check(cudaDeviceGetAttribute(&v, a, device.index), what);
    return v;
  };
  l.shared_bytes_per_sm =
      attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, "cudaDeviceGetAttribute (shared/SM)");
  l.shared_bytes_per_block_optin = device.shared_bytes_per_block_optin;  // query_device's
  l.reserved_shared_bytes_per_block =
      attr(cudaDevAttrReservedSharedMemoryPerBlock, "cudaDeviceGetAttribute (reserved)");
  l.max_threads_per_sm =
      attr(cudaDevAttrMaxThreadsPerMultiProcessor, "cudaDeviceGetAttribute (threads/SM)");
  l.max_blocks_per_sm =
      attr(cudaDevAttrMaxBlocksPerMultiprocessor, "cudaDeviceGetAttribute (blocks/SM)");
  l.table = carveout_table(device.cc_major, device.cc_minor);
  if (!l.table) {
    l.table_check = "no table for CC " + std::to_string(device.cc_major) + "." +
                    std::to_string(device.cc_minor) + ": only what the device reports";
  } else {
    const int table_sm = l.table->max_capacity_kib() * 1024;
    const int table_block = l.table->max_shared_per_block_kib * 1024;
    const int table_reserved = l.table->reserved_per_block_kib * 1024;
    l.table_matches = table_sm == l.shared_bytes_per_sm &&
                      table_block == l.shared_bytes_per_block_optin &&
                      table_reserved == l.reserved_shared_bytes_per_block;
    l.table_check = "largest capacity " + std::to_string(l.table->max_capacity_kib()) +
                    " KiB vs device " + std::to_string(l.shared_bytes_per_sm / 1024.0) +
                    " KiB; per-block opt-in " + std::to_string(l.table->max_shared_per_block_kib) +
                    " KiB vs " + std::to_string(l.shared_bytes_per_block_optin / 1024.0) +
                    " KiB; reserved " + std::to_string(l.table->reserved_per_block_kib) +
                    " KiB vs " + std::to_string(l.reserved_shared_bytes_per_block) + " bytes" +
                    (l.table_matches ? ": match" : ": DIFFERENT");
  }
  std::vector<unsigned> table(kConstantWords);
  for (int i = 0; i < kConstantWords; ++i) table[static_cast<std::size_t>(i)] = constant_value(i);
  check(cudaMemcpyToSymbol(constant_table, table.data(), table.size() * sizeof(unsigned)),
        "cudaMemcpyToSymbol (constant table)");
  im.hungry_current.ensure(kSmSlots * sizeof(int), "the residency counters");
  im.hungry_peak.ensure(kSmSlots * sizeof(int), "the residency peaks");
  check(cudaMemset(im.hungry_current.ptr, 0, kSmSlots * sizeof(int)), "cudaMemset");
}

CacheLab::~CacheLab() = default;

const CacheDeviceLimits& CacheLab::limits() const {
  return impl_->limits;
}

// --- occupancy ---------------------------------------------------------------------------------

OccupancyInfo CacheLab::occupancy(int carveout, std::int64_t dynamic_shared_bytes) {
  Impl& im = *impl_;
  const CacheDeviceLimits& l = im.limits;
  check_carveout(carveout);
  check_dynamic_shared(dynamic_shared_bytes, l.shared_bytes_per_block_optin);
  use_device(im.device.index);
  OccupancyInfo o;
  o.carveout = carveout;
  o.dynamic_shared_bytes = dynamic_shared_bytes;
  o.threads_per_block = kHungryThreads;
  o.reserved_shared_bytes = l.reserved_shared_bytes_per_block;
  o.opt_in = needs_shared_optin(dynamic_shared_bytes);
  o.opt_in_note = shared_optin_note(dynamic_shared_bytes, l.shared_bytes_per_block_optin);
  const auto dyn = static_cast<int>(dynamic_shared_bytes);
  // The attribute is per function and sticks: set both every time, so the previous call's
  // request does not leak into this one (48 KiB is the limit without an opt-in).
  check(
      cudaFuncSetAttribute(shared_hungry, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
      "cudaFuncSetAttribute (carveout)");
  check(cudaFuncSetAttribute(shared_hungry, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             std::max(dyn, 48 * 1024)),
        "cudaFuncSetAttribute (dynamic shared memory opt-in)");
  cudaFuncAttributes fa{};
  check(cudaFuncGetAttributes(&fa, shared_hungry), "cudaFuncGetAttributes");
  o.static_shared_bytes = static_cast<int>(fa.sharedSizeBytes);
  o.max_dynamic_shared_bytes = fa.maxDynamicSharedSizeBytes;
  o.preferred_carveout = fa.preferredShmemCarveout;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &o.blocks_per_sm, shared_hungry, kHungryThreads, static_cast<std::size_t>(dyn)),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const int warps_per_block = kHungryThreads / 32;
  const int max_warps = std::max(l.max_threads_per_sm / 32, 1);
  o.occupancy_percent = 100.0 * o.blocks_per_sm * warps_per_block / max_warps;
  const int by_threads = l.max_threads_per_sm / kHungryThreads;
  const int other_limit = std::min(by_threads, l.max_blocks_per_sm);
  o.limiter = o.blocks_per_sm < other_limit       ? "shared memory"
              : by_threads <= l.max_blocks_per_sm ? "threads"
                                                  : "blocks per SM";
  if (o.blocks_per_sm > 0) {
    std::size_t avail = 0;
    check(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, shared_hungry, o.blocks_per_sm,
                                                    kHungryThreads),
          "cudaOccupancyAvailableDynamicSMemPerBlock");
    o.available_dynamic_bytes = static_cast<std::int64_t>(avail);
    const std::int64_t implied =
        std::int64_t{o.blocks_per_sm} *
        (o.available_dynamic_bytes + o.static_shared_bytes + o.reserved_shared_bytes);
    o.implied_capacity_kib = static_cast<int>((implied + 1023) / 1024);
    if (l.table)
      o.implied_capacity_kib =
          l.table->smallest_holding_kib(implied).value_or(o.implied_capacity_kib);
  }
  if (l.table) {
    const std::int64_t block_bytes =
        dynamic_shared_bytes + o.static_shared_bytes + o.reserved_shared_bytes;
    o.model = carveout_capacity(*l.table, carveout, block_bytes, other_limit);
    o.model_blocks_per_sm =
        std::min(other_limit, blocks_by_shared(o.model.shared_kib, block_bytes));
  }
  return o;
}

// --- L1 gather ---------------------------------------------------------------------------------

L1GatherMeasurement CacheLab::measure_l1_gather(int carveout, std::int64_t working_set_bytes,
                                                int runs, int warmup,
                                                const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  check_carveout(carveout);
  check_working_set(working_set_bytes);
  use_device(im.device.index);
  im.ensure_gather();
  L1GatherMeasurement m;
  m.carveout = carveout;
  m.working_set_bytes = working_set_bytes;
  m.blocks = im.sms();
  m.threads_per_block = kGatherThreads;
  m.accesses_per_thread = kGatherAccesses;
  if (im.limits.table) {
    m.expected =
        carveout_capacity(*im.limits.table, carveout, im.limits.reserved_shared_bytes_per_block, 1);
    m.fits_l1 = working_set_bytes <= std::int64_t{m.expected.l1_kib} * 1024;
  }
  check(cudaFuncSetAttribute(l1_gather, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
        "cudaFuncSetAttribute (carveout)");
  auto launch = [&] { im.launch_gather(working_set_bytes); };
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"L1 gather", "L1 gather"}, launch);
  const double accesses = static_cast<double>(m.blocks) * kGatherThreads * kGatherAccesses;
  m.ns_per_access = m.timing.median_ms * 1e6 / (accesses / m.blocks);
  m.gbps = accesses * 4 / (m.timing.median_ms * 1e-3) / 1e9;
  // Every word of region b is b + 1: a thread's sum is accesses x (b + 1) mod 2^32.
  const auto sums =
      to_host<unsigned>(im.gather_out, static_cast<std::size_t>(m.blocks) * kGatherThreads,
                        "cudaMemcpy (gather sums)");
  int wrong = 0;
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const auto b = static_cast<unsigned>(i / kGatherThreads);
    if (sums[i] != static_cast<unsigned>(kGatherAccesses) * (b + 1u)) ++wrong;
  }
  m.verified = wrong == 0;
  m.check = m.verified ? "every thread's sum matched (all reads inside its block's region)"
                       : std::to_string(wrong) + " thread sums differ from accesses x (block + 1)";
  return m;
}

void CacheLab::launch_l1_gather_once(int carveout, std::int64_t working_set_bytes) {
  Impl& im = *impl_;
  check_carveout(carveout);
  check_working_set(working_set_bytes);
  use_device(im.device.index);
  im.ensure_gather();
  check(cudaFuncSetAttribute(l1_gather, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
        "cudaFuncSetAttribute (carveout)");
  im.launch_gather(working_set_bytes);
  check(cudaStreamSynchronize(im.stream), "L1 gather (single launch)");
}

// --- shared-hungry -----------------------------------------------------------------------------

SharedHungryMeasurement CacheLab::measure_shared_hungry(int carveout,
                                                        std::int64_t dynamic_shared_bytes, int runs,
                                                        int warmup,
                                                        const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  SharedHungryMeasurement m;
  m.occupancy = occupancy(carveout, dynamic_shared_bytes);  // checks, sets both attributes
  m.blocks = im.sms() * kHungryBlocksPerSm;
  m.chase_steps = kHungrySteps;
  const auto n = static_cast<unsigned>(dynamic_shared_bytes / 4);
  const auto dyn = static_cast<std::size_t>(dynamic_shared_bytes);
  im.hungry_out.ensure(sizeof(unsigned) * kHungryThreads * static_cast<std::size_t>(m.blocks),
                       "the shared-hungry output");
  auto launch = [&] {
    shared_hungry<<<static_cast<unsigned>(m.blocks), kHungryThreads, dyn, im.stream>>>(
        n, kHungrySteps, im.hungry_out.as<unsigned>(), im.hungry_current.as<int>(),
        im.hungry_peak.as<int>());
    check(cudaGetLastError(), "shared-hungry launch");
  };
  // One observed launch first: residency peaks from zero, and the results to verify.
  check(cudaMemsetAsync(im.hungry_peak.ptr, 0, kSmSlots * sizeof(int), im.stream), "cudaMemset");
  check(cudaMemsetAsync(im.hungry_current.ptr, 0, kSmSlots * sizeof(int), im.stream), "cudaMemset");
  launch();
  check(cudaStreamSynchronize(im.stream), "shared-hungry");
  const auto peaks = to_host<int>(im.hungry_peak, kSmSlots, "cudaMemcpy (residency)");
  m.observed_blocks_per_sm = *std::max_element(peaks.begin(), peaks.end());
  const auto out =
      to_host<unsigned>(im.hungry_out, static_cast<std::size_t>(m.blocks) * kHungryThreads,
                        "cudaMemcpy (shared-hungry output)");
  int wrong = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto tid = static_cast<unsigned>(i % kHungryThreads);
    const unsigned expect =
        n ? static_cast<unsigned>((static_cast<std::uint64_t>(tid % n) +
                                   static_cast<std::uint64_t>(kHungrySteps) * kHungryStride) %
                                  n)
          : tid;
    if (out[i] != expect) ++wrong;
  }
  m.verified = wrong == 0;
  m.check = m.verified ? "every thread ended its chase on (tid + steps x 33) mod n"
                       : std::to_string(wrong) + " threads ended their chase elsewhere";
  m.timing =
      time_launches(im.stream, runs, warmup, cancel, {"shared-hungry", "shared-hungry"}, launch);
  return m;
}

// --- constant ----------------------------------------------------------------------------------

ConstantMeasurement CacheLab::measure_constant(int k, int runs, int warmup,
                                               const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  check_constant_k(k);
  use_device(im.device.index);
  ConstantMeasurement m;
  m.k = k;
  m.blocks = im.sms() * kConstantBlocksPerSm;
  m.threads_per_block = kConstantThreads;
  m.repeats = kConstantRepeats;
  m.lane_groups = constant_lane_groups(k);
  const auto threads = static_cast<std::size_t>(m.blocks) * kConstantThreads;
  im.constant_out.ensure(threads * sizeof(unsigned), "the constant sums");
  im.constant_clocks.ensure(static_cast<std::size_t>(m.blocks) * 3 * sizeof(unsigned long long),
                            "the constant clocks");
  auto launch = [&] {
    constant_reads<<<static_cast<unsigned>(m.blocks), kConstantThreads, 0, im.stream>>>(
        k, kConstantRepeats, im.constant_out.as<unsigned>(),
        im.constant_clocks.as<unsigned long long>());
    check(cudaGetLastError(), "constant launch");
  };
  m.timing =
      time_launches(im.stream, runs, warmup, cancel, {"constant reads", "constant reads"}, launch);
  const double warp_requests = static_cast<double>(m.blocks) * (kConstantThreads / 32) * m.repeats;
  m.ns_per_request = m.timing.median_ms * 1e6 / (warp_requests / im.sms());
  // Cycles: per SM, from the earliest block start to the latest block end, over its requests.
  const auto clocks = to_host<unsigned long long>(
      im.constant_clocks, static_cast<std::size_t>(m.blocks) * 3, "cudaMemcpy (constant clocks)");
  std::map<unsigned long long, std::tuple<unsigned long long, unsigned long long, int>> per_sm;
  for (int b = 0; b < m.blocks; ++b) {
    const auto i = static_cast<std::size_t>(b) * 3;
    auto [it, fresh] = per_sm.try_emplace(clocks[i + 2], clocks[i], clocks[i + 1], 0);
    auto& [lo, hi, count] = it->second;
    if (!fresh) {
      lo = std::min(lo, clocks[i]);
      hi = std::max(hi, clocks[i + 1]);
    }
    ++count;
  }
  std::vector<double> cycles;
  for (const auto& [sm, span] : per_sm) {
    const auto& [lo, hi, count] = span;
    cycles.push_back(static_cast<double>(hi - lo) /
                     (static_cast<double>(count) * (kConstantThreads / 32) * m.repeats));
  }
  m.cycles_per_request = median_of(cycles);
  // Verify: lane l sums constant_value(l % k + 32 j) over j < 8, repeats / 8 times.
  const auto out = to_host<unsigned>(im.constant_out, threads, "cudaMemcpy (constant sums)");
  int wrong = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const int lane = static_cast<int>(i % 32);
    unsigned row = 0;
    for (int j = 0; j < 8; ++j) row += constant_value(constant_word(lane, k, j));
    if (out[i] != row * static_cast<unsigned>(kConstantRepeats / 8)) ++wrong;
  }
  m.verified = wrong == 0;
  m.check = m.verified ? "every thread's sum of the __constant__ words matched"
                       : std::to_string(wrong) + " thread sums differ";
  return m;
}

// --- read path ---------------------------------------------------------------------------------

ReadPathMeasurement CacheLab::measure_read_path(const ReadPathParams& params, int runs, int warmup,
                                                const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  check_read_path(params);
  use_device(im.device.index);
  im.ensure_image(params.side);
  ReadPathMeasurement m;
  m.params = params;
  const std::int64_t pixels = std::int64_t{params.side} * params.side;
  const bool scattered = params.pattern == ReadPattern::Scattered;
  const bool tile =
      params.pattern == ReadPattern::ColumnTile || params.pattern == ReadPattern::ColumnTileMorton;
  m.reads = pixels * reads_per_thread(params);
  auto launch = [&] { im.launch_read_path(params); };
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"read path", "read path"}, launch);
  m.gbps = static_cast<double>(m.reads) * 4 / (m.timing.median_ms * 1e-3) / 1e9;
  const auto sums = to_host<unsigned>(im.warp_sums, static_cast<std::size_t>(pixels / 32),
                                      "cudaMemcpy (read-path sums)");
  std::uint32_t total = 0;
  for (unsigned s : sums) total += s;
  // One sum per footprint: the layouts and paths read the same pixels.
  const auto key = std::make_tuple(scattered ? 1
                                   : tile    ? 2
                                             : 0,
                                   params.side, scattered || tile ? 0 : params.radius,
                                   scattered ? params.scattered_reads : 0);
  auto it = im.expected_sums.find(key);
  if (it == im.expected_sums.end())
    it = im.expected_sums.emplace(key, expected_read_path_sum(params)).first;
  m.verified = total == it->second;
  m.check = m.verified ? "the sum of every read matched the CPU (" + hex(total) + ")"
                       : "sum " + hex(total) + " differs from the CPU's " + hex(it->second);
  return m;
}

void CacheLab::launch_read_path_once(const ReadPathParams& params) {
  Impl& im = *impl_;
  check_read_path(params);
  use_device(im.device.index);
  im.ensure_image(params.side);
  im.launch_read_path(params);
  check(cudaStreamSynchronize(im.stream), "read path (single launch)");
}

}  // namespace warplens::gpu
