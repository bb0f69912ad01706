// The shared-memory bank view: one warp's shared-memory access drawn as a grid of bank-width
// words, one column per bank and one row per bank-width row of the shared array (row r holds
// bytes [r x banks x width, (r + 1) x banks x width)), 32 lane boxes on top.
//
// Each word a lane touches is filled in that lane's colour; a word several lanes read together
// (a broadcast) is striped in their colours inside a broadcast-coloured ring; a bank that must
// serve several distinct words in one phase (a bank conflict) gets a conflict-coloured header,
// count and frame. Within a phase, the k-th distinct word a bank serves (in address order)
// comes in wavefront k. 8- and 16-byte words split the warp into phases, drawn as separate
// grids stacked top to bottom, or side by side in columns (2 x 2 for four phases, 2 x 1 for two)
// when the stack would not fit the height at a readable row size.
//
// As in the warp view, the lane colours of the grid come from the GL texture buffer of
// LaneTraceRecord (RGBA32UI) that the bank-probe kernel writes through CUDA-GL interop (or the
// host model fills). The CPU lays out which rows to show and where (layout_bank_view, pure and
// testable without GL); text labels are drawn by the ImGui panel (app/bank_panel.h).
#pragma once

#include <glad/gl.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gl_program.h"
#include "index_math.h"
#include "memory_model.h"
#include "theme.h"
#include "warp_view.h"  // Rect

namespace warplens::viz {

/// The conflict swatch's words in the bank grid's legend (window and figure): a conflicting
/// bank's count reads "×n" where its box has room, else "n".
inline constexpr const char* kBankConflictKey =
    "bank conflict: n distinct words in one bank, over the minimum";

struct BankLayout {
  static constexpr int kMaxRowsPerPhase = 32;  ///< rows one phase grid shows at most
  static constexpr int kMaxBanks = 32;

  /// One bank-width word the active lanes of a phase touch.
  struct Cell {
    std::int64_t word = 0;  ///< bank-width word index from the start of the shared array
    std::int64_t row = 0;   ///< word / banks
    int bank = 0;           ///< word % banks
    int wavefront = 1;      ///< 1-based: rank of the word among the distinct words of its bank
    int row_slot = -1;      ///< index into Phase::rows, or -1 if its row is not shown
    /// Served by the wavefronts shown so far (always, unless the view steps: BankStep).
    bool served = true;
    std::vector<int> lanes;  ///< active lanes touching the word, ascending
    [[nodiscard]] bool broadcast() const { return lanes.size() > 1; }
  };
  struct Row {
    std::int64_t row = 0;     ///< bank-width row of the shared array
    float y = 0;              ///< pixel y of its top edge
    bool gap_before = false;  ///< not adjacent to the previous row shown
    /// Touched rows elided for lack of height right before this row (shown in the gap), and
    /// after it when it is the last row shown.
    int elided_before = 0, elided_after = 0;
  };
  struct Phase {
    int index = 0;  ///< 0-based
    int first_lane = 0, lane_count = 32;
    int active_lanes = 0;
    int wavefronts = 0;  ///< max over banks of words_per_bank
    /// The fewest wavefronts the phase's distinct words could take: ceil(words / banks). A bank
    /// serving more words than that is in conflict (8-byte words fill every bank twice in a
    /// whole-warp phase without any conflict).
    int min_wavefronts = 0;
    std::vector<int> words_per_bank;  ///< distinct words each bank serves (bank_count)
    /// Of those, the words served by the wavefronts shown so far: words_per_bank unless the
    /// view steps. The conflict marks, the counts row and the captions follow it, so a
    /// conflict appears at the wavefront that makes it.
    std::vector<int> served_per_bank;
    /// Wavefronts of this phase served so far (wavefronts unless the view steps).
    int served_wavefronts = 0;
    /// Wavefronts of the phases before this one (they are served first).
    int first_wavefront = 0;
    std::vector<Cell> cells;  ///< every touched word, ascending by word
    std::vector<Row> rows;    ///< rows shown, ascending
    /// Touched rows elided for lack of height: never a row holding a conflicting bank's word
    /// while a row without one could go; taken from the middle, the ends stay.
    int hidden_rows = 0;
    int column = 0;       ///< the column of grids its grid sits in
    float label_x = 0;    ///< left edge of its row-label column (caption, labels)
    float grid_x0 = 0;    ///< left edge of its bank 0 column
    float caption_y = 0;  ///< top of the caption line
    Rect header;          ///< bank-number row
    Rect grid;            ///< the rows (x: bank columns)
    Rect counts;          ///< distinct-words-per-bank row
    /// A conflict among the words served so far (every word unless the view steps).
    [[nodiscard]] bool conflict(int bank) const {
      return served_per_bank[bank] > std::max(1, min_wavefronts);
    }
    [[nodiscard]] int conflict_banks() const;
    /// Cell of `word`, or nullptr if no active lane of the phase touches it.
    [[nodiscard]] const Cell* cell_of_word(std::int64_t word) const;
  };

  int bank_count = 32;
  int bank_width = 4;  ///< bytes
  int word_bytes = 4;  ///< bytes each lane accesses (from the trace; the analysis if none)
  int wavefronts = 0;  ///< per request: sum over phases
  /// The wavefronts served so far when the view steps (0 .. wavefronts: the words of wavefront
  /// k of the request light up at step k, phase after phase); -1: the whole access.
  int step = -1;
  [[nodiscard]] bool stepping() const { return step >= 0 && step < wavefronts; }
  float scale = 1;
  /// Labels are drawn at this fraction of the UI font (below 1 in the tight tier, where the
  /// height would otherwise elide touched rows).
  float text_scale = 1;
  bool caption_shown = true;  ///< the caption line over the lanes (else shown beside the view)
  bool total_shown = true;    ///< the total line under the grids (else shown beside the view)
  bool phase_caption_shown = true;  ///< each grid's caption line (else shown beside the view)
  float label_column = 0;           ///< width of the row-label column (pixels)
  int columns = 1;                  ///< phase grids side by side (1: stacked top to bottom)
  float grid_x0 = 0, cell_w = 0;    ///< left edge of bank 0's column (first column); column width
  float row_h = 0;                  ///< height of one row of cells
  /// The conflict frame drawn inside a conflicting bank's column (pixels): 2.5 x scale, at most
  /// an eighth of the column, so a narrow conflicting column keeps room for its words.
  float conflict_frame = 0;
  /// The background gap between a column's edge (or its conflict frame) and each box in it
  /// (pixels): 1 x scale, at most a twelfth of the column (never under 1 px).
  float box_gap = 1;
  float label_x = 0;  ///< left edge of the (first) row-label column
  Rect lanes;         ///< the lane row (over all phase columns)
  float lane_gap_px = 0;
  float caption_y = 0;  ///< the view caption's line (above the lanes)
  float total_y = 0;    ///< the total line under the last phase
  std::vector<Phase> phases;

  [[nodiscard]] Rect lane_box(int lane) const;
  /// The first byte of grid row `row` (a row: bank_count x bank_width bytes).
  [[nodiscard]] std::int64_t row_byte(std::int64_t row) const {
    return row * bank_count * bank_width;
  }
  /// The first word of grid row `row`, in words of the access's size (word_bytes): a row's
  /// "word N" label. With 8-byte words, row 1 (byte 128) starts word 16.
  [[nodiscard]] std::int64_t row_word(std::int64_t row) const {
    return row_byte(row) / std::max(1, word_bytes);
  }
  /// Left edge of bank `bank`'s column in the first column of phase grids.
  [[nodiscard]] float bank_x(int bank) const { return grid_x0 + static_cast<float>(bank) * cell_w; }
  /// Left edge of bank `bank`'s column in the grid of `phase`.
  [[nodiscard]] float bank_x(const Phase& phase, int bank) const {
    return phase.grid_x0 + static_cast<float>(bank) * cell_w;
  }
  /// Width in pixels of a word's box inside a bank's column: the column less the gaps on both
  /// sides, and the conflict frame's width on both sides in a conflicting bank's column. The
  /// grid shader draws the lanes' colours in this width; at or under 0 a column shows only its
  /// frame.
  [[nodiscard]] float box_width(bool conflict) const {
    return cell_w - 2 * (box_gap + (conflict ? conflict_frame : 0));
  }
  /// Rectangle of the cell at row slot `slot`, bank `bank` of phase `phase`.
  [[nodiscard]] Rect cell_rect(const Phase& phase, int slot, int bank) const;

  struct Hit {
    int phase = -1, slot = -1, bank = -1;  ///< slot -1: header or counts row (`header` says which)
    int lane = -1;                         ///< a lane box
    bool header = false;                   ///< the header row (bank set)
  };
  /// What is at pixel (x, y) of the view: a lane box, a cell, a header or a count.
  [[nodiscard]] Hit hit(float x, float y) const;
};

/// Lays out the view of warp slot 0 of `trace`, with banks, bank width and phases from
/// `analysis`, in a `width` x `height` pixel area at UI `scale`. Phase grids are stacked, or set
/// side by side in columns when that shows more rows or rows of a readable height. Every
/// touched row is shown (at most kMaxRowsPerPhase), rows shrinking to a few pixels before any
/// is elided; elided rows come from the middle, conflicting banks' rows last. Sizes come in
/// tiers (regular, compact, tight: labels at 70 % of the font); `text_beside`: the shell shows
/// the caption and the total beside the view (presenter layout), so the tight tier may leave
/// those two lines out.
/// `step` (-1: the whole access): the wavefronts served so far, 0 .. the request's wavefronts
/// (BankLayout::step); larger values show the whole access. The layout is the same at every
/// step (rows kept, elided, placed as for the whole access).
BankLayout layout_bank_view(const TraceRecords& trace, const model::SharedAnalysis& analysis,
                            int width, int height, float scale, bool text_beside = false,
                            int step = -1);

class BankView final : public BankTraceSink {
 public:
  /// Creates the GL objects; needs a current GL 3.3 context. Throws GlError.
  BankView();
  ~BankView();
  BankView(const BankView&) = delete;
  BankView& operator=(const BankView&) = delete;

  // --- BankTraceSink (trace_sink.h) ---------------------------------------------------------
  /// The GL buffer (kTraceBufferBytes) the shaders read; register it with CUDA for interop.
  [[nodiscard]] unsigned interop_buffer() const override { return trace_.buffer(); }
  /// Host-side fill (model mode).
  void publish(const TraceRecords& trace) override;
  /// Reads the buffer back (for layout, labels and the traced statistics).
  [[nodiscard]] TraceRecords contents() const override;

  /// Draws into the view's own texture and returns it (the layout is kept for labels). The
  /// grid's lane colours come from the trace buffer; `trace` (its CPU copy) and `analysis`
  /// decide the layout and the conflict marks.
  /// `step`: layout_bank_view's; words not yet served are drawn pale in their lanes' colour.
  GLuint render(const TraceRecords& trace, const model::SharedAnalysis& analysis, int width,
                int height, float scale, const Theme& theme, bool text_beside = false,
                int step = -1);
  [[nodiscard]] const BankLayout& layout() const { return layout_; }

 private:
  TextureBuffer trace_;  // kTraceRecords RGBA32UI texels
  GLuint vertex_array_ = 0;
  GlProgram grid_program_, lanes_program_;
  RenderTarget target_;
  BankLayout layout_;
};

}  // namespace warplens::viz
