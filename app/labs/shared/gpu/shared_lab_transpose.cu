// The shared-memory lab's transpose (after NVIDIA's transpose sample): the copy, naive, tiled,
// padded, swizzled and vectorized kernels, their launchers (timed, and traced for the global and
// bank views), and SharedLab's transpose entry points, which verify every element of the output.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "shared_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using namespace detail;  // shared_lab_internal.cuh: check, grid_for, time_launches, ...

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

/// Records element `index` of the global access at step j, `bytes` wide (4 x the floats it
/// moves), when the launch traces and this thread is one the trace asks for: the read (`write`
/// false) or the write (`write` true) side.
template <bool kTrace>
__device__ __forceinline__ void trace_global(const TransposeTrace& t, int j, bool write, int index,
                                             unsigned bytes = 4u) {
  if constexpr (kTrace) {
    const int tid = static_cast<int>(threadIdx.y * blockDim.x + threadIdx.x);
    if (j == 0 && blockIdx.x == 0 && blockIdx.y == 0 && tid / 32 == t.warp &&
        (t.write_side != 0) == write) {
      const unsigned long long byte = static_cast<unsigned long long>(index) * 4ull;
      t.records[tid % 32] = LaneTraceRecord{static_cast<unsigned>(byte),
                                            static_cast<unsigned>(byte >> 32), bytes, 1u};
    }
  } else {
    (void)t;
    (void)j;
    (void)write;
    (void)index;
    (void)bytes;
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
// (tile[tx][ty + j]) go through shared_fixed_element_index() with transpose_tile_index(), the
// parameters transpose_tile_write/read give the bank view; with V and T compile-time constants
// they fold to the plain expressions.
template <int T, TransposeVariant V, bool kTrace>
__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int n,
                                TransposeTrace trace) {
  __shared__ float tile[T * (T + 1)];
  const SharedFixedIndex write = transpose_tile_index(V, T, false);
  const SharedFixedIndex read = transpose_tile_index(V, T, true);
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int bx = static_cast<int>(blockIdx.x), by = static_cast<int>(blockIdx.y);
  const int rows = static_cast<int>(blockDim.y);
  for (int j = 0; j < T; j += rows) {
    const int from = transpose_global_index(V, T, n, tx, ty + j, bx, by).read;
    trace_global<kTrace>(trace, j, false, from);
    tile[shared_fixed_element_index(tx, ty + j, T, rows, write)] = in[from];
  }
  __syncthreads();
  for (int j = 0; j < T; j += rows) {
    const int to = transpose_global_index(V, T, n, tx, ty + j, bx, by).write;
    trace_global<kTrace>(trace, j, true, to);
    out[to] = tile[shared_fixed_element_index(tx, ty + j, T, rows, read)];
  }
}

// Vectorized: the padded kernel with more bytes in flight per thread (CUDA C++ Best Practices
// Guide, "Coalesced Access to Global Memory" and "Memory Instructions"; NVIDIA's "An Efficient
// Matrix Transpose in CUDA C/C++" stops at the padded tile). A block of T x rows threads moves a
// 2T x 2T tile, tile[2T][2T + 1], with one float2 (8 bytes a lane, a warp's row 256 contiguous
// bytes) per global access: each thread has 2T / rows loads in flight before its first shared
// store, four times the padded kernel's bytes with half its global instructions per byte. The
// float2 lands as two words, tile[ty + j][2 tx + k], and each stored float2 gathers
// tile[2 tx + k][ty + j] (shared_fixed_element_index() with transpose_tile_index(.., k)). kRows is
// the block's rows as a template argument (0: blockDim.y, for the traced launch), so the timed
// kernel's loops unroll and every load of a phase is issued before the first shared store.
template <int T, int kRows, bool kTrace>
__global__ void transpose_vectorized(const float* __restrict__ in, float* __restrict__ out, int n,
                                     TransposeTrace trace) {
  constexpr TransposeVariant V = TransposeVariant::Vectorized;
  constexpr int B = transpose_block_tile(V, T), BX = transpose_block_x(V, T);
  static_assert(transpose_access_floats(V) == 2, "the kernel moves float2");
  constexpr unsigned kBytes = sizeof(float2);
  __shared__ float tile[B * (B + 1)];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  const int bx = static_cast<int>(blockIdx.x), by = static_cast<int>(blockIdx.y);
  const int rows = kRows > 0 ? kRows : static_cast<int>(blockDim.y);
  const SharedFixedIndex write0 = transpose_tile_index(V, T, false, 0);
  const SharedFixedIndex write1 = transpose_tile_index(V, T, false, 1);
  const SharedFixedIndex read0 = transpose_tile_index(V, T, true, 0);
  const SharedFixedIndex read1 = transpose_tile_index(V, T, true, 1);
#pragma unroll 16
  for (int j = 0; j < B; j += rows) {
    const int from = transpose_global_index(V, T, n, tx, ty + j, bx, by).read;
    trace_global<kTrace>(trace, j, false, from, kBytes);
    const float2 v = *reinterpret_cast<const float2*>(in + from);
    tile[shared_fixed_element_index(tx, ty + j, BX, rows, write0)] = v.x;
    tile[shared_fixed_element_index(tx, ty + j, BX, rows, write1)] = v.y;
  }
  __syncthreads();
#pragma unroll 16
  for (int j = 0; j < B; j += rows) {
    const int to = transpose_global_index(V, T, n, tx, ty + j, bx, by).write;
    trace_global<kTrace>(trace, j, true, to, kBytes);
    float2 v;
    v.x = tile[shared_fixed_element_index(tx, ty + j, BX, rows, read0)];
    v.y = tile[shared_fixed_element_index(tx, ty + j, BX, rows, read1)];
    *reinterpret_cast<float2*>(out + to) = v;
  }
}

/// The vectorized kernel for the block's rows: a template argument for the timed launch
/// (rows divides T, check_transpose), blockDim.y for the traced one.
template <int T, bool kTrace>
void launch_transpose_vectorized(dim3 grid, dim3 block, const float* in, float* out, int n,
                                 const TransposeTrace& t, cudaStream_t s) {
  if constexpr (kTrace) {
    transpose_vectorized<T, 0, true><<<grid, block, 0, s>>>(in, out, n, t);
  } else {
    switch (block.y) {
      case 1: transpose_vectorized<T, 1, false><<<grid, block, 0, s>>>(in, out, n, t); break;
      case 2: transpose_vectorized<T, 2, false><<<grid, block, 0, s>>>(in, out, n, t); break;
      case 4: transpose_vectorized<T, 4, false><<<grid, block, 0, s>>>(in, out, n, t); break;
      case 8: transpose_vectorized<T, 8, false><<<grid, block, 0, s>>>(in, out, n, t); break;
      case 16: transpose_vectorized<T, 16, false><<<grid, block, 0, s>>>(in, out, n, t); break;
      case 32: transpose_vectorized<T, 32, false><<<grid, block, 0, s>>>(in, out, n, t); break;
      default: throw GpuError("unsupported transpose rows " + std::to_string(block.y));
    }
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
    case TransposeVariant::Vectorized:
      launch_transpose_vectorized<T, kTrace>(grid, block, in, out, n, t, s);
      break;
  }
}

template <bool kTrace>
void launch_transpose_traced(const TransposeParams& p, const float* in, float* out,
                             const TransposeTrace& t, cudaStream_t s) {
  // The trace records block (0, 0) only: the traced launch runs that block alone (it is made
  // on the GL thread); the timed one covers the n x n matrix.
  const auto tiles =
      kTrace ? 1u : static_cast<unsigned>(p.n / transpose_block_tile(p.variant, p.tile));
  const dim3 grid(tiles, tiles);
  const dim3 block(static_cast<unsigned>(transpose_block_x(p.variant, p.tile)),
                   static_cast<unsigned>(p.rows_per_block));
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

/// What check_transpose_output finds: how many elements are wrong, and the first wrong one's
/// linear index (~0 when none is).
struct TransposeCheck {
  unsigned long long wrong;
  unsigned long long first;
};

/// Checks every element of the n x n output where the GPU holds it (a host copy of 256 MiB per
/// variant took most of a transpose measurement): out[r][c] should be in[c][r], i.e. the bit
/// pattern c * n + r (transposes), or r * n + c (copy). The wrong ones are counted a warp at a
/// time; the first one's index is kept by atomicMin.
__global__ void check_transpose_output(const unsigned* out, long long n, bool transposed,
                                       TransposeCheck* result) {
  const long long count = n * n;
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += step) {
    const long long r = i / n, c = i % n;
    const auto expected = static_cast<unsigned>(transposed ? c * n + r : i);
    const bool wrong = out[i] != expected;
    const unsigned mask = __ballot_sync(__activemask(), wrong);
    if (wrong) {
      if ((threadIdx.x & 31u) == static_cast<unsigned>(__ffs(static_cast<int>(mask)) - 1))
        atomicAdd(&result->wrong, static_cast<unsigned long long>(__popc(mask)));
      atomicMin(&result->first, static_cast<unsigned long long>(i));
    }
  }
}

}  // namespace

void SharedLab::Impl::ensure_transpose_buffers(long long elements, cudaStream_t s) {
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

  im.transpose_check.ensure(sizeof(TransposeCheck), "the transpose check");
  auto* result = im.transpose_check.as<TransposeCheck>();
  const TransposeCheck none{0, ~0ull};
  check(cudaMemcpyAsync(result, &none, sizeof none, cudaMemcpyHostToDevice, im.stream),
        "cudaMemcpy (transpose check)");
  const bool transposed = params.variant != TransposeVariant::Copy;
  check_transpose_output<<<static_cast<unsigned>(im.device.sm_count) * 8u, 256, 0, im.stream>>>(
      im.transpose_out.as<const unsigned>(), params.n, transposed, result);
  check(cudaGetLastError(), "transpose check launch");
  TransposeCheck found{};
  check(cudaMemcpyAsync(&found, result, sizeof found, cudaMemcpyDeviceToHost, im.stream),
        "cudaMemcpy (transpose check)");
  check(cudaStreamSynchronize(im.stream), "transpose");
  const long long n = params.n;
  const auto wrong = static_cast<long long>(found.wrong);
  long long first_r = 0, first_c = 0;
  std::uint32_t got = 0, want = 0;
  if (wrong > 0) {
    first_r = static_cast<long long>(found.first) / n;
    first_c = static_cast<long long>(found.first) % n;
    check(cudaMemcpy(&got, out + found.first, sizeof got, cudaMemcpyDeviceToHost),
          "cudaMemcpy (the first wrong element)");
    want = static_cast<std::uint32_t>(transposed ? first_c * n + first_r : first_r * n + first_c);
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
  check_block_warp(transpose_block_x(params.variant, params.tile), params.rows_per_block, warp);
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

}  // namespace warplens::gpu
