// The texts the labs' number tables show, built apart from drawing so tests can read them
// without a window or a GPU: the model-vs-trace rows of one warp request, the hardware-counter
// line, and the spread of timed launches.
//
// Two rules keep the numbers from contradicting each other:
//   - A tick (✓) means the GPU confirmed that number. A historical teaching model (Fermi,
//     Kepler, G80) is never ticked against today's hardware: the GPU-trace column then counts the
//     traced addresses by the modern rules (CC >= 7.0, what this GPU does), and the rows that
//     depend on the model (requests, transactions, wavefronts, bytes moved, efficiency) show
//     that count without a mark. The hardware counters are always compared with the modern
//     model, and the line says so when another model is shown.
//   - The spread of timed launches is the interquartile range; a launch far outside it is
//     counted as an outlier, not drawn as a swing of the bandwidth.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counter_checks.h"
#include "gpu.h"
#include "memory_model.h"

namespace warplens::app {

// --- model vs GPU trace, per warp request ---------------------------------------------------

/// What the trace column's value says about the model's value.
enum class TraceMark {
  Agrees,   ///< ✓: the GPU confirmed the model's number
  Differs,  ///< ✗: the GPU did something else than the model predicted
  ThisGpu,  ///< no mark: a historical model's number beside what this GPU does (not comparable)
};

/// One row of the per-request table.
struct StatText {
  std::string name;
  std::string model;   ///< the shown model's value
  std::string traced;  ///< the GPU trace's value (empty without a trace)
  TraceMark mark = TraceMark::Agrees;
  const char* tooltip = nullptr;
};

/// The mark of one row: a row whose value depends on the memory model gets no mark when a
/// historical model is shown; otherwise ✓ when the values are equal, ✗ when not.
TraceMark trace_mark(const std::string& model, const std::string& traced, bool model_dependent,
                     model::HardwareModel shown);

/// `text` with a no-break space (U+00A0) between each number and the unit after it ("50 %",
/// "128 B", "5.8 KiB", "536 ns", "2950 GB/s"), so that no wrapping puts them on two lines.
std::string keep_units_together(std::string text);

/// The trace column's header: "GPU trace", "GPU trace (no GPU)", or, under a historical model,
/// "GPU trace, CC ≥ 7.0 rules".
std::string trace_column_title(bool show_traced, model::HardwareModel shown);

/// The rows of one warp's global request (requests, lanes, sectors, a historical model's
/// transactions, lines, bytes requested and moved, efficiency, loads or stores per KiB). Under a
/// historical model `traced` is counted again by the modern rules from its lanes' addresses.
std::vector<StatText> global_stat_texts(const model::GlobalAnalysis& predicted,
                                        const std::optional<model::GlobalAnalysis>& traced);

/// The rows of one warp's shared-memory request (lanes, phases, wavefronts, worst bank,
/// broadcast, bytes requested, bank bytes moved, bank efficiency), the same way.
std::vector<StatText> shared_stat_texts(const model::SharedAnalysis& predicted,
                                        const std::optional<model::SharedAnalysis>& traced);

/// Shared memory's efficiency as the window shows it: "100.0 % (the minimum)" or
/// "50.0 % (1 needed)" (SharedAnalysis::efficiency: wavefronts needed ÷ used).
std::string shared_efficiency_text(const model::SharedAnalysis& a);

/// One shared request's cost in a line (A/B table, presenter): "1 wavefront (the minimum)" or
/// "2 wavefronts, 1 needed (50.0 % needed)", the percentage being the "wavefronts needed" row's
/// (SharedAnalysis::efficiency: wavefronts needed ÷ used).
std::string shared_cost_text(const model::SharedAnalysis& a);

// --- hardware counters --------------------------------------------------------------------------

/// The title over the counter line: "hardware counters (CUPTI, whole launch):" or, under a
/// historical model, "hardware counters (CUPTI, whole launch) vs the modern model (CC ≥ 7.0):".
std::string counter_title_text(model::HardwareModel shown);

/// "GPU 8.00 sectors/request, model 8.00" or, under a historical model, "GPU 8.00
/// sectors/request, modern model 8.00" (under the title that says which model).
std::string counter_line_text(const CounterCheck& c, model::HardwareModel shown, const char* unit);

/// The short form for the A/B table and the presenter: "5.00 sectors (model 5.00) ✓" or
/// "8.00 sectors (modern model 8.00) ✓".
std::string counter_summary_text(const CounterCheck& c, model::HardwareModel shown,
                                 const char* unit);

// --- load path -----------------------------------------------------------------------------------

/// The warp view's caption for a load path that is not the default one, "" for the default:
/// "lanes 0–31 of warp 0 • __ldcg: cached in L2 only, L1 bypassed".
std::string load_path_caption(const gpu::CopyParams& p, int warp);

/// What the load path changes and what it does not, one or two sentences ("" for the default):
/// for __ldcg, the request moves the same sectors from L2; only data read again by other warps
/// or later loads would miss the L1 it skipped.
std::string load_path_note(const gpu::CopyParams& p);

/// Under the measured bandwidth, where the pattern's GB/s and its efficiency could look
/// contradictory ("" elsewhere): for all lanes on one word, that GB/s counts the bytes the kernel
/// asks for while one sector serves the whole warp's read.
std::string bandwidth_note(const gpu::CopyParams& p);

// --- timed launches -----------------------------------------------------------------------------

/// Bandwidth over the interquartile range of `t` for `bytes` per launch, GB/s: {low, high}.
struct GbpsRange {
  double low = 0, high = 0;
};
GbpsRange iqr_gbps(const gpu::Timing& t, double bytes);

/// The spread a student sees: "IQR 2170–2183" and, when some launches lie outside the fence,
/// ", 1 slow launch of 15" (or "2 fast launches", both).
std::string spread_text(const gpu::Timing& t, double bytes);

/// The outliers alone: "1 slow launch of 15", "" when there are none.
std::string outlier_text(const gpu::Timing& t);

// --- matrix multiply ----------------------------------------------------------------------------

/// "reads 68.7 GB": the bytes of A and B the variant of `p` reads from global memory
/// (gpu::matmul_global_read_bytes), in 10^9 bytes.
std::string matmul_reads_text(const gpu::MatmulParams& p);

/// Every variant's reads in one line: "global reads of A and B, n = 2048: naive: 68.7 GB,
/// BLOCK_SIZE 8: 8.6 GB, 16: 4.3 GB, 32: 2.1 GB".
std::string matmul_traffic_text(int n);

/// Why the tiles read less, and why that alone need not make them faster.
std::string matmul_reuse_text();

// --- transpose -----------------------------------------------------------------------------------

/// What the vectorized transpose does differently from the padded one at these parameters and
/// why it is faster: its 2T x 2T tile, the float2 loads each thread has in flight (2T / rows of
/// them, 8 bytes each, against the padded kernel's T / rows of 4 bytes), half the global
/// instructions per byte; cites the CUDA C++ Best Practices Guide and NVIDIA's transpose post.
/// Assumes parameters check_transpose accepts (tile >= 1, rows >= 1).
std::string vectorized_transpose_text(const gpu::TransposeParams& p);

}  // namespace warplens::app
