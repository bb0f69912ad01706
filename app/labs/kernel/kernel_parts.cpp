// The own-kernel lab's parts for the registry (lab_parts.h).
#include "kernel_lab_unit.h"
#include "kernel_scenario.h"
#include "lab_parts.h"
#include "measure_kernel.h"

namespace warplens::app {

LabParts lab_parts_Kernel() {
  LabParts parts = {"bandwidth", make_lab<KernelLabUnit>, parse_kernel_table,
                    nullptr,     measure_kernel_lab,      kernel_kernels_once};
  parts.preset_option = "kernel";  // --kernel FILE.toml: your access rows
  parts.preset_option_help =
      "an own-kernel preset (TOML, lab = \"kernel\"): your access rows, compiled and timed "
      "(measure) or drawn (render)";
  return parts;
}

}  // namespace warplens::app
