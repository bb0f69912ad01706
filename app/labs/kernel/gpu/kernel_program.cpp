// The host side of "Your kernel" (kernel_program.h): checks, the traced warp's model and the
// whole grid's simulation. The source generator is kernel_source.cpp.
#include "kernel_program.h"

#include <algorithm>
#include <stdexcept>

namespace warplens::gpu {

namespace {

bool valid_word(int w) {
  return w == 1 || w == 2 || w == 4 || w == 8 || w == 16;
}

std::string row_name(std::size_t row) {
  return "row " + std::to_string(row + 1);
}

[[noreturn]] void refuse(const std::string& what) {
  throw std::invalid_argument(what);
}

// An expression error as the program reports it: the row, the column (1-based) where muParser
// or the grammar check points, and analyze's message.
[[noreturn]] void refuse_expression(std::size_t row, const model::IndexExpressionError& e) {
  std::string where = row_name(row);
  if (e.position() >= 0) where += ", column " + std::to_string(e.position() + 1);
  refuse(where + ": " + e.what());
}

void check_buffer(const KernelBuffer& b, const char* name, std::int64_t min_elements,
                  std::int64_t max_bytes) {
  if (!valid_word(b.word_bytes))
    refuse(std::string(name) + ": word bytes must be 1, 2, 4, 8 or 16 (got " +
           std::to_string(b.word_bytes) + ")");
  if (b.elements < min_elements || b.elements > max_bytes / b.word_bytes)
    refuse(std::string(name) + ": " + std::to_string(b.elements) + " elements of " +
           std::to_string(b.word_bytes) + " bytes is outside " + std::to_string(min_elements) +
           " .. " + std::to_string(max_bytes) + " bytes");
}

// The linear id of thread (tx, ty) of block (bx, by) in the grid, as the generated code has it.
std::int64_t linear_id(const KernelProgram& p, std::int64_t bx, std::int64_t by, std::int64_t tid) {
  return (by * p.grid.x + bx) * p.block.threads() + tid;
}

// Every row's expression parsed once, with the program's constants.
std::vector<model::IndexExpression> parse_rows(const KernelProgram& p) {
  std::vector<model::IndexExpression> rows;
  rows.reserve(p.rows.size());
  for (std::size_t r = 0; r < p.rows.size(); ++r) {
    try {
      rows.emplace_back(p.rows[r].index, p.constants);
    } catch (const model::IndexExpressionError& e) {
      refuse_expression(r, e);
    }
  }
  return rows;
}

model::ThreadCoordinates coordinates(const KernelProgram& p, std::int64_t bx, std::int64_t by,
                                     int tid) {
  return {.lane = tid % model::kWarpSize,
          .tx = tid % p.block.x,
          .ty = tid / p.block.x,
          .bdx = p.block.x,
          .bdy = p.block.y,
          .warp = tid / model::kWarpSize,
          .bx = bx,
          .by = by,
          .gdx = p.grid.x,
          .gdy = p.grid.y};
}

std::int64_t evaluate(model::IndexExpression& e, std::size_t row,
                      const model::ThreadCoordinates& t) {
  try {
    return e.evaluate(t);
  } catch (const model::IndexExpressionError& error) {
    refuse(row_name(row) + ", block (" + std::to_string(t.bx) + ", " + std::to_string(t.by) +
           "), thread (" + std::to_string(t.tx) + ", " + std::to_string(t.ty) +
           "): " + error.what());
  }
}

// Whether element `index` of a row lies inside its space.
bool in_range(const KernelProgram& p, const KernelRow& row, std::int64_t index) {
  return index >= 0 && index < p.space_bytes(row.space) / row.word_bytes;
}

}  // namespace

const char* to_string(KernelSpace space) {
  switch (space) {
    case KernelSpace::In: return "in";
    case KernelSpace::Out: return "out";
    case KernelSpace::Tile: return "tile";
  }
  return "?";
}

KernelSpace parse_kernel_space(const std::string& text) {
  if (text == "in") return KernelSpace::In;
  if (text == "out") return KernelSpace::Out;
  if (text == "tile") return KernelSpace::Tile;
  refuse("space must be in, out or tile (got \"" + text + "\")");
}

std::int64_t KernelProgram::space_bytes(KernelSpace space) const {
  return space == KernelSpace::In    ? in.bytes()
         : space == KernelSpace::Out ? out.bytes()
                                     : tile.bytes();
}

void check_program(const KernelProgram& p, std::int64_t max_tile_bytes) {
  const auto& b = p.block;
  if (b.x < 1 || b.y < 1 || b.x > 1024 || b.y > 1024 || b.threads() > 1024)
    refuse("block " + model::to_string(b) + " is not a CUDA block (x, y >= 1, 1 .. 1024 threads)");
  if (p.grid.x < 1 || p.grid.y < 1 || p.grid.y > 65535)
    refuse("grid " + model::to_string(p.grid) + " is not a CUDA grid (x >= 1, y in 1 .. 65535)");
  check_buffer(p.in, "in", 1, kMaxKernelBufferBytes);
  check_buffer(p.out, "out", 1, kMaxKernelBufferBytes);
  check_buffer(p.tile, "tile", 0, std::min(max_tile_bytes, kMaxKernelTileBytes));
  if (p.constants.size() > kMaxKernelConstants)
    refuse("at most " + std::to_string(kMaxKernelConstants) + " constants (got " +
           std::to_string(p.constants.size()) + ")");
  try {
    (void)model::IndexExpression("0", p.constants);  // checks names, values and duplicates
  } catch (const model::IndexExpressionError& e) {
    refuse(e.what());
  }
  if (p.rows.empty() || p.rows.size() > kMaxKernelRows)
    refuse("a kernel has 1 .. " + std::to_string(kMaxKernelRows) + " rows (got " +
           std::to_string(p.rows.size()) + ")");
  const bool stores_in = std::any_of(p.rows.begin(), p.rows.end(), [](const KernelRow& r) {
    return r.space == KernelSpace::In && r.op == model::Op::Store;
  });
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    const KernelRow& r = p.rows[i];
    if (!valid_word(r.word_bytes))
      refuse(row_name(i) + ": word bytes must be 1, 2, 4, 8 or 16 (got " +
             std::to_string(r.word_bytes) + ")");
    if (r.space == KernelSpace::Tile && p.tile.bytes() == 0)
      refuse(row_name(i) + ": a tile row needs a tile (tile elements > 0)");
    if (r.path != LoadPath::Default && (r.space == KernelSpace::Tile || r.op == model::Op::Store))
      refuse(row_name(i) + ": a load path (" + to_string(r.path) +
             ") applies to global loads only");
    if (r.path == LoadPath::ReadOnly && (r.space != KernelSpace::In || stores_in))
      refuse(row_name(i) +
             ": __ldg reads through the read-only cache: only `in`, and only when no row "
             "stores to it");
  }
  (void)parse_rows(p);
}

void check_traced_warp(const KernelProgram& p, const TracedWarp& w) {
  if (w.block_x < 0 || w.block_y < 0 || w.block_x >= p.grid.x || w.block_y >= p.grid.y)
    refuse("traced block (" + std::to_string(w.block_x) + ", " + std::to_string(w.block_y) +
           ") is not in grid " + model::to_string(p.grid));
  if (w.warp < 0 || w.warp >= p.block.warps())
    refuse("traced warp " + std::to_string(w.warp) + " is not in block " +
           model::to_string(p.block) + " (warps 0.." + std::to_string(p.block.warps() - 1) + ")");
}

int KernelRowModel::cost() const {
  if (global) return global->transactions;
  return shared ? shared->wavefronts : 0;
}

namespace {

// The verdict of a row from its lanes (active = in range).
KernelRowModel analyze_row(const KernelRow& row, const model::WarpAccesses& lanes, int out_of_range,
                           model::HardwareModel hw) {
  KernelRowModel m;
  m.lanes = lanes;
  m.out_of_range_lanes = out_of_range;
  if (row.space == KernelSpace::Tile)
    m.shared = model::analyze_shared(lanes, row.word_bytes, row.op, hw);
  else
    m.global = model::analyze_global(lanes, row.word_bytes, row.op, hw);
  return m;
}

}  // namespace

std::vector<std::vector<KernelRowModel>> model_warps(const KernelProgram& p,
                                                     const std::vector<TracedWarp>& warps,
                                                     model::HardwareModel hw) {
  check_program(p);
  for (const TracedWarp& w : warps) check_traced_warp(p, w);
  auto expressions = parse_rows(p);
  std::vector<std::vector<KernelRowModel>> result;
  result.reserve(warps.size());
  for (const TracedWarp& w : warps) {
    std::vector<KernelRowModel> rows;
    for (std::size_t r = 0; r < p.rows.size(); ++r) {
      const KernelRow& row = p.rows[r];
      model::WarpAccesses lanes{};
      int out_of_range = 0;
      for (int lane = 0; lane < model::kWarpSize; ++lane) {
        model::LaneAccess& a = lanes[lane];
        a.lane = lane;
        const int tid = w.warp * model::kWarpSize + lane;
        if (tid >= p.block.threads()) continue;
        const auto t = coordinates(p, w.block_x, w.block_y, tid);
        a.tx = static_cast<int>(t.tx);
        a.ty = static_cast<int>(t.ty);
        a.index = evaluate(expressions[r], r, t);
        if (!in_range(p, row, a.index)) {
          ++out_of_range;
          continue;
        }
        a.active = true;
        a.address = a.index * row.word_bytes;
      }
      rows.push_back(analyze_row(row, lanes, out_of_range, hw));
    }
    result.push_back(std::move(rows));
  }
  return result;
}

std::vector<KernelRowModel> model_warp(const KernelProgram& p, const TracedWarp& w,
                                       model::HardwareModel hw) {
  return std::move(model_warps(p, {w}, hw).front());
}

KernelRowModel analyze_traced_row(const KernelProgram& p, int row, const LaneTraceRecord* records,
                                  model::HardwareModel hw) {
  const KernelRow& r = p.rows.at(static_cast<std::size_t>(row));
  model::WarpAccesses lanes{};
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    model::LaneAccess& a = lanes[lane];
    a.lane = lane;
    a.active = records[lane].active != 0;
    if (!a.active) continue;
    a.address = static_cast<std::int64_t>(trace_address(records[lane]));
    a.index = a.address / r.word_bytes;
  }
  return analyze_row(r, lanes, -1, hw);
}

std::int64_t requested_global_bytes(const KernelProgram& p,
                                    const std::vector<std::int64_t>& out_of_range) {
  std::int64_t bytes = 0;
  for (std::size_t r = 0; r < p.rows.size(); ++r) {
    if (p.rows[r].space == KernelSpace::Tile) continue;
    std::int64_t lanes = p.threads();
    if (r < out_of_range.size()) lanes -= out_of_range[r];
    bytes += lanes * p.rows[r].word_bytes;
  }
  return bytes;
}

bool tile_loads_read_stored_words(const KernelProgram& p) {
  if (p.tile.bytes() == 0) return true;
  check_program(p);
  auto expressions = parse_rows(p);
  const int threads = p.block.threads();
  const std::int64_t blocks = p.grid.x * std::int64_t{p.grid.y};
  // Every block of a small grid, else the first, middle and last (this runs on the GL thread
  // with every edit).
  std::vector<std::int64_t> checked;
  if (blocks * threads * static_cast<std::int64_t>(p.rows.size()) <= kTileCheckEvaluations) {
    for (std::int64_t b = 0; b < blocks; ++b) checked.push_back(b);
  } else {
    checked = {0, blocks / 2, blocks - 1};
  }
  const auto bytes = static_cast<std::size_t>(p.tile.bytes());
  std::vector<std::uint8_t> stored(bytes), pending(bytes);
  for (const std::int64_t b : checked) {
    std::fill(stored.begin(), stored.end(), 0);
    std::fill(pending.begin(), pending.end(), 0);
    for (std::size_t r = 0; r < p.rows.size(); ++r) {
      const KernelRow& row = p.rows[r];
      if (row.space == KernelSpace::Tile) {
        for (int tid = 0; tid < threads; ++tid) {
          const std::int64_t i =
              evaluate(expressions[r], r, coordinates(p, b % p.grid.x, b / p.grid.x, tid));
          if (!in_range(p, row, i)) continue;
          const auto first = static_cast<std::size_t>(i * row.word_bytes);
          for (std::size_t k = first; k < first + static_cast<std::size_t>(row.word_bytes); ++k) {
            if (row.op == model::Op::Store) {
              pending[k] = 1;
            } else if (!stored[k]) {
              return false;  // read before any row stored it (behind a __syncthreads())
            }
          }
        }
      }
      if (row.sync_after)
        for (std::size_t k = 0; k < bytes; ++k) stored[k] |= pending[k];
    }
  }
  return true;
}

// --- the whole grid on the host -----------------------------------------------------------------

namespace {

// Who stores to a byte over the launch (global spaces) or a sync interval (the tile): 0 nobody,
// -1 more than one thread, else the storing thread's id + 1.
void note_writer(std::int32_t& w, std::int32_t id) {
  w = w == 0 ? id : w == id ? w : -1;
}

// A space's simulated bytes, whether each holds a value the hardware leaves open, and its
// writers.
struct SimSpace {
  std::vector<std::uint8_t> bytes, ambiguous;
  std::vector<std::int32_t> writers;  // empty: nobody stores here
};

struct ThreadValue {
  std::uint64_t lo = 0, hi = 0;
  bool ambiguous = false;
};

void load(ThreadValue& v, const SimSpace& s, std::int64_t off, int w, std::int32_t self) {
  v.lo = v.hi = 0;
  v.ambiguous = false;
  for (int k = 0; k < w; ++k) {
    const auto byte = static_cast<std::uint64_t>(s.bytes[static_cast<std::size_t>(off + k)]);
    (k < 8 ? v.lo : v.hi) |= byte << (8 * (k % 8));
    const std::int32_t writer =
        s.writers.empty() ? 0 : s.writers[static_cast<std::size_t>(off + k)];
    v.ambiguous = v.ambiguous || s.ambiguous[static_cast<std::size_t>(off + k)] ||
                  (writer != 0 && writer != self);
  }
}

void store(const ThreadValue& v, SimSpace& s, std::int64_t off, int w) {
  for (int k = 0; k < w; ++k) {
    const auto at = static_cast<std::size_t>(off + k);
    s.bytes[at] = static_cast<std::uint8_t>(((k < 8 ? v.lo : v.hi) >> (8 * (k % 8))) & 0xff);
    s.ambiguous[at] = v.ambiguous || s.writers[at] == -1;
  }
}

}  // namespace

KernelSimulation simulate_program(const KernelProgram& p, const TracedWarp& traced) {
  check_program(p);
  check_traced_warp(p, traced);
  auto expressions = parse_rows(p);
  const int threads = p.block.threads();
  const std::size_t rows = p.rows.size();
  const std::int64_t blocks = p.grid.x * std::int64_t{p.grid.y};
  KernelSimulation sim;
  sim.out_of_range.assign(rows, 0);

  const std::int64_t evaluations = p.threads() * static_cast<std::int64_t>(rows);
  if (evaluations > kHostEvaluationBudget || p.in.bytes() > kHostSimulationBytes ||
      p.out.bytes() > kHostSimulationBytes) {
    sim.why_incomplete = evaluations > kHostEvaluationBudget
                             ? std::to_string(evaluations) +
                                   " thread-row evaluations are past the host's budget (" +
                                   std::to_string(kHostEvaluationBudget) + ")"
                             : "a buffer is larger than the host simulates (" +
                                   std::to_string(kHostSimulationBytes >> 20) + " MiB)";
    sim.why_incomplete += "; the host checked the first, traced and last blocks only";
    const std::int64_t checked[3][2] = {
        {0, 0}, {traced.block_x, traced.block_y}, {p.grid.x - 1, p.grid.y - 1}};
    for (const auto& b : checked)
      for (std::size_t r = 0; r < rows; ++r)
        for (int tid = 0; tid < threads; ++tid, ++sim.evaluations)
          (void)evaluate(expressions[r], r, coordinates(p, b[0], b[1], tid));
    sim.out_of_range.clear();
    return sim;
  }

  // Pass 1: every thread's element index of every row (-1: out of range), and who stores where.
  std::vector<std::int64_t> index(static_cast<std::size_t>(evaluations));
  const auto at = [&](std::int64_t block, std::size_t r, int tid) {
    return static_cast<std::size_t>(
        (block * static_cast<std::int64_t>(rows) + static_cast<std::int64_t>(r)) * threads + tid);
  };
  SimSpace in, out;
  in.bytes.resize(static_cast<std::size_t>(p.in.bytes()));
  for (std::size_t b = 0; b < in.bytes.size(); ++b)
    in.bytes[b] = in_byte(static_cast<std::int64_t>(b));
  in.ambiguous.assign(in.bytes.size(), 0);
  out.bytes.assign(static_cast<std::size_t>(p.out.bytes()), 0);
  out.ambiguous.assign(out.bytes.size(), 0);
  for (std::size_t r = 0; r < rows; ++r) {
    const KernelRow& row = p.rows[r];
    if (row.op != model::Op::Store || row.space == KernelSpace::Tile) continue;
    SimSpace& s = row.space == KernelSpace::In ? in : out;
    if (s.writers.empty()) s.writers.assign(s.bytes.size(), 0);
  }
  for (std::int64_t b = 0; b < blocks; ++b)
    for (std::size_t r = 0; r < rows; ++r) {
      const KernelRow& row = p.rows[r];
      for (int tid = 0; tid < threads; ++tid) {
        const std::int64_t i =
            evaluate(expressions[r], r, coordinates(p, b % p.grid.x, b / p.grid.x, tid));
        ++sim.evaluations;
        const bool ok = in_range(p, row, i);
        index[at(b, r, tid)] = ok ? i : -1;
        if (!ok) ++sim.out_of_range[r];
        if (!ok || row.op != model::Op::Store || row.space == KernelSpace::Tile) continue;
        auto& writers = (row.space == KernelSpace::In ? in : out).writers;
        const auto id =
            static_cast<std::int32_t>(linear_id(p, b % p.grid.x, b / p.grid.x, tid) + 1);
        for (int k = 0; k < row.word_bytes; ++k)
          note_writer(writers[static_cast<std::size_t>(i * row.word_bytes + k)], id);
      }
    }

  // Pass 2: block by block, sync interval by interval, row by row: the order a race-free program
  // cannot tell from the hardware's.
  SimSpace tile;
  std::vector<ThreadValue> values(static_cast<std::size_t>(threads));
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t bx = b % p.grid.x, by = b / p.grid.x;
    for (int tid = 0; tid < threads; ++tid)
      values[static_cast<std::size_t>(tid)] = {
          static_cast<std::uint64_t>(linear_id(p, bx, by, tid)), 0, false};
    tile.bytes.assign(static_cast<std::size_t>(p.tile.bytes()), 0);
    tile.ambiguous.assign(tile.bytes.size(), 0);
    for (std::size_t first = 0; first < rows;) {
      std::size_t last = first;
      while (last + 1 < rows && !p.rows[last].sync_after) ++last;
      // The tile's writers in this interval, and the accesses that race with them.
      tile.writers.assign(tile.bytes.size(), 0);
      for (std::size_t r = first; r <= last; ++r)
        if (p.rows[r].space == KernelSpace::Tile && p.rows[r].op == model::Op::Store)
          for (int tid = 0; tid < threads; ++tid)
            if (const std::int64_t i = index[at(b, r, tid)]; i >= 0)
              for (int k = 0; k < p.rows[r].word_bytes; ++k)
                note_writer(tile.writers[static_cast<std::size_t>(i * p.rows[r].word_bytes + k)],
                            tid + 1);
      for (std::size_t r = first; r <= last; ++r) {
        const KernelRow& row = p.rows[r];
        if (row.space != KernelSpace::Tile) continue;
        for (int tid = 0; tid < threads; ++tid) {
          const std::int64_t i = index[at(b, r, tid)];
          if (i < 0) continue;
          bool race = false;
          for (int k = 0; k < row.word_bytes; ++k) {
            const std::int32_t w = tile.writers[static_cast<std::size_t>(i * row.word_bytes + k)];
            race = race || w == -1 || (row.op == model::Op::Load && w != 0 && w != tid + 1);
          }
          if (race) ++sim.tile_races;
        }
      }
      for (std::size_t r = first; r <= last; ++r) {
        const KernelRow& row = p.rows[r];
        SimSpace& s = row.space == KernelSpace::In    ? in
                      : row.space == KernelSpace::Out ? out
                                                      : tile;
        for (int tid = 0; tid < threads; ++tid) {
          const std::int64_t i = index[at(b, r, tid)];
          if (i < 0) continue;
          ThreadValue& v = values[static_cast<std::size_t>(tid)];
          const auto self = static_cast<std::int32_t>(
              row.space == KernelSpace::Tile ? tid + 1 : linear_id(p, bx, by, tid) + 1);
          if (row.op == model::Op::Load)
            load(v, s, i * row.word_bytes, row.word_bytes, self);
          else
            store(v, s, i * row.word_bytes, row.word_bytes);
        }
      }
      first = last + 1;
    }
  }
  sim.complete = true;
  sim.out = std::move(out.bytes);
  sim.ambiguous = std::move(out.ambiguous);
  sim.ambiguous_bytes = std::count(sim.ambiguous.begin(), sim.ambiguous.end(), std::uint8_t{1});
  return sim;
}

}  // namespace warplens::gpu
