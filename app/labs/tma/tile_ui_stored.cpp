// The tile as stored (tile_ui.h: draw_stored_tile): shared rows x 16-byte chunks. The swizzle
// modes move whole 16-byte chunks and the threads' pitch moves whole rows, so each chunk holds
// consecutive elements of one row of the tile; its cell names the first, "row,col".
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "array_panel.h"
#include "legend_slot.h"
#include "tile_ui.h"
#include "ui_widgets.h"
#include "view_layout.h"

namespace warplens::app {

namespace {

// A key to the tints where the column headers do not give the banks (a pitch that is not a
// multiple of 128 bytes, a swizzle): "first bank" and a box per chunk start, 0, 4, ..., 28, in
// that bank's tint, on one line of the current window's width.
void bank_tint_key(const viz::ImGuiLayer& layer, const viz::Theme& theme) {
  const float font = ImGui::GetFontSize();
  ImGui::TextUnformatted("first bank:");
  ImGui::SameLine(0, font * 0.4f);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float box_w = std::min(font * 1.6f, ImGui::GetContentRegionAvail().x / 8.0f);
  const float size = std::min(font, font * (box_w - 2) / ImGui::CalcTextSize("28").x);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int j = 0; j < 8; ++j) {
    const ImVec2 a(p.x + static_cast<float>(j) * box_w, p.y);
    const ImVec2 b(a.x + box_w - 1, a.y + font * 1.1f);
    const viz::Rgb tint = bank_tint(4 * j, 32, theme);
    draw->AddRectFilled(a, b, to_imgui_color(tint));
    const std::string n = std::to_string(4 * j);
    const float w = ImGui::CalcTextSize(n.c_str()).x * size / font;
    draw->AddText(layer.fonts().regular, size,
                  ImVec2(a.x + (box_w - w) / 2, a.y + (font * 1.1f - size) / 2),
                  to_imgui_color(viz::text_on(tint)), n.c_str());
  }
  ImGui::Dummy(ImVec2(8 * box_w, font * 1.1f));
}

}  // namespace

void draw_stored_tile(const TileState& state, const TileModel& model,
                      const gpu::TilePlacement* placement, const viz::ImGuiLayer& layer,
                      const viz::Theme& theme, ImVec2 size, bool interactive) {
  const gpu::TileParams& t = state.tile;
  const int e = t.element_bytes;
  const int pitch = gpu::tile_pitch_bytes(t);
  const int chunks = pitch / 16;
  const std::vector<std::int32_t>& stored =
      placement && !placement->stored_element.empty() ? placement->stored_element : model.stored;
  // The heading, shorter where it does not fit; the key to the cells only where the rows keep
  // room for their text under it.
  ImGui::PushFont(layer.fonts().bold);
  const std::string heading =
      placement ? fitting({"Tile as stored: read back from the GPU",
                           "As stored: read back from the GPU", "As stored: GPU's"},
                          size.x)
                : fitting({"Tile as stored: model (no GPU)", "As stored: model (no GPU)",
                           "As stored: model"},
                          size.x);
  ImGui::TextUnformatted(heading.c_str());
  ImGui::PopFont();
  glossary_tooltip(heading);
  const float rows_h = static_cast<float>(t.rows) * ImGui::GetFontSize() * 0.75f;
  const bool key_above =
      ImGui::GetContentRegionAvail().y - rows_h > 4 * ImGui::GetTextLineHeightWithSpacing();
  if (key_above) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.muted_text));
    if (state.read.kind == gpu::TileReadKind::Ldmatrix)
      ImGui::TextWrapped(
          "%d rows \u00d7 %d chunks of 16 B. A cell: the column of the element that "
          "starts it; tint: its first bank; outlined: a matrix row, Ln: lane n gives its "
          "address.",
          t.rows, chunks);
    else
      ImGui::TextWrapped(
          "%d rows \u00d7 %d chunks of 16 B. A cell: the column of the element that "
          "starts it (row,col if of another row); tint: its first bank; outlined: "
          "the warp's read.",
          t.rows, chunks);
    ImGui::PopStyleColor();
    if (pitch % 128 != 0) bank_tint_key(layer, theme);
  }
  // The chunks the warp's read touches, by chunk index of the shared tile.
  std::set<int> touched;
  // ldmatrix: the lane that gives each row's address, by the row's 16-byte chunk.
  std::map<int, int> row_lane;
  const bool ldmatrix = state.read.kind == gpu::TileReadKind::Ldmatrix;
  const gpu::TileLanes& lanes = model.lanes;
  for (int l = 0; l < 32; ++l) {
    const int at = lanes.byte_offset[static_cast<std::size_t>(l)];
    if (at < 0) continue;
    for (int b = at; b < at + lanes.access_bytes; b += 16) touched.insert(b / 16);
    if (ldmatrix) row_lane.emplace(at / 16, l);
  }
  const float s = layer.scale();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 room(size.x, size.y - (ImGui::GetCursorScreenPos().y - origin.y));
  const float font = ImGui::GetFontSize();
  const float label_w = ImGui::CalcTextSize("255").x + 6 * s;
  const float avail_h = std::max(0.0f, ImGui::GetContentRegionAvail().y - font * 1.3f);
  const float cell_w = std::max(1.0f, std::floor((room.x - label_w) / static_cast<float>(chunks)));
  const float cell_h = std::max(2.0f, std::min(std::floor(avail_h / static_cast<float>(t.rows)),
                                               std::max(font * 1.3f, cell_w * 0.6f)));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  // Column header: the banks of each chunk where every row starts at bank 0 (pitch a multiple
  // of 128 bytes), else the chunk's byte offset in its row.
  const float text_size = std::min(font, cell_h * 0.8f);
  const auto header = [&](int j) {
    return pitch % 128 == 0 ? format("b%d", (4 * j) % 32) : format("+%d", 16 * j);
  };
  // One size for every column's header, the widest fitting its column with 3 px x scale each
  // side; each centred.
  const float widest = ImGui::CalcTextSize(header(chunks - 1).c_str()).x;
  const float hsz = std::min(font, font * (cell_w - 6 * s) / std::max(1.0f, widest));
  // Text under 11 px is not drawn: it would not read on a projector. (At scale 3, 32 rows leave
  // about 16 px a row: the cells' text is smaller than the panel's.)
  constexpr float min_text = 11.0f;
  for (int j = 0; j < chunks && hsz >= min_text; ++j) {
    const std::string h = header(j);
    const float hw = ImGui::CalcTextSize(h.c_str()).x * hsz / font;
    draw->AddText(layer.fonts().regular, hsz,
                  ImVec2(p0.x + label_w + static_cast<float>(j) * cell_w + (cell_w - hw) / 2,
                         p0.y + (font - hsz)),
                  to_imgui_color(theme.muted_text), h.c_str());
  }
  const float top = p0.y + font * 1.2f;
  // The element's column; its row too when it is not the shared row's (a row narrower than the
  // swizzle's span).
  const auto element_label = [&](int k, int r) {
    return k / t.cols == r ? std::to_string(k % t.cols) : format("%d,%d", k / t.cols, k % t.cols);
  };
  int hovered = -1;
  for (int r = 0; r < t.rows; ++r) {
    const float y = top + static_cast<float>(r) * cell_h;
    if (text_size >= min_text && (cell_h >= font * 0.9f || r % 4 == 0)) {
      draw->AddText(layer.fonts().regular, text_size, ImVec2(p0.x, y),
                    to_imgui_color(theme.muted_text), std::to_string(r).c_str());
    }
    for (int j = 0; j < chunks; ++j) {
      const int byte = r * pitch + 16 * j;
      const int bank = (byte / 4) % 32;
      const int slot = byte / e;
      const int k =
          slot < static_cast<int>(stored.size()) ? stored[static_cast<std::size_t>(slot)] : -1;
      const ImVec2 a(p0.x + label_w + static_cast<float>(j) * cell_w, y);
      const ImVec2 b(a.x + cell_w - 1, a.y + cell_h - 1);
      const viz::Rgb fill = k < 0 ? theme.untouched : bank_tint(bank, 32, theme);
      draw->AddRectFilled(a, b, to_imgui_color(fill));
      const bool hit = touched.count(byte / 16) > 0;
      // The outline at most a quarter of the cell's height, so its tint stays.
      if (hit)
        draw->AddRect(a, b, to_imgui_color(theme.text), 0, 0, std::clamp(cell_h / 4, 1.0f, 2 * s));
      const auto lane = row_lane.find(byte / 16);
      const std::string text = k < 0                    ? std::string("pad")
                               : lane != row_lane.end() ? "L" + std::to_string(lane->second)
                                                        : element_label(k, r);
      const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
      const float fit = std::min(text_size, font * (cell_w - 4) / std::max(1.0f, ts.x));
      if (fit >= min_text) {
        const float w = ts.x * fit / font;
        draw->AddText(hit ? layer.fonts().bold : layer.fonts().regular, fit,
                      ImVec2(a.x + (cell_w - w) / 2, a.y + (cell_h - fit) / 2),
                      to_imgui_color(viz::text_on(fill)), text.c_str());
      }
      if (interactive && ImGui::IsMouseHoveringRect(a, b)) hovered = byte;
    }
  }
  ImGui::Dummy(ImVec2(room.x, font * 1.2f + static_cast<float>(t.rows) * cell_h));
  // No room for the key over the rows (a projector at 3x): the presenter's column says it
  // beside the view, an entry per line with the cells' own marks.
  if (LegendSlot* slot = open_legend_slot(); slot && !key_above) {
    const bool cell_text = text_size >= min_text;
    const viz::Rgb tint = bank_tint(0, 32, theme);
    const viz::Rgb ink = theme.text;
    const char* header_says = pitch % 128 == 0 ? " (bN over a column: bank N)" : "";
    slot->set([=, &layer, &theme] {
      const float sw = ImGui::GetFontSize();
      const auto entry = [&](bool outlined, const std::string& label) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        ImDrawList* list = ImGui::GetWindowDrawList();
        list->AddRectFilled({p.x, p.y + sw * 0.15f}, {p.x + sw * 1.4f, p.y + sw * 0.85f},
                            to_imgui_color(tint));
        if (outlined)
          list->AddRect({p.x, p.y + sw * 0.15f}, {p.x + sw * 1.4f, p.y + sw * 0.85f},
                        to_imgui_color(ink), 0, 0, 2 * s);
        ImGui::Dummy({sw * 1.4f, sw});
        ImGui::SameLine(0, sw * 0.6f);
        ImGui::TextWrapped("%s", label.c_str());
      };
      entry(false,
            std::string("a 16-byte chunk of a shared row, tinted by its first bank") + header_says);
      if (!header_says[0]) bank_tint_key(layer, theme);
      entry(true, ldmatrix ? "outlined: a row of one of the four 8\u00d78 matrices"
                           : "outlined: a chunk the warp's read touches");
      if (cell_text)
        ImGui::TextWrapped("%s", ldmatrix ? "Ln: lane n gives that row's address"
                                          : "a cell's number: the column of its first element");
    });
  }
  if (hovered >= 0 && ImGui::IsWindowHovered()) {
    const int slot = hovered / e;
    const int k =
        slot < static_cast<int>(stored.size()) ? stored[static_cast<std::size_t>(slot)] : -1;
    ImGui::BeginTooltip();
    ImGui::Text("bytes %d-%d of the tile: banks %d-%d", hovered, hovered + 15, (hovered / 4) % 32,
                (hovered / 4) % 32 + 3);
    if (k >= 0)
      ImGui::Text("holds element (%d, %d) and the next %d", k / t.cols, k % t.cols, 16 / e - 1);
    else
      ImGui::Text("padding: no element is stored here");
    if (const auto lane = row_lane.find(hovered / 16); lane != row_lane.end()) {
      // PTX ISA, ldmatrix: thread t holds row t / 4, elements 2 (t % 4) and + 1 of each matrix
      // (.trans: column t / 4, rows 2 (t % 4) and + 1), matrix m in its m-th register.
      const int l = lane->second, m = l / 8, r = l % 8;
      ImGui::Text("lane %d gives this row's address: row %d of matrix %d", l, r, m);
      if (state.read.trans)
        ImGui::Text(".trans: its element c goes to lane 4c + %d (c = 0..7), register %d", r / 2, m);
      else
        ImGui::Text("lanes %d-%d receive it, two elements each, in register %d", 4 * r, 4 * r + 3,
                    m);
    }
    ImGui::EndTooltip();
  }
}

}  // namespace warplens::app
