// The global lab's knobs, one line each (knob.h): the copy's index pattern, word size, offset,
// stride, seed, side and load path; the struct layout and its field shown; the matrix's width,
// padding, order and block; the warps traced and the memory model. Its preset section
// ([copy]), its reader, the soak's monkey and the parameter panel are driven from this table.
#pragma once

#include <vector>

#include "copy_session.h"
#include "knob.h"

namespace warplens::app {

/// The table, in the order the preset writes and the panel draws its knobs.
const std::vector<Knob<CopyState>>& global_knobs();

/// The knob called `key` of global_knobs() (a programming error if there is none: throws
/// std::logic_error).
const Knob<CopyState>& global_knob(const std::string& key);

/// Whether the 1D controls (pattern, word size, offset, stride, seed, side, path) apply: not for
/// a struct layout or a matrix, whose kernels have their own index math.
bool one_dimensional(const CopyState& state);

}  // namespace warplens::app
