// Model-only builds (no CUDA toolkit): interop says so, loudly; the sessions then draw the
// host model's trace.
#include "gl_interop.h"

namespace warplens::gpu {

namespace {
[[noreturn]] void no_cuda() {
  throw GpuError(
      "this WarpLens was built without the CUDA toolkit (model only): no CUDA-GL interop");
}
}  // namespace

GlInteropBuffer::GlInteropBuffer(unsigned) {
  no_cuda();
}
GlInteropBuffer::~GlInteropBuffer() = default;
void* GlInteropBuffer::map(std::size_t*, void*) {
  no_cuda();
}
void GlInteropBuffer::unmap(void*) {}
void GlInteropBuffer::read_mapped(void*, std::size_t) {
  no_cuda();
}

}  // namespace warplens::gpu
