#include "number_text.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>

namespace warplens::app {

namespace {

using model::HardwareModel;

/// printf into a std::string (at most 255 characters).
template <typename... Args>
std::string text(const char* fmt, Args... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string percent(double fraction) {
  return text("%.1f %%", 100.0 * fraction);
}

std::string bytes(std::int64_t b) {
  return text("%lld B", static_cast<long long>(b));
}

template <typename Lane>
model::WarpAccesses accesses_of(const std::array<Lane, model::kWarpSize>& lanes) {
  model::WarpAccesses a{};
  for (int l = 0; l < model::kWarpSize; ++l) a[l] = lanes[l].access;
  return a;
}

/// Builds the rows of one table: `get` gives a row's text of an analysis.
template <typename Analysis>
struct RowBuilder {
  const Analysis& predicted;
  const std::optional<Analysis>& traced;  ///< already counted by the modern rules if historical
  std::vector<StatText> rows;

  template <typename Get>
  void add(const char* name, Get get, bool model_dependent, const char* tooltip) {
    StatText r;
    r.name = name;
    r.model = get(predicted);
    r.tooltip = tooltip;
    if (traced) {
      r.traced = get(*traced);
      r.mark = trace_mark(r.model, r.traced, model_dependent, predicted.model);
    }
    rows.push_back(std::move(r));
  }
};

}  // namespace

// --- model vs GPU trace -------------------------------------------------------------------------

TraceMark trace_mark(const std::string& model, const std::string& traced, bool model_dependent,
                     HardwareModel shown) {
  if (model_dependent && shown != HardwareModel::Modern) return TraceMark::ThisGpu;
  return model == traced ? TraceMark::Agrees : TraceMark::Differs;
}

std::string trace_column_title(bool show_traced, HardwareModel shown) {
  if (!show_traced) return "GPU trace (no GPU)";
  return shown == HardwareModel::Modern ? "GPU trace" : "GPU trace, CC \u2265 7.0 rules";
}

std::vector<StatText> global_stat_texts(const model::GlobalAnalysis& p,
                                        const std::optional<model::GlobalAnalysis>& t) {
  using G = model::GlobalAnalysis;
  const bool historical = p.model != HardwareModel::Modern;
  std::optional<G> here = t;
  if (t && t->model != HardwareModel::Modern)
    here =
        model::analyze_global(accesses_of(t->lanes), t->word_bytes, t->op, HardwareModel::Modern);
  RowBuilder<G> b{p, here, {}};
  b.add(
      "requests", [](const G& a) { return std::to_string(a.requests); }, true,
      historical ? "memory requests one warp-wide instruction makes: the teaching model's count "
                   "beside what this GPU does (1 request on CC 7.0+)"
                 : "memory requests one warp-wide load instruction makes (1 on CC 7.0+)");
  b.add(
      "active lanes", [](const G& a) { return std::to_string(a.active_lanes); }, false, nullptr);
  b.add(
      "sectors (32 B)", [](const G& a) { return std::to_string(a.sectors.size()); }, false,
      "distinct 32-byte sectors the active lanes touch: the unit DRAM and L2 move");
  if (historical) {
    b.add(
        "transactions",
        [](const G& a) {
          return std::to_string(a.transactions) +
                 (a.transaction_bytes ? " \u00d7 " + std::to_string(a.transaction_bytes) + " B"
                                      : "");
        },
        true,
        "memory transactions of the chosen historical model (Programming Guide, CC 1.x-3.x); the "
        "trace column: the sectors this GPU moves");
  }
  b.add(
      "lines (128 B)", [](const G& a) { return std::to_string(a.lines.size()); }, false,
      "distinct 128-byte cache lines touched");
  b.add(
      "bytes requested", [](const G& a) { return bytes(a.requested_bytes); }, false,
      "distinct bytes the lanes asked for");
  b.add(
      "bytes moved", [](const G& a) { return bytes(a.moved_bytes); }, true,
      "the transactions' bytes (sectors x 32 bytes on CC 7.0+)");
  b.add(
      "bytes used", [](const G& a) { return percent(a.efficiency()); }, true,
      "bytes requested / bytes moved: the share of what the sectors move that the lanes use");
  const bool store = p.op == model::Op::Store;
  b.add(
      store ? "stores per KiB" : "loads per KiB",
      [](const G& a) {
        const int per_request = std::max(1, a.active_lanes) * a.word_bytes;
        return std::to_string((1024 + per_request - 1) / per_request);
      },
      false,
      store ? "warp-wide store instructions it takes to write 1 KiB from registers: 16-byte "
              "vectors need a quarter of the instructions 4-byte words do"
            : "warp-wide load instructions it takes to bring 1 KiB into registers: 16-byte "
              "vectors need a quarter of the instructions 4-byte words do");
  return b.rows;
}

std::string shared_efficiency_text(const model::SharedAnalysis& a) {
  if (a.wavefronts == 0) return percent(0.0);
  if (a.wavefronts == a.min_wavefronts) return percent(a.efficiency()) + " (the minimum)";
  return percent(a.efficiency()) + text(" (%d needed)", a.min_wavefronts);
}

std::string shared_cost_text(const model::SharedAnalysis& a) {
  // Wavefronts needed / taken has its own name: global memory's bytes used / moved is another
  // ratio (issue 32).
  const std::string n = text("%d wavefront%s", a.wavefronts, a.wavefronts == 1 ? "" : "s");
  if (a.wavefronts == a.min_wavefronts) return n + " (the minimum)";
  // The percentage is named as its table row is ("wavefronts needed"): "(3.1 %)" alone read as
  // no measure in particular (issue 32).
  return n + text(", %d needed (", a.min_wavefronts) + percent(a.efficiency()) + " needed)";
}

std::vector<StatText> shared_stat_texts(const model::SharedAnalysis& p,
                                        const std::optional<model::SharedAnalysis>& t) {
  using A = model::SharedAnalysis;
  std::optional<A> here = t;
  if (t && t->model != HardwareModel::Modern)
    here =
        model::analyze_shared(accesses_of(t->lanes), t->word_bytes, t->op, HardwareModel::Modern);
  RowBuilder<A> b{p, here, {}};
  b.add(
      "active lanes", [](const A& a) { return std::to_string(a.active_lanes); }, false,
      "lanes that execute the access (idle lanes move nothing)");
  b.add(
      "phases", [](const A& a) { return std::to_string(a.phases.size()); }, true,
      "the request is split into phases of up to 256 bytes: the whole warp for 1-8 byte words, "
      "half-warps for 16 bytes (as measured on an H100)");
  b.add(
      "wavefronts", [](const A& a) { return std::to_string(a.wavefronts); }, true,
      "passes through the banks: per phase, the most distinct words one bank must serve");
  b.add(
      "worst bank (words)",
      [](const A& a) {
        int worst = 0, ways = 1;
        for (const auto& ph : a.phases) {
          for (int w : ph.distinct_words_per_bank) worst = std::max(worst, w);
          const int minimum = std::max(1, ph.min_wavefronts);
          ways = std::max(ways, (ph.wavefronts + minimum - 1) / minimum);
        }
        return ways > 1 ? std::to_string(worst) + " (" + std::to_string(ways) + "-way conflict)"
                        : std::to_string(worst) + " (no conflict)";
      },
      true, "the largest number of different words any one bank serves in one phase");
  b.add(
      "broadcast", [](const A& a) { return std::string(a.broadcast ? "yes" : "no"); }, true,
      "several lanes read one word: served once and multicast, no conflict");
  b.add(
      "bytes requested", [](const A& a) { return bytes(a.requested_bytes); }, false,
      "distinct bytes the active lanes need (a word several lanes read counts once)");
  b.add(
      "bank bytes moved", [](const A& a) { return bytes(a.moved_bytes); }, true,
      "wavefronts x banks x bank width: each wavefront is one pass through every bank, used or "
      "not");
  b.add("wavefronts needed", shared_efficiency_text, true,
        "wavefronts needed / wavefronts taken: 100 % when no bank serves more words than it must "
        "(a broadcast is one wavefront, the best case); an n-way conflict is 1/n. Needed = "
        "distinct words / banks, rounded up, per phase");
  return b.rows;
}

// --- hardware counters --------------------------------------------------------------------------

std::string counter_title_text(HardwareModel shown) {
  if (shown == HardwareModel::Modern) return "hardware counters (CUPTI, whole launch):";
  return "hardware counters (CUPTI, whole launch) vs the modern model (CC \u2265 7.0):";
}

std::string counter_line_text(const CounterCheck& c, HardwareModel shown, const char* unit) {
  const double hw = c.hardware.value_or(0.0);
  if (shown == HardwareModel::Modern)
    return text("GPU %.2f %s/request, model %.2f", hw, unit, c.model);
  return text("GPU %.2f %s/request, modern model %.2f", hw, unit, c.model);
}

std::string counter_summary_text(const CounterCheck& c, HardwareModel shown, const char* unit) {
  return text("%.2f %s (%s %.2f) %s", c.hardware.value_or(0.0), unit,
              shown == HardwareModel::Modern ? "model" : "modern model", c.model,
              c.agree ? "\u2713" : "\u2717 differs");
}

// --- load path -----------------------------------------------------------------------------------

std::string load_path_caption(const gpu::CopyParams& p, int warp) {
  if (p.side != gpu::PatternSide::Read || p.layout != gpu::StructLayout::None) return "";
  const std::string lanes = text("lanes 0\u201331 of warp %d \u2022 ", warp);
  switch (p.path) {
    case gpu::LoadPath::Default: return "";
    case gpu::LoadPath::L2Only: return lanes + "__ldcg: cached in L2 only, L1 bypassed";
    case gpu::LoadPath::ReadOnly: return lanes + "__ldg: through the read-only data cache";
  }
  return "";
}

std::string load_path_note(const gpu::CopyParams& p) {
  if (p.side != gpu::PatternSide::Read || p.layout != gpu::StructLayout::None) return "";
  switch (p.path) {
    case gpu::LoadPath::Default: return "";
    case gpu::LoadPath::L2Only:
      return "__ldcg skips L1, not the sectors: the request moves the same 32-byte sectors from "
             "L2 as a plain load that misses L1. It only matters for sectors read again (by other "
             "warps or later loads), which a plain load could find in L1.";
    case gpu::LoadPath::ReadOnly:
      return "__ldg reads through the read-only data cache: the request moves the same 32-byte "
             "sectors; it only matters for sectors read again.";
  }
  return "";
}

std::string bandwidth_note(const gpu::CopyParams& p) {
  if (p.kind != IndexKind::SameWord || p.layout != gpu::StructLayout::None || p.matrix_width != 0)
    return "";
  return "GB/s counts the bytes the kernel asks to read and write (each lane's 4-byte read "
         "counts, though all 32 share one word), in 10\u2079 B/s. DRAM moves less: one sector "
         "serves "
         "the whole warp's read, so the copy is mostly its writes. 12.5 % is of that one sector, "
         "not a slow access.";
}

// --- timed launches -----------------------------------------------------------------------------

GbpsRange iqr_gbps(const gpu::Timing& t, double bytes_per_launch) {
  const auto gbps = [&](double ms) { return ms > 0 ? bytes_per_launch / (ms * 1e6) : 0.0; };
  return {gbps(t.p75_ms), gbps(t.p25_ms)};  // the slower quartile gives the lower bandwidth
}

std::string outlier_text(const gpu::Timing& t) {
  std::string out;
  const auto add = [&](int n, const char* what) {
    if (n == 0) return;
    if (!out.empty()) out += ", ";
    out += text("%d %s launch%s", n, what, n == 1 ? "" : "es");
  };
  add(t.slow_runs, "slow");
  add(t.fast_runs, "fast");
  if (!out.empty()) out += text(" of %d", t.runs);
  return out;
}

std::string spread_text(const gpu::Timing& t, double bytes_per_launch) {
  const GbpsRange r = iqr_gbps(t, bytes_per_launch);
  const std::string outliers = outlier_text(t);
  return text("IQR %.0f\u2013%.0f", r.low, r.high) + (outliers.empty() ? "" : ", " + outliers);
}

// --- matrix multiply ----------------------------------------------------------------------------

std::string matmul_reads_text(const gpu::MatmulParams& p) {
  return text("reads %.1f GB", static_cast<double>(gpu::matmul_global_read_bytes(p)) / 1e9);
}

std::string matmul_traffic_text(int n) {
  std::string out = text("global reads of A and B, n = %d:", n);
  for (int bs : gpu::kMatmulBlockSizes) {
    const double gb = static_cast<double>(gpu::matmul_global_read_bytes({bs, n})) / 1e9;
    out += bs == 0 ? text(" naive: %.1f GB,", gb)
                   : text(" %s%d: %.1f GB%s", bs == gpu::kMatmulBlockSizes[1] ? "BLOCK_SIZE " : "",
                          bs, gb, bs == gpu::kMatmulBlockSizes.back() ? "" : ",");
  }
  return out;
}

std::string matmul_reuse_text() {
  return "The tiles read each element of A and B n / BLOCK_SIZE times instead of n times. Fewer "
         "bytes need not mean more GFLOP/s: BLOCK_SIZE 8 runs 64-thread blocks with two "
         "__syncthreads() per 8 multiply-adds, and the naive kernel's repeated reads of the same "
         "rows and columns can hit in L1 and L2.";
}

std::string vectorized_transpose_text(const gpu::TransposeParams& p) {
  const int b = gpu::transpose_block_tile(gpu::TransposeVariant::Vectorized, p.tile);
  const int rows = std::max(1, p.rows_per_block);
  const int loads = b / rows, padded_loads = std::max(1, p.tile / rows);
  const int bytes = loads * 4 * gpu::kTransposeVectorFloats;
  return text(
             "Vectorized: the padded tile with more bytes in flight per thread. The same "
             "%d\u00d7%d threads move a %d\u00d7%d tile with float2 loads and stores: ",
             p.tile, rows, b, b) +
         text(
             "each thread issues %d loads of 8 bytes (%d bytes) before it waits, against the "
             "padded kernel's %d of 4 bytes (%d bytes), ",
             loads, bytes, padded_loads, padded_loads * 4) +
         "with half the global instructions per byte; each warp's access moves 256 bytes. Its "
         "tile accesses are 2-way bank conflicts (lanes two words apart), cheap while DRAM is "
         "the limit. More bytes in flight per SM keep DRAM busy (Little's law; CUDA C++ Best "
         "Practices "
         "Guide, \"Coalesced Access to Global Memory\"); NVIDIA's \"An Efficient Matrix "
         "Transpose in CUDA C/C++\" stops at the padded tile.";
}

std::string keep_units_together(std::string text) {
  static const char* const units[] = {"%",  "B",  "KiB", "MiB",  "GiB",  "ns",
                                      "us", "ms", "s",   "GB/s", "TB/s", "B/clk/SM"};
  for (std::size_t at = text.find(' '); at != std::string::npos; at = text.find(' ', at + 1)) {
    if (at == 0 || !std::isdigit(static_cast<unsigned char>(text[at - 1]))) continue;
    for (const char* unit : units) {
      const std::size_t n = std::char_traits<char>::length(unit);
      const std::size_t after = at + 1 + n;  // past the unit, where it is whole in `text`
      if (after > text.size() || text.compare(at + 1, n, unit) != 0) continue;
      if (after == text.size() || !std::isalnum(static_cast<unsigned char>(text[after]))) {
        text.replace(at, 1, "\u00a0");
        break;
      }
    }
  }
  return text;
}

}  // namespace warplens::app
