// The shared-memory lab's core and its bank probe: SharedLab's construction, and the probe's
// kernels and entry points (traced for the bank view, timed for one warp and for the whole GPU).
// Every shared-memory index that a view draws comes from shared_element_index() with the same
// parameters the view uses (shared_index.h, shared_lab.h). The other labs: shared_lab_*.cu.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shared_lab_internal.cuh"

namespace warplens::gpu {

namespace {

using detail::check;
using detail::check_cancel;
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

/// Lets `k` use more than 48 KiB of dynamic shared memory when the pattern needs it.
void allow_shared(const DeviceInfo& device, BankKernel k, int shared_bytes) {
  if (shared_bytes <= 48 * 1024) return;
  check(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             device.shared_bytes_per_block_optin),
        "cudaFuncSetAttribute (dynamic shared memory)");
}

int active_threads(const BankProbeParams& p) {
  int active = 0;
  for (int tid = 0; tid < p.block_x * p.block_y; ++tid)
    active += shared_thread_active(tid, p.index);
  return active;
}

}  // namespace

// --- SharedLab ---------------------------------------------------------------------------------

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
  allow_shared(impl_->device, k, plan.shared_bytes);
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
  allow_shared(im.device, whole, plan.shared_bytes);
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
  allow_shared(im.device, one, m.plan.shared_bytes);
  const BankKernel whole = bank_kernel<BankMode::Gpu>(params.index.word_bytes, params.op);
  allow_shared(im.device, whole, m.plan.shared_bytes);
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
        const PerSmRate rate =
            per_sm_rate(host, static_cast<double>(bytes_per_block), static_cast<double>(ms));
        per_clock.push_back(rate.bytes_per_clock);
        clock_mhz.push_back(rate.clock_mhz);
      });
  m.gbps = static_cast<double>(bytes_per_block) * blocks / (m.timing.median_ms * 1e-3) / 1e9;
  m.bytes_per_clock_per_sm = median_of(per_clock);
  m.sm_clock_mhz = median_of(clock_mhz);
  m.fraction_of_limit = m.bytes_per_clock_per_sm / 128.0;
  return m;
}

}  // namespace warplens::gpu
