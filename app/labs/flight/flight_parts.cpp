// The bytes-in-flight lab's parts for the registry (lab_parts.h).
#include "flight_lab_unit.h"
#include "flight_scenario.h"
#include "lab_parts.h"
#include "measure_flight.h"

namespace warplens::app {

LabParts lab_parts_Flight() {
  return {"bandwidth", make_lab<FlightLabUnit>, parse_flight_table,
          nullptr,     measure_flight_lab,      flight_kernels_once};
}

}  // namespace warplens::app
