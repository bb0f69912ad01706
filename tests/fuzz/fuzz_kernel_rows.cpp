// libFuzzer target: the own-kernel lab's rows (kernel_program.h, kernel_totals.h): a program made
// from the input, then everything the lab does with it on the host: check_program, the traced
// warp's model, the launch totals, the tile check, the generated source and the whole grid's
// simulation. Input: a header line "BX BY GX GY IN_ELEMENTS OUT_ELEMENTS TILE_ELEMENTS [NAME=V]..."
// and then one row per line, "SPACE OP WORD PATH SYNC INDEX..." (e.g. "tile store 4 default 1
// ty*33 + tx"). Sizes are clamped small (at most 64 threads, 4 x 4 blocks, 64 KiB buffers) so the
// simulation stays far below libFuzzer's 1 s per input.
//
// The contract: a refused program throws std::invalid_argument (one line) and nothing else; an
// accepted one never throws from the model, the totals, the source or the simulation, and its
// source bounds-checks every row.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include "kernel_program.h"
#include "kernel_totals.h"

namespace {

using namespace warplens;

gpu::KernelProgram program_from(const std::string& text) {
  std::istringstream in(text);
  std::string header;
  std::getline(in, header);
  std::istringstream h(header);
  gpu::KernelProgram p;
  long long bx = 32, by = 1, gx = 1, gy = 1, ie = 256, oe = 256, te = 0;
  h >> bx >> by >> gx >> gy >> ie >> oe >> te;
  p.block = {static_cast<int>(std::clamp(bx, -2LL, 64LL)),
             static_cast<int>(std::clamp(by, -2LL, 64LL))};
  p.grid = {static_cast<int>(std::clamp(gx, -2LL, 4LL)),
            static_cast<int>(std::clamp(gy, -2LL, 4LL))};
  p.in = {std::clamp(ie, -2LL, 16384LL), 4};
  p.out = {std::clamp(oe, -2LL, 16384LL), 4};
  p.tile = {std::clamp(te, -2LL, 16384LL), 4};
  std::string constant;
  while (h >> constant) {
    const auto eq = constant.find('=');
    if (eq == std::string::npos) continue;
    p.constants.push_back({constant.substr(0, eq), std::atoll(constant.c_str() + eq + 1)});
  }
  std::string line;
  while (std::getline(in, line) && p.rows.size() < 12) {
    std::istringstream l(line);
    std::string space, op, path;
    int word = 4, sync = 0;
    l >> space >> op >> word >> path >> sync;
    gpu::KernelRow row;
    try {
      row.space = gpu::parse_kernel_space(space);
      row.path = gpu::parse_load_path(path);
    } catch (const std::invalid_argument&) {
      continue;
    }
    row.op = op == "store" ? model::Op::Store : model::Op::Load;
    row.word_bytes = word;
    row.sync_after = sync != 0;
    std::getline(l, row.index);
    p.rows.push_back(row);
  }
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const gpu::KernelProgram p = program_from(text);
  try {
    gpu::check_program(p);
    gpu::check_traced_warp(p, {});
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).empty()) std::abort();
    return 0;
  }
  try {
    (void)gpu::model_warp(p, {});
    (void)gpu::model_totals(p, model::HardwareModel::Modern, 16);
    (void)gpu::simulate_program(p, {});
  } catch (const std::invalid_argument&) {
    return 0;  // an index that cannot be evaluated for some thread: analyze's refusal
  }
  const std::string source = gpu::generate_source(p);
  std::size_t checks = 0;
  for (std::size_t at = source.find("const bool wl_ok"); at != std::string::npos;
       at = source.find("const bool wl_ok", at + 1))
    ++checks;
  if (checks != p.rows.size()) std::abort();
  return 0;
}
