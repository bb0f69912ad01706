// CUDA-OpenGL buffer interop: a GL buffer object the CUDA kernels write into
// (cudaGraphicsGLRegisterBuffer), so the views draw what the GPU traced without a copy through
// the host. This room sits between the kernels (which know no GL) and the views (which know no
// CUDA); the sessions use it. Built without CUDA, every constructor throws GpuError.
#pragma once

#include <cstddef>

#include "gpu.h"  // GpuError

namespace warplens::gpu {

/// A GL buffer object registered with CUDA (cudaGraphicsGLRegisterBuffer). Must be created,
/// mapped and destroyed on the thread whose GL context owns the buffer. Throws GpuError.
class GlInteropBuffer {
 public:
  explicit GlInteropBuffer(unsigned gl_buffer);
  ~GlInteropBuffer();
  GlInteropBuffer(const GlInteropBuffer&) = delete;
  GlInteropBuffer& operator=(const GlInteropBuffer&) = delete;

  /// Maps the buffer for CUDA, in order with the work on `cuda_stream` (a cudaStream_t; null:
  /// the default stream), and returns its device pointer and size (bytes). On failure the
  /// buffer is left unmapped.
  void* map(std::size_t* bytes = nullptr, void* cuda_stream = nullptr);
  void unmap(void* cuda_stream = nullptr);

  /// Copies bytes from the mapped buffer to host memory (tests).
  void read_mapped(void* host_dst, std::size_t bytes);

 private:
  // Unused in a build without CUDA (gl_interop_unavailable.cpp), which clang warns about.
  [[maybe_unused]] void* resource_ = nullptr;
  [[maybe_unused]] bool mapped_ = false;
};

}  // namespace warplens::gpu
