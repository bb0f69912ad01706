// The strided copy kernel and its timed and instrumented launches (the device query is in
// device_query.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_support.cuh"
#include "gpu.h"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::time_launches;
using detail::use_device;

// --- the kernels -------------------------------------------------------------------------------

template <LoadPath kPath, typename Word>
__device__ __forceinline__ Word load(const Word* p) {
  if constexpr (kPath == LoadPath::L2Only) return __ldcg(p);
  if constexpr (kPath == LoadPath::ReadOnly) return __ldg(p);
  if constexpr (kPath == LoadPath::Default) return *p;
}

// The pattern copy. One thread copies one word; the patterned side uses element_index(), the
// other side element g (coalesced). The side and the load path are template parameters so the
// timed kernel carries no branch for them (a one-word-per-thread copy is sensitive to every
// extra instruction). kTrace adds the instrumented part: warps trace_first_warp ..
// trace_first_warp + trace_warps - 1 of block 0 record the byte offset of their patterned
// access from that buffer's base, warp slot k's lane l at trace[32k + l].
// kStrided32: the strided index function in 32-bit arithmetic, for plans whose every index fits
// an int (strided32_fits): the same function, evaluated in fewer instructions, so the timed
// stride-1 copy runs as fast as the copy a student writes first (measured: docs/h100-bench.txt).
// kUnitStride (with kStrided32): the plan's stride is 1 (every aligned and misaligned copy), set
// as a constant in the environment the same index function reads, so offset + 1 * g compiles to
// one add (H200: the stride-1 copy ran 2.4 % behind the minimal kernel with the multiply).
template <typename Word, PatternSide kSide, LoadPath kPath, bool kTrace, bool kStrided32 = false,
          bool kUnitStride = false>
__global__ void pattern_copy(const Word* __restrict__ in, Word* __restrict__ out, long long threads,
                             IndexParams index, LaneTraceRecord* __restrict__ trace,
                             int trace_first_warp, int trace_warps) {
  using Index = std::conditional_t<kStrided32, int, long long>;
  const Index g = kStrided32 ? static_cast<Index>(blockIdx.x * blockDim.x + threadIdx.x)
                             : blockIdx.x * static_cast<Index>(blockDim.x) + threadIdx.x;
  if (g >= static_cast<Index>(threads)) return;  // strided32_fits: threads fits an int
  Index e;
  if constexpr (kStrided32) {
    auto env = index_env<int>(g, index);
    if constexpr (kUnitStride) env.stride = 1;  // the launch checked index.stride == 1
    e = index_expr::evaluate(index_functions::strided(), env);
  } else {
    e = element_index(g, index);
  }
  const Index src = kSide == PatternSide::Read ? e : g;
  const Index dst = kSide == PatternSide::Read ? g : e;
  if constexpr (kTrace) {
    const int slot = static_cast<int>(threadIdx.x / 32) - trace_first_warp;
    if (blockIdx.x == 0 && slot >= 0 && slot < trace_warps) {
      const char* base = kSide == PatternSide::Read ? reinterpret_cast<const char*>(in)
                                                    : reinterpret_cast<const char*>(out);
      const char* at = kSide == PatternSide::Read ? reinterpret_cast<const char*>(in + e)
                                                  : reinterpret_cast<const char*>(out + e);
      const auto byte = static_cast<unsigned long long>(at - base);
      trace[slot * 32 + threadIdx.x % 32] = LaneTraceRecord{
          static_cast<unsigned>(byte & 0xffffffffull), static_cast<unsigned>(byte >> 32),
          static_cast<unsigned>(sizeof(Word)), 1u};
    }
  }
  out[dst] = load<kPath>(in + src);
}

// The heatmap variant of the pattern copy: each warp finds, per distinct sector its patterned
// access touches (__match_any_sync groups the lanes on one sector), one leader that adds one
// request and the group's bytes to that sector's counters. Only sectors below kHeatSectors count.
template <typename Word, PatternSide kSide>
__global__ void pattern_copy_heat(const Word* __restrict__ in, Word* __restrict__ out,
                                  long long threads, IndexParams index, SectorHeat* heat) {
  const long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const bool active = g < threads;
  const long long e = active ? element_index(g, index) : 0;
  const unsigned long long sector =
      active ? static_cast<unsigned long long>(e) * sizeof(Word) / 32 : ~0ull;
  const unsigned in_warp = __ballot_sync(0xffffffffu, active);
  if (!active) return;
  const unsigned same = __match_any_sync(in_warp, sector);
  const int leader = __ffs(same) - 1;
  if (static_cast<int>(threadIdx.x % 32) == leader && sector < kHeatSectors) {
    atomicAdd(&heat[sector].requests, 1u);
    atomicAdd(&heat[sector].bytes, static_cast<unsigned>(__popc(same) * sizeof(Word)));
  }
  const long long src = kSide == PatternSide::Read ? e : g;
  const long long dst = kSide == PatternSide::Read ? g : e;
  out[dst] = in[src];
}

// The struct kernel: thread g sums the three 4-byte fields of struct g, one load request per
// field (array of structures: 12-byte stride; structure of arrays: three coalesced arrays).
// kMode 1 traces warp `trace_warp` of block 0, field f's lanes into trace[32f + lane]; kMode 2
// counts every warp's requests per sector of the first kHeatSectors sectors, as
// pattern_copy_heat does.
template <bool kSoA, int kMode>
__global__ void struct_sum(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                           long long count, LaneTraceRecord* __restrict__ trace, int trace_warp,
                           SectorHeat* heat) {
  const long long g = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const bool active = g < count;
  unsigned in_warp = 0xffffffffu;
  if constexpr (kMode == 2) in_warp = __ballot_sync(0xffffffffu, active);
  if (!active) return;
  unsigned sum = 0;
#pragma unroll
  for (int f = 0; f < kStructFields; ++f) {
    const long long e = struct_field_index(g, f, kSoA, count);
    if constexpr (kMode == 1) {
      if (blockIdx.x == 0 && static_cast<int>(threadIdx.x / 32) == trace_warp) {
        const auto byte = static_cast<unsigned long long>(e) * 4ull;
        trace[f * 32 + threadIdx.x % 32] = LaneTraceRecord{
            static_cast<unsigned>(byte & 0xffffffffull), static_cast<unsigned>(byte >> 32), 4u, 1u};
      }
    }
    if constexpr (kMode == 2) {
      const unsigned long long sector = static_cast<unsigned long long>(e) * 4ull / 32;
      const unsigned same = __match_any_sync(in_warp, sector);
      if (static_cast<int>(threadIdx.x % 32) == __ffs(same) - 1 && sector < kHeatSectors) {
        atomicAdd(&heat[sector].requests, 1u);
        atomicAdd(&heat[sector].bytes, static_cast<unsigned>(__popc(same) * 4));
      }
    }
    sum += in[e];
  }
  out[g] = sum;
}

template <int kMode>
void launch_struct_sum(const CopyParams& p, const CopyPlan& plan, const void* in, void* out,
                       LaneTraceRecord* trace, int trace_warp, SectorHeat* heat,
                       cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>(plan.blocks));
  const dim3 block(static_cast<unsigned>(p.block_threads));
  const auto* src = static_cast<const unsigned*>(in);
  auto* dst = static_cast<unsigned*>(out);
  if (p.layout == StructLayout::StructOfArrays) {
    struct_sum<true, kMode>
        <<<grid, block, 0, stream>>>(src, dst, plan.threads, trace, trace_warp, heat);
  } else {
    struct_sum<false, kMode>
        <<<grid, block, 0, stream>>>(src, dst, plan.threads, trace, trace_warp, heat);
  }
  check(cudaGetLastError(), "struct kernel launch");
}

// The 2D matrix copy: thread (tx, ty) of block (bx, by) copies the float at matrix_cell(), read
// from rows `pitch` bytes apart, written to a dense row-major output. kMode 1 traces warps
// first_warp.. of block (0, 0), warp = (ty * blockDim.x + tx) / 32; kMode 2 counts every warp's
// requests per sector of the first kHeatSectors sectors, as pattern_copy_heat does.
template <bool kByColumn, int kMode>
__global__ void matrix_copy(const char* __restrict__ in, float* __restrict__ out, long long pitch,
                            int width, long long rows, LaneTraceRecord* __restrict__ trace,
                            int first_warp, int warps, SectorHeat* heat) {
  const MatrixCell cell = matrix_cell(threadIdx.x, threadIdx.y, blockIdx.x, blockIdx.y, blockDim.x,
                                      blockDim.y, kByColumn);
  const bool active = cell.row < rows && cell.column < width;
  const long long byte = cell.row * pitch + cell.column * 4;
  if constexpr (kMode == 2) {
    const unsigned in_warp = __ballot_sync(0xffffffffu, active);
    if (!active) return;
    const unsigned long long sector = static_cast<unsigned long long>(byte) / 32;
    const unsigned same = __match_any_sync(in_warp, sector);
    const int lane = static_cast<int>((threadIdx.y * blockDim.x + threadIdx.x) % 32);
    if (lane == __ffs(same) - 1 && sector < kHeatSectors) {
      atomicAdd(&heat[sector].requests, 1u);
      atomicAdd(&heat[sector].bytes, static_cast<unsigned>(__popc(same) * 4));
    }
  }
  if (!active) return;
  if constexpr (kMode == 1) {
    const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    const int slot = tid / 32 - first_warp;
    if (blockIdx.x == 0 && blockIdx.y == 0 && slot >= 0 && slot < warps) {
      trace[slot * 32 + tid % 32] = LaneTraceRecord{
          static_cast<unsigned>(static_cast<unsigned long long>(byte) & 0xffffffffull),
          static_cast<unsigned>(static_cast<unsigned long long>(byte) >> 32), 4u, 1u};
    }
  }
  out[cell.row * width + cell.column] = *reinterpret_cast<const float*>(in + byte);
}

// The ideal coalesced copy: one 16-byte vector per thread, consecutive threads on consecutive
// vectors, a full grid. On the H100 this matched cudaMemcpy, where a grid-stride variant with
// four vectors in flight per thread reached only 94 % (measured 2026-11-22, 512 MiB buffers).
constexpr int kIdealThreads = 256;

__global__ void __launch_bounds__(kIdealThreads)
    ideal_copy(const uint4* __restrict__ in, uint4* __restrict__ out, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// The copy a student writes first: one float per thread, a 32-bit index, 256 threads per block.
// The reference the pattern copy's stride-1 point is held to (same buffers, same launch shape).
constexpr int kMinimalThreads = 256;

__global__ void minimal_copy(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * kMinimalThreads + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// Calls f with a value of the word type for `word_bytes` (1, 2, 4, 8 or 16 bytes).
template <typename F>
void for_word_size(int word_bytes, F&& f) {
  switch (word_bytes) {
    case 1: f(static_cast<unsigned char>(0)); break;
    case 2: f(static_cast<unsigned short>(0)); break;
    case 4: f(0u); break;
    case 8: f(uint2{}); break;
    case 16: f(uint4{}); break;
    default: throw GpuError("unsupported word size " + std::to_string(word_bytes));
  }
}

// Whether the timed launch may run the strided index function in int arithmetic: the kind is
// strided and every thread index, every element index and the grid's thread count fit an int.
bool strided32_fits(const CopyPlan& plan, dim3 grid, dim3 block) {
  constexpr long long kIntMax = std::numeric_limits<int>::max();
  const IndexParams& p = plan.index;
  if (p.kind != IndexKind::Strided || p.offset < 0 || p.stride < 1) return false;
  const long long launched = static_cast<long long>(grid.x) * block.x;
  if (launched > kIntMax || plan.threads > kIntMax) return false;
  return p.offset <= kIntMax && (kIntMax - p.offset) / p.stride >= plan.threads;
}

struct TraceTarget {
  LaneTraceRecord* records = nullptr;  // null: the timed launch, no instrumentation
  int first_warp = 0;
  int warps = 0;
};

template <typename Word, PatternSide kSide, LoadPath kPath>
void launch_pattern_copy(const CopyPlan& plan, dim3 grid, dim3 block, const void* in, void* out,
                         const TraceTarget& t, cudaStream_t stream) {
  const auto* src = static_cast<const Word*>(in);
  auto* dst = static_cast<Word*>(out);
  if (t.records) {
    pattern_copy<Word, kSide, kPath, true><<<grid, block, 0, stream>>>(
        src, dst, plan.threads, plan.index, t.records, t.first_warp, t.warps);
  } else if (strided32_fits(plan, grid, block) && plan.index.stride == 1) {
    pattern_copy<Word, kSide, kPath, false, true, true>
        <<<grid, block, 0, stream>>>(src, dst, plan.threads, plan.index, nullptr, 0, 0);
  } else if (strided32_fits(plan, grid, block)) {
    pattern_copy<Word, kSide, kPath, false, true>
        <<<grid, block, 0, stream>>>(src, dst, plan.threads, plan.index, nullptr, 0, 0);
  } else {
    pattern_copy<Word, kSide, kPath, false>
        <<<grid, block, 0, stream>>>(src, dst, plan.threads, plan.index, nullptr, 0, 0);
  }
}

template <typename Word, PatternSide kSide>
void launch_for_path(LoadPath path, const CopyPlan& plan, dim3 grid, dim3 block, const void* in,
                     void* out, const TraceTarget& t, cudaStream_t stream) {
  switch (path) {
    case LoadPath::Default:
      launch_pattern_copy<Word, kSide, LoadPath::Default>(plan, grid, block, in, out, t, stream);
      break;
    case LoadPath::L2Only:
      launch_pattern_copy<Word, kSide, LoadPath::L2Only>(plan, grid, block, in, out, t, stream);
      break;
    case LoadPath::ReadOnly:
      launch_pattern_copy<Word, kSide, LoadPath::ReadOnly>(plan, grid, block, in, out, t, stream);
      break;
  }
}

void launch_matrix(const CopyParams& p, const CopyPlan& plan, const void* in, void* out,
                   const TraceTarget& t, SectorHeat* heat, cudaStream_t stream) {
  const dim3 grid(plan.grid_x, plan.grid_y);
  const dim3 block(static_cast<unsigned>(p.block_threads / p.block_y),
                   static_cast<unsigned>(p.block_y));
  const auto* src = static_cast<const char*>(in);
  auto* dst = static_cast<float*>(out);
  const auto run = [&](auto kernel) {
    kernel<<<grid, block, 0, stream>>>(src, dst, plan.pitch_bytes, p.matrix_width, plan.rows,
                                       t.records, t.first_warp, t.warps, heat);
  };
  const int mode = heat ? 2 : (t.records ? 1 : 0);
  if (p.matrix_by_column) {
    mode == 2   ? run(matrix_copy<true, 2>)
    : mode == 1 ? run(matrix_copy<true, 1>)
                : run(matrix_copy<true, 0>);
  } else {
    mode == 2   ? run(matrix_copy<false, 2>)
    : mode == 1 ? run(matrix_copy<false, 1>)
                : run(matrix_copy<false, 0>);
  }
  check(cudaGetLastError(), "matrix kernel launch");
}

void launch_copy(const CopyParams& p, const CopyPlan& plan, const void* in, void* out,
                 const TraceTarget& trace, cudaStream_t stream) {
  if (p.matrix_width != 0) {
    launch_matrix(p, plan, in, out, trace, nullptr, stream);
    return;
  }
  if (p.layout != StructLayout::None) {
    if (trace.records) {
      launch_struct_sum<1>(p, plan, in, out, trace.records, trace.first_warp, nullptr, stream);
    } else {
      launch_struct_sum<0>(p, plan, in, out, nullptr, 0, nullptr, stream);
    }
    return;
  }
  const dim3 grid(static_cast<unsigned>(plan.blocks));
  const dim3 block(static_cast<unsigned>(p.block_threads));
  for_word_size(p.word_bytes, [&](auto word) {
    using Word = decltype(word);
    if (p.side == PatternSide::Read) {
      launch_for_path<Word, PatternSide::Read>(p.path, plan, grid, block, in, out, trace, stream);
    } else {
      launch_for_path<Word, PatternSide::Write>(p.path, plan, grid, block, in, out, trace, stream);
    }
  });
  check(cudaGetLastError(), "copy kernel launch");
}

}  // namespace

// --- CopyLab -----------------------------------------------------------------------------------

struct CopyLab::Impl {
  int device = 0;
  void* in = nullptr;
  void* out = nullptr;
  LaneTraceRecord* trace = nullptr;     // device scratch for trace_to_host
  SectorHeat* heat = nullptr;           // device scratch for heatmap_to_host
  cudaStream_t stream = nullptr;        // timed launches
  cudaStream_t trace_stream = nullptr;  // instrumented launches (traces, heatmaps)
  // The padded matrix from cudaMallocPitch, for the current width. Launches hold a reference
  // while they run, so a width change on one thread never frees memory a launch on the other
  // still reads (cudaFree also waits for the device).
  std::mutex pitched_mutex;
  std::shared_ptr<void> pitched;
  std::int64_t pitched_width = 0, pitched_rows = 0, pitched_pitch = 0;

  /// The input the copy reads: the flat buffer, or the pitched matrix (allocated on demand).
  std::shared_ptr<const void> input_for(const CopyParams& p, const CopyPlan& plan) {
    if (p.matrix_width == 0 || !p.matrix_pitched) return {std::shared_ptr<const void>{}, in};
    std::lock_guard lock(pitched_mutex);
    if (!pitched || pitched_width != p.matrix_width || pitched_rows != plan.rows) {
      pitched.reset();
      void* ptr = nullptr;
      std::size_t pitch = 0;
      const cudaError_t s =
          cudaMallocPitch(&ptr, &pitch, static_cast<std::size_t>(p.matrix_width) * 4,
                          static_cast<std::size_t>(plan.rows));
      if (s != cudaSuccess) {
        cudaGetLastError();
        throw GpuError(std::string("cudaMallocPitch of ") + std::to_string(plan.rows) +
                       " rows of " + std::to_string(p.matrix_width * 4) +
                       " B failed: " + cudaGetErrorString(s));
      }
      pitched.reset(ptr, [](void* q) { cudaFree(q); });
      pitched_width = p.matrix_width;
      pitched_rows = plan.rows;
      pitched_pitch = static_cast<std::int64_t>(pitch);
      check(cudaMemset2D(ptr, pitch, 0x5a, static_cast<std::size_t>(p.matrix_width) * 4,
                         static_cast<std::size_t>(plan.rows)),
            "cudaMemset2D");
    }
    if (pitched_pitch != plan.pitch_bytes) {
      throw GpuError("cudaMallocPitch returned a pitch of " + std::to_string(pitched_pitch) +
                     " B where WarpLens expected " + std::to_string(plan.pitch_bytes) +
                     " B (alignment " + std::to_string(p.pitch_alignment) + " B)");
    }
    return pitched;
  }
  ~Impl() {
    cudaFree(in);
    cudaFree(out);
    cudaFree(trace);
    cudaFree(heat);
    if (stream) cudaStreamDestroy(stream);
    if (trace_stream) cudaStreamDestroy(trace_stream);
  }
};

CopyLab::CopyLab(const DeviceInfo& device, std::int64_t buffer_bytes) : impl_(new Impl) {
  impl_->device = device.index;
  use_device(device.index);
  buffer_bytes =
      buffer_bytes <= 0 ? default_buffer_bytes(device) : (buffer_bytes + 255) / 256 * 256;
  if (2 * buffer_bytes > device.global_memory_bytes) {
    throw GpuError("the copy lab needs 2 x " + std::to_string(buffer_bytes >> 20) + " MiB but " +
                   device.name + " has " + std::to_string(device.global_memory_bytes >> 20) +
                   " MiB");
  }
  buffer_bytes_ = buffer_bytes;
  const auto alloc = [&](void** p, std::int64_t bytes, const char* what) {
    const cudaError_t s = cudaMalloc(p, static_cast<std::size_t>(bytes));
    if (s != cudaSuccess) {
      cudaGetLastError();
      throw GpuError(std::string("cannot allocate ") + what + " (" + std::to_string(bytes >> 20) +
                     " MiB) on " + device.name + ": " + cudaGetErrorString(s));
    }
  };
  alloc(&impl_->in, buffer_bytes, "the copy input");
  alloc(&impl_->out, buffer_bytes, "the copy output");
  alloc(reinterpret_cast<void**>(&impl_->trace), kTraceBufferBytes, "the trace buffer");
  alloc(reinterpret_cast<void**>(&impl_->heat), kHeatBufferBytes, "the heatmap buffer");
  check(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaStreamCreateWithFlags(&impl_->trace_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  // Not zeros (which can hide unwritten outputs): a fixed non-zero byte.
  check(cudaMemset(impl_->in, 0x5a, static_cast<std::size_t>(buffer_bytes)), "cudaMemset");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

CopyLab::~CopyLab() = default;

CopyMeasurement CopyLab::measure(const CopyParams& params, int runs, int warmup,
                                 const std::atomic<bool>* cancel) {
  use_device(impl_->device);
  CopyMeasurement m;
  m.params = params;
  m.plan = plan_copy(params, buffer_bytes_);
  const auto input = impl_->input_for(params, m.plan);
  const auto launch = [&] {
    launch_copy(params, m.plan, input.get(), impl_->out, TraceTarget{}, impl_->stream);
  };
  // The warm-up launches are not cancellable: only the timed ones check `cancel`.
  for (int i = 0; i < warmup; ++i) launch();
  m.timing = time_launches(impl_->stream, runs, 0, cancel, {"copy kernel (warm-up)"}, launch);
  m.gbps = static_cast<double>(m.plan.requested_bytes) / (m.timing.median_ms * 1e-3) / 1e9;
  return m;
}

void CopyLab::launch_once(const CopyParams& params) {
  use_device(impl_->device);
  const CopyPlan plan = plan_copy(params, buffer_bytes_);
  const auto input = impl_->input_for(params, plan);
  launch_copy(params, plan, input.get(), impl_->out, TraceTarget{}, impl_->stream);
  check(cudaStreamSynchronize(impl_->stream), "copy kernel (single launch)");
}

void CopyLab::trace_to_device(const CopyParams& params, int first_warp, int warps,
                              void* device_dst) {
  use_device(impl_->device);
  const CopyPlan plan = plan_copy(params, buffer_bytes_);
  const int block_warps = params.block_threads / 32;
  if (first_warp < 0 || warps < 1 || warps > kMaxTraceWarps || first_warp + warps > block_warps) {
    throw std::invalid_argument("warps " + std::to_string(first_warp) + ".." +
                                std::to_string(first_warp + warps - 1) + " are not in a block of " +
                                std::to_string(params.block_threads) + " threads");
  }
  auto* records = static_cast<LaneTraceRecord*>(device_dst);
  check(cudaMemsetAsync(records, 0, kTraceBufferBytes, impl_->trace_stream), "cudaMemset (trace)");
  const auto input = impl_->input_for(params, plan);
  launch_copy(params, plan, input.get(), impl_->out, TraceTarget{records, first_warp, warps},
              impl_->trace_stream);
  check(cudaStreamSynchronize(impl_->trace_stream), "copy kernel (instrumented)");
}

void* CopyLab::trace_stream() const {
  return impl_->trace_stream;
}

void CopyLab::heatmap_to_device(const CopyParams& params, void* device_dst) {
  use_device(impl_->device);
  const CopyPlan plan = plan_copy(params, buffer_bytes_);
  auto* heat = static_cast<SectorHeat*>(device_dst);
  check(cudaMemsetAsync(heat, 0, kHeatBufferBytes, impl_->trace_stream), "cudaMemset (heatmap)");
  if (params.matrix_width != 0) {
    const auto input = impl_->input_for(params, plan);
    launch_matrix(params, plan, input.get(), impl_->out, TraceTarget{}, heat, impl_->trace_stream);
    check(cudaStreamSynchronize(impl_->trace_stream), "matrix kernel (heatmap)");
    return;
  }
  if (params.layout != StructLayout::None) {
    launch_struct_sum<2>(params, plan, impl_->in, impl_->out, nullptr, 0, heat,
                         impl_->trace_stream);
    check(cudaStreamSynchronize(impl_->trace_stream), "struct kernel (heatmap)");
    return;
  }
  const dim3 grid(static_cast<unsigned>(plan.blocks));
  const dim3 block(static_cast<unsigned>(params.block_threads));
  for_word_size(params.word_bytes, [&](auto word) {
    using Word = decltype(word);
    const auto* src = static_cast<const Word*>(impl_->in);
    auto* dst = static_cast<Word*>(impl_->out);
    if (params.side == PatternSide::Read) {
      pattern_copy_heat<Word, PatternSide::Read>
          <<<grid, block, 0, impl_->trace_stream>>>(src, dst, plan.threads, plan.index, heat);
    } else {
      pattern_copy_heat<Word, PatternSide::Write>
          <<<grid, block, 0, impl_->trace_stream>>>(src, dst, plan.threads, plan.index, heat);
    }
  });
  check(cudaGetLastError(), "heatmap kernel launch");
  check(cudaStreamSynchronize(impl_->trace_stream), "heatmap kernel");
}

SectorHeatmap CopyLab::heatmap_to_host(const CopyParams& params) {
  heatmap_to_device(params, impl_->heat);
  SectorHeatmap host{};
  check(cudaMemcpy(host.data(), impl_->heat, kHeatBufferBytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy (heatmap)");
  return host;
}

TraceRecords CopyLab::trace_to_host(const CopyParams& params, int first_warp, int warps) {
  trace_to_device(params, first_warp, warps, impl_->trace);
  TraceRecords host{};
  check(cudaMemcpy(host.data(), impl_->trace, kTraceBufferBytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy (trace)");
  return host;
}

template <typename Copy>
MemcpyMeasurement time_whole_buffer_copy(int device, std::int64_t bytes, cudaStream_t stream,
                                         int runs, int warmup, Copy copy) {
  use_device(device);
  MemcpyMeasurement m;
  m.bytes = bytes;
  m.timing = time_launches(stream, runs, warmup, nullptr, {"copy (warm-up)"}, copy);
  m.gbps = 2.0 * static_cast<double>(m.bytes) / (m.timing.median_ms * 1e-3) / 1e9;
  return m;
}

MemcpyMeasurement CopyLab::measure_memcpy(int runs, int warmup) {
  return time_whole_buffer_copy(impl_->device, buffer_bytes_, impl_->stream, runs, warmup, [&] {
    check(cudaMemcpyAsync(impl_->out, impl_->in, static_cast<std::size_t>(buffer_bytes_),
                          cudaMemcpyDeviceToDevice, impl_->stream),
          "cudaMemcpy device-to-device");
  });
}

MemcpyMeasurement CopyLab::measure_ideal_copy(int runs, int warmup) {
  const long long n = buffer_bytes_ / 16;
  const auto grid = static_cast<unsigned>((n + kIdealThreads - 1) / kIdealThreads);
  return time_whole_buffer_copy(impl_->device, buffer_bytes_, impl_->stream, runs, warmup, [&] {
    ideal_copy<<<grid, kIdealThreads, 0, impl_->stream>>>(static_cast<const uint4*>(impl_->in),
                                                          static_cast<uint4*>(impl_->out), n);
    check(cudaGetLastError(), "ideal copy launch");
  });
}

MemcpyMeasurement CopyLab::measure_minimal_copy(int runs, int warmup) {
  const long long floats = buffer_bytes_ / 4;
  if (floats > std::numeric_limits<int>::max())
    throw GpuError("the minimal copy's int index cannot cover " + std::to_string(floats) +
                   " floats");
  const int n = static_cast<int>(floats);
  const auto grid = static_cast<unsigned>((n + kMinimalThreads - 1) / kMinimalThreads);
  return time_whole_buffer_copy(impl_->device, buffer_bytes_, impl_->stream, runs, warmup, [&] {
    minimal_copy<<<grid, kMinimalThreads, 0, impl_->stream>>>(static_cast<const float*>(impl_->in),
                                                              static_cast<float*>(impl_->out), n);
    check(cudaGetLastError(), "minimal copy launch");
  });
}

}  // namespace warplens::gpu
