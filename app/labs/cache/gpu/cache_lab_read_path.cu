// The read-path lab: the same image read through plain loads, __ldg and a texture, in row-major
// and Morton layouts, with local, column-tile and scattered footprints; the kernels, the image
// and its texture object, and the CacheLab entry points that verify the sum of every read.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "cache_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::time_launches;
using detail::to_host;
using detail::use_device;

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

void CacheLab::Impl::launch_read_path(const ReadPathParams& params) {
  const ReadKernel k = read_kernel(params.path, params.pattern);
  const auto tiles = static_cast<unsigned>(params.side / kReadTile);
  k<<<dim3(tiles, tiles), dim3(kReadTile, kReadTile), 0, stream>>>(
      image_row_major.as<unsigned>(), image_morton.as<unsigned>(), image_texture, params.side,
      params.radius, params.scattered_reads, warp_sums.as<unsigned>());
  check(cudaGetLastError(), "read-path launch");
}

void CacheLab::Impl::ensure_image(int side) {
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
    check(
        cudaMemcpy2DToArray(image_array, 0, 0, image_row_major.ptr,
                            static_cast<std::size_t>(side) * 4, static_cast<std::size_t>(side) * 4,
                            static_cast<std::size_t>(side), cudaMemcpyDeviceToDevice),
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
    check(cudaCreateTextureObject(&image_texture, &res, &tex, nullptr), "cudaCreateTextureObject");
  } catch (...) {
    release_image();
    throw;
  }
  image_side = side;
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
