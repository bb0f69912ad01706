// The shared-memory labs on the GPU: the bank probe (traced for the bank view, timed for one
// warp and for the whole GPU), the transpose variants, the seeds' tiled matrix multiply and
// Harris's reductions 1-3. Every shared-memory index that a view draws comes from
// shared_element_index() with the same parameters the view uses (shared_index.h, shared_lab.h).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_support.cuh"
#include "shared_lab.h"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::check_cancel;
using detail::DeviceBuffer;
using detail::median_of;
using detail::time_launches;
using detail::use_device;

// --- bank probe kernels ----------------------------------------------------------------------

/// Accesses per unrolled step of the timed loop: independent of each other, so the loop is
/// limited by the shared-memory pipe, not by the latency of one access.
constexpr int kBankUnroll = 8;
/// Accesses each thread makes in the timed loops (a multiple of kBankUnroll). Long enough that
/// the loop dominates the fill, the launch and the block scheduling.
constexpr int kBankRepeats = 8192;
constexpr int kSinkWords = 1024;

enum class BankMode {
  Gpu,      ///< every block, every active thread; block 0's clocks, end, %smid per block
  OneWarp,  ///< only warp `warp` of one block; its clock64() span
  Trace,    ///< one block; warp `warp` records its lanes' byte offsets
};

struct BankArgs {
  SharedIndexParams index;
  int fill_vectors = 0;  ///< 16-byte vectors of the dynamic shared array, filled first
  int repeats = 0;
  int warp = 0;
  unsigned long long* clocks = nullptr;  ///< Gpu: 3 per block (start, end, smid); OneWarp: 2
  LaneTraceRecord* trace = nullptr;
  unsigned* sink = nullptr;  ///< written only when write_sink is set (never, in practice)
  int write_sink = 0;
};

extern __shared__ __align__(1024) unsigned char bank_shared[];

// One access of W bytes at a 32-bit shared-memory address, in PTX: exactly the width asked for,
// and .volatile so that neither the compiler nor ptxas merges the repeated accesses to one
// address (it is still an ordinary LDS/STS).
template <int W>
__device__ __forceinline__ unsigned shared_load(unsigned addr) {
  if constexpr (W == 1) {
    unsigned v;
    asm volatile("ld.volatile.shared.u8 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
  } else if constexpr (W == 2) {
    unsigned v;
    asm volatile("ld.volatile.shared.u16 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
  } else if constexpr (W == 4) {
    unsigned v;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
  } else if constexpr (W == 8) {
    unsigned x, y;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(addr));
    return x ^ y;
  } else {
    unsigned x, y, z, w;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                 : "r"(addr));
    return x ^ w;
  }
}

template <int W>
__device__ __forceinline__ void shared_store(unsigned addr, unsigned v) {
  if constexpr (W == 1) {
    asm volatile("st.volatile.shared.u8 [%0], %1;" ::"r"(addr), "r"(v));
  } else if constexpr (W == 2) {
    asm volatile("st.volatile.shared.u16 [%0], %1;" ::"r"(addr), "r"(v));
  } else if constexpr (W == 4) {
    asm volatile("st.volatile.shared.u32 [%0], %1;" ::"r"(addr), "r"(v));
  } else if constexpr (W == 8) {
    asm volatile("st.volatile.shared.v2.u32 [%0], {%1, %2};" ::"r"(addr), "r"(v), "r"(v + 1u));
  } else {
    asm volatile("st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v),
                 "r"(v + 1u), "r"(v + 2u), "r"(v + 3u));
  }
}

/// `repeats` accesses (a multiple of kBankUnroll) at one address; loads are xor-ed into the
/// result so they stay live.
template <int W, bool kStore>
__device__ __forceinline__ unsigned bank_loop(unsigned addr, int repeats, unsigned value) {
  unsigned acc = 0;
  for (int r = 0; r < repeats; r += kBankUnroll) {
#pragma unroll
    for (int u = 0; u < kBankUnroll; ++u) {
      if constexpr (kStore) {
        shared_store<W>(addr, value + static_cast<unsigned>(u));
      } else {
        acc ^= shared_load<W>(addr);
      }
    }
  }
  return acc;
}

// The bank probe: every thread computes its element index once with shared_element_index(),
// idle threads (shared_thread_active() false) skip the access, the others repeat it.
template <int W, bool kStore, BankMode kMode>
__global__ void bank_probe(BankArgs a) {
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int bdx = static_cast<int>(blockDim.x), bdy = static_cast<int>(blockDim.y);
  const int tid = ty * bdx + tx, threads = bdx * bdy;
  auto* fill = reinterpret_cast<uint4*>(bank_shared);
  for (int i = tid; i < a.fill_vectors; i += threads) {
    const auto v = static_cast<unsigned>(i);
    fill[i] = make_uint4(v, 3u * v + 1u, 5u * v + 2u, 7u * v + 3u);
  }
  __syncthreads();
  bool active = shared_thread_active(tid, a.index);
  if constexpr (kMode != BankMode::Gpu) active = active && tid / 32 == a.warp;
  const auto base = static_cast<unsigned>(__cvta_generic_to_shared(bank_shared));
  const unsigned addr =
      base + static_cast<unsigned>(shared_element_index(tx, ty, bdx, bdy, a.index)) * W;
  unsigned acc = 0;
  if constexpr (kMode == BankMode::Trace) {
    if (active) {
      a.trace[tid % 32] = LaneTraceRecord{addr - base, 0u, static_cast<unsigned>(W), 1u};
      acc = bank_loop<W, kStore>(addr, kBankUnroll, static_cast<unsigned>(tid));
    }
  } else {
    const long long start = clock64();
    if (active) acc = bank_loop<W, kStore>(addr, a.repeats, static_cast<unsigned>(tid));
    if constexpr (kMode == BankMode::Gpu) {
      __syncthreads();
    } else {
      __syncwarp();
    }
    const long long end = clock64();
    if constexpr (kMode == BankMode::Gpu) {
      if (tid == 0) {
        unsigned smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        unsigned long long* c = a.clocks + 3ull * blockIdx.x;
        c[0] = static_cast<unsigned long long>(start);
        c[1] = static_cast<unsigned long long>(end);
        c[2] = smid;
      }
    } else {
      if (tid == 32 * a.warp) {
        a.clocks[0] = static_cast<unsigned long long>(start);
        a.clocks[1] = static_cast<unsigned long long>(end);
      }
    }
  }
  if (a.write_sink) a.sink[tid % kSinkWords] = acc;
}

using BankKernel = void (*)(BankArgs);

template <BankMode kMode, int W>
BankKernel bank_kernel_for(SharedOp op) {
  return op == SharedOp::Store ? bank_probe<W, true, kMode> : bank_probe<W, false, kMode>;
}

template <BankMode kMode>
BankKernel bank_kernel(int word_bytes, SharedOp op) {
  switch (word_bytes) {
    case 1: return bank_kernel_for<kMode, 1>(op);
    case 2: return bank_kernel_for<kMode, 2>(op);
    case 4: return bank_kernel_for<kMode, 4>(op);
    case 8: return bank_kernel_for<kMode, 8>(op);
    case 16: return bank_kernel_for<kMode, 16>(op);
    default: throw GpuError("unsupported word size " + std::to_string(word_bytes));
  }
}

// --- transpose kernels -----------------------------------------------------------------------
// After NVIDIA's transpose sample ("An Efficient Matrix Transpose in CUDA C/C++"): a block of
// T x rows threads moves a T x T tile, each thread T / rows elements (j = 0, rows, ...). Every
// global index comes from transpose_global_index() (shared_index.h) with ty + j as the row, the
// function the global view's host twin (transpose_global_trace) uses; with V and T compile-time
// constants it folds to the plain expressions. Indices fit in int: n <= 32768 (check_transpose).
// kTrace adds the recording of one warp's accesses (trace_transpose_to_device); the timed
// launches use kTrace = false, where it compiles to nothing.

/// Where the traced launch records: warp `warp` of block (0, 0), its read (write_side 0) or its
/// write (write_side 1) at j = 0, lane l into records[l] (TraceRecords layout, slot 0).
struct TransposeTrace {
  LaneTraceRecord* records = nullptr;
  int warp = 0;
  int write_side = 0;
};

/// Records element `index` of the global access at step j when the launch traces and this thread
/// is one the trace asks for: the read (`write` false) or the write (`write` true) side.
template <bool kTrace>
__device__ __forceinline__ void trace_global(const TransposeTrace& t, int j, bool write,
                                             int index) {
  if constexpr (kTrace) {
    const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    if (j == 0 && blockIdx.x == 0 && blockIdx.y == 0 && tid / 32 == t.warp &&
        (t.write_side != 0) == write) {
      const unsigned long long byte = static_cast<unsigned long long>(index) * 4ull;
      t.records[tid % 32] =
          LaneTraceRecord{static_cast<unsigned>(byte), static_cast<unsigned>(byte >> 32), 4u, 1u};
    }
  } else {
    (void)t;
    (void)j;
    (void)write;
    (void)index;
  }
}

// Copy and naive: straight from `in` to `out`, no tile.
template <int T, TransposeVariant V, bool kTrace>
__global__ void transpose_direct(const float* __restrict__ in, float* __restrict__ out, int n,
                                 TransposeTrace trace) {
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int bx = static_cast<int>(blockIdx.x), by = static_cast<int>(blockIdx.y);
  for (int j = 0; j < T; j += static_cast<int>(blockDim.y)) {
    const TransposeGlobalIndex g = transpose_global_index(V, T, n, tx, ty + j, bx, by);
    trace_global<kTrace>(trace, j, false, g.read);
    trace_global<kTrace>(trace, j, true, g.write);
    out[g.write] = in[g.read];
  }
}

// Tiled, padded and swizzled: the tile write (tile[ty + j][tx]) and the tile read
// (tile[tx][ty + j]) go through shared_element_index() with transpose_tile_index(), the
// parameters transpose_tile_write/read give the bank view; with V and T compile-time constants
// they fold to the plain expressions.
template <int T, TransposeVariant V, bool kTrace>
__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int n,
                                TransposeTrace trace) {
  __shared__ float tile[T * (T + 1)];
  const SharedIndexParams write = transpose_tile_index(V, T, false);
  const SharedIndexParams read = transpose_tile_index(V, T, true);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int bx = static_cast<int>(blockIdx.x), by = static_cast<int>(blockIdx.y);
  const int rows = static_cast<int>(blockDim.y);
  for (int j = 0; j < T; j += rows) {
    const int from = transpose_global_index(V, T, n, tx, ty + j, bx, by).read;
    trace_global<kTrace>(trace, j, false, from);
    tile[shared_element_index(tx, ty + j, T, rows, write)] = in[from];
  }
  __syncthreads();
  for (int j = 0; j < T; j += rows) {
    const int to = transpose_global_index(V, T, n, tx, ty + j, bx, by).write;
    trace_global<kTrace>(trace, j, true, to);
    out[to] = tile[shared_element_index(tx, ty + j, T, rows, read)];
  }
}

template <int T, bool kTrace>
void launch_transpose_tile(TransposeVariant v, dim3 grid, dim3 block, const float* in, float* out,
                           int n, const TransposeTrace& t, cudaStream_t s) {
  switch (v) {
    case TransposeVariant::Copy:
      transpose_direct<T, TransposeVariant::Copy, kTrace><<<grid, block, 0, s>>>(in, out, n, t);
      break;
    case TransposeVariant::Naive:
      transpose_direct<T, TransposeVariant::Naive, kTrace><<<grid, block, 0, s>>>(in, out, n, t);
      break;
    case TransposeVariant::Tiled:
      transpose_tiled<T, TransposeVariant::Tiled, kTrace><<<grid, block, 0, s>>>(in, out, n, t);
      break;
    case TransposeVariant::Padded:
      transpose_tiled<T, TransposeVariant::Padded, kTrace><<<grid, block, 0, s>>>(in, out, n, t);
      break;
    case TransposeVariant::Swizzled:
      transpose_tiled<T, TransposeVariant::Swizzled, kTrace><<<grid, block, 0, s>>>(in, out, n, t);
      break;
  }
}

template <bool kTrace>
void launch_transpose_traced(const TransposeParams& p, const float* in, float* out,
                             const TransposeTrace& t, cudaStream_t s) {
  // The trace records block (0, 0) only: the traced launch runs that block alone (it is made
  // on the GL thread); the timed one covers the n x n matrix.
  const auto tiles = kTrace ? 1u : static_cast<unsigned>(p.n / p.tile);
  const dim3 grid(tiles, tiles);
  const dim3 block(static_cast<unsigned>(p.tile), static_cast<unsigned>(p.rows_per_block));
  switch (p.tile) {
    case 8: launch_transpose_tile<8, kTrace>(p.variant, grid, block, in, out, p.n, t, s); break;
    case 16: launch_transpose_tile<16, kTrace>(p.variant, grid, block, in, out, p.n, t, s); break;
    case 32: launch_transpose_tile<32, kTrace>(p.variant, grid, block, in, out, p.n, t, s); break;
    default: throw GpuError("unsupported transpose tile " + std::to_string(p.tile));
  }
  check(cudaGetLastError(), kTrace ? "transpose kernel launch (trace)" : "transpose kernel launch");
}

/// The timed transpose.
void launch_transpose(const TransposeParams& p, const float* in, float* out, cudaStream_t s) {
  launch_transpose_traced<false>(p, in, out, TransposeTrace{}, s);
}

/// The transpose input: element i holds the bit pattern i, so every misplaced element shows.
__global__ void fill_iota(unsigned* p, long long count) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) p[i] = static_cast<unsigned>(i);
}

// --- matrix-multiply kernels -----------------------------------------------------------------

constexpr int kNaiveMatmulBlock = 16;

__global__ void matmul_naive(const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c, int n) {
  const int row = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int col = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

// The seeds' MatrixMul ("Example: Matrix Multiplication (4)"), BLOCK_SIZE as a template
// argument. The inner loop's blockA[ty][k] and blockB[k][tx] come from shared_element_index()
// with matmul_read_index(), which the bank view's matmul_read_a/b use; with k unrolled they fold
// to ty * BS + k and k * BS + tx.
template <int BS>
__global__ void matmul_tiled(const float* __restrict__ matA, const float* __restrict__ matB,
                             float* __restrict__ matC, int w) {
  __shared__ float blockA[BS * BS];
  __shared__ float blockB[BS * BS];
  const int bx = static_cast<int>(blockIdx.x), tx = static_cast<int>(threadIdx.x);
  const int by = static_cast<int>(blockIdx.y), ty = static_cast<int>(threadIdx.y);
  const int col = bx * BS + tx;
  const int row = by * BS + ty;
  float out = 0.0f;
  for (int m = 0; m < w / BS; m++) {
    blockA[ty * BS + tx] = matA[row * w + m * BS + tx];
    blockB[ty * BS + tx] = matB[col + (m * BS + ty) * w];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; k++) {
      out += blockA[shared_element_index(tx, ty, BS, BS, matmul_read_index(BS, k, false))] *
             blockB[shared_element_index(tx, ty, BS, BS, matmul_read_index(BS, k, true))];
    }
    __syncthreads();
  }
  matC[row * w + col] = out;
}

void launch_matmul(const MatmulParams& p, const float* a, const float* b, float* c,
                   cudaStream_t s) {
  const int bs = p.block_size == 0 ? kNaiveMatmulBlock : p.block_size;
  const auto blocks = static_cast<unsigned>(p.n / bs);
  const dim3 grid(blocks, blocks);
  const dim3 block(static_cast<unsigned>(bs), static_cast<unsigned>(bs));
  switch (p.block_size) {
    case 0: matmul_naive<<<grid, block, 0, s>>>(a, b, c, p.n); break;
    case 8: matmul_tiled<8><<<grid, block, 0, s>>>(a, b, c, p.n); break;
    case 16: matmul_tiled<16><<<grid, block, 0, s>>>(a, b, c, p.n); break;
    case 32: matmul_tiled<32><<<grid, block, 0, s>>>(a, b, c, p.n); break;
    default: throw GpuError("unsupported matrix-multiply block " + std::to_string(p.block_size));
  }
  check(cudaGetLastError(), "matrix-multiply kernel launch");
}

/// The matrix-multiply inputs: element i of the matrix with seed `seed`, uniform in [-1, 1) on a
/// 2^-23 grid (exact in float), from a counter-based hash (SplitMix64's finalizer), so the host
/// can recompute any element without a copy of the matrix.
__host__ __device__ inline float matmul_input(std::uint64_t i, std::uint32_t seed) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull * (seed + 1ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(static_cast<std::uint32_t>(z >> 40)) * (1.0f / 8388608.0f) - 1.0f;
}
constexpr std::uint32_t kSeedA = 1, kSeedB = 2;

__global__ void fill_matmul_input(float* p, long long count, std::uint32_t seed) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) p[i] = matmul_input(static_cast<std::uint64_t>(i), seed);
}

// --- reduction kernels -----------------------------------------------------------------------

__host__ __device__ constexpr int log2_of(int v) {
  return v <= 1 ? 0 : 1 + log2_of(v / 2);
}

// Harris's kernels 1-3: each block sums T elements in shared memory, step by step; the step's
// two operands come from shared_element_index() with reduction_index(), the parameters
// reduction_step gives the bank view. The step loop stays a loop (as in Harris's kernels), so
// the divergent kernel keeps its modulo by a run-time 2s.
template <int T, ReductionVariant V>
__global__ void __launch_bounds__(T)
    harris_reduce(const unsigned* __restrict__ in, unsigned* __restrict__ partial, long long n) {
  __shared__ unsigned sdata[T];
  const int tid = static_cast<int>(threadIdx.x);
  const long long i = blockIdx.x * static_cast<long long>(T) + tid;
  sdata[tid] = i < n ? in[i] : 0u;
  __syncthreads();
  constexpr int kSteps = log2_of(T);
#pragma unroll 1
  for (int step = 0; step < kSteps; ++step) {
    const SharedIndexParams first = reduction_index(V, T, step, false);
    if (shared_thread_active(tid, first)) {
      const SharedIndexParams second = reduction_index(V, T, step, true);
      sdata[shared_element_index(tid, 0, T, 1, first)] +=
          sdata[shared_element_index(tid, 0, T, 1, second)];
    }
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

template <int T>
void launch_reduce_threads(ReductionVariant v, unsigned blocks, const unsigned* in,
                           unsigned* partial, long long n, cudaStream_t s) {
  switch (v) {
    case ReductionVariant::InterleavedDivergent:
      harris_reduce<T, ReductionVariant::InterleavedDivergent><<<blocks, T, 0, s>>>(in, partial, n);
      break;
    case ReductionVariant::InterleavedStrided:
      harris_reduce<T, ReductionVariant::InterleavedStrided><<<blocks, T, 0, s>>>(in, partial, n);
      break;
    case ReductionVariant::Sequential:
      harris_reduce<T, ReductionVariant::Sequential><<<blocks, T, 0, s>>>(in, partial, n);
      break;
  }
}

void launch_reduce(const ReductionParams& p, const unsigned* in, unsigned* partial,
                   cudaStream_t s) {
  const auto blocks = static_cast<unsigned>((p.elements + p.block_threads - 1) / p.block_threads);
  switch (p.block_threads) {
    case 64: launch_reduce_threads<64>(p.variant, blocks, in, partial, p.elements, s); break;
    case 128: launch_reduce_threads<128>(p.variant, blocks, in, partial, p.elements, s); break;
    case 256: launch_reduce_threads<256>(p.variant, blocks, in, partial, p.elements, s); break;
    case 512: launch_reduce_threads<512>(p.variant, blocks, in, partial, p.elements, s); break;
    case 1024: launch_reduce_threads<1024>(p.variant, blocks, in, partial, p.elements, s); break;
    default: throw GpuError("unsupported reduction block " + std::to_string(p.block_threads));
  }
  check(cudaGetLastError(), "reduction kernel launch");
}

/// The reduction input: element i = i x 2654435761 + 12345 (mod 2^32), whose sum has a closed
/// form the host checks against.
constexpr std::uint32_t kReduceMultiplier = 2654435761u, kReduceAddend = 12345u;

__host__ __device__ inline std::uint32_t reduction_input(std::uint64_t i) {
  return static_cast<std::uint32_t>(i) * kReduceMultiplier + kReduceAddend;
}

__global__ void fill_reduction_input(unsigned* p, long long count) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < count) p[i] = reduction_input(static_cast<std::uint64_t>(i));
}

/// Sum of reduction_input(i) for i < n, mod 2^32.
std::uint32_t reduction_sum(std::uint64_t n) {
  const std::uint64_t pairs = n % 2 == 0 ? (n / 2) * (n - 1) : n * ((n - 1) / 2);  // n(n-1)/2
  return static_cast<std::uint32_t>(pairs) * kReduceMultiplier +
         static_cast<std::uint32_t>(n) * kReduceAddend;
}

unsigned grid_for(long long count, int threads) {
  return static_cast<unsigned>((count + threads - 1) / threads);
}

/// Free device memory plus what `held` already occupies (it is freed before a reallocation).
std::int64_t free_bytes_with(std::initializer_list<const DeviceBuffer*> held) {
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  auto bytes = static_cast<std::int64_t>(free);
  for (const DeviceBuffer* b : held) bytes += static_cast<std::int64_t>(b->bytes);
  return bytes;
}

std::string format_number(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*g", digits, v);
  return text;
}

}  // namespace

// --- SharedLab ---------------------------------------------------------------------------------

struct SharedLab::Impl {
  DeviceInfo device;
  cudaStream_t stream = nullptr;             // measure*
  cudaStream_t trace_stream = nullptr;       // trace_bank_to_device, trace_transpose_to_device
  DeviceBuffer trace;                        // scratch for trace_*_to_host
  DeviceBuffer sink;                         // kSinkWords, written only on request
  DeviceBuffer clocks;                       // per-block clocks of measure_bank
  DeviceBuffer transpose_in, transpose_out;  // guarded by transpose_mutex
  std::mutex transpose_mutex;  // held by measure_transpose and trace_transpose_to_device
  DeviceBuffer matmul_a, matmul_b, matmul_c;
  DeviceBuffer reduce_in, reduce_partial;

  ~Impl() {
    if (stream) cudaStreamDestroy(stream);
    if (trace_stream) cudaStreamDestroy(trace_stream);
  }

  /// The transpose buffers for `elements` floats each (transpose_mutex held): reallocated when
  /// the size changes, the input then filled with element i = bit pattern i on stream `s` (and
  /// waited for, so that a launch on the other stream sees it).
  void ensure_transpose_buffers(long long elements, cudaStream_t s) {
    const auto bytes = static_cast<std::size_t>(elements) * 4;
    if (transpose_in.ensure(bytes, "the transpose input")) {
      try {
        fill_iota<<<grid_for(elements, 256), 256, 0, s>>>(transpose_in.as<unsigned>(), elements);
        check(cudaGetLastError(), "fill launch");
        check(cudaStreamSynchronize(s), "fill");
      } catch (...) {
        transpose_in.release();  // not filled: the next call allocates and fills again
        throw;
      }
    }
    transpose_out.ensure(bytes, "the transpose output");
  }

  /// Lets `k` use more than 48 KiB of dynamic shared memory when the pattern needs it.
  void allow_shared(BankKernel k, int shared_bytes) const {
    if (shared_bytes <= 48 * 1024) return;
    check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               device.shared_bytes_per_block_optin),
          "cudaFuncSetAttribute (dynamic shared memory)");
  }
};

SharedLab::SharedLab(const DeviceInfo& device) : impl_(new Impl) {
  impl_->device = device;
  use_device(device.index);
  check(cudaStreamCreateWithFlags(&impl_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cudaStreamCreateWithFlags(&impl_->trace_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  impl_->trace.ensure(kTraceBufferBytes, "the bank trace buffer");
  impl_->sink.ensure(kSinkWords * sizeof(unsigned), "the bank probe sink");
}

SharedLab::~SharedLab() = default;

void* SharedLab::trace_stream() const {
  return impl_->trace_stream;
}

namespace {

int active_threads(const BankProbeParams& p) {
  int active = 0;
  for (int tid = 0; tid < p.block_x * p.block_y; ++tid)
    active += shared_thread_active(tid, p.index);
  return active;
}

}  // namespace

// --- bank probe --------------------------------------------------------------------------------

void SharedLab::trace_bank_to_device(const BankProbeParams& params, int warp, void* device_dst) {
  use_device(impl_->device.index);
  const BankPlan plan = plan_bank_probe(params, impl_->device.shared_bytes_per_block_optin);
  check_block_warp(params.block_x, params.block_y, warp);
  auto* records = static_cast<LaneTraceRecord*>(device_dst);
  check(cudaMemsetAsync(records, 0, kTraceBufferBytes, impl_->trace_stream), "cudaMemset (trace)");
  BankArgs args;
  args.index = params.index;
  args.fill_vectors = plan.shared_bytes / 16;
  args.repeats = kBankUnroll;
  args.warp = warp;
  args.trace = records;
  args.sink = impl_->sink.as<unsigned>();
  const BankKernel k = bank_kernel<BankMode::Trace>(params.index.word_bytes, params.op);
  impl_->allow_shared(k, plan.shared_bytes);
  const dim3 block(static_cast<unsigned>(params.block_x), static_cast<unsigned>(params.block_y));
  k<<<1, block, static_cast<std::size_t>(plan.shared_bytes), impl_->trace_stream>>>(args);
  check(cudaGetLastError(), "bank probe launch (trace)");
  check(cudaStreamSynchronize(impl_->trace_stream), "bank probe (trace)");
}

TraceRecords SharedLab::trace_bank_to_host(const BankProbeParams& params, int warp) {
  trace_bank_to_device(params, warp, impl_->trace.ptr);
  TraceRecords host{};
  check(cudaMemcpy(host.data(), impl_->trace.ptr, kTraceBufferBytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy (trace)");
  return host;
}

void SharedLab::launch_bank_once(const BankProbeParams& params, int repeats) {
  Impl& im = *impl_;
  use_device(im.device.index);
  const BankPlan plan = plan_bank_probe(params, im.device.shared_bytes_per_block_optin);
  const int blocks = std::max(im.device.sm_count, 1);
  BankArgs args;
  args.index = params.index;
  // The fill is 16-byte shared stores: harmless to a load probe's load counters, but it would
  // add requests of its own to a store probe's, so a store probe (which needs no data) skips it.
  args.fill_vectors = params.op == SharedOp::Store ? 0 : plan.shared_bytes / 16;
  args.repeats = std::max(kBankUnroll, (repeats + kBankUnroll - 1) / kBankUnroll * kBankUnroll);
  args.sink = im.sink.as<unsigned>();
  const std::size_t clock_bytes = static_cast<std::size_t>(blocks) * 3 * sizeof(unsigned long long);
  im.clocks.ensure_at_least(clock_bytes, "the bank probe clocks");
  args.clocks = im.clocks.as<unsigned long long>();
  const BankKernel whole = bank_kernel<BankMode::Gpu>(params.index.word_bytes, params.op);
  im.allow_shared(whole, plan.shared_bytes);
  const dim3 block(static_cast<unsigned>(params.block_x), static_cast<unsigned>(params.block_y));
  whole<<<static_cast<unsigned>(blocks), block, static_cast<std::size_t>(plan.shared_bytes),
          im.stream>>>(args);
  check(cudaGetLastError(), "bank probe launch (single)");
  check(cudaStreamSynchronize(im.stream), "bank probe (single launch)");
}

BankMeasurement SharedLab::measure_bank(const BankProbeParams& params, int warp, int runs,
                                        int warmup, const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  use_device(im.device.index);
  BankMeasurement m;
  m.params = params;
  m.plan = plan_bank_probe(params, im.device.shared_bytes_per_block_optin);
  check_block_warp(params.block_x, params.block_y, warp);
  m.repeats = kBankRepeats;
  const dim3 block(static_cast<unsigned>(params.block_x), static_cast<unsigned>(params.block_y));
  const auto shared = static_cast<std::size_t>(m.plan.shared_bytes);
  BankArgs args;
  args.index = params.index;
  args.fill_vectors = m.plan.shared_bytes / 16;
  args.repeats = kBankRepeats;
  args.warp = warp;
  args.sink = im.sink.as<unsigned>();

  // One warp alone: the best of three spans (the least disturbed).
  const BankKernel one = bank_kernel<BankMode::OneWarp>(params.index.word_bytes, params.op);
  im.allow_shared(one, m.plan.shared_bytes);
  const BankKernel whole = bank_kernel<BankMode::Gpu>(params.index.word_bytes, params.op);
  im.allow_shared(whole, m.plan.shared_bytes);
  int per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, whole, m.plan.threads, shared),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const int sms = std::max(im.device.sm_count, 1);
  const int blocks = std::max(per_sm * sms, 2 * sms);
  im.clocks.ensure_at_least(static_cast<std::size_t>(blocks) * 3 * sizeof(unsigned long long),
                            "the bank probe clocks");
  args.clocks = im.clocks.as<unsigned long long>();

  double best = 0;
  for (int i = 0; i < 3; ++i) {
    check_cancel(cancel);
    one<<<1, block, shared, im.stream>>>(args);
    check(cudaGetLastError(), "bank probe launch (one warp)");
    unsigned long long span[2] = {0, 0};
    check(cudaMemcpyAsync(span, args.clocks, sizeof span, cudaMemcpyDeviceToHost, im.stream),
          "cudaMemcpy (clocks)");
    check(cudaStreamSynchronize(im.stream), "bank probe (one warp)");
    const double cycles =
        static_cast<double>(static_cast<long long>(span[1] - span[0])) / kBankRepeats;
    best = i == 0 ? cycles : std::min(best, cycles);
  }
  m.cycles_per_request = best;

  // The whole GPU.
  const std::int64_t bytes_per_block =
      std::int64_t{active_threads(params)} * params.index.word_bytes * kBankRepeats;
  std::vector<unsigned long long> host(static_cast<std::size_t>(blocks) * 3);
  std::vector<double> per_clock, clock_mhz;
  struct Span {
    unsigned long long start = ~0ull, end = 0;
    int blocks = 0;
  };
  m.timing = time_launches(
      im.stream, runs, warmup, cancel, {"bank probe (warm-up)"},
      [&] {
        whole<<<static_cast<unsigned>(blocks), block, shared, im.stream>>>(args);
        check(cudaGetLastError(), "bank probe launch");
      },
      [&](float ms) {
        check(cudaMemcpyAsync(host.data(), args.clocks, host.size() * sizeof host[0],
                              cudaMemcpyDeviceToHost, im.stream),
              "cudaMemcpy (clocks)");
        check(cudaStreamSynchronize(im.stream), "bank probe");
        std::map<unsigned long long, Span> sm;
        for (int b = 0; b < blocks; ++b) {
          Span& s = sm[host[3 * b + 2]];
          s.start = std::min(s.start, host[3 * b]);
          s.end = std::max(s.end, host[3 * b + 1]);
          ++s.blocks;
        }
        double rate = 0, cycles = 0;
        for (const auto& [id, s] : sm) {
          const auto span =
              static_cast<double>(std::max<long long>(static_cast<long long>(s.end - s.start), 1));
          rate += static_cast<double>(bytes_per_block) * s.blocks / span;
          cycles += span;
        }
        const auto count = static_cast<double>(std::max<std::size_t>(sm.size(), 1));
        per_clock.push_back(rate / count);
        clock_mhz.push_back(cycles / count / (static_cast<double>(ms) * 1e3));
      });
  m.gbps = static_cast<double>(bytes_per_block) * blocks / (m.timing.median_ms * 1e-3) / 1e9;
  m.bytes_per_clock_per_sm = median_of(per_clock);
  m.sm_clock_mhz = median_of(clock_mhz);
  m.fraction_of_limit = m.bytes_per_clock_per_sm / 128.0;
  return m;
}

// --- transpose ---------------------------------------------------------------------------------

void SharedLab::launch_transpose_once(const TransposeParams& params) {
  Impl& im = *impl_;
  use_device(im.device.index);
  const std::lock_guard lock(im.transpose_mutex);
  check_transpose(params, free_bytes_with({&im.transpose_in, &im.transpose_out}));
  const long long elements = static_cast<long long>(params.n) * params.n;
  im.ensure_transpose_buffers(elements, im.stream);
  launch_transpose(params, im.transpose_in.as<const float>(), im.transpose_out.as<float>(),
                   im.stream);
  check(cudaGetLastError(), "transpose launch");
  check(cudaStreamSynchronize(im.stream), "transpose");
}

TransposeMeasurement SharedLab::measure_transpose(const TransposeParams& params, int runs,
                                                  int warmup, const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  use_device(im.device.index);
  const std::lock_guard lock(im.transpose_mutex);
  check_transpose(params, free_bytes_with({&im.transpose_in, &im.transpose_out}));
  TransposeMeasurement m;
  m.params = params;
  const long long elements = static_cast<long long>(params.n) * params.n;
  const auto bytes = static_cast<std::size_t>(elements) * 4;
  im.ensure_transpose_buffers(elements, im.stream);
  // Not the answer: an output the kernel failed to write shows.
  check(cudaMemsetAsync(im.transpose_out.ptr, 0xff, bytes, im.stream), "cudaMemset");
  const auto* in = im.transpose_in.as<const float>();
  auto* out = im.transpose_out.as<float>();
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"transpose (warm-up)"},
                           [&] { launch_transpose(params, in, out, im.stream); });
  m.gbps = 2.0 * static_cast<double>(bytes) / (m.timing.median_ms * 1e-3) / 1e9;

  std::vector<std::uint32_t> host(static_cast<std::size_t>(elements));
  check(cudaMemcpyAsync(host.data(), out, bytes, cudaMemcpyDeviceToHost, im.stream),
        "cudaMemcpy (transpose output)");
  check(cudaStreamSynchronize(im.stream), "transpose");
  const long long n = params.n;
  const bool transposed = params.variant != TransposeVariant::Copy;
  long long wrong = 0, first_r = 0, first_c = 0;
  std::uint32_t got = 0, want = 0;
  for (long long r = 0; r < n; ++r) {
    for (long long c = 0; c < n; ++c) {
      // out[r][c] should hold in[c][r] (transposes) or in[r][c] (copy)
      const auto expected = static_cast<std::uint32_t>(transposed ? c * n + r : r * n + c);
      const std::uint32_t value = host[static_cast<std::size_t>(r * n + c)];
      if (value != expected) {
        if (wrong == 0) {
          first_r = r;
          first_c = c;
          got = value;
          want = expected;
        }
        ++wrong;
      }
    }
  }
  m.verified = wrong == 0;
  m.check = m.verified ? "all " + std::to_string(elements) +
                             " elements checked: out = " + (transposed ? "transpose(in)" : "in")
                       : std::to_string(wrong) + " of " + std::to_string(elements) +
                             " elements wrong; first at row " + std::to_string(first_r) +
                             ", column " + std::to_string(first_c) + ": got element " +
                             std::to_string(got) + ", expected " + std::to_string(want);
  return m;
}

void SharedLab::trace_transpose_to_device(const TransposeParams& params, int warp, bool write_side,
                                          void* device_dst) {
  const std::lock_guard lock(impl_->transpose_mutex);
  trace_transpose_locked(params, warp, write_side, device_dst);
}

bool SharedLab::try_trace_transpose_to_device(const TransposeParams& params, int warp,
                                              bool write_side, void* device_dst) {
  const std::unique_lock lock(impl_->transpose_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return false;
  trace_transpose_locked(params, warp, write_side, device_dst);
  return true;
}

void SharedLab::trace_transpose_locked(const TransposeParams& params, int warp, bool write_side,
                                       void* device_dst) {
  Impl& im = *impl_;
  use_device(im.device.index);
  check_transpose(params, free_bytes_with({&im.transpose_in, &im.transpose_out}));
  check_block_warp(params.tile, params.rows_per_block, warp);
  const long long elements = static_cast<long long>(params.n) * params.n;
  im.ensure_transpose_buffers(elements, im.trace_stream);
  auto* records = static_cast<LaneTraceRecord*>(device_dst);
  check(cudaMemsetAsync(records, 0, kTraceBufferBytes, im.trace_stream), "cudaMemset (trace)");
  TransposeTrace trace;
  trace.records = records;
  trace.warp = warp;
  trace.write_side = write_side ? 1 : 0;
  launch_transpose_traced<true>(params, im.transpose_in.as<const float>(),
                                im.transpose_out.as<float>(), trace, im.trace_stream);
  check(cudaStreamSynchronize(im.trace_stream), "transpose (trace)");
}

TraceRecords SharedLab::trace_transpose_to_host(const TransposeParams& params, int warp,
                                                bool write_side) {
  trace_transpose_to_device(params, warp, write_side, impl_->trace.ptr);
  TraceRecords host{};
  check(cudaMemcpy(host.data(), impl_->trace.ptr, kTraceBufferBytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy (trace)");
  return host;
}

// --- matrix multiply ---------------------------------------------------------------------------

MatmulMeasurement SharedLab::measure_matmul(const MatmulParams& params, int runs, int warmup,
                                            const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  use_device(im.device.index);
  check_matmul(params, free_bytes_with({&im.matmul_a, &im.matmul_b, &im.matmul_c}));
  MatmulMeasurement m;
  m.params = params;
  const long long n = params.n;
  const long long elements = n * n;
  const auto bytes = static_cast<std::size_t>(elements) * 4;
  if (im.matmul_a.ensure(bytes, "matrix A")) {
    fill_matmul_input<<<grid_for(elements, 256), 256, 0, im.stream>>>(im.matmul_a.as<float>(),
                                                                      elements, kSeedA);
    check(cudaGetLastError(), "fill launch");
  }
  if (im.matmul_b.ensure(bytes, "matrix B")) {
    fill_matmul_input<<<grid_for(elements, 256), 256, 0, im.stream>>>(im.matmul_b.as<float>(),
                                                                      elements, kSeedB);
    check(cudaGetLastError(), "fill launch");
  }
  im.matmul_c.ensure(bytes, "matrix C");
  check(cudaMemsetAsync(im.matmul_c.ptr, 0xff, bytes, im.stream), "cudaMemset");  // NaNs
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"matrix multiply (warm-up)"}, [&] {
    launch_matmul(params, im.matmul_a.as<const float>(), im.matmul_b.as<const float>(),
                  im.matmul_c.as<float>(), im.stream);
  });
  m.gflops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) /
             (m.timing.median_ms * 1e-3) / 1e9;

  // 16 rows x 16 columns spread over C, corners included, recomputed in double precision.
  constexpr int kPicks = 16;
  std::vector<long long> picks(kPicks);
  for (int i = 0; i < kPicks; ++i) picks[i] = i * (n - 1) / (kPicks - 1);
  std::vector<float> rows(static_cast<std::size_t>(kPicks * n));
  for (int i = 0; i < kPicks; ++i) {
    check(cudaMemcpyAsync(rows.data() + i * n, im.matmul_c.as<float>() + picks[i] * n,
                          static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost, im.stream),
          "cudaMemcpy (C)");
  }
  check(cudaStreamSynchronize(im.stream), "matrix multiply");
  std::vector<float> a_rows(static_cast<std::size_t>(kPicks * n)),
      b_cols(static_cast<std::size_t>(kPicks * n));
  for (int i = 0; i < kPicks; ++i) {
    for (long long k = 0; k < n; ++k) {
      a_rows[i * n + k] = matmul_input(static_cast<std::uint64_t>(picks[i] * n + k), kSeedA);
      b_cols[i * n + k] = matmul_input(static_cast<std::uint64_t>(k * n + picks[i]), kSeedB);
    }
  }
  double worst = 0;
  long long worst_r = 0, worst_c = 0;
  for (int i = 0; i < kPicks; ++i) {
    for (int j = 0; j < kPicks; ++j) {
      double sum = 0, magnitude = 0;
      for (long long k = 0; k < n; ++k) {
        const double p = static_cast<double>(a_rows[i * n + k]) * b_cols[j * n + k];
        sum += p;
        magnitude += std::fabs(p);
      }
      const double got = rows[i * n + picks[j]];
      const double error = std::isfinite(got) ? std::fabs(got - sum) / std::max(magnitude, 1e-30)
                                              : std::numeric_limits<double>::infinity();
      if (!(error <= worst)) {
        worst = error;
        worst_r = picks[i];
        worst_c = picks[j];
      }
    }
  }
  m.checked_entries = kPicks * kPicks;
  m.max_relative_error = worst;
  m.verified = worst < 1e-4;
  m.check = std::to_string(m.checked_entries) +
            " entries of C recomputed in double precision: largest error " +
            format_number(worst, 3) + " of sum |a||b| (at row " + std::to_string(worst_r) +
            ", column " + std::to_string(worst_c) + ")" + (m.verified ? "" : ", above 1e-4");
  return m;
}

// --- reduction ---------------------------------------------------------------------------------

ReductionMeasurement SharedLab::measure_reduction(const ReductionParams& params, int runs,
                                                  int warmup, const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  use_device(im.device.index);
  check_reduction(params, free_bytes_with({&im.reduce_in, &im.reduce_partial}));
  ReductionMeasurement m;
  m.params = params;
  const long long n = params.elements;
  const long long blocks = (n + params.block_threads - 1) / params.block_threads;
  if (im.reduce_in.ensure(static_cast<std::size_t>(n) * 4, "the reduction input")) {
    fill_reduction_input<<<grid_for(n, 256), 256, 0, im.stream>>>(im.reduce_in.as<unsigned>(), n);
    check(cudaGetLastError(), "fill launch");
  }
  const auto partial_bytes = static_cast<std::size_t>(blocks) * 4;
  im.reduce_partial.ensure(partial_bytes, "the reduction's block sums");
  check(cudaMemsetAsync(im.reduce_partial.ptr, 0xff, partial_bytes, im.stream), "cudaMemset");
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"reduction (warm-up)"}, [&] {
    launch_reduce(params, im.reduce_in.as<const unsigned>(), im.reduce_partial.as<unsigned>(),
                  im.stream);
  });
  m.gbps = static_cast<double>(n) * 4 / (m.timing.median_ms * 1e-3) / 1e9;

  std::vector<std::uint32_t> partial(static_cast<std::size_t>(blocks));
  check(cudaMemcpyAsync(partial.data(), im.reduce_partial.ptr, partial_bytes,
                        cudaMemcpyDeviceToHost, im.stream),
        "cudaMemcpy (block sums)");
  check(cudaStreamSynchronize(im.stream), "reduction");
  std::uint32_t total = 0;
  for (std::uint32_t p : partial) total += p;
  const std::uint32_t expected = reduction_sum(static_cast<std::uint64_t>(n));
  // The first block's sum on its own too: a right total from wrong block sums is unlikely, but
  // this names the failing part when there is one.
  std::uint32_t first = 0;
  for (long long i = 0; i < std::min<long long>(n, params.block_threads); ++i)
    first += reduction_input(static_cast<std::uint64_t>(i));
  m.verified = total == expected && partial.front() == first;
  m.check = m.verified ? std::to_string(blocks) + " block sums add up to the CPU's sum " +
                             std::to_string(expected) + " (mod 2^32)"
            : total != expected
                ? "the block sums add up to " + std::to_string(total) + ", the CPU's sum is " +
                      std::to_string(expected) + " (mod 2^32)"
                : "block 0 summed to " + std::to_string(partial.front()) + ", expected " +
                      std::to_string(first);
  return m;
}

}  // namespace warplens::gpu
