// The warp view: 32 lanes on top, the memory they touched below as a strip of bytes with
// 32-byte sector and 128-byte line rules, a connector from each lane to its bytes, requested
// bytes in the lane's colour and over-fetched bytes (moved, not asked for) hatched.
//
// Everything is drawn by GL shaders from one GL buffer of kTraceLanes LaneTraceRecord (a
// texture buffer, RGBA32UI). On a GPU the instrumented kernel writes that buffer through
// CUDA-GL interop; without one the host model fills it. The CPU reads the buffer back only to
// lay out which lines to show and to place text labels.
#pragma once

#include <glad/gl.h>

#include <array>
#include <cstdint>
#include <vector>

#include "gl_program.h"
#include "index_math.h"
#include "theme.h"
#include "trace_sink.h"

namespace warplens::viz {

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  ///< pixels, origin top-left
};

/// Which 128-byte lines the strip shows and where (pixels). At most kMaxLines lines: the lines
/// the active lanes touch, plus following lines up to kMinLines so a lone line has context.
struct StripLayout {
  static constexpr int kMaxLines = 256;  // every lane of 8 warps in its own line
  static constexpr int kMinLines = 2;
  struct Line {
    std::uint64_t address = 0;  ///< byte address of the line's first byte
    float x = 0;                ///< pixel x of its first byte
    bool gap_before = false;    ///< not adjacent to the previous line shown
  };
  std::vector<Line> lines;
  /// The lines the trace needs (those touched, up to kMinLines): `lines` holds more where a
  /// least count was asked for (A/B compare's common scale, app/widgets/strip_scale.h).
  int own_lines = 0;
  float px_per_byte = 1;
  float gap_px = 0;
  int warps = 1;             ///< warps shown side by side, 32 lanes each
  float warp_gap_px = 0;     ///< between the warps' groups of lanes
  Rect lanes;                ///< the lane row
  Rect strip;                ///< the memory strip: bytes on top, the sector row below
  float sector_row_top = 0;  ///< y where the sector row starts
  float lane_gap_px = 0;
  /// The least height (pixels) that holds caption, lanes, connectors, strip and labels apart;
  /// `fits`: the height given was at least that (else the strip and labels run off the bottom).
  float min_height = 0;
  bool fits = true;
  /// Labels are drawn at this fraction of the UI font: 1, or 0.62 in the tight tier that a
  /// short view (a projector at 3x, A/B's halves) falls back to before anything runs off.
  float text_scale = 1;

  /// Pixel x of byte `address`, or a negative value if its line is not shown.
  [[nodiscard]] float x_of(std::uint64_t address) const;
  /// Lane box of trace record `record` (warp slot record / 32, lane record % 32).
  [[nodiscard]] Rect lane_box(int record) const;
};

/// The warp view's vertical sizes (pixels at scale 1) in its two tiers: regular, and tight
/// (labels at `text` of the font, thinner parts) for a view too short for the regular ones.
struct WarpViewTier {
  float lanes_top, one_label_row, two_label_rows, min_connector, min_lanes, min_strip, text;
  [[nodiscard]] float labels(int rows) const { return rows > 1 ? two_label_rows : one_label_row; }
  /// The least height (pixels) that holds caption, lanes, connectors, strip and `label_rows`
  /// rows of labels at UI `scale`.
  [[nodiscard]] float min_height(float scale, int label_rows) const {
    return (lanes_top + min_lanes + min_connector + min_strip + labels(label_rows)) * scale;
  }
};
inline constexpr WarpViewTier kWarpViewRegular{26, 30, 54, 16, 24, 36, 1.0f};
inline constexpr WarpViewTier kWarpViewTight{15, 17, 32, 6, 12, 18, 0.62f};

/// Lays out the view for `trace` in a `width` x `height` pixel area at UI `scale`, with
/// `label_rows` text rows under the strip (2: byte offsets and a caption; 1: offsets only),
/// showing at least `least_lines` 128-byte lines (the lines after the last touched one, up to
/// kMaxLines), so two views can share one byte scale.
StripLayout layout_warp_view(const TraceRecords& trace, int width, int height, float scale,
                             int label_rows = 2, int least_lines = 0);

class WarpView final : public WarpTraceSink {
 public:
  /// Creates the GL objects; needs a current GL 3.3 context. Throws GlError.
  WarpView();
  ~WarpView();
  WarpView(const WarpView&) = delete;
  WarpView& operator=(const WarpView&) = delete;

  // --- WarpTraceSink (trace_sink.h) ---------------------------------------------------------
  /// The GL buffer (kTraceBufferBytes) the shaders read; register it with CUDA for interop.
  [[nodiscard]] unsigned interop_buffer() const override { return trace_.buffer(); }
  /// Host-side fill (model mode).
  void publish(const TraceRecords& trace) override;
  /// Reads the buffer back (for layout, labels and the traced statistics).
  [[nodiscard]] TraceRecords contents() const override;
  /// The transactions to shade (at most kMaxTransactions; more throw std::length_error). With
  /// none (the modern model), the shaders derive 32-byte sectors from the trace itself.
  void publish_transactions(const std::vector<TransactionRange>& transactions) override;

  /// Draws into the view's own texture and returns it (the layout is kept for labels).
  /// `step` >= 0 steps through the request (modern model only, no transactions published): the
  /// first `step` of its 32-byte sectors, in address order, have arrived (their bytes in the
  /// lanes' colours, their boxes filled); the rest are drawn pale. -1 or a step past the last:
  /// the whole request. Without `show_pending` the sectors not yet arrived look like those never
  /// moved (predict, then reveal: the sector row is the answer).
  /// `least_lines`: as layout_warp_view's.
  GLuint render(const TraceRecords& trace, int width, int height, float scale, const Theme& theme,
                int label_rows = 2, int step = -1, bool show_pending = true, int least_lines = 0);
  /// The steps of the last render's request: its distinct 32-byte sectors over every traced
  /// warp; 0 while transactions are published (the historical models do not step).
  [[nodiscard]] int steps() const { return steps_; }
  [[nodiscard]] const StripLayout& layout() const { return layout_; }

 private:
  void set_common_uniforms(const GlProgram& program, const Theme& theme, float scale) const;

  TextureBuffer trace_;         // kTraceRecords RGBA32UI texels
  TextureBuffer transactions_;  // kMaxTransactions RGBA32UI texels
  int transaction_count_ = 0;
  int box_bytes_ = 32;  // transaction_box_bytes of the published transactions
  GLuint vertex_array_ = 0;
  GlProgram strip_program_, lanes_program_;
  RenderTarget target_;
  StripLayout layout_;
  int steps_ = 0;
};

}  // namespace warplens::viz
