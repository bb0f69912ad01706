// The labs' ids: one per line of the lab registry (lab.h, lab_registry.cpp), in lecture order.
// Code outside the registry names a lab by its id and asks the registry for anything that
// differs between labs; it never switches on the id.
#pragma once

#include <string>

namespace warplens::app {

enum class Lab { Global, Banks, Transpose, Matmul, Reduction, Cache, Flight, Kernel };

/// The lab's name on the command line, in presets (its table, e.g. [banks]) and in figures:
/// global | banks | transpose | matmul | reduction | cache | flight | kernel.
const char* to_string(Lab lab);
/// The lab called `text`; throws std::invalid_argument naming every lab's name otherwise.
Lab parse_lab(const std::string& text);

}  // namespace warplens::app
