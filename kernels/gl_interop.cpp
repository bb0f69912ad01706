// CUDA-OpenGL buffer interop (cudaGraphicsGLRegisterBuffer). CUDA builds only.
#include <glad/gl.h>  // before cuda_gl_interop.h, which would otherwise pull in GL/gl.h

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <string>

#include "gpu.h"

namespace warplens::gpu {

namespace {
void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw GpuError(std::string(what) + " failed: " + cudaGetErrorString(status));
  }
}
cudaGraphicsResource_t as_resource(void* r) {
  return static_cast<cudaGraphicsResource_t>(r);
}
}  // namespace

GlInteropBuffer::GlInteropBuffer(unsigned gl_buffer) {
  cudaGraphicsResource_t resource = nullptr;
  check(cudaGraphicsGLRegisterBuffer(&resource, gl_buffer, cudaGraphicsRegisterFlagsWriteDiscard),
        "cudaGraphicsGLRegisterBuffer");
  resource_ = resource;
}

GlInteropBuffer::~GlInteropBuffer() {
  if (mapped_) cudaGraphicsUnmapResources(1, reinterpret_cast<cudaGraphicsResource_t*>(&resource_));
  if (resource_) cudaGraphicsUnregisterResource(as_resource(resource_));
}

void* GlInteropBuffer::map(std::size_t* bytes) {
  auto resource = as_resource(resource_);
  check(cudaGraphicsMapResources(1, &resource), "cudaGraphicsMapResources");
  mapped_ = true;
  void* ptr = nullptr;
  std::size_t size = 0;
  check(cudaGraphicsResourceGetMappedPointer(&ptr, &size, resource),
        "cudaGraphicsResourceGetMappedPointer");
  if (bytes) *bytes = size;
  return ptr;
}

void GlInteropBuffer::unmap() {
  if (!mapped_) return;
  auto resource = as_resource(resource_);
  mapped_ = false;
  check(cudaGraphicsUnmapResources(1, &resource), "cudaGraphicsUnmapResources");
}

void GlInteropBuffer::read_mapped(void* host_dst, std::size_t bytes) {
  std::size_t size = 0;
  void* ptr = map(&size);
  const cudaError_t s = cudaMemcpy(host_dst, ptr, std::min(bytes, size), cudaMemcpyDeviceToHost);
  unmap();
  check(s, "cudaMemcpy (interop buffer)");
}

}  // namespace warplens::gpu
