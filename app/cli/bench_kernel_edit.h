// warplens-bench's own-kernel table (part of `warplens-bench RUNS frames`): from an edit of one
// row to the new program compiled by NVRTC, traced, measured and drawn, in the window's own code
// (the session's worker, CUDA-GL interop, the whole UI drawn headless through EGL, frames paced
// at 60 Hz); a revisit of an earlier edit (the module cache); and the frame times while NVRTC
// compiles. Milliseconds of wall clock.
#pragma once

#include "gl_program.h"
#include "headless_frames.h"

namespace warplens::bench {

/// Prints the table; `repeats` scales the number of edits (at least 10). Needs a CUDA device.
void print_kernel_edit_table(app::HeadlessScene& scene, app::UiState& ui, viz::RenderTarget& target,
                             int repeats);

}  // namespace warplens::bench
