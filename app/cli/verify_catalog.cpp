// The verify catalog: the built-in scenarios with a countable access, then generated global
// (copy kernel, transpose) and shared (bank probe, transpose tiles, matmul, reduction)
// patterns, each unique by name and parameters.
#include "counter_checks.h"
#include "verify.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "index_math.h"
#include "lab.h"
#include "scenarios.h"
#include "shared_index.h"

namespace warplens::app {

std::vector<CounterCase> verify_catalog(int pitch_alignment, int compute_capability) {
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
        case CaseKind::LabLaunch: return o.lab_launch.key == c.lab_launch.key;
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
    const auto counter_case = lab_info(s.lab).counter_case;
    if (!counter_case) continue;  // the lab has no warp access pattern to count
    std::optional<CounterCase> c = counter_case(s);
    if (!c) continue;  // a kernel without a shared access to show (the naive matrix multiply)
    c->name = s.name;
    c->origin = "scenario";
    add(*c);
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
    // The window's first change in the live path (aligned, then __ldg): 4 sectors.
    gpu::CopyParams p = flat(4, 0, 1, false);
    p.path = path;
    copy_case(gname(false, 4, "aligned-" + tag), p);
    p = flat(4, 1, 1, false);
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
  for (gpu::TransposeVariant v : {gpu::TransposeVariant::Naive, gpu::TransposeVariant::Tiled,
                                  gpu::TransposeVariant::Vectorized}) {
    for (bool write : {false, true}) {
      CounterCase c;
      c.origin = "generated";
      c.kind = CaseKind::TransposeGlobal;
      c.transpose.variant = v;
      c.transpose.n = 4096;
      c.transpose_write = write;
      c.name = std::string("global/") + (write ? "st" : "ld") + "/" +
               std::to_string(c.word_bytes()) + "B/transpose-" + gpu::to_string(v) +
               (write ? "-write" : "-read");
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
          p.index.pitch_elements = pitch;
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
  for (gpu::TransposeVariant v :
       {gpu::TransposeVariant::Tiled, gpu::TransposeVariant::Padded,
        gpu::TransposeVariant::Swizzled, gpu::TransposeVariant::Vectorized}) {
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

  // --- generated by the labs themselves (LabInfo::verify_cases) ---
  for (const LabInfo& lab : lab_registry()) {
    if (!lab.verify_cases) continue;
    for (CounterCase& c : lab.verify_cases(compute_capability)) {
      c.origin = "generated";
      add(std::move(c));
    }
  }
  return list;
}

}  // namespace warplens::app
