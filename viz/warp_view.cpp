#include "warp_view.h"

#include <algorithm>
#include <set>

#include "embedded.h"

namespace warplens::viz {

namespace {
constexpr std::uint64_t kLine = 128;

}  // namespace

float StripLayout::x_of(std::uint64_t address) const {
  for (const Line& l : lines) {
    if (address >= l.address && address < l.address + kLine) {
      return l.x + static_cast<float>(address - l.address) * px_per_byte;
    }
  }
  return -1;
}

Rect StripLayout::lane_box(int record) const {
  // The same arithmetic as shaders/lanes.vert.
  const float group_w = (lanes.x1 - lanes.x0 - static_cast<float>(warps - 1) * warp_gap_px) /
                        static_cast<float>(warps);
  const float w = (group_w - 31.0f * lane_gap_px) / 32.0f;
  const int group = record / 32, lane = record % 32;
  const float x = lanes.x0 + static_cast<float>(group) * (group_w + warp_gap_px) +
                  static_cast<float>(lane) * (w + lane_gap_px);
  return {x, lanes.y0, x + w, lanes.y1};
}

StripLayout layout_warp_view(const TraceRecords& trace, int width, int height, float scale,
                             int label_rows, int least_lines) {
  StripLayout layout;
  const float w = static_cast<float>(width), h = static_cast<float>(height);
  const float margin = 14.0f * scale;
  // Top to bottom: the caption line, the lanes, the connectors, the strip, the label rows.
  // Lanes and strip grow with the height; the connectors keep at least min_connector. Where the
  // regular sizes do not fit, the tight tier: labels at 62 % of the font, thinner parts.
  const auto min_height = [&](const WarpViewTier& t) { return t.min_height(scale, label_rows); };
  const WarpViewTier& t = min_height(kWarpViewRegular) <= h ? kWarpViewRegular : kWarpViewTight;
  layout.text_scale = t.text;
  const float lanes_top = t.lanes_top * scale, labels_below = t.labels(label_rows) * scale;
  const float min_connector = t.min_connector * scale, min_lanes = t.min_lanes * scale,
              min_strip = t.min_strip * scale;
  layout.lanes = {margin, lanes_top, w - margin, lanes_top + std::max(min_lanes, 0.1f * h)};
  const float strip_bottom =
      std::max(h - labels_below, layout.lanes.y1 + min_connector + min_strip);
  const float strip_height =
      std::clamp(0.24f * h, min_strip, strip_bottom - layout.lanes.y1 - min_connector);
  layout.warps = traced_warps(trace);
  // Several warps: room left of the strip for each sector band's name (w0, w1...).
  const float band_names = layout.warps > 1 ? 22.0f * scale * t.text : 0.0f;
  layout.strip = {margin + band_names, strip_bottom - strip_height, w - margin, strip_bottom};
  layout.min_height = min_height(t);
  layout.fits = h >= layout.min_height;
  // One band of the sector row per warp: taller when several warps share it.
  // At most three quarters of the strip, so every band lies in it and the bytes keep a row.
  layout.sector_row_top =
      strip_bottom -
      std::min(0.75f * strip_height,
               std::max(12.0f * scale * static_cast<float>(std::min(layout.warps, 4)),
                        (layout.warps > 1 ? 0.45f : 0.22f) * strip_height));
  layout.warp_gap_px = 12.0f * scale;
  layout.lane_gap_px = layout.warps > 2 ? 0.0f : (layout.warps > 1 ? 1.5f : 3.0f) * scale;

  std::set<std::uint64_t> touched;
  for (const auto& r : trace) {
    if (!r.active || r.word_bytes == 0) continue;
    const std::uint64_t a = trace_address(r);
    for (std::uint64_t line = a / kLine; line <= (a + r.word_bytes - 1) / kLine; ++line) {
      touched.insert(line * kLine);
    }
  }
  if (touched.empty()) touched.insert(0);
  while (static_cast<int>(touched.size()) < StripLayout::kMinLines) {
    touched.insert(*touched.rbegin() + kLine);
  }
  std::vector<std::uint64_t> shown(touched.begin(), touched.end());
  if (static_cast<int>(shown.size()) > StripLayout::kMaxLines) shown.resize(StripLayout::kMaxLines);
  layout.own_lines = static_cast<int>(shown.size());
  const int least = std::min(least_lines, StripLayout::kMaxLines);
  while (static_cast<int>(shown.size()) < least) shown.push_back(shown.back() + kLine);

  int gaps = 0;
  for (std::size_t i = 1; i < shown.size(); ++i) gaps += shown[i] != shown[i - 1] + kLine;
  // A broken axis: each gap at most 14 px (at scale 1), and the gaps together at most a quarter
  // of the strip while each keeps room for a dash of its dotted mark, so many scattered lines keep
  // pixels enough for their sectors.
  layout.gap_px =
      gaps > 0 ? std::clamp(0.25f * (layout.strip.x1 - layout.strip.x0) / static_cast<float>(gaps),
                            2.0f * scale, 14.0f * scale)
               : 14.0f * scale;
  const float usable = layout.strip.x1 - layout.strip.x0 - static_cast<float>(gaps) * layout.gap_px;
  layout.px_per_byte = usable / static_cast<float>(shown.size() * kLine);
  float x = layout.strip.x0;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    StripLayout::Line line;
    line.address = shown[i];
    line.gap_before = i > 0 && shown[i] != shown[i - 1] + kLine;
    if (line.gap_before) x += layout.gap_px;
    line.x = x;
    x += static_cast<float>(kLine) * layout.px_per_byte;
    layout.lines.push_back(line);
  }
  return layout;
}

WarpView::WarpView()
    : trace_(kTraceBufferBytes, GL_RGBA32UI),
      transactions_(kMaxTransactions * 16, GL_RGBA32UI),
      strip_program_("memory strip", shaders::source("fullscreen.vert"),
                     shaders::source("memory_strip.frag")),
      lanes_program_("lanes", shaders::source("lanes.vert"), shaders::source("flat_color.frag")) {
  glGenVertexArrays(1, &vertex_array_);  // core profile needs one bound, even without attributes
  publish(TraceRecords{});
}

WarpView::~WarpView() {
  glDeleteVertexArrays(1, &vertex_array_);
}

void WarpView::publish(const TraceRecords& trace) {
  trace_.upload(trace.data(), kTraceBufferBytes);
}

void WarpView::publish_transactions(const std::vector<TransactionRange>& transactions) {
  if (static_cast<int>(transactions.size()) > kMaxTransactions) {
    throw std::length_error("the warp view shows at most " + std::to_string(kMaxTransactions) +
                            " transactions");
  }
  std::vector<std::uint32_t> texels;
  for (const auto& t : transactions) {
    texels.insert(texels.end(), {static_cast<std::uint32_t>(t.begin & 0xffffffffu),
                                 static_cast<std::uint32_t>(t.end - t.begin),
                                 static_cast<std::uint32_t>(t.slot), 1u});
  }
  transaction_count_ = static_cast<int>(transactions.size());
  box_bytes_ = transaction_box_bytes(transactions);
  if (!texels.empty())
    transactions_.upload(texels.data(), static_cast<GLsizeiptr>(texels.size() * 4));
}

TraceRecords WarpView::contents() const {
  TraceRecords trace{};
  trace_.read(trace.data(), kTraceBufferBytes);
  return trace;
}

void WarpView::set_common_uniforms(const GlProgram& program, const Theme& theme,
                                   float scale) const {
  const GLuint id = program.id();
  glUseProgram(id);
  glUniform1i(program.uniform("u_trace"), 0);
  glUniform2f(program.uniform("u_viewport"), static_cast<float>(target_.width()),
              static_cast<float>(target_.height()));
  const int count = static_cast<int>(layout_.lines.size());
  GLuint addresses[StripLayout::kMaxLines] = {};
  float xs[StripLayout::kMaxLines] = {};
  for (int i = 0; i < count; ++i) {
    // The shaders compare low 32 address bits: the lines on show span far less than 4 GiB.
    addresses[i] = static_cast<GLuint>(layout_.lines[i].address & 0xffffffffu);
    xs[i] = layout_.lines[i].x;
  }
  glUniform1i(program.uniform("u_line_count"), count);
  glUniform1uiv(program.uniform("u_line_address"), count, addresses);
  glUniform1fv(program.uniform("u_line_x"), count, xs);
  glUniform1f(program.uniform("u_px_per_byte"), layout_.px_per_byte);
  glUniform1f(program.uniform("u_scale"), scale);
  glUniform1i(program.uniform("u_warps"), layout_.warps);
  glUniform3fv(program.uniform("u_lane_color"), 32, &theme.lanes[0].r);
}

GLuint WarpView::render(const TraceRecords& trace, int width, int height, float scale,
                        const Theme& theme, int label_rows, int step, bool show_pending,
                        int least_lines) {
  layout_ = layout_warp_view(trace, width, height, scale, label_rows, least_lines);
  // Stepping: the sectors in address order (the shader's sector numbers: the low 32 address
  // bits over 32); the first one not yet arrived bounds what is drawn as moved.
  std::set<std::uint32_t> sectors;
  if (transaction_count_ == 0) {
    for (int record = 0; record < layout_.warps * kTraceLanes; ++record) {
      const LaneTraceRecord& r = trace[static_cast<std::size_t>(record)];
      if (!r.active || r.word_bytes == 0) continue;
      const std::uint64_t a = trace_address(r);
      for (std::uint64_t sector = a >> 5; sector <= (a + r.word_bytes - 1) >> 5; ++sector)
        sectors.insert(static_cast<std::uint32_t>(sector & 0x7ffffffu));
    }
  }
  steps_ = static_cast<int>(sectors.size());
  const bool stepping = step >= 0 && step < steps_;
  const std::uint32_t arrived_end =
      stepping ? *std::next(sectors.begin(), static_cast<std::ptrdiff_t>(step)) : 0u;
  const FramebufferScope restore;
  target_.begin_view(width, height, theme.background.r, theme.background.g, theme.background.b);
  glBindVertexArray(vertex_array_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, trace_.texture());

  // Memory strip.
  set_common_uniforms(strip_program_, theme, scale);
  const Rect& s = layout_.strip;
  glUniform4f(strip_program_.uniform("u_rect"), s.x0, s.y0, s.x1, s.y1);
  glUniform3fv(strip_program_.uniform("u_untouched"), 1, &theme.untouched.r);
  glUniform3fv(strip_program_.uniform("u_overfetch"), 1, &theme.overfetch.r);
  glUniform3fv(strip_program_.uniform("u_rule"), 1, &theme.rule.r);
  glUniform3fv(strip_program_.uniform("u_background"), 1, &theme.background.r);
  glUniform3fv(strip_program_.uniform("u_sector"), 1, &theme.sector.r);
  glUniform1i(strip_program_.uniform("u_transactions"), 1);
  glUniform1i(strip_program_.uniform("u_transaction_count"), transaction_count_);
  glUniform1f(strip_program_.uniform("u_box_bytes"),
              static_cast<float>(transaction_count_ > 0 ? box_bytes_ : 32));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_BUFFER, transactions_.texture());
  glActiveTexture(GL_TEXTURE0);  // unit 1 is unbound again after drawing
  glUniform1f(strip_program_.uniform("u_sector_row_top"), layout_.sector_row_top);
  glUniform1i(strip_program_.uniform("u_stepping"), stepping ? (show_pending ? 1 : 2) : 0);
  glUniform1ui(strip_program_.uniform("u_arrived_end"), arrived_end);
  glDrawArrays(GL_TRIANGLES, 0, 6);

  // Connectors first, lane boxes over them.
  set_common_uniforms(lanes_program_, theme, scale);
  const Rect& l = layout_.lanes;
  glUniform4f(lanes_program_.uniform("u_lane_rect"), l.x0, l.y0, l.x1, l.y1);
  glUniform1f(lanes_program_.uniform("u_lane_gap"), layout_.lane_gap_px);
  glUniform1f(lanes_program_.uniform("u_warp_gap"), layout_.warp_gap_px);
  glUniform1f(lanes_program_.uniform("u_strip_top"), s.y0);
  glUniform1f(lanes_program_.uniform("u_connector_width"), std::max(1.5f, 2.0f * scale));
  glUniform3fv(lanes_program_.uniform("u_inactive"), 1, &theme.inactive.r);
  const int records = layout_.warps * kTraceLanes;
  glUniform1i(lanes_program_.uniform("u_mode"), 1);
  glDrawArrays(GL_TRIANGLES, 0, 6 * records);
  glUniform1i(lanes_program_.uniform("u_mode"), 0);
  glDrawArrays(GL_TRIANGLES, 0, 6 * records);

  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindVertexArray(0);
  glUseProgram(0);
  return target_.texture();
}

}  // namespace warplens::viz
