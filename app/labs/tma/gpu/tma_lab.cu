// The tile lab's kernels and entry points (tma_lab.h): one block of one warp fills a shared tile
// by the TMA (cp.async.bulk.tensor.2d through a CUtensorMap) or by its threads, then dumps it
// for the read-back, or reads it as a row, a column or an ldmatrix in a timed loop.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_support.cuh"
#include "tma_lab.h"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::use_device;

constexpr int kUnroll = 8;
/// Room to align the dynamic shared tile to 1024 bytes (the 128-byte swizzle's repeat).
constexpr int kAlignSlack = 1024;
constexpr int kMaxTileBytes = 48 * 1024;  // tma_plan.cpp's limit

/// The read the kernel makes: element loads of 1, 2 or 4 bytes, or ldmatrix .x1/.x2/.x4, plain
/// or .trans.
enum ReadKernel : int { kLoad1, kLoad2, kLoad4, kLdsm1, kLdsm2, kLdsm4, kLdsm1T, kLdsm2T, kLdsm4T };

struct TileArgs {
  int fill_tma = 0;     ///< 1: the TMA fills the tile, 0: the threads do
  int tile_bytes = 0;   ///< shared bytes of the tile (rows x pitch)
  int dense_bytes = 0;  ///< rows x cols x element bytes (the TMA's transaction bytes)
  int elements = 0;
  int element_bytes = 0;
  const unsigned char* src = nullptr;  ///< the global tile, dense rows
  const int* placement = nullptr;      ///< the threads' fill: byte offset of element k
  int lane_offset[32] = {};            ///< byte offset of each lane's read; -1: none
  int reads = 0;                       ///< timed read requests (a multiple of kUnroll)
  unsigned char* dump = nullptr;       ///< if set: the tile as stored (tile_bytes)
  unsigned* values = nullptr;          ///< if set: the first read's registers, 4 per lane
  long long* clocks = nullptr;         ///< fill cycles, read-loop cycles
  unsigned* sink = nullptr;
  int write_sink = 0;  ///< never set: keeps the loads' results live
  int zero = 0;        ///< always 0, unknown to the compiler (the ldmatrix loop's addresses)
  /// If set (the whole GPU): per block, the read loop's clock64 start and end and the SM's id.
  unsigned long long* block_clocks = nullptr;
};

__device__ __forceinline__ void st_shared(unsigned addr, unsigned v, int bytes) {
  if (bytes == 1) {
    asm volatile("st.shared.u8 [%0], %1;" ::"r"(addr), "r"(v));
  } else if (bytes == 2) {
    asm volatile("st.shared.u16 [%0], %1;" ::"r"(addr), "r"(v));
  } else {
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(v));
  }
}

template <int W>
__device__ __forceinline__ unsigned ld_shared(unsigned addr) {
  unsigned v;
  if constexpr (W == 1) {
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(v) : "r"(addr));
  } else if constexpr (W == 2) {
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(v) : "r"(addr));
  } else {
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
  }
  return v;
}

/// One ldmatrix of N matrices (T: .trans) into r[0..N).
template <int N, bool T>
__device__ __forceinline__ void ldsm(unsigned addr, unsigned (&r)[4]) {
  if constexpr (N == 1 && !T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
  } else if constexpr (N == 1) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(r[0])
                 : "r"(addr));
  } else if constexpr (N == 2 && !T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr));
  } else if constexpr (N == 2) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(addr));
  } else if constexpr (!T) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
  }
}

/// Fills the tile at shared address `base` by the TMA: mbarrier, expect the dense bytes, one
/// cp.async.bulk.tensor.2d of the box at (0, 0), wait for phase 0 (PTX ISA, cp.async.bulk.tensor
/// and mbarrier; the pattern CUTLASS's SM90_TMA_LOAD_2D and ClusterTransactionBarrier use).
__device__ __forceinline__ void tma_fill(const CUtensorMap* map, unsigned base, int bytes,
                                         unsigned long long* bar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const unsigned b = static_cast<unsigned>(__cvta_generic_to_shared(bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(b));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    // The pre-fill's generic stores before the async proxy's writes.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(b), "r"(bytes)
                 : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(base),
        "l"(reinterpret_cast<std::uint64_t>(map)), "r"(0), "r"(0), "r"(b)
        : "memory");
  }
  // Wait for phase 0; a copy that never completes (it should take about 1000 cycles) traps
  // after about 2^32 cycles (2 s on an H100) instead of hanging the process.
  const long long start = clock64();
  for (;;) {
    unsigned done = 0;
    asm volatile(
        "{\n"
        ".reg .pred p;\n"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
        "selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(done)
        : "r"(b)
        : "memory");
    if (done) break;
    if (clock64() - start > (1ll << 32)) __trap();
  }
#else
  (void)map;
  (void)base;
  (void)bytes;
  (void)bar;
  __trap();  // the host refuses the TMA below compute capability 9.0
#endif
}

template <int K>
__global__ void __launch_bounds__(32)
    tile_kernel(const __grid_constant__ CUtensorMap map, const TileArgs a) {
  extern __shared__ unsigned char tile_raw[];
  __shared__ alignas(8) unsigned long long bar;
  const unsigned raw = static_cast<unsigned>(__cvta_generic_to_shared(tile_raw));
  const unsigned base = (raw + (kAlignSlack - 1)) & ~static_cast<unsigned>(kAlignSlack - 1);
  const int lane = static_cast<int>(threadIdx.x);

  if (a.dump) {  // padding reads back as 0xEE bytes
    for (int i = 4 * lane; i < a.tile_bytes; i += 4 * 32) st_shared(base + i, 0xEEEEEEEEu, 4);
  }
  __syncthreads();
  const long long t0 = clock64();
  if (a.fill_tma) {
    tma_fill(&map, base, a.dense_bytes, &bar);
  } else {
    for (int k = lane; k < a.elements; k += 32) {
      unsigned v = 0;
      for (int byte = 0; byte < a.element_bytes; ++byte) {
        v |= static_cast<unsigned>(a.src[k * a.element_bytes + byte]) << (8 * byte);
      }
      st_shared(base + a.placement[k], v, a.element_bytes);
    }
    __syncthreads();
  }
  const long long t1 = clock64();

  if (a.dump) {
    for (int i = lane; i < a.tile_bytes; i += 32) {
      unsigned v;
      asm volatile("ld.shared.u8 %0, [%1];" : "=r"(v) : "r"(base + i));
      a.dump[i] = static_cast<unsigned char>(v);
    }
    if (lane == 0) a.clocks[0] = t1 - t0;
    return;
  }

  const bool active = a.lane_offset[lane] >= 0;
  const unsigned addr = base + (active ? static_cast<unsigned>(a.lane_offset[lane]) : 0u);
  unsigned acc = 0;
  constexpr bool kLdsm = K >= kLdsm1;
  constexpr int kMatrices = K == kLdsm1 || K == kLdsm1T ? 1 : K == kLdsm2 || K == kLdsm2T ? 2 : 4;
  constexpr bool kTrans = K >= kLdsm1T;
  constexpr int kWidth = K == kLoad1 ? 1 : K == kLoad2 ? 2 : 4;
  if (a.values) {
    unsigned r[4] = {0, 0, 0, 0};
    if constexpr (kLdsm) {
      ldsm<kMatrices, kTrans>(addr, r);
    } else if (active) {
      r[0] = ld_shared<kWidth>(addr);
    }
    for (int j = 0; j < 4; ++j) a.values[4 * lane + j] = r[j];
  }
  __syncwarp();
  const long long s = clock64();
  if constexpr (kLdsm) {
    // ldmatrix has no .volatile: ptxas merges repeated ldmatrix of one address (and hoists them
    // out of a loop without stores), so each takes its address plus (i + u) x a.zero, a zero
    // the compiler cannot see.
    for (int i = 0; i < a.reads; i += kUnroll) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        unsigned r[4];
        ldsm<kMatrices, kTrans>(addr + static_cast<unsigned>((i + u) * a.zero), r);
        acc ^= r[0];
      }
    }
  } else if (active) {  // idle lanes skip the loop, as the bank probe's do
    for (int i = 0; i < a.reads; i += kUnroll) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) acc ^= ld_shared<kWidth>(addr);
    }
  }
  __syncwarp();
  const long long e = clock64();
  if (lane == 0 && a.clocks) {
    a.clocks[0] = t1 - t0;
    a.clocks[1] = e - s;
  }
  if (lane == 0 && a.block_clocks) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    unsigned long long* c = a.block_clocks + 3 * blockIdx.x;
    c[0] = static_cast<unsigned long long>(s);
    c[1] = static_cast<unsigned long long>(e);
    c[2] = sm;
  }
  if (a.write_sink) a.sink[lane] = acc;
}

using KernelFn = void (*)(CUtensorMap, TileArgs);

KernelFn kernel_for(int k) {
  switch (k) {
    case kLoad1: return tile_kernel<kLoad1>;
    case kLoad2: return tile_kernel<kLoad2>;
    case kLoad4: return tile_kernel<kLoad4>;
    case kLdsm1: return tile_kernel<kLdsm1>;
    case kLdsm2: return tile_kernel<kLdsm2>;
    case kLdsm4: return tile_kernel<kLdsm4>;
    case kLdsm1T: return tile_kernel<kLdsm1T>;
    case kLdsm2T: return tile_kernel<kLdsm2T>;
    default: return tile_kernel<kLdsm4T>;
  }
}

int read_kernel(const TileParams& tile, const TileRead* read) {
  if (!read || read->kind != TileReadKind::Ldmatrix) {
    return tile.element_bytes == 1 ? kLoad1 : tile.element_bytes == 2 ? kLoad2 : kLoad4;
  }
  const int n = read->matrices == 1 ? 0 : read->matrices == 2 ? 1 : 2;
  return (read->trans ? kLdsm1T : kLdsm1) + n;
}

CUtensorMapSwizzle cu_swizzle(TmaSwizzle s) {
  switch (s) {
    case TmaSwizzle::None: return CU_TENSOR_MAP_SWIZZLE_NONE;
    case TmaSwizzle::B32: return CU_TENSOR_MAP_SWIZZLE_32B;
    case TmaSwizzle::B64: return CU_TENSOR_MAP_SWIZZLE_64B;
    case TmaSwizzle::B128: return CU_TENSOR_MAP_SWIZZLE_128B;
  }
  return CU_TENSOR_MAP_SWIZZLE_NONE;
}

}  // namespace

struct TileLab::Impl {
  int device = 0;
  int cc_major = 0, cc_minor = 0;
  cudaStream_t stream = nullptr;
  detail::DeviceBuffer src, placement, dump, values, clocks, sink, block_clocks;
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  // What counter_launch prepared.
  CUtensorMap map{};
  TileArgs args;
  int kernel = kLoad4;

  ~Impl() {
    if (stream) cudaStreamDestroy(stream);
  }

  /// Uploads the global tile (element k's value: k, or for 1-byte elements its byte `byte`),
  /// the model's placement and the tensor map; sets args and kernel for `read` (null: a dump).
  void prepare(const TileParams& tile, const TileRead* read, int byte) {
    if (read) {
      check_tile_read(tile, *read);
    } else {
      check_tile(tile);
    }
    if (auto why = tile_unsupported(tile, read, cc_major, cc_minor)) {
      throw std::invalid_argument(*why);
    }
    use_device(device);
    const int elements = tile.rows * tile.cols;
    std::vector<unsigned char> host(static_cast<std::size_t>(elements) * tile.element_bytes);
    for (int k = 0; k < elements; ++k) {
      const unsigned v = tile.element_bytes == 1 ? (static_cast<unsigned>(k) >> (8 * byte)) & 0xFFu
                                                 : static_cast<unsigned>(k);
      for (int b = 0; b < tile.element_bytes; ++b) {
        host[static_cast<std::size_t>(k) * tile.element_bytes + b] =
            static_cast<unsigned char>(v >> (8 * b));
      }
    }
    check(cudaMemcpyAsync(src.ptr, host.data(), host.size(), cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync (the global tile)");
    const std::vector<std::int32_t> at = tile_placement_model(tile);
    check(cudaMemcpyAsync(placement.ptr, at.data(), at.size() * sizeof(std::int32_t),
                          cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync (the placement)");
    std::memset(&map, 0, sizeof map);
    if (tile.fill == TileFill::Tma) {
      const cuuint64_t dims[2] = {static_cast<cuuint64_t>(tile.cols),
                                  static_cast<cuuint64_t>(tile.rows)};
      const cuuint64_t strides[1] = {static_cast<cuuint64_t>(tile.cols) * tile.element_bytes};
      const cuuint32_t box[2] = {static_cast<cuuint32_t>(tile.cols),
                                 static_cast<cuuint32_t>(tile.rows)};
      const cuuint32_t steps[2] = {1, 1};
      const CUtensorMapDataType type = tile.element_bytes == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8
                                       : tile.element_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                                                 : CU_TENSOR_MAP_DATA_TYPE_UINT32;
      const CUresult r = encode(&map, type, 2, src.ptr, dims, strides, box, steps,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, cu_swizzle(tile.swizzle),
                                CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
      if (r != CUDA_SUCCESS) {
        throw GpuError("cuTensorMapEncodeTiled failed: CUresult " + std::to_string(r) + " (" +
                       tile_layout_text(tile) + ", " + std::string(to_string(tile.swizzle)) + ")");
      }
    }
    args = TileArgs{};
    args.fill_tma = tile.fill == TileFill::Tma ? 1 : 0;
    args.tile_bytes = tile_shared_bytes(tile);
    args.dense_bytes = elements * tile.element_bytes;
    args.elements = elements;
    args.element_bytes = tile.element_bytes;
    args.src = static_cast<const unsigned char*>(src.ptr);
    args.placement = static_cast<const int*>(placement.ptr);
    args.clocks = static_cast<long long*>(clocks.ptr);
    args.sink = static_cast<unsigned*>(sink.ptr);
    if (read) {
      const TileLanes lanes = tile_read_lanes(tile, *read);
      for (int l = 0; l < 32; ++l) args.lane_offset[l] = lanes.byte_offset[l];
    }
    kernel = read_kernel(tile, read);
  }

  /// The whole GPU (TileReadMeasurement::gpu_blocks ...), with args as prepare() and
  /// measure_read left them.
  void measure_gpu(const TileLanes& lanes, TileReadMeasurement& m) {
    const KernelFn fn = kernel_for(kernel);
    const int shared = args.tile_bytes + kAlignSlack;
    int per_sm = 0, sms = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, 32, shared),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
          "cudaDeviceGetAttribute");
    const int blocks = std::max(per_sm, 1) * std::max(sms, 1);
    block_clocks.ensure(static_cast<std::size_t>(blocks) * 3 * sizeof(unsigned long long),
                        "the blocks' clocks");
    TileArgs whole = args;
    whole.values = nullptr;
    whole.clocks = nullptr;
    whole.block_clocks = static_cast<unsigned long long*>(block_clocks.ptr);
    const double request_bytes = static_cast<double>(lanes.active) * lanes.access_bytes;
    const double bytes_per_block = request_bytes * whole.reads;
    std::vector<unsigned long long> host(static_cast<std::size_t>(blocks) * 3);
    std::vector<double> per_clock, clock_mhz;
    const Timing t = detail::time_launches(
        stream, 5, 1, nullptr, {"the tile's read on the whole GPU (warm-up)"},
        [&] {
          fn<<<static_cast<unsigned>(blocks), 32, shared, stream>>>(map, whole);
          check(cudaGetLastError(), "the tile's read on the whole GPU");
        },
        [&](float ms) {
          check(cudaMemcpyAsync(host.data(), whole.block_clocks, host.size() * sizeof host[0],
                                cudaMemcpyDeviceToHost, stream),
                "cudaMemcpy (the blocks' clocks)");
          check(cudaStreamSynchronize(stream), "the tile's read on the whole GPU");
          const PerSmRate rate = per_sm_rate(host, bytes_per_block, ms);
          per_clock.push_back(rate.bytes_per_clock);
          clock_mhz.push_back(rate.clock_mhz);
        });
    m.gpu_blocks = blocks;
    m.gbps = bytes_per_block * blocks / (t.median_ms * 1e-3) / 1e9;
    m.bytes_per_clock_per_sm = median_of(per_clock);
    m.fraction_of_limit = m.bytes_per_clock_per_sm / 128.0;
    m.sm_clock_mhz = median_of(clock_mhz);
  }

  void launch(const char* what) {
    const KernelFn fn = kernel_for(kernel);
    const int shared = args.tile_bytes + kAlignSlack;
    check(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, shared),
          "cudaFuncSetAttribute (the tile's shared memory)");
    // The first launch of each kernel and fill in the process runs alone (gpu_fault.h).
    RunsAlone alone(first_run(0x7e11e000u + static_cast<std::uint64_t>(kernel) * 2 +
                              static_cast<std::uint64_t>(args.fill_tma)));
    fn<<<1, 32, shared, stream>>>(map, args);
    check(cudaGetLastError(), what);
    detail::finish_alone(alone, stream, nullptr, what);
    // Waited for with the labs' launch limit (LaunchTimeout), never blocking for good.
    cudaEvent_t done = nullptr;
    check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "cudaEventCreate");
    struct Destroy {
      cudaEvent_t e;
      ~Destroy() { cudaEventDestroy(e); }
    } destroy{done};
    check(cudaEventRecord(done, stream), "cudaEventRecord");
    detail::wait_for_launch(stream, done, nullptr, what, 1);
  }
};

TileLab::TileLab(int device) : impl_(std::make_unique<Impl>()) {
  impl_->device = device;
  use_device(device);
  check(cudaDeviceGetAttribute(&impl_->cc_major, cudaDevAttrComputeCapabilityMajor, device),
        "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&impl_->cc_minor, cudaDevAttrComputeCapabilityMinor, device),
        "cudaDeviceGetAttribute");
  check(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  impl_->src.ensure(kMaxTileBytes, "the global tile");
  impl_->placement.ensure(kMaxTileBytes * sizeof(std::int32_t), "the tile's placement");
  impl_->dump.ensure(kMaxTileBytes, "the tile's read-back");
  impl_->values.ensure(32 * 4 * sizeof(unsigned), "the read's values");
  impl_->clocks.ensure(2 * sizeof(long long), "the tile's clocks");
  impl_->sink.ensure(32 * sizeof(unsigned), "the tile's sink");
  if (impl_->cc_major >= 9) {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                           &found),
          "cudaGetDriverEntryPointByVersion (cuTensorMapEncodeTiled)");
    if (found != cudaDriverEntryPointSuccess || !fn) {
      throw GpuError("the driver does not offer cuTensorMapEncodeTiled (CUDA 12.0 or newer)");
    }
    impl_->encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }
}

TileLab::~TileLab() = default;

TilePlacement TileLab::load_tile(const TileParams& tile) {
  TilePlacement out;
  out.tile = tile;
  const int bytes = tile_shared_bytes(tile);
  const int slots = bytes / tile.element_bytes;
  std::vector<std::uint32_t> value(static_cast<std::size_t>(slots), 0);
  const int passes = tile.element_bytes == 1 ? 2 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    impl_->prepare(tile, nullptr, pass);
    impl_->args.dump = static_cast<unsigned char*>(impl_->dump.ptr);
    impl_->launch("the tile's fill and read-back");
    std::vector<unsigned char> host(static_cast<std::size_t>(bytes));
    check(cudaMemcpy(host.data(), impl_->dump.ptr, host.size(), cudaMemcpyDeviceToHost),
          "cudaMemcpy (the tile as stored)");
    long long cycles = 0;
    check(cudaMemcpy(&cycles, impl_->clocks.ptr, sizeof cycles, cudaMemcpyDeviceToHost),
          "cudaMemcpy (the fill's clocks)");
    if (pass == 0) out.fill_cycles = static_cast<double>(cycles);
    for (int s = 0; s < slots; ++s) {
      std::uint32_t v = 0;
      for (int b = 0; b < tile.element_bytes; ++b) {
        v |= static_cast<std::uint32_t>(host[static_cast<std::size_t>(s) * tile.element_bytes + b])
             << (8 * b);
      }
      value[s] = tile.element_bytes == 1 ? value[s] | (v << (8 * pass)) : v;
    }
  }
  const int elements = tile.rows * tile.cols;
  out.stored_element.assign(static_cast<std::size_t>(slots), -1);
  out.byte_offset.assign(static_cast<std::size_t>(elements), -1);
  // Element values are their indices; a padding slot holds 0xEE.. (61166 for 1- and 2-byte
  // elements), which no tile of at most 48 KiB reaches as an index.
  for (int s = 0; s < slots; ++s) {
    const std::uint32_t v = value[s];
    if (v >= static_cast<std::uint32_t>(elements)) continue;
    out.stored_element[s] = static_cast<std::int32_t>(v);
    if (out.byte_offset[v] < 0) out.byte_offset[v] = s * tile.element_bytes;
  }
  return out;
}

TileReadMeasurement TileLab::measure_read(const TileParams& tile, const TileRead& read, int reads) {
  if (reads < kUnroll || reads % kUnroll != 0) {
    throw std::invalid_argument("reads " + std::to_string(reads) + ": a multiple of 8, at least 8");
  }
  TileReadMeasurement m;
  m.tile = tile;
  m.read = read;
  m.reads = reads;
  impl_->prepare(tile, &read, 0);
  impl_->args.reads = reads;
  impl_->args.values = static_cast<unsigned*>(impl_->values.ptr);
  impl_->launch("the tile's read");
  unsigned values[32 * 4];
  long long clocks[2] = {0, 0};
  check(cudaMemcpy(values, impl_->values.ptr, sizeof values, cudaMemcpyDeviceToHost),
        "cudaMemcpy (the read's values)");
  check(cudaMemcpy(clocks, impl_->clocks.ptr, sizeof clocks, cudaMemcpyDeviceToHost),
        "cudaMemcpy (the read's clocks)");
  m.cycles_per_request = static_cast<double>(clocks[1]) / reads;

  // What each lane should hold: the value of the element at its address (the model's layout).
  const auto value_of = [&](int r, int c) {
    const unsigned k = static_cast<unsigned>(r * tile.cols + c);
    return tile.element_bytes == 1 ? k & 0xFFu : tile.element_bytes == 2 ? k & 0xFFFFu : k;
  };
  int wrong = 0;
  std::string first;
  const auto expect = [&](int lane, int reg, unsigned want) {
    const unsigned got = values[4 * lane + reg];
    if (got == want) return;
    if (wrong++ == 0) {
      first = "lane " + std::to_string(lane) + " register " + std::to_string(reg) + " read " +
              std::to_string(got) + ", expected " + std::to_string(want);
    }
  };
  const TileLanes lanes = tile_read_lanes(tile, read);
  for (int l = 0; l < 32; ++l) {
    if (read.kind == TileReadKind::Ldmatrix) {
      for (int m4 = 0; m4 < read.matrices; ++m4) {
        const int r0 = read.index + 8 * (m4 % 2), c0 = 8 * (m4 / 2);
        // PTX ISA, ldmatrix fragments: lane l holds row l / 4, columns 2 (l % 4), + 1; .trans
        // holds the transposed matrix's: rows 2 (l % 4), + 1 of column l / 4.
        const int a_r = read.trans ? 2 * (l % 4) : l / 4, a_c = read.trans ? l / 4 : 2 * (l % 4);
        const int b_r = read.trans ? a_r + 1 : a_r, b_c = read.trans ? a_c : a_c + 1;
        expect(l, m4, value_of(r0 + a_r, c0 + a_c) | (value_of(r0 + b_r, c0 + b_c) << 16));
      }
    } else if (lanes.byte_offset[l] >= 0) {
      const int k =
          read.kind == TileReadKind::Row ? read.index * tile.cols + l : l * tile.cols + read.index;
      expect(l, 0, value_of(k / tile.cols, k % tile.cols));
    }
  }
  m.values_ok = wrong == 0;
  m.check = wrong == 0
                ? "every lane read the element its address holds in the model's layout"
                : std::to_string(wrong) + " registers differ from the model's layout; " + first;
  impl_->measure_gpu(lanes, m);
  return m;
}

std::function<void()> TileLab::counter_launch(const TileParams& tile, const TileRead& read,
                                              int reads) {
  if (reads < 0 || reads % kUnroll != 0) {
    throw std::invalid_argument("reads " + std::to_string(reads) + ": a multiple of 8");
  }
  impl_->prepare(tile, &read, 0);
  impl_->args.reads = reads;
  Impl* impl = impl_.get();
  return [impl] { impl->launch("the tile's read (counters)"); };
}

}  // namespace warplens::gpu
