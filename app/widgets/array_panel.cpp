#include "array_panel.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "layout_audit.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

using viz::Rgb;
using viz::to_imgui_color;

constexpr int kMaxPitch = 64;

bool is_tile(const SharedIndexParams& index) {
  return index.kind == SharedPatternKind::Tile || index.kind == SharedPatternKind::MatmulA ||
         index.kind == SharedPatternKind::MatmulB;
}

struct Word {
  std::vector<int> lanes;  ///< active lanes of slot 0 touching it
};

}  // namespace

// A pale tint per bank: hue around the circle, light enough that the lanes' viridis colours
// stand out on top of it.
Rgb bank_tint(int bank, int banks, const viz::Theme& theme) {
  const float h = 6.0f * static_cast<float>(bank % banks) / static_cast<float>(banks);
  const float sat = theme.name == viz::ThemeName::Light ? 0.30f : 0.45f;
  const float val = theme.name == viz::ThemeName::Light ? 0.97f : 0.36f;
  const float c = val * sat, x = c * (1 - std::fabs(std::fmod(h, 2.0f) - 1)), m = val - c;
  Rgb rgb{m, m, m};
  switch (static_cast<int>(h) % 6) {
    case 0: rgb = {c + m, x + m, m}; break;
    case 1: rgb = {x + m, c + m, m}; break;
    case 2: rgb = {m, c + m, x + m}; break;
    case 3: rgb = {m, x + m, c + m}; break;
    case 4: rgb = {x + m, m, c + m}; break;
    default: rgb = {c + m, m, x + m}; break;
  }
  return rgb;
}

bool tile_view_applies(const SharedIndexParams& index) {
  return is_tile(index) && index.word_bytes == 4 && index.pitch_elements <= kMaxPitch;
}

ArrayGeometry tile_geometry(const SharedIndexParams& index, int banks, int bank_width_bytes) {
  ArrayGeometry g;
  g.name = "tile";
  g.pitch_elements = std::max(1, index.pitch_elements);
  g.width_elements = index.kind == SharedPatternKind::Tile
                         ? std::clamp(index.tile_width, 1, g.pitch_elements)
                         : g.pitch_elements;
  g.element_bytes = 4;
  g.base_bytes = static_cast<std::int64_t>(index.offset) * 4;
  g.min_rows = g.width_elements;  // a square tile
  g.banks = std::max(1, banks);
  g.bank_width_bytes = std::max(1, bank_width_bytes);
  return g;
}

std::string tile_count_text(int wavefronts, int min_wavefronts, bool hidden) {
  if (hidden) return "Wavefronts per request: ?";
  return format("Wavefronts per request: %d \u2022 ", wavefronts) +
         (wavefronts <= min_wavefronts ? std::string("the minimum")
                                       : format("conflict-free would take %d", min_wavefronts));
}

float array_view_width(float room, float height, float scale, float keep) {
  const float want = std::min(0.4f * room, 1.1f * height);
  return room - want >= keep * scale ? want : 0.0f;
}

std::string array_key_text(bool shared, bool broadcast, bool numbered, bool conflict) {
  if (!shared)
    return numbered ? "tint: 128-byte lines, ruled where each starts \u2022 number: the lane"
                    : "tint: 128-byte lines, ruled where each starts";
  return std::string(numbered ? "number and tint" : "tint") +
         ": the word's bank \u2022 a lane's colour where it reads the word" +
         (broadcast ? " \u2022 ringed: several lanes read it (broadcast)" : "") +
         (conflict ? " \u2022 framed: a bank conflict" : "");
}

void draw_array_view(const TraceRecords& trace, const ArrayGeometry& array,
                     const viz::ImGuiLayer& layer, const viz::Theme& theme, ImVec2 size,
                     bool interactive, const std::string& count_text) {
  const float s = layer.scale();
  const viz::Fonts& fonts = layer.fonts();
  ImFont* regular = fonts.regular ? fonts.regular : ImGui::GetFont();
  ImFont* mono = fonts.mono ? fonts.mono : regular;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  const bool hovered = interactive && ImGui::IsItemHovered();
  draw->PushClipRect(origin, {origin.x + size.x, origin.y + size.y}, true);

  const int pitch = std::max(1, array.pitch_elements);
  const int width = std::clamp(array.width_elements, 1, pitch);
  const std::int64_t element_bytes = std::max(1, array.element_bytes);
  const bool shared = array.banks > 0;
  const int banks = std::max(1, array.banks), bank_width = std::max(1, array.bank_width_bytes);
  const auto byte_of = [&](std::int64_t element) {
    return array.base_bytes + element * element_bytes;
  };
  const auto bank_of = [&](std::int64_t element) {
    return static_cast<int>(byte_of(element) / bank_width % banks);
  };
  const auto line_of = [&](std::int64_t element) { return byte_of(element) / 128; };
  // The elements the traced lanes touch (every traced warp; lane = record % 32).
  std::map<std::int64_t, Word> words;
  std::int64_t last_row = 0;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const LaneTraceRecord& r = trace[i];
    if (!r.active || r.word_bytes == 0) continue;
    const std::int64_t element =
        (static_cast<std::int64_t>(trace_address(r)) - array.base_bytes) / element_bytes;
    if (element < 0) continue;
    words[element].lanes.push_back(static_cast<int>(i % 32));
    last_row = std::max(last_row, element / pitch);
  }
  const int rows = static_cast<int>(std::clamp<std::int64_t>(
      std::max<std::int64_t>(array.min_rows, last_row + 1), 1, kArrayMaxRows));
  // Shared: distinct touched words per bank; a bank with several is in conflict (one phase:
  // the whole warp for 4-byte words).
  std::map<int, int> words_per_bank;
  if (shared)
    for (const auto& entry : words) ++words_per_bank[bank_of(entry.first)];
  const bool conflict = std::any_of(words_per_bank.begin(), words_per_bank.end(),
                                    [](const auto& b) { return b.second > 1; });

  // Layout: a caption line, column numbers, then the grid with row numbers on its left.
  const ImU32 muted = to_imgui_color(theme.muted_text);
  const float margin = 6 * s;
  // The caption: the array as stored, then what the tint means, as room allows.
  const float room = size.x - 2 * margin;
  const int padding = pitch - width;
  const std::string title =
      padding > 0 ? format("%s as stored: %d + %d padding per row", array.name, width, padding)
                  : format("%s as stored: %d per row", array.name, width);
  // One meaning per number: a tile's cells all carry their bank (the lanes show by colour); a
  // matrix's carry the lane that reads them.
  // A word several lanes read (a broadcast: one bank serves them all in one wavefront) is
  // ringed, as in the bank grid (matmul's blockA[ty][k]: 16 lanes a word).
  bool broadcast = false;
  if (shared)
    for (const auto& entry : words) broadcast = broadcast || entry.second.lanes.size() > 1;
  const std::string key = array_key_text(shared, broadcast, true, conflict);
  const std::string plain_key = array_key_text(shared, broadcast, false, conflict);
  // Standing in a picture's place: that picture's count, bold, at the foot.
  ImFont* bold = fonts.bold ? fonts.bold : regular;
  // The layout at text size `f` (a fraction of the fonts' sizes). The room decides: where the
  // full size leaves the grid cells too small to see, or the count no whole line, the text
  // shrinks (down to half), so the key and the count stay on screen beside a grid that reads.
  struct Fit {
    float font_px, small_px, bold_px, caption_h, header_h, label_w;
    std::string shown, count;
    bool key_on_top, aside, count_whole;
    float full_cell, side_x, side_w, key_h, count_h, cell_w, cell_h;
  };
  const auto fit_at = [&](float f) {
    Fit t{};
    t.font_px = regular->FontSize * f;
    t.small_px = 0.75f * t.font_px;
    t.bold_px = bold->FontSize * f;
    t.caption_h = t.font_px + 6 * s;
    t.header_h = t.small_px + 4 * s;
    t.label_w = mono->CalcTextSizeA(t.small_px, FLT_MAX, 0, "31").x + 6 * s;
    const auto regular_w = [&](const std::string& x) {
      return regular->CalcTextSizeA(t.font_px, FLT_MAX, 0, x.c_str()).x;
    };
    t.shown = title + " \u2022 " + key;
    for (const std::string& shorter : {title, format("%s as stored", array.name)})
      if (regular_w(t.shown) > room) t.shown = shorter;
    t.key_on_top = t.shown.size() > title.size();
    // A square tile in a wide room (standing alone): what the tint means and the count beside
    // the grid, wrapped, so the grid keeps the height. Else under it.
    t.full_cell =
        std::floor(std::min((size.x - 2 * margin - t.label_w) / static_cast<float>(pitch),
                            (size.y - t.caption_h - t.header_h) / static_cast<float>(rows)));
    t.side_x = origin.x + margin + t.label_w + t.full_cell * static_cast<float>(pitch) + 3 * margin;
    t.side_w = origin.x + size.x - margin - t.side_x;
    t.aside = shared && !t.key_on_top && t.side_w >= 7 * t.font_px;
    // The key as it will be drawn: cells too small for their numbers name the tint alone.
    const std::string& drawn_key =
        t.full_cell >= mono->CalcTextSizeA(t.small_px, FLT_MAX, 0, "00").x + 2 * s ? key
                                                                                   : plain_key;
    if (t.aside) {  // ... where the key and the count (at least its first part) fit beside it
      std::string least_count = count_text;
      if (least_count.find(" \u2022 ") != std::string::npos)
        least_count.erase(least_count.find(" \u2022 "));
      const float beside_h =
          regular->CalcTextSizeA(t.font_px, FLT_MAX, t.side_w, drawn_key.c_str()).y + 12 * s +
          (count_text.empty()
               ? 0.0f
               : bold->CalcTextSizeA(t.bold_px, FLT_MAX, t.side_w, least_count.c_str()).y);
      t.aside = beside_h <= size.y - t.caption_h - t.header_h;
    }
    t.key_h = t.key_on_top || t.aside
                  ? 0.0f
                  : regular->CalcTextSizeA(t.font_px, FLT_MAX, room, drawn_key.c_str()).y + 4 * s;
    // Where the whole line is too wide, the count without what follows its " \u2022 ".
    const auto bold_w = [&](const std::string& x) {
      return bold->CalcTextSizeA(t.bold_px, FLT_MAX, 0, x.c_str()).x;
    };
    t.count = count_text;
    if (bold_w(t.count) > room && t.count.find(" \u2022 ") != std::string::npos)
      t.count.erase(t.count.find(" \u2022 "));
    t.count_whole = t.aside || bold_w(t.count) <= room;
    t.count_h = count_text.empty() || t.aside ? 0.0f : t.bold_px + 8 * s;
    const float grid_w = size.x - 2 * margin - t.label_w,
                grid_h = size.y - t.caption_h - t.header_h - t.key_h - t.count_h;
    // A tile's words are square cells; a matrix's rows are long, so its cells are as wide as
    // the width allows and up to two text lines tall.
    t.cell_w = shared ? std::max(1.0f, std::floor(std::min(grid_w / static_cast<float>(pitch),
                                                           grid_h / static_cast<float>(rows))))
                      : std::max(1.0f, grid_w / static_cast<float>(pitch));
    t.cell_h = shared ? t.cell_w
                      : std::max(1.0f, std::min(grid_h / static_cast<float>(rows), 2 * t.font_px));
    return t;
  };
  const float least_cell = std::max(4.0f, 2 * s);
  Fit fit = fit_at(1.0f);
  for (const float f : {0.8f, 0.65f, 0.5f}) {
    if (fit.cell_h >= least_cell && fit.count_whole) break;
    fit = fit_at(f);
  }
  const float font_px = fit.font_px, small_px = fit.small_px, bold_px = fit.bold_px;
  const float caption_h = fit.caption_h, header_h = fit.header_h, label_w = fit.label_w;
  const bool key_on_top = fit.key_on_top, aside = fit.aside;
  const float side_x = fit.side_x, side_w = fit.side_w, count_h = fit.count_h;
  const float cell_h = fit.cell_h, cell = fit.cell_w;
  const std::string shown =
      fit_text(fit.shown, room * regular->FontSize / font_px);  // fit_text: the window's font
  const std::string count =
      fit.count_whole ? fit.count : fit_text(fit.count, room * regular->FontSize / bold_px);
  const ImVec2 grid{origin.x + margin + label_w, origin.y + caption_h + header_h};

  draw->AddText(regular, font_px, {origin.x + margin, origin.y}, muted, shown.c_str());

  // Column numbers (every few where narrow) and row numbers.
  const float digit_w = mono->CalcTextSizeA(small_px, FLT_MAX, 0, "000").x + 2 * s;
  int label_every = 1;
  while (static_cast<float>(label_every) * cell < digit_w) label_every *= 2;
  for (int c = 0; c < pitch; c += label_every) {
    const std::string t = std::to_string(c);
    const ImVec2 ts = mono->CalcTextSizeA(small_px, FLT_MAX, 0, t.c_str());
    draw->AddText(mono, small_px,
                  {grid.x + (static_cast<float>(c) + 0.5f) * cell - 0.5f * ts.x, grid.y - header_h},
                  c < width ? muted : to_imgui_color(theme.rule), t.c_str());
  }
  const int row_every = std::max(1, static_cast<int>(std::ceil((small_px + 1 * s) / cell_h)));
  for (int r = 0; r < rows; r += row_every) {
    const std::string t = std::to_string(r);
    const ImVec2 ts = mono->CalcTextSizeA(small_px, FLT_MAX, 0, t.c_str());
    draw->AddText(
        mono, small_px,
        {grid.x - ts.x - 4 * s, grid.y + (static_cast<float>(r) + 0.5f) * cell_h - 0.5f * ts.y},
        muted, t.c_str());
  }

  // The elements: tinted by bank or line (padding hatched), the lanes' elements in lane colour
  // with the lane number where it fits, a conflict frame on words of a bank that serves several.
  const float gap = cell >= 8 * s ? std::max(1.0f, 1.0f * s) : 0.0f;
  const bool numbers = cell >= mono->CalcTextSizeA(small_px, FLT_MAX, 0, "00").x + 2 * s;
  // Cells too small for their numbers: the key names the tint alone.
  const std::string& key_drawn = numbers ? key : plain_key;
  const Rgb line_tint[2] = {theme.untouched,
                            {0.7f * theme.untouched.r + 0.3f * theme.rule.r,
                             0.7f * theme.untouched.g + 0.3f * theme.rule.g,
                             0.7f * theme.untouched.b + 0.3f * theme.rule.b}};
  int hover_row = -1, hover_col = -1;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < pitch; ++c) {
      const ImVec2 a{grid.x + static_cast<float>(c) * cell + gap,
                     grid.y + static_cast<float>(r) * cell_h + gap};
      const ImVec2 b{a.x + cell - 2 * gap, a.y + cell_h - 2 * gap};
      const std::int64_t element = static_cast<std::int64_t>(r) * pitch + c;
      const auto touched = words.find(element);
      if (c >= width) {  // padding: never read, it only shifts where the next row starts
        draw->AddRectFilled(a, b, to_imgui_color(theme.untouched));
        draw->PushClipRect(a, b, true);
        for (float x = a.x - cell; x < b.x; x += 4 * s)
          draw->AddLine({x, b.y}, {x + cell, a.y}, to_imgui_color(theme.background, 0.8f), 1 * s);
        draw->PopClipRect();
      } else if (touched != words.end()) {
        const int lane = touched->second.lanes.front();
        const Rgb fill = theme.lanes[static_cast<std::size_t>(lane)];
        draw->AddRectFilled(a, b, to_imgui_color(fill));
        if (shared && words_per_bank[bank_of(element)] > 1)
          draw->AddRect(a, b, to_imgui_color(theme.conflict), 0, 0, std::max(1.5f, 1.5f * s));
        if (shared && touched->second.lanes.size() > 1) {  // thin in a small cell: the lane's
          const float ring = std::clamp(0.12f * (b.x - a.x), 1.0f, 2.5f * s);  // colour shows
          const float in = 0.5f * ring + std::max(1.0f, 1.0f * s);
          draw->AddRect({a.x + in, a.y + in}, {b.x - in, b.y - in}, to_imgui_color(theme.broadcast),
                        0, 0, ring);
        }
        if (numbers) {
          const std::string t = std::to_string(shared ? bank_of(element) : lane);
          const ImVec2 ts = mono->CalcTextSizeA(small_px, FLT_MAX, 0, t.c_str());
          draw->AddText(mono, small_px, {0.5f * (a.x + b.x - ts.x), 0.5f * (a.y + b.y - ts.y)},
                        to_imgui_color(viz::text_on(fill)), t.c_str());
        }
      } else if (shared) {
        const int bank = bank_of(element);
        draw->AddRectFilled(a, b, to_imgui_color(bank_tint(bank, banks, theme)));
        if (numbers) {
          const std::string t = std::to_string(bank);
          const ImVec2 ts = mono->CalcTextSizeA(small_px, FLT_MAX, 0, t.c_str());
          draw->AddText(mono, small_px, {0.5f * (a.x + b.x - ts.x), 0.5f * (a.y + b.y - ts.y)},
                        muted, t.c_str());
        }
      } else {
        draw->AddRectFilled(a, b, to_imgui_color(line_tint[line_of(element) % 2]));
      }
      if (hovered) {
        const ImVec2 m = ImGui::GetMousePos();
        if (m.x >= a.x - gap && m.x < b.x + gap && m.y >= a.y - gap && m.y < b.y + gap) {
          hover_row = r;
          hover_col = c;
        }
      }
    }
  }
  // What the tint means and the count beside the grid, wrapped to the room right of it.
  if (aside) {
    const float top = grid.y;
    const ImVec2 ks = regular->CalcTextSizeA(font_px, FLT_MAX, side_w, key_drawn.c_str());
    draw->AddText(regular, font_px, {side_x, top}, muted, key_drawn.c_str(), nullptr, side_w);
    if (!count_text.empty()) {
      // The whole count where its lines fit under the key, else the count alone (without what
      // follows its " \u2022 "); the audit hears of one that still runs off.
      const float y = top + ks.y + 12 * s, bottom = origin.y + size.y;
      std::string shown_count = count_text;
      const auto height = [&](const std::string& x) {
        return bold->CalcTextSizeA(bold_px, FLT_MAX, side_w, x.c_str()).y;
      };
      if (y + height(shown_count) > bottom && shown_count.find(" \u2022 ") != std::string::npos)
        shown_count.erase(shown_count.find(" \u2022 "));
      if (y + height(shown_count) > bottom)
        audit_finding("hidden", "array view: its count runs off the view (" + shown_count + ")");
      draw->AddText(bold, bold_px, {side_x, y}, to_imgui_color(theme.text), shown_count.c_str(),
                    nullptr, side_w);
    }
  }
  // What the tint means, under the grid when the caption had no room for it (wrapped).
  if (!key_on_top && !aside) {
    const float y = grid.y + static_cast<float>(rows) * cell_h + 4 * s;
    const ImVec2 ks = regular->CalcTextSizeA(font_px, FLT_MAX, room, key_drawn.c_str());
    if (y + ks.y <= origin.y + size.y)
      draw->AddText(regular, font_px, {origin.x + margin, y}, muted, key_drawn.c_str(), nullptr,
                    room);
    else
      audit_finding("hidden", "array view: what its tint means (" + key_drawn + ")");
  }
  if (!count_text.empty() && !aside)
    draw->AddText(bold, bold_px, {origin.x + margin, origin.y + size.y - count_h + 4 * s},
                  to_imgui_color(theme.text), count.c_str());
  // A matrix: a thick rule where each 128-byte line starts, as in the warp view's strip.
  if (!shared) {
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < pitch; ++c) {
        const std::int64_t element = static_cast<std::int64_t>(r) * pitch + c;
        if (byte_of(element) % 128 != 0) continue;
        const float x = grid.x + static_cast<float>(c) * cell;
        const float y = grid.y + static_cast<float>(r) * cell_h;
        draw->AddLine({x, y}, {x, y + cell_h}, to_imgui_color(theme.text), std::max(2.0f, 2 * s));
      }
    }
  }
  draw->PopClipRect();

  if (hover_row >= 0) {
    const std::int64_t element = static_cast<std::int64_t>(hover_row) * pitch + hover_col;
    std::string tip = format("row %d, column %d%s \u2022 byte %lld \u2022 ", hover_row, hover_col,
                             hover_col >= width ? " (padding, never read)" : "",
                             static_cast<long long>(byte_of(element)));
    tip += shared ? format("bank %d", bank_of(element))
                  : format("128 B line %lld", static_cast<long long>(line_of(element)));
    if (const auto it = words.find(element); it != words.end()) {
      tip += "\nread by lane";
      for (const int lane : it->second.lanes) tip += " " + std::to_string(lane);
      if (shared && words_per_bank[bank_of(element)] > 1) {
        const int n = words_per_bank[bank_of(element)];
        tip += format("\nbank %d serves %d distinct words of this request: a %d-way conflict",
                      bank_of(element), n, n);
      }
    }
    ImGui::SetTooltip("%s", tip.c_str());
  }
}

ArrayPlacement begin_array_view(UiState& ui, const TraceRecords& trace, const ArrayGeometry& array,
                                const viz::ImGuiLayer& layer, const viz::Theme& theme, float keep,
                                bool stays, const std::string& count) {
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const float width = array_view_width(room.x, room.y, layer.scale(), keep);
  if (width <= 0) {
    ui.array_left_out = true;
    if (!ui.array_alone.value_or(stays)) {
      // A class told to compare tiles must see them: one left out unasked is a finding.
      if (stays && !ui.array_alone.has_value())
        audit_finding("missing",
                      format("%s view: no room beside the picture, not drawn", array.name));
      return ArrayPlacement::None;
    }
    ui.array_shown_alone = true;
    draw_array_view(trace, array, layer, theme, room, ui.interactive, count);
    return ArrayPlacement::Alone;
  }
  ImGui::BeginChild("##array", {width, room.y}, false, ImGuiWindowFlags_NoScrollbar);
  // (No count: the picture beside says it.)
  draw_array_view(trace, array, layer, theme, ImGui::GetContentRegionAvail(), ui.interactive);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##beside-array", {0, 0}, false, ImGuiWindowFlags_NoScrollbar);
  return ArrayPlacement::Beside;
}

void end_array_beside() {
  ImGui::EndChild();
}

}  // namespace warplens::app
