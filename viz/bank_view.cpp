#include "bank_view.h"

#include <algorithm>
#include <map>
#include <set>

#include "embedded.h"

namespace warplens::viz {

namespace {

bool inside(const Rect& r, float x, float y) {
  return x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1;
}

// Sizes, in pixels at scale 1 (the regular font is 17 px at scale 1). Three tiers, each tried
// in turn until every touched row fits: regular, compact (tighter gaps), and tight (labels at
// kTightText of the font, a thin lane row, a narrow label column; the view's caption and total
// lines left out when the shell shows them beside the view).
constexpr float kMargin = 14, kCaptionTop = 6;
constexpr float kLaneGap = 3;
constexpr float kMoreRows = 20, kRowGap = 12;
struct Tier {
  float lane_top;  // top of the lane row (under the view caption)
  float lane_min, lane_max;
  float bracket;  // phase brackets under the lane row (several phases)
  float caption, header, counts, inner_gap, phase_gap;  // per phase grid
  float total;                                          // the total line under the grids
  float label_column;                                   // row labels left of the grid
  float text;                                           // labels drawn at this fraction of the font
  float margin = kMargin;                               // left and right of the grids
};
constexpr Tier kRegular{32, 24, 34, 28, 28, 24, 24, 3, 16, 28, 104, 1.0f};
constexpr Tier kCompact{28, 20, 28, 24, 22, 20, 20, 2, 8, 24, 96, 1.0f};
constexpr float kTightText = 0.7f;
constexpr Tier kTight{22, 14, 16, 16, 16, 14, 14, 1, 4, 18, 66, kTightText};
constexpr Tier kTightBeside{2, 14, 16, 16, 16, 14, 14, 1, 4, 0, 66, kTightText};
// Where even the tight tier leaves touched rows out (a small window at a large scale: the fixed
// parts grow with the scale, the room does not), the labels at half the font and the fixed parts
// thinner still, so the rows keep their room.
constexpr float kCrampedText = 0.5f;
// Their margins are narrow too: at 3x on 1280x720 the regular 14 px x scale each side (84 px in
// all) took the width of six of the grid's 13 px bank columns.
constexpr float kCrampedMargin = 4;
constexpr Tier kCramped{16, 10, 12, 12, 12, 10, 10, 1, 2, 14, 50, kCrampedText, kCrampedMargin};
constexpr Tier kCrampedBeside{2, 10, 12, 12, 0, 10, 10, 1, 2, 0, 50, kCrampedText, kCrampedMargin};
// Rows shrink to kMinRowScaled x scale before any is elided, and never below kMinRowPixels: a
// row of lane colours stays visible even where its labels must be thinned.
constexpr float kMinRowScaled = 1.5f, kMinRowPixels = 4, kMaxRowHeight = 56;
// The cramped tiers' rows: a line of lane colour, 3 px, rather than a row left out.
constexpr float kCrampedRowPixels = 3;
// A tier whose rows come out shorter than this (x scale) gives way to the next, tighter one.
constexpr float kLegibleRowScaled = 3;
// Likewise a tier whose bank columns come out narrower than this (x scale): its wide label
// column gives way to the tight tier's narrow one.
constexpr float kLegibleCellScaled = 4;
constexpr float kReadableRowHeight = 24;  // shorter rows: try the phase grids in columns
constexpr float kColumnGap = 24;          // between phase grids side by side
constexpr float kMinCellWidth = 10;       // narrower bank columns: more phase columns only to fit
constexpr float kNarrowestCell = 4;       // never narrower
constexpr int kMaxColumns = 4;
// The conflict frame (x scale) and the share of a column it and the box gap take at most.
constexpr float kConflictFrame = 2.5f, kConflictFrameShare = 0.125f, kBoxGapShare = 1.0f / 12;

}  // namespace

// --- layout ------------------------------------------------------------------------------------

int BankLayout::Phase::conflict_banks() const {
  return static_cast<int>(std::count_if(served_per_bank.begin(), served_per_bank.end(),
                                        [&](int n) { return n > std::max(1, min_wavefronts); }));
}

const BankLayout::Cell* BankLayout::Phase::cell_of_word(std::int64_t word) const {
  const auto it = std::lower_bound(cells.begin(), cells.end(), word,
                                   [](const Cell& c, std::int64_t w) { return c.word < w; });
  return it != cells.end() && it->word == word ? &*it : nullptr;
}

Rect BankLayout::lane_box(int lane) const {
  // The same arithmetic as shaders/lanes.vert with one warp.
  const float w = (lanes.x1 - lanes.x0 - 31.0f * lane_gap_px) / 32.0f;
  const float x = lanes.x0 + static_cast<float>(lane) * (w + lane_gap_px);
  return {x, lanes.y0, x + w, lanes.y1};
}

Rect BankLayout::cell_rect(const Phase& phase, int slot, int bank) const {
  const float x = bank_x(phase, bank), y = phase.rows[static_cast<std::size_t>(slot)].y;
  return {x, y, x + cell_w, y + row_h};
}

BankLayout::Hit BankLayout::hit(float x, float y) const {
  Hit h;
  for (int lane = 0; lane < 32; ++lane) {
    if (inside(lane_box(lane), x, y)) {
      h.lane = lane;
      return h;
    }
  }
  for (const Phase& p : phases) {
    if (x < p.grid_x0 || x >= bank_x(p, bank_count)) continue;
    const int bank = std::clamp(static_cast<int>((x - p.grid_x0) / cell_w), 0, bank_count - 1);
    if (inside(p.header, x, y) || inside(p.counts, x, y)) {
      h.phase = p.index;
      h.bank = bank;
      h.header = inside(p.header, x, y);
      return h;
    }
    for (std::size_t slot = 0; slot < p.rows.size(); ++slot) {
      if (y >= p.rows[slot].y && y < p.rows[slot].y + row_h) {
        h.phase = p.index;
        h.slot = static_cast<int>(slot);
        h.bank = bank;
        return h;
      }
    }
  }
  return h;
}

namespace {

// Keeps `cap` of the phase's touched rows: every row holding a word of a conflicting bank
// first (those carry the lesson), then the rows nearest the two ends; the middle goes. Each
// row after an elided run counts the rows elided before it.
void elide_rows(BankLayout::Phase& p, int cap) {
  const std::size_t n = p.rows.size();
  std::vector<bool> conflict(n, false);
  std::map<std::int64_t, std::size_t> index_of;
  for (std::size_t r = 0; r < n; ++r) index_of[p.rows[r].row] = r;
  for (const auto& c : p.cells)
    if (p.conflict(c.bank)) conflict[index_of[c.row]] = true;
  std::vector<std::size_t> order;  // rows in the order they are kept
  for (std::size_t r = 0; r < n; ++r)
    if (conflict[r]) order.push_back(r);
  for (std::size_t k = 0; k < n; ++k) {  // then from the ends inwards: 0, n-1, 1, n-2, ...
    const std::size_t r = k % 2 == 0 ? k / 2 : n - 1 - k / 2;
    if (!conflict[r]) order.push_back(r);
  }
  std::vector<bool> keep(n, false);
  for (std::size_t k = 0; k < std::min(order.size(), static_cast<std::size_t>(cap)); ++k)
    keep[order[k]] = true;
  std::vector<BankLayout::Row> kept;
  int elided = 0;
  for (std::size_t r = 0; r < n; ++r) {
    if (!keep[r]) {
      ++elided;
      continue;
    }
    BankLayout::Row row = p.rows[r];
    row.elided_before = elided;
    p.hidden_rows += elided;
    elided = 0;
    kept.push_back(row);
  }
  if (elided > 0 && !kept.empty()) {  // a run at the end: counted on the last row kept
    kept.back().elided_after = elided;
    p.hidden_rows += elided;
  }
  p.rows = std::move(kept);
}

}  // namespace

BankLayout layout_bank_view(const TraceRecords& trace, const model::SharedAnalysis& analysis,
                            int width, int height, float scale, bool text_beside, int step) {
  BankLayout layout;
  const float s = scale, w = static_cast<float>(width), h = static_cast<float>(height);
  layout.scale = s;
  layout.bank_count = std::clamp(analysis.bank_count, 1, BankLayout::kMaxBanks);
  layout.bank_width = std::max(1, analysis.bank_width_bytes);
  layout.word_bytes = analysis.word_bytes;
  for (int lane = 0; lane < kTraceLanes; ++lane) {
    if (trace[lane].active && trace[lane].word_bytes) {
      layout.word_bytes = static_cast<int>(trace[lane].word_bytes);
      break;
    }
  }
  const std::int64_t banks = layout.bank_count, width_bytes = layout.bank_width;

  // Phases: lane ranges from the analysis (the whole warp if it has none); the words each
  // bank serves from the trace, so the picture shows what the kernel touched.
  std::vector<std::pair<int, int>> ranges;
  for (const auto& p : analysis.phases) ranges.emplace_back(p.first_lane, p.lane_count);
  if (ranges.empty()) ranges.emplace_back(0, kTraceLanes);
  for (const auto& [first, count] : ranges) {
    BankLayout::Phase phase;
    phase.index = static_cast<int>(layout.phases.size());
    phase.first_lane = first;
    phase.lane_count = count;
    phase.words_per_bank.assign(static_cast<std::size_t>(layout.bank_count), 0);
    std::map<std::int64_t, std::vector<int>> words;  // word -> lanes
    for (int lane = first; lane < std::min(first + count, kTraceLanes); ++lane) {
      const LaneTraceRecord& r = trace[lane];
      if (!r.active || r.word_bytes == 0) continue;
      ++phase.active_lanes;
      const auto a = static_cast<std::int64_t>(trace_address(r));
      for (std::int64_t word = a / width_bytes; word <= (a + r.word_bytes - 1) / width_bytes;
           ++word) {
        words[word].push_back(lane);
      }
    }
    std::set<std::int64_t> rows;
    for (auto& [word, lanes] : words) {
      BankLayout::Cell cell;
      cell.word = word;
      cell.row = word / banks;
      cell.bank = static_cast<int>(word % banks);
      cell.wavefront = ++phase.words_per_bank[static_cast<std::size_t>(cell.bank)];
      cell.lanes = std::move(lanes);
      phase.wavefronts = std::max(phase.wavefronts, cell.wavefront);
      rows.insert(cell.row);
      phase.cells.push_back(std::move(cell));
    }
    for (std::int64_t row : rows) phase.rows.push_back({row, 0, false});
    phase.min_wavefronts = static_cast<int>((words.size() + static_cast<std::size_t>(banks) - 1) /
                                            static_cast<std::size_t>(banks));
    phase.served_per_bank = phase.words_per_bank;
    phase.served_wavefronts = phase.wavefronts;
    phase.first_wavefront = layout.wavefronts;
    layout.wavefronts += phase.wavefronts;
    layout.phases.push_back(std::move(phase));
  }

  // Horizontal: the lane row over everything; under it the phase grids in `columns` columns,
  // each a row-label column and then one column per bank.
  layout.caption_y = kCaptionTop * s;
  const int phase_count = static_cast<int>(layout.phases.size());
  const bool several = phase_count > 1;
  const auto lane_height = [&](const Tier& t) {
    return std::clamp(0.05f * h, t.lane_min * s, t.lane_max * s);
  };
  const auto top_of = [&](const Tier& t) {
    return t.lane_top * s + lane_height(t) + (several ? t.bracket * s : 0);
  };
  const auto column_width = [&](int columns, const Tier& t) {
    return (w - 2 * t.margin * s - static_cast<float>(columns - 1) * kColumnGap * s) /
           static_cast<float>(columns);
  };
  const auto cell_width = [&](int columns, const Tier& t) {
    return std::max(1.0f,
                    (column_width(columns, t) - t.label_column * s) / static_cast<float>(banks));
  };

  // Vertical, for `columns` columns: the phases in bands of `columns` grids side by side; fixed
  // parts, then what is left shared among the rows (capped per phase), each band as deep as
  // its deepest grid.
  struct Arrangement {
    int columns = 1, cap = BankLayout::kMaxRowsPerPhase, shown = 0;
    float cell_w = 0, row_h = 0;
    bool fits = false;
    const Tier* tier = &kRegular;
  };
  int touched = 0;  // rows the grids would show with no height limit
  for (const auto& p : layout.phases)
    touched += std::min(BankLayout::kMaxRowsPerPhase, static_cast<int>(p.rows.size()));
  const auto arrange = [&](int columns, const Tier& v) {
    Arrangement a;
    a.columns = columns;
    a.tier = &v;
    a.cell_w = cell_width(columns, v);
    float fixed = top_of(v) + v.total * s;
    for (int first = 0; first < phase_count; first += columns) {
      fixed += (v.caption + v.phase_gap) * s;
      bool any_rows = false;
      for (int i = first; i < std::min(first + columns, phase_count); ++i)
        any_rows = any_rows || !layout.phases[static_cast<std::size_t>(i)].rows.empty();
      if (any_rows) fixed += (v.header + v.counts + 2 * v.inner_gap) * s;
    }
    // Rows and gap pixels of the bands at row cap `cap` (a band: its most rows, most gaps).
    const auto rows_and_gaps = [&](int cap, float& gaps_px) {
      int rows = 0;
      gaps_px = 0;
      for (int first = 0; first < phase_count; first += columns) {
        int band_rows = 0;
        float band_gaps = 0;
        for (int i = first; i < std::min(first + columns, phase_count); ++i) {
          const auto& p = layout.phases[static_cast<std::size_t>(i)];
          const int n = std::min(cap, static_cast<int>(p.rows.size()));
          float g = 0;
          for (int r = 1; r < n; ++r) {
            if (p.rows[static_cast<std::size_t>(r)].row !=
                p.rows[static_cast<std::size_t>(r - 1)].row + 1)
              g += kRowGap * v.text * s;
          }
          if (n < static_cast<int>(p.rows.size())) g += kMoreRows * s;
          band_rows = std::max(band_rows, n);
          band_gaps = std::max(band_gaps, g);
        }
        rows += band_rows;
        gaps_px += band_gaps;
      }
      return rows;
    };
    float gaps_px = 0;
    int rows = rows_and_gaps(a.cap, gaps_px);
    // The cramped tiers are for a room too small for the scale: their rows go down to the least
    // that still shows a lane's colour (kCrampedRowPixels).
    const bool cramped = v.text <= kCrampedText;
    const float min_row = cramped ? kCrampedRowPixels : std::max(kMinRowPixels, kMinRowScaled * s);
    while (a.cap > 1 && rows > 0 && (h - fixed - gaps_px) / static_cast<float>(rows) < min_row) {
      rows = rows_and_gaps(--a.cap, gaps_px);
    }
    const float max_row_h = std::min(kMaxRowHeight * s, std::max(44.0f * s, 1.1f * a.cell_w));
    a.row_h = rows > 0
                  ? std::clamp((h - fixed - gaps_px) / static_cast<float>(rows), min_row, max_row_h)
                  : max_row_h;
    a.fits = fixed + gaps_px + static_cast<float>(rows) * a.row_h <= h + 0.5f;
    for (const auto& p : layout.phases) a.shown += std::min(a.cap, static_cast<int>(p.rows.size()));
    return a;
  };
  // Stacked unless columns fit where the stack does not, show more rows, or make unreadably
  // short rows readable; more columns only while their banks stay wide enough to see, unless
  // nothing else fits.
  const auto readable = [&](const Arrangement& a) { return a.row_h >= kReadableRowHeight * s; };
  const auto wide = [&](const Arrangement& a) { return a.cell_w >= kMinCellWidth * s; };
  const auto better = [&](const Arrangement& a, const Arrangement& b) {
    return a.fits != b.fits               ? a.fits
           : wide(a) != wide(b)           ? wide(a)
           : a.shown != b.shown           ? a.shown > b.shown
           : readable(a) != readable(b)   ? readable(a)
           : !readable(a) && !readable(b) ? a.row_h > b.row_h
                                          : false;
  };
  const auto best_of = [&](const Tier& v) {
    Arrangement best = arrange(1, v);
    for (int columns = 2; columns <= std::min(phase_count, kMaxColumns); ++columns) {
      const int bands = (phase_count + columns - 1) / columns;
      if ((phase_count + columns - 2) / (columns - 1) == bands) continue;  // no fewer bands
      if (cell_width(columns, v) < kNarrowestCell * s) break;
      const Arrangement a = arrange(columns, v);
      if (better(a, best)) best = a;
    }
    return best;
  };
  // The first tier that shows every touched row at a legible row height; else the one that
  // shows the most rows. Beside the presenter's numbers, the grids' caption lines
  // go too (the wavefronts are the numbers beside; the counts row marks the conflicting banks).
  Tier beside = kTightBeside;
  beside.caption = 0;  // phases are named by their brackets under the lanes
  const float legible_row = std::max(kMinRowPixels, kLegibleRowScaled * s);
  const auto enough = [&](const Arrangement& a) {
    return a.fits && a.shown >= touched && a.row_h >= legible_row &&
           a.cell_w >= kLegibleCellScaled * s;
  };
  // Where no tier is enough, a tighter tier wins ties: its lanes and labels fit a small room.
  Arrangement best = best_of(kRegular);
  for (const Tier* tier :
       {&kCompact, text_beside ? &beside : &kTight, text_beside ? &kCrampedBeside : &kCramped}) {
    if (enough(best)) break;
    // The cramped labels never come out smaller than the tight tier's at scale 1.
    if (tier->text * s < kTightText) break;
    const Arrangement next = best_of(*tier);
    if (enough(next) || next.fits > best.fits ||
        (next.fits == best.fits && next.shown >= best.shown))
      best = next;
  }
  const Tier& v = *best.tier;
  layout.text_scale = v.text;
  layout.caption_shown = v.lane_top > kTightBeside.lane_top;
  layout.total_shown = v.total > 0;
  layout.phase_caption_shown = v.caption > 0;
  layout.columns = best.columns;
  layout.cell_w = best.cell_w;
  layout.row_h = best.row_h;
  // The conflict frame and the gaps around the boxes take a bounded share of a narrow column
  // (a projector at 3x gives 32 banks some 20 px each), so a conflicting bank's stacked words
  // keep most of its column.
  layout.conflict_frame = std::min(kConflictFrame * s, kConflictFrameShare * best.cell_w);
  layout.box_gap = std::max(1.0f, std::min(1.0f * s, kBoxGapShare * best.cell_w));
  layout.label_column = v.label_column * s;
  layout.label_x = v.margin * s;
  layout.lane_gap_px = kLaneGap * s * (v.text < 1.0f ? 0.5f : 1.0f);
  layout.lanes = {layout.label_x + layout.label_column, v.lane_top * s,
                  std::max(layout.label_x + layout.label_column + 32.0f, w - v.margin * s),
                  v.lane_top * s + lane_height(v)};
  const float top = top_of(v);
  const int cap = best.cap;
  const float column_w = column_width(best.columns, v);
  layout.grid_x0 = layout.label_x + layout.label_column;

  float y = top + v.phase_gap * s;
  for (int first = 0; first < phase_count; first += layout.columns) {
    float band_bottom = y;
    for (int i = first; i < std::min(first + layout.columns, phase_count); ++i) {
      auto& p = layout.phases[static_cast<std::size_t>(i)];
      p.column = i - first;
      p.label_x = layout.label_x + static_cast<float>(p.column) * (column_w + kColumnGap * s);
      p.grid_x0 = p.label_x + layout.label_column;
      const float x0 = p.grid_x0, x1 = layout.bank_x(p, layout.bank_count);
      float py = y;
      p.caption_y = py;
      py += v.caption * s;
      if (static_cast<int>(p.rows.size()) > cap) elide_rows(p, cap);
      if (p.rows.empty()) {
        p.header = p.grid = p.counts = {x0, py, x1, py};
        band_bottom = std::max(band_bottom, py);
        continue;
      }
      p.header = {x0, py, x1, py + v.header * s};
      py = p.header.y1 + v.inner_gap * s;
      const float grid_top = py;
      for (std::size_t r = 0; r < p.rows.size(); ++r) {
        p.rows[r].gap_before = r > 0 && p.rows[r].row != p.rows[r - 1].row + 1;
        if (p.rows[r].gap_before)
          py += (p.rows[r].elided_before ? kMoreRows : kRowGap * v.text) * s;
        p.rows[r].y = py;
        py += layout.row_h;
      }
      if (!p.rows.empty() && p.rows.back().elided_after) py += kMoreRows * s;
      p.grid = {x0, grid_top, x1, py};
      p.counts = {x0, py + v.inner_gap * s, x1, py + (v.inner_gap + v.counts) * s};
      band_bottom = std::max(band_bottom, p.counts.y1);
      std::map<std::int64_t, int> slot_of;
      for (std::size_t r = 0; r < p.rows.size(); ++r) slot_of[p.rows[r].row] = static_cast<int>(r);
      for (auto& c : p.cells) {
        const auto it = slot_of.find(c.row);
        c.row_slot = it == slot_of.end() ? -1 : it->second;
      }
    }
    y = band_bottom + v.phase_gap * s;
  }
  layout.total_y = y - v.phase_gap * s + 2 * s;  // the line's text fills its reserve

  // Stepping: wavefront k of the request is wavefront k - first_wavefront of its phase.
  if (step >= 0 && step < layout.wavefronts) {
    layout.step = step;
    for (auto& p : layout.phases) {
      p.served_wavefronts = std::clamp(step - p.first_wavefront, 0, p.wavefronts);
      std::fill(p.served_per_bank.begin(), p.served_per_bank.end(), 0);
      for (auto& c : p.cells) {
        c.served = c.wavefront <= p.served_wavefronts;
        if (c.served) ++p.served_per_bank[static_cast<std::size_t>(c.bank)];
      }
    }
  }
  return layout;
}

// --- GL ----------------------------------------------------------------------------------------

BankView::BankView()
    : trace_(kTraceBufferBytes, GL_RGBA32UI),
      grid_program_("bank grid", shaders::source("fullscreen.vert"),
                    shaders::source("bank_grid.frag")),
      lanes_program_("bank lanes", shaders::source("lanes.vert"),
                     shaders::source("flat_color.frag")) {
  glGenVertexArrays(1, &vertex_array_);  // core profile needs one bound, even without attributes
  publish(TraceRecords{});
}

BankView::~BankView() {
  glDeleteVertexArrays(1, &vertex_array_);
}

void BankView::publish(const TraceRecords& trace) {
  trace_.upload(trace.data(), kTraceBufferBytes);
}

TraceRecords BankView::contents() const {
  TraceRecords trace{};
  trace_.read(trace.data(), kTraceBufferBytes);
  return trace;
}

GLuint BankView::render(const TraceRecords& trace, const model::SharedAnalysis& analysis, int width,
                        int height, float scale, const Theme& theme, bool text_beside, int step) {
  layout_ = layout_bank_view(trace, analysis, width, height, scale, text_beside, step);
  const FramebufferScope restore;
  target_.begin_view(width, height, theme.background.r, theme.background.g, theme.background.b);
  glBindVertexArray(vertex_array_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, trace_.texture());
  const float viewport_w = static_cast<float>(width), viewport_h = static_cast<float>(height);

  // One draw per phase grid (each at its own column): header, rows of cells, counts.
  const GlProgram& g = grid_program_;
  glUseProgram(g.id());
  glUniform1i(g.uniform("u_trace"), 0);
  glUniform2f(g.uniform("u_viewport"), viewport_w, viewport_h);
  glUniform1f(g.uniform("u_scale"), scale);
  glUniform3fv(g.uniform("u_lane_color"), 32, &theme.lanes[0].r);
  glUniform3fv(g.uniform("u_untouched"), 1, &theme.untouched.r);
  glUniform3fv(g.uniform("u_background"), 1, &theme.background.r);
  glUniform3fv(g.uniform("u_rule"), 1, &theme.rule.r);
  glUniform3fv(g.uniform("u_conflict"), 1, &theme.conflict.r);
  glUniform3fv(g.uniform("u_broadcast"), 1, &theme.broadcast.r);
  glUniform1i(g.uniform("u_banks"), layout_.bank_count);
  glUniform1ui(g.uniform("u_bank_width"), static_cast<GLuint>(layout_.bank_width));
  glUniform1f(g.uniform("u_cell_w"), layout_.cell_w);
  glUniform1f(g.uniform("u_row_h"), layout_.row_h);
  glUniform1f(g.uniform("u_frame"), layout_.conflict_frame);
  glUniform1f(g.uniform("u_box_gap"), layout_.box_gap);
  for (const BankLayout::Phase& p : layout_.phases) {
    if (p.rows.empty()) continue;
    glUniform4f(g.uniform("u_rect"), p.header.x0 - 4 * scale, p.header.y0 - 4 * scale,
                p.header.x1 + 4 * scale, p.counts.y1 + 4 * scale);
    glUniform1f(g.uniform("u_grid_x0"), p.grid_x0);
    glUniform1i(g.uniform("u_first_lane"), p.first_lane);
    glUniform1i(g.uniform("u_lane_count"), std::min(p.lane_count, kTraceLanes - p.first_lane));
    glUniform2f(g.uniform("u_header"), p.header.y0, p.header.y1);
    glUniform2f(g.uniform("u_grid"), p.grid.y0, p.grid.y1);
    glUniform2f(g.uniform("u_counts"), p.counts.y0, p.counts.y1);
    const int rows = static_cast<int>(p.rows.size());
    GLuint first_word[BankLayout::kMaxRowsPerPhase] = {};
    float row_y[BankLayout::kMaxRowsPerPhase] = {};
    for (int i = 0; i < rows; ++i) {
      // Low 32 bits of the word index: shared memory is far smaller than 16 GiB.
      first_word[i] = static_cast<GLuint>(
          (p.rows[static_cast<std::size_t>(i)].row * layout_.bank_count) & 0xffffffff);
      row_y[i] = p.rows[static_cast<std::size_t>(i)].y;
    }
    glUniform1i(g.uniform("u_row_count"), rows);
    glUniform1uiv(g.uniform("u_row_word"), rows, first_word);
    glUniform1fv(g.uniform("u_row_y"), rows, row_y);
    glUniform1iv(g.uniform("u_bank_words"), layout_.bank_count, p.served_per_bank.data());
    // Words not yet served (stepping): one bit per bank in each row's mask.
    GLuint pending[BankLayout::kMaxRowsPerPhase] = {};
    for (const BankLayout::Cell& c : p.cells)
      if (!c.served && c.row_slot >= 0) pending[c.row_slot] |= 1u << c.bank;
    glUniform1uiv(g.uniform("u_row_pending"), rows, pending);
    glUniform1i(g.uniform("u_min_words"), std::max(1, p.min_wavefronts));
    glDrawArrays(GL_TRIANGLES, 0, 6);
  }

  // Lane boxes (lanes.vert's box mode, one warp).
  const GlProgram& l = lanes_program_;
  glUseProgram(l.id());
  glUniform1i(l.uniform("u_trace"), 0);
  glUniform2f(l.uniform("u_viewport"), viewport_w, viewport_h);
  glUniform1i(l.uniform("u_mode"), 0);
  glUniform1i(l.uniform("u_warps"), 1);
  glUniform1f(l.uniform("u_warp_gap"), 0);
  glUniform1f(l.uniform("u_lane_gap"), layout_.lane_gap_px);
  const Rect& lr = layout_.lanes;
  glUniform4f(l.uniform("u_lane_rect"), lr.x0, lr.y0, lr.x1, lr.y1);
  glUniform3fv(l.uniform("u_lane_color"), 32, &theme.lanes[0].r);
  glUniform3fv(l.uniform("u_inactive"), 1, &theme.inactive.r);
  glDrawArrays(GL_TRIANGLES, 0, 6 * kTraceLanes);

  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindVertexArray(0);
  glUseProgram(0);
  return target_.texture();
}

}  // namespace warplens::viz
