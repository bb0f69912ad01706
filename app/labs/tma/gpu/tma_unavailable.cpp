// Model-only builds (no CUDA toolkit): the tile lab's GPU side (tma_lab.h: TileLab) says so,
// loudly (gpu.h: throw_built_without_cuda). Built instead of tma_lab.cu by warplens_add_lab.
#include "tma_lab.h"

namespace warplens::gpu {

struct TileLab::Impl {};
TileLab::TileLab(int) {
  throw_built_without_cuda();
}
TileLab::~TileLab() = default;
TilePlacement TileLab::load_tile(const TileParams&) {
  throw_built_without_cuda();
}
TileReadMeasurement TileLab::measure_read(const TileParams&, const TileRead&, int) {
  throw_built_without_cuda();
}
std::function<void()> TileLab::counter_launch(const TileParams&, const TileRead&, int) {
  throw_built_without_cuda();
}

}  // namespace warplens::gpu
