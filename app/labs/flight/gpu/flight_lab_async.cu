// The bytes-in-flight lab's staged copies: the copy through a ring of shared-memory stages,
// filled by cp.async (CC >= 8.0, the pipeline primitives of cuda_pipeline_primitives.h) or by
// the Tensor Memory Accelerator's bulk copies (cp.async.bulk with an mbarrier, CC 9.0, written
// in PTX: PTX ISA "cp.async.bulk", "mbarrier"). Few threads keep many bytes in flight: the
// stages are in flight, not registers. The host refuses a kind the GPU lacks before launching
// (async_unsupported, flight_plan.cpp); the device code is guarded by __CUDA_ARCH__ as well.
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "flight_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::time_launches;
using detail::use_device;

constexpr int kCpTileVectors = kCpAsyncThreads * kCpAsyncVectors;  // uint4 per stage

/// Tiles blockIdx.x, + gridDim.x, ... of kCpTileVectors 16-byte vectors. Thread t copies vectors
/// t, t + threads, ... of each tile into its stage and later writes those same vectors out, so
/// no thread reads what another wrote (no barrier needed). kCpAsyncStages - 1 tiles in flight.
__global__ void __launch_bounds__(kCpAsyncThreads)
    cp_async_copy(const uint4* in, uint4* out, long long tiles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ uint4 stage[];
  const int t = static_cast<int>(threadIdx.x);
  const auto issue = [&](long long tile, int slot) {
    if (tile < tiles) {
#pragma unroll
      for (int v = 0; v < kCpAsyncVectors; ++v) {
        const int e = v * kCpAsyncThreads + t;
        __pipeline_memcpy_async(&stage[slot * kCpTileVectors + e], &in[tile * kCpTileVectors + e],
                                16);
      }
    }
    __pipeline_commit();  // an empty group past the end keeps the count of groups regular
  };
  const long long first = blockIdx.x, step = gridDim.x;
  for (int s = 0; s < kCpAsyncStages - 1; ++s) issue(first + s * step, s);
  int i = 0;
  for (long long tile = first; tile < tiles; tile += step, ++i) {
    issue(tile + (kCpAsyncStages - 1) * step, (i + kCpAsyncStages - 1) % kCpAsyncStages);
    __pipeline_wait_prior(kCpAsyncStages - 1);  // this tile's group has landed
    const int slot = i % kCpAsyncStages;
#pragma unroll
    for (int v = 0; v < kCpAsyncVectors; ++v) {
      const int e = v * kCpAsyncThreads + t;
      out[tile * kCpTileVectors + e] = stage[slot * kCpTileVectors + e];
    }
  }
  __pipeline_wait_prior(0);
#else
  (void)in;
  (void)out;
  (void)tiles;
#endif
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ unsigned smem_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void bulk_load(unsigned dst, const void* src, unsigned bytes,
                                          unsigned bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
               : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(dst),
      "l"(src), "r"(bytes), "r"(bar)
      : "memory");
}
__device__ __forceinline__ void bar_wait(unsigned bar, unsigned parity) {
  asm volatile(
      "{\n .reg .pred done;\n wait_%=:\n"
      " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      " @!done bra wait_%=;\n}" ::"r"(bar),
      "r"(parity)
      : "memory");
}
#endif

/// One thread per block moves tiles of kTmaStageBytes: bulk loads into kTmaStages stages (each
/// completing an mbarrier), bulk stores out of them; a stage is refilled once its store has read
/// it. Up to kTmaStages tiles in flight per block.
__global__ void __launch_bounds__(kTmaThreads)
    tma_copy(const unsigned char* in, unsigned char* out, long long tiles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) unsigned char smem[];
  if (threadIdx.x != 0) return;
  auto* bars = reinterpret_cast<unsigned long long*>(smem + kTmaStages * kTmaStageBytes);
  const unsigned base = smem_address(smem);
  for (int s = 0; s < kTmaStages; ++s)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_address(&bars[s])) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  const long long first = blockIdx.x, step = gridDim.x;
  const auto load = [&](long long tile, int s) {
    bulk_load(base + s * kTmaStageBytes, in + tile * kTmaStageBytes, kTmaStageBytes,
              smem_address(&bars[s]));
  };
  for (int s = 0; s < kTmaStages; ++s)
    if (first + s * step < tiles) load(first + s * step, s);
  int i = 0;
  for (long long tile = first; tile < tiles; tile += step, ++i) {
    const int s = i % kTmaStages;
    bar_wait(smem_address(&bars[s]), static_cast<unsigned>((i / kTmaStages) & 1));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                     out + tile * kTmaStageBytes),
                 "r"(base + s * kTmaStageBytes), "r"(kTmaStageBytes)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    const long long next = tile + kTmaStages * step;
    if (next < tiles) {
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");  // the stage was read out
      load(next, s);
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#else
  (void)in;
  (void)out;
  (void)tiles;
#endif
}

}  // namespace

AsyncMeasurement FlightLab::measure_async(AsyncKind kind, int runs, int warmup,
                                          const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  AsyncMeasurement m;
  m.kind = kind;
  m.unsupported = async_unsupported(kind, im.limits.cc_major, im.limits.cc_minor);
  if (m.unsupported) return m;
  use_device(im.device.index);
  const bool cp = kind == AsyncKind::CpAsync;
  const void* kernel =
      cp ? reinterpret_cast<const void*>(cp_async_copy) : reinterpret_cast<const void*>(tma_copy);
  im.prepare_kernel(kernel);
  m.threads_per_block = cp ? kCpAsyncThreads : kTmaThreads;
  const auto shared = static_cast<std::size_t>(async_block_shared_bytes(kind));
  int blocks = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, m.threads_per_block, shared),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor (staged copy)");
  if (blocks < 1) throw GpuError("the staged copy's shared memory does not fit an SM");
  m.blocks_per_sm = blocks;
  m.bytes_in_flight_per_sm = blocks * async_block_bytes_in_flight(kind);
  const std::int64_t tile_bytes = cp ? std::int64_t{kCpTileVectors} * 16 : kTmaStageBytes;
  const long long tiles = im.copy_bytes / tile_bytes;
  m.blocks = std::min<long long>(tiles, static_cast<long long>(im.sms()) * blocks);
  const auto launch = [&] {
    if (cp)
      cp_async_copy<<<static_cast<unsigned>(m.blocks), kCpAsyncThreads, shared, im.stream>>>(
          im.in.as<uint4>(), im.out.as<uint4>(), tiles);
    else
      tma_copy<<<static_cast<unsigned>(m.blocks), kTmaThreads, shared, im.stream>>>(
          im.in.as<unsigned char>(), im.out.as<unsigned char>(), tiles);
    check(cudaGetLastError(), cp ? "cp.async copy launch" : "TMA copy launch");
  };
  im.clear_out();
  launch();
  m.check = im.verify_out(im.copy_bytes);
  m.verified = m.check.empty();
  if (m.verified) m.check = "every word of the staged copy matched its source";
  m.timing = time_launches(im.stream, runs, warmup, cancel, {"staged copy", "staged copy"}, launch);
  m.gbps = 2.0 * static_cast<double>(im.copy_bytes) / (m.timing.median_ms * 1e6);
  return m;
}

}  // namespace warplens::gpu
