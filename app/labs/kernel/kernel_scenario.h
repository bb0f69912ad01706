// The own-kernel lab's part of a scenario: the [kernel] table of a preset (written by
// kernel_preset.h).
//
//   [kernel]
//   block = [32, 32]                      # threads in x and y (1 .. 1024 in all)
//   grid = [256, 256]                     # blocks in x and y
//   in = { elements = 67108864, word_bytes = 4 }     # default 2^24 x 4 bytes
//   out = { elements = 67108864, word_bytes = 4 }    # default 2^24 x 4 bytes
//   tile = { elements = 1024, word_bytes = 4 }       # per block; default none
//   constants = { n = 8192 }              # up to four named integers ([{ n = 8192 }, { m = 4 }]
//                                         # keeps their order)
//   trace = { block = [0, 0], warp = 0 }  # the traced warp (default block 0, warp 0)
//   step = 1                              # the access shown, 1-based ("access 1 of N")
//   section = "access"                    # access | source
//   model = "modern"                      # the memory model shown: modern | fermi-ca | ...
//   [[kernel.rows]]                       # 1 .. 8 rows, run in order by every thread
//   space = "in"                          # in | out | tile
//   op = "load"                           # load | store
//   word_bytes = 4                        # 1, 2, 4, 8, 16 (default 4)
//   path = "default"                      # default | ldcg | ldg (global loads only)
//   index = "(by*32+ty)*n + bx*32+tx"     # element index, analyze's grammar
//   layout = "(8,4):(32,1)"               # or, instead of index: a CuTe layout indexed by tx
//   lane_layout = "(4,8):(8,1)"           # (with layout) tx -> the layout's coordinate;
//                                         # read as its index expression (layout_access.h),
//                                         # which the preset writer writes back as `index`
//   sync = false                          # __syncthreads() after the row
#pragma once

#include <any>
#include <string>

#include "kernel_session.h"
#include "scenario.h"
#include "toml_fields.h"

namespace warplens::app {

/// Parses [kernel] (above) and checks the program (check_program, check_traced_warp). Throws
/// ScenarioError naming the file and the problem (a row's problem names the row and column).
std::any parse_kernel_table(const ScenarioTable& scenario);

/// The lab's parameters of an own-kernel scenario (std::logic_error otherwise).
inline const KernelState& kernel_scenario(const Scenario& s) {
  return lab_parameters<KernelState>(s, "kernel");
}

}  // namespace warplens::app
