// The global lab's parts for the registry (lab_parts.h).
#include "global_lab.h"
#include "global_scenario.h"
#include "lab_parts.h"
#include "measure_global.h"

namespace warplens::app {

LabParts lab_parts_Global() {
  LabParts parts = {"bandwidth",         make_lab<GlobalLab>, parse_global_table,
                    global_counter_case, measure_global,      global_kernels_once};
  parts.bottom_views = true;  // numbers, heatmap and the offset and stride sweeps
  return parts;
}

}  // namespace warplens::app
