#include "counter_checks.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "index_math.h"
#include "memory_model.h"
#include "scenarios.h"
#include "shared_index.h"
#include "shared_pattern.h"

namespace warplens::app {

namespace {

// --- metric names ----------------------------------------------------------------------------

constexpr const char* kGlobalLdSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalLdRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalStSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kGlobalStRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kSharedLdWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* kSharedLdInstructions = "smsp__inst_executed_op_shared_ld.sum";
constexpr const char* kSharedStWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* kSharedStInstructions = "smsp__inst_executed_op_shared_st.sum";
constexpr const char* kGlobalLdInstructions = "smsp__inst_executed_op_global_ld.sum";
constexpr const char* kGlobalStInstructions = "smsp__inst_executed_op_global_st.sum";
constexpr const char* kGlobalLdLookupHit =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum";
constexpr const char* kGlobalLdLookupMiss =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum";
constexpr const char* kTextureLookupHit = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum";
constexpr const char* kTextureLookupMiss = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum";

// --- the model, per request over a whole launch ------------------------------------------------

/// Distinct values among the first n of `sectors` (sorts them).
int distinct(std::array<std::int64_t, 32>& sectors, int n) {
  std::sort(sectors.begin(), sectors.begin() + n);
  return static_cast<int>(std::unique(sectors.begin(), sectors.begin() + n) - sectors.begin());
}

struct Sum {
  double sectors = 0, requests = 0;
  void add(int s) {
    if (s > 0) {
      sectors += s;
      requests += 1;
    }
  }
  [[nodiscard]] double mean() const { return requests > 0 ? sectors / requests : 0.0; }
};

/// Sectors of warp w of the flat pattern copy (host twin: element_index).
int copy_warp_sectors(const gpu::CopyPlan& plan, int word_bytes, std::int64_t w) {
  std::array<std::int64_t, 32> s{};
  int n = 0;
  for (std::int64_t g = 32 * w; g < std::min(32 * w + 32, plan.threads); ++g) {
    s[static_cast<std::size_t>(n++)] = element_index(g, plan.index) * word_bytes / 32;
  }
  return distinct(s, n);
}

double copy_model(const gpu::CopyParams& p, std::int64_t buffer_bytes) {
  const gpu::CopyPlan plan = gpu::plan_copy(p, buffer_bytes);
  if (p.layout != gpu::StructLayout::None) {
    // Three load requests per warp, one per field; every warp starts a multiple of 384 bytes
    // (array of structures) or 128 bytes (structure of arrays) from the base, and the struct
    // count is a multiple of 32, so warp 0 stands for all.
    const bool soa = p.layout == gpu::StructLayout::StructOfArrays;
    Sum sum;
    for (int f = 0; f < gpu::kStructFields; ++f) {
      std::array<std::int64_t, 32> s{};
      for (int g = 0; g < 32; ++g) s[g] = struct_field_index(g, f, soa, plan.threads) * 4 / 32;
      sum.add(distinct(s, 32));
    }
    return sum.mean();
  }
  if (p.matrix_width != 0) {
    // Block by block; blocks whose addresses differ only by a shift are costed once. By row,
    // block (bx, by) is block (bx, 0) shifted by by x bdy x pitch bytes; by column, block
    // (bx, by) is block (0, by) shifted by bx x bdx x pitch. A shift by D moves the same number
    // of distinct sectors as a shift by D mod 32, so interior blocks (no row past the matrix)
    // are keyed by (the other block index, shift mod 32). Edge blocks are costed directly.
    const std::int64_t bdx = p.block_threads / p.block_y, bdy = p.block_y;
    const std::int64_t warps = (bdx * bdy + 31) / 32;
    const auto block_cost = [&](std::int64_t bx, std::int64_t by) {
      Sum sum;
      for (std::int64_t w = 0; w < warps; ++w) {
        std::array<std::int64_t, 32> s{};
        int n = 0;
        for (std::int64_t tid = 32 * w; tid < std::min(32 * w + 32, bdx * bdy); ++tid) {
          const MatrixCell cell =
              matrix_cell(tid % bdx, tid / bdx, bx, by, bdx, bdy, p.matrix_by_column);
          if (cell.row >= plan.rows || cell.column >= p.matrix_width) continue;
          s[static_cast<std::size_t>(n++)] = (cell.row * plan.pitch_bytes + cell.column * 4) / 32;
        }
        if (n > 0) sum.add(distinct(s, n));
      }
      return sum;
    };
    const std::int64_t others = p.matrix_by_column ? plan.grid_y : plan.grid_x;
    std::vector<std::optional<Sum>> cache(static_cast<std::size_t>(others * 32));
    Sum total;
    for (std::int64_t by = 0; by < plan.grid_y; ++by) {
      for (std::int64_t bx = 0; bx < plan.grid_x; ++bx) {
        const std::int64_t along = p.matrix_by_column ? bx : by;  // the index that shifts rows
        const std::int64_t other = p.matrix_by_column ? by : bx;
        const std::int64_t rows_per_block = p.matrix_by_column ? bdx : bdy;
        Sum cost;
        if ((along + 1) * rows_per_block <= plan.rows) {
          const std::int64_t shift = along * rows_per_block * plan.pitch_bytes % 32;
          std::optional<Sum>& slot = cache[static_cast<std::size_t>(other * 32 + shift)];
          if (!slot) {
            // A block of the same shape at row offset `shift` bytes: cost block `along` = 0
            // with its addresses shifted, i.e. the key's representative.
            Sum rep;
            for (std::int64_t w = 0; w < warps; ++w) {
              std::array<std::int64_t, 32> s{};
              int n = 0;
              for (std::int64_t tid = 32 * w; tid < std::min(32 * w + 32, bdx * bdy); ++tid) {
                const MatrixCell cell =
                    matrix_cell(tid % bdx, tid / bdx, p.matrix_by_column ? 0 : bx,
                                p.matrix_by_column ? by : 0, bdx, bdy, p.matrix_by_column);
                if (cell.column >= p.matrix_width) continue;
                s[static_cast<std::size_t>(n++)] =
                    (shift + cell.row * plan.pitch_bytes + cell.column * 4) / 32;
              }
              if (n > 0) rep.add(distinct(s, n));
            }
            slot = rep;
          }
          cost = *slot;
        } else {
          cost = block_cost(bx, by);
        }
        total.sectors += cost.sectors;
        total.requests += cost.requests;
      }
    }
    return total.mean();
  }
  const std::int64_t warps = (plan.threads + 31) / 32;
  if (p.kind == IndexKind::Scattered) {
    Sum sum;
    for (std::int64_t w = 0; w < warps; ++w) sum.add(copy_warp_sectors(plan, p.word_bytes, w));
    return sum.mean();
  }
  // Strided, permuted, same-word: warp w's elements are warp 0's moved by 32 x w x stride
  // elements, a multiple of 32 bytes, so every full warp costs what warp 0 costs; only the
  // launch's last warp may be partial.
  const double first = copy_warp_sectors(plan, p.word_bytes, 0);
  const double last = copy_warp_sectors(plan, p.word_bytes, warps - 1);
  return (first * static_cast<double>(warps - 1) + last) / static_cast<double>(warps);
}

/// The transpose kernel's global read or write: every warp of block (0, 0) at every step j
/// (blocks differ by whole multiples of 32 bytes: tile x 4 and tile x n x 4 bytes).
double transpose_model(const gpu::TransposeParams& t, bool write) {
  gpu::check_transpose(t, std::int64_t{1} << 62);
  const int threads = t.tile * t.rows_per_block;
  Sum sum;
  for (int w = 0; w < (threads + 31) / 32; ++w) {
    for (int j = 0; j < t.tile; j += t.rows_per_block) {
      std::array<std::int64_t, 32> s{};
      int n = 0;
      for (int tid = 32 * w; tid < std::min(32 * w + 32, threads); ++tid) {
        const gpu::TransposeGlobalIndex g = gpu::transpose_global_index(
            t.variant, t.tile, t.n, tid % t.tile, tid / t.tile + j, 0, 0);
        s[static_cast<std::size_t>(n++)] = std::int64_t{write ? g.write : g.read} * 4 / 32;
      }
      sum.add(distinct(s, n));
    }
  }
  return sum.mean();
}

/// The bank probe: the mean over the block's warps that have an active lane (every block of the
/// launch runs the same block).
double bank_model(const gpu::BankProbeParams& probe) {
  (void)gpu::plan_bank_probe(probe, gpu::kModelSharedBytesPerBlock);
  const int warps = (probe.block_x * probe.block_y + 31) / 32;
  double wavefronts = 0, requests = 0;
  for (int w = 0; w < warps; ++w) {
    const model::SharedAnalysis a = analyze_probe(probe, w);
    if (a.active_lanes == 0) continue;
    wavefronts += a.wavefronts;
    requests += 1;
  }
  return requests > 0 ? wavefronts / requests : 0.0;
}

std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

// --- cases -------------------------------------------------------------------------------------

bool CounterCase::store() const {
  switch (kind) {
    case CaseKind::Copy:
      return copy.layout == gpu::StructLayout::None && copy.matrix_width == 0 &&
             copy.side == gpu::PatternSide::Write;
    case CaseKind::Bank: return probe.op == gpu::SharedOp::Store;
    case CaseKind::TransposeGlobal: return transpose_write;
  }
  return false;
}

int CounterCase::word_bytes() const {
  switch (kind) {
    case CaseKind::Copy: return copy.word_bytes;
    case CaseKind::Bank: return probe.index.word_bytes;
    case CaseKind::TransposeGlobal: return 4;
  }
  return 4;
}

std::vector<std::string> case_metrics(const CounterCase& c) {
  if (c.shared()) {
    return c.store() ? std::vector<std::string>{kSharedStWavefronts, kSharedStInstructions}
                     : std::vector<std::string>{kSharedLdWavefronts, kSharedLdInstructions};
  }
  return c.store()
             ? std::vector<std::string>{kGlobalStSectors, kGlobalStRequests, kGlobalStInstructions}
             : std::vector<std::string>{kGlobalLdSectors, kGlobalLdRequests, kGlobalLdInstructions};
}

double model_per_request(const CounterCase& c, std::int64_t buffer_bytes) {
  switch (c.kind) {
    case CaseKind::Copy: return copy_model(c.copy, buffer_bytes);
    case CaseKind::Bank: return bank_model(c.probe);
    case CaseKind::TransposeGlobal: return transpose_model(c.transpose, c.transpose_write);
  }
  return 0;
}

Tolerance case_tolerance(const CounterCase& c) {
  Tolerance t;
  if (c.shared() && c.store()) {
    // Hopper's shared-store wavefront counter reads high under load (+0.1..+1.3 per request
    // measured on an H100, independent of the bank conflict); see the file comment in the header.
    t.above = 1.5;
    t.note = "shared store: Hopper counts up to +1.5 wavefronts/request above the model";
  }
  return t;
}

std::vector<CounterCase> verify_catalog(int pitch_alignment) {
  std::vector<CounterCase> list;
  const auto exists = [&](const CounterCase& c) {
    return std::any_of(list.begin(), list.end(), [&](const CounterCase& o) {
      if (o.name == c.name) return true;
      if (o.kind != c.kind) return false;
      switch (c.kind) {
        case CaseKind::Copy: return o.copy == c.copy;
        case CaseKind::Bank: return o.probe == c.probe;
        case CaseKind::TransposeGlobal:
          return o.transpose == c.transpose && o.transpose_write == c.transpose_write;
      }
      return false;
    });
  };
  const auto add = [&](CounterCase c) {
    if (c.kind == CaseKind::Copy) c.copy.pitch_alignment = pitch_alignment;
    if (!exists(c)) list.push_back(std::move(c));
  };

  // The built-in scenarios, in lecture order.
  for (const Scenario& s : builtin_scenarios()) {
    if (s.lab == Lab::Cache) continue;  // no warp access pattern to count
    CounterCase c;
    c.name = s.name;
    c.origin = "scenario";
    if (s.lab == Lab::Global) {
      c.kind = CaseKind::Copy;
      c.copy = s.copy;
    } else if (const auto access = shown_access(s.shared)) {
      c.kind = CaseKind::Bank;
      c.probe = *access;
    } else if (s.lab == Lab::Transpose) {
      c.kind = CaseKind::TransposeGlobal;
      c.transpose = s.shared.transpose;
      c.transpose_write = s.shared.transpose_view != TransposeView::GlobalRead;
    } else {
      continue;  // a kernel without a shared access to show (the naive matrix multiply)
    }
    add(c);
  }

  // --- generated: global memory through the copy kernel ---
  const auto copy_case = [&](const std::string& name, const gpu::CopyParams& p) {
    CounterCase c;
    c.name = name;
    c.origin = "generated";
    c.kind = CaseKind::Copy;
    c.copy = p;
    add(c);
  };
  const auto flat = [](int word, std::int64_t offset, std::int64_t stride, bool store,
                       IndexKind kind = IndexKind::Strided, std::uint32_t seed = 1) {
    gpu::CopyParams p;
    p.word_bytes = word;
    p.offset = offset;
    p.stride = stride;
    p.kind = kind;
    p.seed = seed;
    p.side = store ? gpu::PatternSide::Write : gpu::PatternSide::Read;
    return p;
  };
  const auto op_name = [](bool store) { return store ? std::string("st") : std::string("ld"); };
  const auto gname = [&](bool store, int word, const std::string& what) {
    return "global/" + op_name(store) + "/" + std::to_string(word) + "B/" + what;
  };
  for (bool store : {false, true}) {
    for (int word : {1, 2, 4, 8, 16}) {
      copy_case(gname(store, word, "aligned"), flat(word, 0, 1, store));
      copy_case(gname(store, word, "offset-1"), flat(word, 1, 1, store));
      copy_case(gname(store, word, "same-word"), flat(word, 0, 1, store, IndexKind::SameWord));
    }
    for (std::int64_t offset : {2, 8, 16, 31}) {
      copy_case(gname(store, 4, "offset-" + std::to_string(offset)), flat(4, offset, 1, store));
    }
    for (std::int64_t stride : {2, 3, 4, 8, 16, 32}) {
      copy_case(gname(store, 4, "stride-" + std::to_string(stride)), flat(4, 0, stride, store));
    }
    for (int word : {1, 2, 8, 16}) {
      for (std::int64_t stride : {2, 4, 32}) {
        copy_case(gname(store, word, "stride-" + std::to_string(stride)),
                  flat(word, 0, stride, store));
      }
    }
    copy_case(gname(store, 4, "offset-1-stride-3"), flat(4, 1, 3, store));
    copy_case(gname(store, 4, "permuted-seed-5"), flat(4, 0, 1, store, IndexKind::Permuted, 5));
    copy_case(gname(store, 16, "permuted-seed-5"), flat(16, 0, 1, store, IndexKind::Permuted, 5));
    copy_case(gname(store, 4, "scattered-seed-7"), flat(4, 0, 1, store, IndexKind::Scattered, 7));
  }
  for (int word : {1, 2}) {
    for (std::int64_t stride : {3, 8, 16}) {
      copy_case(gname(false, word, "stride-" + std::to_string(stride)),
                flat(word, 0, stride, false));
    }
  }
  copy_case(gname(false, 4, "permuted-seed-1-offset-1"),
            flat(4, 1, 1, false, IndexKind::Permuted, 1));
  copy_case(gname(false, 8, "permuted-seed-9"), flat(8, 0, 1, false, IndexKind::Permuted, 9));
  copy_case(gname(false, 16, "scattered-seed-7"), flat(16, 0, 1, false, IndexKind::Scattered, 7));
  copy_case(gname(false, 8, "scattered-seed-3"), flat(8, 0, 1, false, IndexKind::Scattered, 3));
  for (gpu::LoadPath path : {gpu::LoadPath::L2Only, gpu::LoadPath::ReadOnly}) {
    const std::string tag = gpu::to_string(path);
    gpu::CopyParams p = flat(4, 1, 1, false);
    p.path = path;
    copy_case(gname(false, 4, "offset-1-" + tag), p);
    p = flat(4, 0, 2, false);
    p.path = path;
    copy_case(gname(false, 4, "stride-2-" + tag), p);
    p = flat(4, 0, 1, false, IndexKind::Scattered, 2024);
    p.path = path;
    copy_case(gname(false, 4, "scattered-" + tag), p);
  }
  for (gpu::StructLayout layout :
       {gpu::StructLayout::ArrayOfStructs, gpu::StructLayout::StructOfArrays}) {
    gpu::CopyParams p;
    p.layout = layout;
    p.block_threads = 128;
    copy_case(std::string("global/ld/4B/struct-") + gpu::to_string(layout) + "-block-128", p);
  }
  const auto matrix = [&](int width, bool pitched, bool by_column, int block_y) {
    gpu::CopyParams p;
    p.matrix_width = width;
    p.matrix_pitched = pitched;
    p.matrix_by_column = by_column;
    p.block_y = block_y;
    const int bdx = p.block_threads / block_y;
    copy_case("global/ld/4B/matrix-" + std::to_string(width) + (by_column ? "-columns" : "-rows") +
                  (pitched ? "-pitched" : "") + "-block-" + std::to_string(bdx) + "x" +
                  std::to_string(block_y),
              p);
  };
  for (bool by_column : {false, true}) {
    for (bool pitched : {false, true}) {
      matrix(100, pitched, by_column, 8);
      matrix(1000, pitched, by_column, 8);
    }
  }
  matrix(33, false, false, 8);
  matrix(120, false, false, 16);
  matrix(120, true, false, 16);
  matrix(120, false, false, 32);
  matrix(120, false, true, 32);

  // The transpose kernels' global accesses.
  for (gpu::TransposeVariant v : {gpu::TransposeVariant::Naive, gpu::TransposeVariant::Tiled}) {
    for (bool write : {false, true}) {
      CounterCase c;
      c.origin = "generated";
      c.kind = CaseKind::TransposeGlobal;
      c.transpose.variant = v;
      c.transpose.n = 4096;
      c.transpose_write = write;
      c.name = std::string("global/") + (write ? "st" : "ld") + "/4B/transpose-" +
               gpu::to_string(v) + (write ? "-write" : "-read");
      add(c);
    }
  }

  // --- generated: shared memory through the bank probe ---
  const auto bank_case = [&](const std::string& name, const gpu::BankProbeParams& p) {
    CounterCase c;
    c.name = name;
    c.origin = "generated";
    c.kind = CaseKind::Bank;
    c.probe = p;
    add(c);
  };
  const auto strided = [](int word, int stride, bool store, int offset = 0) {
    gpu::BankProbeParams p;
    p.index.kind = SharedPatternKind::Strided;
    p.index.word_bytes = word;
    p.index.stride = stride;
    p.index.offset = offset;
    p.op = store ? gpu::SharedOp::Store : gpu::SharedOp::Load;
    return p;
  };
  const auto sname = [&](bool store, int word, const std::string& what) {
    return "shared/" + op_name(store) + "/" + std::to_string(word) + "B/" + what;
  };
  for (int stride = 0; stride <= 32; ++stride) {
    bank_case(sname(false, 4, "stride-" + std::to_string(stride)), strided(4, stride, false));
  }
  for (int stride : {0, 1, 2, 3, 4, 8, 16, 32}) {
    bank_case(sname(true, 4, "stride-" + std::to_string(stride)), strided(4, stride, true));
  }
  for (int word : {1, 2}) {
    for (int stride : {1, 2, 3, 4, 8, 32}) {
      bank_case(sname(false, word, "stride-" + std::to_string(stride)),
                strided(word, stride, false));
    }
    for (int stride : {1, 4}) {
      bank_case(sname(true, word, "stride-" + std::to_string(stride)), strided(word, stride, true));
    }
  }
  for (int word : {8, 16}) {
    for (int stride : {0, 1, 2, 3, 4, 8}) {
      bank_case(sname(false, word, "stride-" + std::to_string(stride)),
                strided(word, stride, false));
    }
    for (int stride : {1, 2}) {
      bank_case(sname(true, word, "stride-" + std::to_string(stride)), strided(word, stride, true));
    }
    bank_case(sname(false, word, "offset-1"), strided(word, 1, false, 1));
  }
  for (bool store : {false, true}) {
    for (int pitch : {32, 33}) {
      for (bool swizzle : {false, true}) {
        if (swizzle && pitch != 32) continue;
        for (bool by_column : {false, true}) {
          gpu::BankProbeParams p;
          p.index.kind = SharedPatternKind::Tile;
          p.index.tile_width = 32;
          p.index.pitch = pitch;
          p.index.swizzle = swizzle;
          p.index.by_column = by_column;
          p.op = store ? gpu::SharedOp::Store : gpu::SharedOp::Load;
          p.block_x = 32;
          p.block_y = 32;
          bank_case(sname(store, 4,
                          std::string(swizzle ? "tile-32x32-swizzled"
                                              : "tile-32x" + std::to_string(pitch)) +
                              (by_column ? "-by-column" : "-by-row")),
                    p);
        }
      }
    }
    for (int words : {2, 3, 4}) {
      for (int field = 0; field < 2; ++field) {
        if (store && field > 0) continue;
        gpu::BankProbeParams p;
        p.index.kind = SharedPatternKind::Struct;
        p.index.struct_words = words;
        p.index.field = field;
        p.op = store ? gpu::SharedOp::Store : gpu::SharedOp::Load;
        bank_case(
            sname(store, 4, "struct-" + std::to_string(words) + "-field-" + std::to_string(field)),
            p);
      }
    }
    for (SharedPatternKind kind : {SharedPatternKind::Interleaved, SharedPatternKind::Blocked}) {
      for (int part : {0, 1}) {
        gpu::BankProbeParams p;
        p.index.kind = kind;
        p.index.part = part;
        p.op = store ? gpu::SharedOp::Store : gpu::SharedOp::Load;
        p.block_x = 128;
        bank_case(
            sname(store, 4, std::string(gpu::to_string(kind)) + "-part-" + std::to_string(part)),
            p);
      }
    }
  }
  // The transpose tiles as the kernels use them (tile x rows_per_block blocks).
  for (gpu::TransposeVariant v : {gpu::TransposeVariant::Tiled, gpu::TransposeVariant::Padded,
                                  gpu::TransposeVariant::Swizzled}) {
    for (int tile : {16, 32}) {
      gpu::TransposeParams t;
      t.variant = v;
      t.tile = tile;
      t.rows_per_block = 8;
      const std::string tag = std::string(gpu::to_string(v)) + "-" + std::to_string(tile);
      bank_case(sname(false, 4, "transpose-" + tag + "-tile-read"), gpu::transpose_tile_read(t));
      bank_case(sname(true, 4, "transpose-" + tag + "-tile-write"), gpu::transpose_tile_write(t));
    }
  }
  for (int block_size : {8, 16, 32}) {
    gpu::MatmulParams m;
    m.block_size = block_size;
    for (int k : {0, block_size - 1}) {
      const std::string tag = std::to_string(block_size) + "-k" + std::to_string(k);
      bank_case(sname(false, 4, "matmul-" + tag + "-a"), gpu::matmul_read_a(m, k));
      bank_case(sname(false, 4, "matmul-" + tag + "-b"), gpu::matmul_read_b(m, k));
    }
  }
  for (gpu::ReductionVariant v : gpu::kReductionVariants) {
    gpu::ReductionParams r;
    r.variant = v;
    for (int step : {0, 3, 5}) {
      for (bool second : {false, true}) {
        bank_case(sname(false, 4,
                        std::string("reduction-") + gpu::to_string(v) + "-step-" +
                            std::to_string(step) + (second ? "-second" : "-first")),
                  gpu::reduction_step(r, step, second));
      }
    }
  }
  return list;
}

std::vector<std::string> cache_hit_metrics(const CacheCounterCase& c) {
  return c.texture() ? std::vector<std::string>{kTextureLookupHit, kTextureLookupMiss}
                     : std::vector<std::string>{kGlobalLdLookupHit, kGlobalLdLookupMiss};
}

// --- the checker ---------------------------------------------------------------------------------

namespace {
constexpr std::size_t kLabGroup = 0;    ///< the verify catalog's metrics
constexpr std::size_t kCacheGroup = 1;  ///< the cache lab's hit rates
}  // namespace

CounterChecker::CounterChecker(const gpu::DeviceInfo& device) : device_(device) {
  // The session first: a refusal (admin-only counters, vGPU, ...) shows before the labs
  // allocate their buffers. One configuration with every metric of every case kind, kept
  // enabled: a kept profiler cannot switch configurations (counters.h), and enabling the
  // profiler per read-out costs about 100 ms on an H100, where the union of these metrics needs
  // a few passes of a few milliseconds each.
  std::vector<std::string> metrics;
  for (bool shared : {false, true}) {
    for (bool store : {false, true}) {
      CounterCase c;
      c.kind = shared ? CaseKind::Bank : CaseKind::Copy;
      c.probe.op = store ? gpu::SharedOp::Store : gpu::SharedOp::Load;
      c.copy.side = store ? gpu::PatternSide::Write : gpu::PatternSide::Read;
      for (const std::string& m : case_metrics(c)) metrics.push_back(m);
    }
  }
  // The cache lab's L1 hit rates (LSU global loads and TEX-pipe texture fetches) in a group of
  // their own: in the first group they would add passes to every other read-out (measured on an
  // H100: verify's median read-out went from 36 to 59 ms). Switching groups enables the
  // profiler afresh, which the cache lab pays once per sweep of hit rates.
  std::vector<std::string> cache_metrics;
  for (bool texture : {false, true}) {
    CacheCounterCase c;
    c.kind = texture ? CacheCounterCase::Kind::ReadPath : CacheCounterCase::Kind::L1Gather;
    c.read.path = gpu::ReadPath::Texture;
    for (const std::string& m : cache_hit_metrics(c)) cache_metrics.push_back(m);
  }
  session_ = std::make_unique<gpu::CounterSession>(
      device.index, std::vector<std::vector<std::string>>{metrics, cache_metrics},
      gpu::CounterSession::KeepEnabled{});
  shared_ = std::make_unique<gpu::SharedLab>(device);
  // The first range a session profiles pays CUPTI's one-time set-up (about 150 ms on an H100):
  // pay it here, on a small bank-probe launch, so every check's read-out is the steady cost.
  CounterCase warm_up;
  warm_up.kind = CaseKind::Bank;
  (void)read(warm_up);
}

CounterChecker::~CounterChecker() = default;

gpu::CopyLab& CounterChecker::copy_lab() {
  if (!copy_) copy_ = std::make_unique<gpu::CopyLab>(device_);
  return *copy_;
}

void CounterChecker::launch(const CounterCase& c) {
  switch (c.kind) {
    case CaseKind::Copy: {
      gpu::CopyParams p = c.copy;
      p.pitch_alignment = device_.pitch_alignment;
      copy_lab().launch_once(p);
      break;
    }
    case CaseKind::Bank: shared_->launch_bank_once(c.probe, kBankCounterRepeats); break;
    case CaseKind::TransposeGlobal:
      // The timed kernel: the traced one's predicated trace stores would count as store
      // instructions (9 per stored element on an H100), skewing sectors per instruction.
      shared_->launch_transpose_once(c.transpose);
      break;
  }
}

gpu::CounterSession::MetricValues CounterChecker::read(const CounterCase& c) {
  // The transpose's traced launch allocates and fills its matrices on first use (or when n
  // changes): run it once outside the profiled range, so no pass counts the fill's stores.
  if (c.kind == CaseKind::TransposeGlobal) launch(c);
  const std::size_t group = kLabGroup;  // the labs' configuration (see the constructor)
  const gpu::CounterSession::MetricValues got = session_->profile_group([&] { launch(c); }, group);
  // In case_metrics() order; a metric this GPU does not know reads 0.
  const std::vector<std::string>& collected = session_->collected_metrics(group);
  gpu::CounterSession::MetricValues out;
  out.passes = got.passes;
  for (const std::string& name : case_metrics(c)) {
    const auto at = std::find(collected.begin(), collected.end(), name);
    out.values.push_back(
        at == collected.end() ? 0.0 : got.values[static_cast<std::size_t>(at - collected.begin())]);
  }
  return out;
}

CounterCheck CounterChecker::check(const CounterCase& c) {
  CounterCheck row;
  row.pattern = c.name;
  const std::vector<std::string> metrics = case_metrics(c);
  const Tolerance tol = case_tolerance(c);
  row.tolerance = tol.above;
  row.tolerance_below = tol.below;
  row.note = tol.note;
  try {
    row.model = model_per_request(c, gpu::CopyLab::default_buffer_bytes(device_));
  } catch (const std::exception& e) {
    row.note = std::string("model refused the pattern: ") + e.what();
    return row;
  }
  gpu::CounterSession::MetricValues got;
  std::chrono::steady_clock::time_point start;
  try {
    if (c.kind == CaseKind::Copy) (void)copy_lab();  // its allocation is no part of the read-out
    start = std::chrono::steady_clock::now();
    got = read(c);
  } catch (const gpu::CountersUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    row.note = std::string("launch failed: ") + e.what();
    return row;
  }
  row.readout_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  row.passes = got.passes;
  const double numerator = got.values[0];
  row.requests = got.values[1];
  row.instructions = metrics.size() > 2 ? got.values[2] : got.values[1];
  // Global: per warp instruction when this GPU counts them, else per L1TEX request.
  const bool by_instruction = metrics.size() > 2 && row.instructions > 0;
  const double denominator = by_instruction ? row.instructions : row.requests;
  row.metric = metrics[0] + " / " + (by_instruction ? metrics[2] : metrics[1]);
  if (denominator <= 0) {
    row.note = "the launch counted no requests";
    return row;
  }
  row.hardware = numerator / denominator;
  row.agree = *row.hardware >= row.model - row.tolerance_below &&
              *row.hardware <= row.model + row.tolerance;
  if (by_instruction && row.requests > row.instructions * 1.0001) {
    const std::string split = "L1TEX split the instructions into " +
                              num(row.requests / row.instructions) + " requests each";
    row.note = row.note.empty() ? split : row.note + "; " + split;
  }
  if (!row.agree) {
    const std::string off = "differs by " + num(*row.hardware - row.model) + " per request";
    row.note = row.note.empty() ? off : row.note + "; " + off;
  }
  return row;
}

L1HitRate CounterChecker::l1_hit_rate(const CacheCounterCase& c) {
  L1HitRate out;
  const std::vector<std::string> names = cache_hit_metrics(c);
  out.metric = names[0] + " / (" + names[0] + " + " + names[1] + ")";
  const std::size_t group = kCacheGroup;  // the hit rates' own configuration (constructor)
  const std::vector<std::string>& collected = session_->collected_metrics(group);
  std::vector<std::size_t> at;
  for (const std::string& name : names) {
    const auto it = std::find(collected.begin(), collected.end(), name);
    if (it == collected.end()) {
      out.unavailable = std::string("L1 hit rate not available") +
                        (c.texture() ? " for the texture path" : "") +
                        ": this GPU's CUPTI does not know " + name;
      return out;
    }
    at.push_back(static_cast<std::size_t>(it - collected.begin()));
  }
  const bool gather = c.kind == CacheCounterCase::Kind::L1Gather;
  gpu::CounterSession::MetricValues got;
  auto start = std::chrono::steady_clock::now();
  try {
    if (!cache_) cache_ = std::make_unique<gpu::CacheLab>(device_);
    const auto launch = [&] {
      if (gather) {
        cache_->launch_l1_gather_once(c.carveout, c.working_set_bytes);
      } else {
        cache_->launch_read_path_once(c.read);
      }
    };
    // A first launch fills the buffers with kernels of their own: outside the profiled range.
    if (gather ? !cache_gather_ready_ : cache_image_side_ != c.read.side) {
      launch();
      if (gather) {
        cache_gather_ready_ = true;
      } else {
        cache_image_side_ = c.read.side;
      }
    }
    start = std::chrono::steady_clock::now();
    got = session_->profile_group(launch, group);
  } catch (const gpu::CountersUnavailable&) {
    throw;
  } catch (const std::invalid_argument& e) {
    out.unavailable = std::string("parameters refused: ") + e.what();
    return out;
  } catch (const std::exception& e) {
    out.unavailable = std::string("launch failed: ") + e.what();
    return out;
  }
  out.readout_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.passes = got.passes;
  out.hit_sectors = got.values[at[0]];
  out.miss_sectors = got.values[at[1]];
  const double looked_up = out.hit_sectors + out.miss_sectors;
  if (!(looked_up > 0)) {
    out.unavailable = std::string("L1 hit rate not available") +
                      (c.texture() ? " for the texture path" : "") +
                      ": the launch counted no sector lookups on " +
                      (c.texture() ? "the TEX pipe" : "the LSU pipe");
    return out;
  }
  out.percent = 100.0 * out.hit_sectors / looked_up;
  return out;
}

}  // namespace warplens::app
