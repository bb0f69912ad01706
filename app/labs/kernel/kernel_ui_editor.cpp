// The own-kernel lab's editor (kernel_ui.h, draw_kernel_parameters): the launch, the buffers,
// the constants, the traced warp and the access rows. Every change goes to the session at once;
// a refused program keeps the last good one running and says why under the rows.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "kernel_preset.h"
#include "kernel_ui.h"
#include "lab_panel.h"
#include "ui_widgets.h"

namespace warplens::app {

namespace {

constexpr int kWords[] = {1, 2, 4, 8, 16};
constexpr const char* kWordNames[] = {"1 B", "2 B", "4 B", "8 B", "16 B"};

int word_index(int bytes) {
  for (int i = 0; i < 5; ++i)
    if (kWords[i] == bytes) return i;
  return 2;
}

// A word-size combo `width` px wide; true when changed.
bool word_combo(const char* id, int& bytes, float width) {
  int i = word_index(bytes);
  ImGui::SetNextItemWidth(width);
  if (!ImGui::Combo(id, &i, kWordNames, 5)) return false;
  bytes = kWords[i];
  return true;
}

// A text field over `text` (at most kMaxIndexExpressionLength bytes); true when edited.
bool text_field(const char* id, std::string& text, float width) {
  char buffer[model::kMaxIndexExpressionLength + 1];
  std::snprintf(buffer, sizeof buffer, "%s", text.c_str());
  ImGui::SetNextItemWidth(width);
  if (!ImGui::InputText(id, buffer, sizeof buffer)) return false;
  text = buffer;
  return true;
}

// Two integers side by side ("x", "y"); true when edited.
bool int_pair(const char* id, int& x, int& y, float width) {
  int v[2] = {x, y};
  ImGui::SetNextItemWidth(width);
  if (!ImGui::InputInt2(id, v)) return false;
  x = v[0];
  y = v[1];
  return true;
}

// A buffer's element count and word size on one line.
void buffer_row(const char* name, gpu::KernelBuffer& b, float width) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(name);
  ImGui::SameLine(ImGui::CalcTextSize("tile ").x + ImGui::GetStyle().ItemSpacing.x);
  const float word_w = ImGui::CalcTextSize("16 B").x + ImGui::GetFrameHeight() * 1.6f;
  ImGui::SetNextItemWidth(std::max(width - word_w - ImGui::GetCursorPosX(), 60.0f));
  long long elements = b.elements;
  const std::string id = std::string("##elements-") + name;
  if (ImGui::InputScalar(id.c_str(), ImGuiDataType_S64, &elements))
    b.elements = std::max<long long>(elements, 0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s: elements of the word size beside it (%s bytes)", name,
                      with_thousands(b.bytes()).c_str());
  ImGui::SameLine();
  word_combo((std::string("##word-") + name).c_str(), b.word_bytes, word_w);
}

// A combo as wide as its widest choice.
bool fitted_combo(const char* id, int& index, const char* const* names, int count) {
  float widest = 0;
  for (int i = 0; i < count; ++i) widest = std::max(widest, ImGui::CalcTextSize(names[i]).x);
  ImGui::SetNextItemWidth(widest + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x);
  return ImGui::Combo(id, &index, names, count);
}

// One access row: its number, space, op, word size and the __syncthreads() box on one line; the
// load path (global loads), the index and the delete button under them. Returns false when the row
// asks to be deleted.
bool access_row(gpu::KernelRow& row, std::size_t i, bool can_delete, float width,
                const viz::Theme& theme, bool refused) {
  ImGui::PushID(static_cast<int>(i));
  ImGui::AlignTextToFramePadding();
  ImGui::Text("%zu", i + 1);
  ImGui::SameLine();
  static const char* const kSpaces[] = {"in", "out", "tile"};
  int space = static_cast<int>(row.space);
  if (fitted_combo("##space", space, kSpaces, 3)) row.space = static_cast<gpu::KernelSpace>(space);
  ImGui::SameLine();
  static const char* const kOps[] = {"load", "store"};
  int op = row.op == model::Op::Store ? 1 : 0;
  if (fitted_combo("##op", op, kOps, 2)) {
    row.op = op ? model::Op::Store : model::Op::Load;
    if (row.op == model::Op::Store) row.path = gpu::LoadPath::Default;
  }
  ImGui::SameLine();
  int word = word_index(row.word_bytes);
  if (fitted_combo("##word", word, kWordNames, 5)) row.word_bytes = kWords[word];
  ImGui::SameLine();
  ImGui::Checkbox("sync", &row.sync_after);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("__syncthreads() after this row");
  // The second line: the load path (global loads), then the index.
  const float indent = ImGui::CalcTextSize("8").x + ImGui::GetStyle().ItemSpacing.x;
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + indent);
  float used = indent;
  if (row.op == model::Op::Load && row.space != gpu::KernelSpace::Tile) {
    static const char* const kPaths[] = {"plain", "ldcg", "ldg"};
    int path = static_cast<int>(row.path);
    if (fitted_combo("##path", path, kPaths, 3)) row.path = static_cast<gpu::LoadPath>(path);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("load path: plain, __ldcg (L2 only), __ldg (read-only cache, in only)");
    used += ImGui::GetItemRectSize().x + ImGui::GetStyle().ItemSpacing.x;
    ImGui::SameLine();
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  const float cross =
      can_delete ? ImGui::CalcTextSize("\u2717").x + 2 * style.FramePadding.x + style.ItemSpacing.x
                 : 0.0f;
  // The row a refusal names: its index field framed in the warning colour.
  if (refused) {
    ImGui::PushStyleColor(ImGuiCol_Border, color4(theme.warning));
    ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, 2.0f);
  }
  const std::string from_layout = row_layout_text(row);
  if (text_field("##index", row.index, std::max(width - used - cross, 60.0f))) {
    row.layout.clear();  // edited: the row is its index now, no longer the layout's
    row.lane_layout.clear();
  }
  if (refused) {
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "%s%selement index (words of this row's size): lane, tx, ty, bdx, bdy, warp, bx, by, "
        "gdx, gdy, your constants; + - * / %% << >> & ^ | and parentheses, as in C",
        from_layout.c_str(), from_layout.empty() ? "" : "\n");
  bool keep = true;
  if (can_delete) {
    ImGui::SameLine();
    keep = !ImGui::SmallButton("\u2717");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("delete row %zu", i + 1);
  }
  ImGui::PopID();
  return keep;
}

}  // namespace

void draw_kernel_parameters(KernelSession& session, const KernelResults& r, KernelEditor& editor,
                            const viz::Theme& theme, ImVec2 pos, ImVec2 size, bool interactive,
                            const std::function<void()>& header) {
  ImGui::SetNextWindowPos(pos);
  ImGui::SetNextWindowSize(size);
  ImGui::Begin("Parameters##kernel", nullptr, kPanelFlags);
  if (header) header();
  KernelState st = session.edited();
  gpu::KernelProgram& p = st.program;
  const float w = ImGui::GetContentRegionAvail().x;
  const float half = (w - ImGui::GetStyle().ItemSpacing.x) / 2;

  label("Block and grid (x, y)");
  int_pair("##block", p.block.x, p.block.y, half);
  ImGui::SameLine();
  int_pair("##grid", p.grid.x, p.grid.y, half);
  label("Buffers: elements and word size");
  buffer_row("in", p.in, w);
  buffer_row("out", p.out, w);
  buffer_row("tile", p.tile, w);
  // The tile's row as the view draws it beside the banks (tile[rows][tile_row]).
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("tile row");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(w - ImGui::GetCursorPosX(), 60.0f));
  if (ImGui::InputInt("##tile-row", &st.tile_row))
    st.tile_row = std::clamp(st.tile_row, 0, kMaxKernelTileRow);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Elements per row of the tile as the view draws it beside the banks, as in "
        "tile[rows][%d]; 0: the banks alone. The program indexes the tile as its "
        "rows write it.",
        st.tile_row);

  label("Constants (name = value)");
  // Up to four: a row per constant and one empty row to add another.
  std::vector<model::NamedConstant> constants;
  for (std::size_t i = 0; i <= p.constants.size() && i < gpu::kMaxKernelConstants; ++i) {
    model::NamedConstant c = i < p.constants.size() ? p.constants[i] : model::NamedConstant{};
    ImGui::PushID(static_cast<int>(i) + 100);
    text_field("##name", c.name, half);
    ImGui::SameLine();
    long long value = c.value;
    ImGui::SetNextItemWidth(half);
    if (ImGui::InputScalar("##value", ImGuiDataType_S64, &value)) c.value = value;
    ImGui::PopID();
    if (!c.name.empty()) constants.push_back(c);
  }
  p.constants = constants;

  label("Traced warp: block (x, y), warp");
  int_pair("##traced-block", st.traced.block_x, st.traced.block_y, half);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(half);
  ImGui::InputInt("##traced-warp", &st.traced.warp);

  ImGui::Separator();
  label("Accesses, run in order by every thread");
  // A refusal names its row ("row 3, column 7: ..."): that row is marked.
  const std::string error = session.error();
  std::size_t refused_row = 0;
  if (const auto at = error.find("row ");
      error.rfind("parameters refused", 0) == 0 && at != std::string::npos)
    refused_row = static_cast<std::size_t>(std::atoi(error.c_str() + at + 4));
  std::vector<gpu::KernelRow> rows;
  for (std::size_t i = 0; i < p.rows.size(); ++i) {
    gpu::KernelRow row = p.rows[i];
    if (access_row(row, i, p.rows.size() > 1, w, theme, refused_row == i + 1)) rows.push_back(row);
  }
  p.rows = rows;
  if (p.rows.size() < gpu::kMaxKernelRows && ImGui::SmallButton("+ add a row")) {
    gpu::KernelRow row = p.rows.back();
    p.rows.push_back(row);
  }
  if (!(st == session.edited())) session.set(st);
  if (!session.error().empty() && session.error().rfind("parameters refused", 0) == 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, color4(theme.warning));
    ImGui::TextWrapped("%s (the last good kernel stays)", session.error().c_str());
    ImGui::PopStyleColor();
  }

  if (interactive) {
    ImGui::Separator();
    label("Save as a preset (TOML)");
    ImGui::SetNextItemWidth(w - ImGui::CalcTextSize("Save").x -
                            3 * ImGui::GetStyle().ItemSpacing.x);
    ImGui::InputText("##save-path", editor.save_path, sizeof editor.save_path);
    ImGui::SameLine();
    if (ImGui::Button("Save")) {
      std::ofstream out(editor.save_path, std::ios::binary);
      out << kernel_preset_toml(session.state(), "my-kernel", "My kernel",
                                "Access rows saved from WarpLens's own-kernel lab.");
      editor.saved =
          out ? std::string("saved ") + editor.save_path + " (warplens measure --kernel FILE)"
              : std::string("could not write ") + editor.save_path;
    }
    if (!editor.saved.empty()) ImGui::TextDisabled("%s", editor.saved.c_str());
  }
  ImGui::Separator();
  MeasureProgress progress{
      session.gpu_mode(),
      session.gpu_mode() ? ""
                         : "no GPU: " + session.device().reason +
                               ". The model draws every access; nothing "
                               "is compiled or measured.",
      r.busy,
      0,
      0,
      r.status,
      session.error().rfind("parameters refused", 0) == 0 ? "" : session.error()};
  if (draw_measure_footer(progress, theme, interactive)) session.remeasure();
  ImGui::End();
}

}  // namespace warplens::app
