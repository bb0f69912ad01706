// CUDA-OpenGL buffer interop (cudaGraphicsGLRegisterBuffer). CUDA builds only.
#include <glad/gl.h>  // before cuda_gl_interop.h, which would otherwise pull in GL/gl.h

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <string>

#include "gl_interop.h"

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
  if (gl_buffer == 0)
    throw GpuError("no GL buffer to trace into (the view keeps its trace in host memory)");
  cudaGraphicsResource_t resource = nullptr;
  check(cudaGraphicsGLRegisterBuffer(&resource, gl_buffer, cudaGraphicsRegisterFlagsWriteDiscard),
        "cudaGraphicsGLRegisterBuffer");
  resource_ = resource;
}

GlInteropBuffer::~GlInteropBuffer() {
  if (mapped_) cudaGraphicsUnmapResources(1, reinterpret_cast<cudaGraphicsResource_t*>(&resource_));
  if (resource_) cudaGraphicsUnregisterResource(as_resource(resource_));
}

void* GlInteropBuffer::map(std::size_t* bytes, void* cuda_stream) {
  auto resource = as_resource(resource_);
  const auto stream = static_cast<cudaStream_t>(cuda_stream);
  check(cudaGraphicsMapResources(1, &resource, stream), "cudaGraphicsMapResources");
  void* ptr = nullptr;
  std::size_t size = 0;
  const cudaError_t status = cudaGraphicsResourceGetMappedPointer(&ptr, &size, resource);
  if (status != cudaSuccess) {
    cudaGraphicsUnmapResources(1, &resource, stream);  // leave it unmapped, as documented
    check(status, "cudaGraphicsResourceGetMappedPointer");
  }
  mapped_ = true;
  if (bytes) *bytes = size;
  return ptr;
}

void GlInteropBuffer::unmap(void* cuda_stream) {
  if (!mapped_) return;
  auto resource = as_resource(resource_);
  mapped_ = false;
  check(cudaGraphicsUnmapResources(1, &resource, static_cast<cudaStream_t>(cuda_stream)),
        "cudaGraphicsUnmapResources");
}

void GlInteropBuffer::read_mapped(void* host_dst, std::size_t bytes) {
  std::size_t size = 0;
  void* ptr = map(&size);
  const cudaError_t s = cudaMemcpy(host_dst, ptr, std::min(bytes, size), cudaMemcpyDeviceToHost);
  unmap();
  check(s, "cudaMemcpy (interop buffer)");
}

}  // namespace warplens::gpu
