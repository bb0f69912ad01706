// Every lab's identity, written once, in lecture order: X(id, name, title, short title, key).
// - id: the enumerator of `Lab` (lab_id.h);
// - name: the lab on the command line, in presets (its table, e.g. [banks]) and in figures;
// - title: the header's button ("Global memory"); short title: the same where titles do not fit;
// - key: the letter that opens the lab from the keyboard (lower case; 0: none).
// The enum, the names and the registry (lab_registry.cpp, which calls each lab's
// lab_parts_<id>(), lab_parts.h, defined in the lab's folder) all expand this list; nothing else
// lists the labs.
#pragma once

#define WARPLENS_LABS(X)                                 \
  X(Global, "global", "Global memory", "Global", 0)      \
  X(Banks, "banks", "Shared banks", "Banks", 0)          \
  X(Transpose, "transpose", "Transpose", "Transpose", 0) \
  X(Matmul, "matmul", "Matrix multiply", "Matmul", 0)    \
  X(Reduction, "reduction", "Reduction", "Reduction", 0) \
  X(Cache, "cache", "Caches & occupancy", "Caches", 0)   \
  X(Flight, "flight", "Bytes in flight", "Flight", 0)    \
  X(Kernel, "kernel", "Your kernel", "Kernel", 'k')      \
  X(Tile, "tile", "Layouts: TMA swizzles & ldmatrix", "Layouts", 0)
