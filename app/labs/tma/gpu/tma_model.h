// The bank model of a tile read (tma_lab.h): the warp's addresses from the model's placement,
// analysed as any shared-memory access is (model/memory_model.h, analyze_shared). An ldmatrix
// row is a 16-byte access by the lane that gives its address: the lanes past 8 x matrices give
// none. Host only (C++20: the model's headers); the kernels take the addresses, not this.
#pragma once

#include "memory_model.h"
#include "tma_lab.h"

namespace warplens::gpu {

/// The model's analysis of `read` on `tile`: wavefronts per request, phases, banks. Throws as
/// check_tile_read.
model::SharedAnalysis tile_read_analysis(const TileParams& tile, const TileRead& read);

}  // namespace warplens::gpu
