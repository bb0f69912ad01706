#include "bank_view.h"

#include <algorithm>
#include <map>
#include <set>

#include "embedded.h"

namespace warplens::viz {

namespace {

std::int64_t address_of(const LaneTraceRecord& r) {
  return static_cast<std::int64_t>((static_cast<std::uint64_t>(r.address_hi) << 32) | r.address_lo);
}

bool inside(const Rect& r, float x, float y) {
  return x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1;
}

// Vertical sizes, in pixels at scale 1.
constexpr float kMargin = 14, kLabelColumn = 104;
constexpr float kCaptionTop = 6, kLaneTop = 32, kLaneGap = 3;
constexpr float kPhaseBracket = 28;  // under the lane row when there are several phases
constexpr float kPhaseCaption = 28, kHeader = 24, kCounts = 24, kInnerGap = 3;
constexpr float kMoreRows = 20, kPhaseGap = 16, kTotalLine = 28, kRowGap = 12;
constexpr float kMinRowHeight = 14, kMaxRowHeight = 56;

}  // namespace

// --- layout ------------------------------------------------------------------------------------

int BankLayout::Phase::conflict_banks() const {
  return static_cast<int>(
      std::count_if(words_per_bank.begin(), words_per_bank.end(), [](int n) { return n > 1; }));
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
  const float x = bank_x(bank), y = phase.rows[static_cast<std::size_t>(slot)].y;
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
  if (x < grid_x0 || x >= bank_x(bank_count)) return h;
  const int bank = std::clamp(static_cast<int>((x - grid_x0) / cell_w), 0, bank_count - 1);
  for (const Phase& p : phases) {
    if (inside(p.header, x, y) || inside(p.counts, x, y)) {
      h.phase = p.index;
      h.bank = bank;
      h.header = inside(p.header, x, y);
      h.counts = !h.header;
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

BankLayout layout_bank_view(const TraceRecords& trace, const model::SharedAnalysis& analysis,
                            int width, int height, float scale) {
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
      const std::int64_t a = address_of(r);
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
    layout.wavefronts += phase.wavefronts;
    layout.phases.push_back(std::move(phase));
  }

  // Horizontal: row labels on the left, then one column per bank; the lane row over the grid.
  layout.label_x = kMargin * s;
  layout.grid_x0 = layout.label_x + kLabelColumn * s;
  layout.cell_w = std::max(1.0f, (w - kMargin * s - layout.grid_x0) / static_cast<float>(banks));
  layout.lane_gap_px = kLaneGap * s;
  layout.caption_y = kCaptionTop * s;
  const float lane_h = std::clamp(0.05f * h, 24.0f * s, 34.0f * s);
  layout.lanes = {layout.grid_x0, kLaneTop * s, layout.bank_x(layout.bank_count),
                  kLaneTop * s + lane_h};

  // Vertical: fixed parts, then share what is left among the rows (capped per phase).
  const bool several = layout.phases.size() > 1;
  float fixed = layout.lanes.y1 + (several ? kPhaseBracket * s : 0) + kTotalLine * s;
  for (const auto& p : layout.phases) {
    fixed += (kPhaseCaption + kPhaseGap) * s;
    if (!p.rows.empty()) fixed += (kHeader + kCounts + 2 * kInnerGap) * s;
  }
  const auto rows_and_gaps = [&](int cap, float& gaps_px, bool& capped) {
    int rows = 0;
    gaps_px = 0;
    capped = false;
    for (const auto& p : layout.phases) {
      const int n = std::min(cap, static_cast<int>(p.rows.size()));
      rows += n;
      for (int i = 1; i < n; ++i) {
        if (p.rows[static_cast<std::size_t>(i)].row !=
            p.rows[static_cast<std::size_t>(i - 1)].row + 1)
          gaps_px += kRowGap * s;
      }
      if (n < static_cast<int>(p.rows.size())) {
        gaps_px += kMoreRows * s;
        capped = true;
      }
    }
    return rows;
  };
  int cap = BankLayout::kMaxRowsPerPhase;
  float gaps_px = 0;
  bool capped = false;
  int rows = rows_and_gaps(cap, gaps_px, capped);
  while (cap > 1 && rows > 0 &&
         (h - fixed - gaps_px) / static_cast<float>(rows) < kMinRowHeight * s) {
    rows = rows_and_gaps(--cap, gaps_px, capped);
  }
  const float max_row_h = std::min(kMaxRowHeight * s, std::max(44.0f * s, 1.1f * layout.cell_w));
  layout.row_h = rows > 0 ? std::clamp((h - fixed - gaps_px) / static_cast<float>(rows),
                                       kMinRowHeight * s, max_row_h)
                          : max_row_h;

  float y = layout.lanes.y1 + (several ? kPhaseBracket * s : 0) + kPhaseGap * s;
  const float x0 = layout.grid_x0, x1 = layout.bank_x(layout.bank_count);
  for (auto& p : layout.phases) {
    p.caption_y = y;
    y += kPhaseCaption * s;
    if (static_cast<int>(p.rows.size()) > cap) {
      p.hidden_rows = static_cast<int>(p.rows.size()) - cap;
      p.rows.resize(static_cast<std::size_t>(cap));
    }
    if (p.rows.empty()) {
      p.header = p.grid = p.counts = {x0, y, x1, y};
      y += kPhaseGap * s;
      continue;
    }
    p.header = {x0, y, x1, y + kHeader * s};
    y = p.header.y1 + kInnerGap * s;
    const float grid_top = y;
    for (std::size_t i = 0; i < p.rows.size(); ++i) {
      p.rows[i].gap_before = i > 0 && p.rows[i].row != p.rows[i - 1].row + 1;
      if (p.rows[i].gap_before) y += kRowGap * s;
      p.rows[i].y = y;
      y += layout.row_h;
    }
    if (p.hidden_rows) y += kMoreRows * s;
    p.grid = {x0, grid_top, x1, y};
    p.counts = {x0, y + kInnerGap * s, x1, y + (kInnerGap + kCounts) * s};
    y = p.counts.y1 + kPhaseGap * s;
    std::map<std::int64_t, int> slot_of;
    for (std::size_t i = 0; i < p.rows.size(); ++i) slot_of[p.rows[i].row] = static_cast<int>(i);
    for (auto& c : p.cells) {
      const auto it = slot_of.find(c.row);
      c.row_slot = it == slot_of.end() ? -1 : it->second;
    }
  }
  layout.total_y = y - kPhaseGap * s + 6 * s;
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
  upload(TraceRecords{});
}

BankView::~BankView() {
  glDeleteVertexArrays(1, &vertex_array_);
}

void BankView::upload(const TraceRecords& trace) {
  trace_.upload(trace.data(), kTraceBufferBytes);
}

TraceRecords BankView::read_back() const {
  TraceRecords trace{};
  trace_.read(trace.data(), kTraceBufferBytes);
  return trace;
}

GLuint BankView::render(const TraceRecords& trace, const model::SharedAnalysis& analysis, int width,
                        int height, float scale, const Theme& theme) {
  layout_ = layout_bank_view(trace, analysis, width, height, scale);
  const FramebufferScope restore;
  target_.bind(width, height);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glClearColor(theme.background.r, theme.background.g, theme.background.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glBindVertexArray(vertex_array_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, trace_.texture());
  const float viewport_w = static_cast<float>(width), viewport_h = static_cast<float>(height);

  // One draw per phase grid: header, rows of cells, counts.
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
  glUniform1f(g.uniform("u_grid_x0"), layout_.grid_x0);
  glUniform1f(g.uniform("u_cell_w"), layout_.cell_w);
  glUniform1f(g.uniform("u_row_h"), layout_.row_h);
  for (const BankLayout::Phase& p : layout_.phases) {
    if (p.rows.empty()) continue;
    glUniform4f(g.uniform("u_rect"), p.header.x0 - 4 * scale, p.header.y0 - 4 * scale,
                p.header.x1 + 4 * scale, p.counts.y1 + 4 * scale);
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
    glUniform1iv(g.uniform("u_bank_words"), layout_.bank_count, p.words_per_bank.data());
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
