// Launch planning for the strided copy: pure C++, shared by CUDA and model-only builds.
#include <stdexcept>
#include <string>

#include "gpu.h"

namespace warplens::gpu {

CopyPlan plan_copy(const CopyParams& p, std::int64_t buffer_bytes) {
  const int w = p.word_bytes;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16) {
    throw std::invalid_argument("word bytes must be 1, 2, 4, 8 or 16 (got " + std::to_string(w) +
                                ")");
  }
  if (p.stride < 1) {
    throw std::invalid_argument("stride must be at least 1 element (got " +
                                std::to_string(p.stride) + ")");
  }
  if (p.offset < 0) {
    throw std::invalid_argument("offset must be >= 0 elements (got " + std::to_string(p.offset) +
                                ")");
  }
  if (p.block_threads < 32 || p.block_threads > 1024 || p.block_threads % 32 != 0) {
    throw std::invalid_argument("threads per block must be a multiple of 32 in 32..1024 (got " +
                                std::to_string(p.block_threads) + ")");
  }
  const std::int64_t elements = buffer_bytes / w;
  // Keep at least half the buffer for the copy itself, so the launch still defeats L2.
  if (p.offset > elements / 2) {
    throw std::invalid_argument("offset " + std::to_string(p.offset) +
                                " elements leaves less than half of the " +
                                std::to_string(buffer_bytes >> 20) + " MiB buffer to copy");
  }
  CopyPlan plan;
  // Last element read: offset + (threads - 1) * stride <= elements - 1.
  plan.threads = (elements - 1 - p.offset) / p.stride + 1;
  plan.blocks = (plan.threads + p.block_threads - 1) / p.block_threads;
  plan.read_span_bytes = (p.offset + (plan.threads - 1) * p.stride + 1) * w;
  plan.requested_bytes = 2 * plan.threads * w;
  return plan;
}

}  // namespace warplens::gpu
