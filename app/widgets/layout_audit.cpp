#include "layout_audit.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warplens::app {

namespace {

// A window's name as a reader would call it: its title up to ImGui's "##" id suffix, or the id
// when there is no title ("##header" -> "header"); a child window ("Parent/##child_1A2B3C4D")
// by its own id.
std::string shown_name(const ImGuiWindow* window) {
  std::string name = window->Name;
  if (window->Flags & ImGuiWindowFlags_ChildWindow) {
    name = name.substr(name.rfind('/') + 1);
    const auto suffix = name.rfind('_');
    if (suffix != std::string::npos) name.erase(suffix);
  }
  const auto id = name.find("##");
  if (id == std::string::npos) return name;
  if (id > 0) return name.substr(0, id);
  name = name.substr(name.find_first_not_of('#'));
  return name.empty() ? std::string("(untitled window)") : name;
}

std::string pixels(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%d px", static_cast<int>(std::lround(v)));
  return text;
}

// A window of this panel whose content does not fit: wider than the window (ImGui clips it; a
// horizontal scrollbar would make it reachable), or taller (scrolls with a scrollbar, else cut).
void check_window(LayoutAudit& audit, const std::string& panel, const ImGuiWindow* w) {
  const float tolerance = 1.0f;
  if (!(w->Flags & ImGuiWindowFlags_NoTitleBar)) {  // ImGui clips a title bar's text silently
    const std::string title = shown_name(w);
    const float room = w->TitleBarRect().GetWidth() - 2 * GImGui->Style.FramePadding.x;
    if (ImGui::CalcTextSize(title.c_str()).x > room + tolerance)
      audit.add({panel, "clipped", "window title \"" + title + "\""});
  }
  const ImRect& visible = w->InnerClipRect;
  const float over_x = w->DC.CursorMaxPos.x - visible.Max.x;
  if (over_x > tolerance && !w->ScrollbarX) {
    audit.add({panel, "clipped",
               shown_name(w) + ": content " + pixels(over_x) + " wider than the window"});
  }
  const float over_y = w->DC.CursorMaxPos.y - visible.Max.y;
  if (over_y > tolerance) {
    audit.add({panel, w->ScrollbarY ? "scrolls" : "hidden",
               shown_name(w) + ": content " + pixels(over_y) + " taller than the window"});
  }
}

// A table of this panel: a header wider than its column is ellipsized by ImGui; a cell wider
// than its column is clipped.
void check_table(LayoutAudit& audit, const std::string& panel, const ImGuiTable* table) {
  for (int c = 0; c < table->ColumnsCount; ++c) {
    const ImGuiTableColumn& column = table->Columns[c];
    if (!column.IsEnabled) continue;
    const char* name = ImGui::TableGetColumnName(table, c);
    const std::string what = name && *name ? std::string(name) : "column " + std::to_string(c + 1);
    const float right = column.MaxX - table->CellPaddingX;
    if (column.ContentMaxXHeadersIdeal > right + 1.0f)
      audit.add({panel, "ellipsized", "table header \"" + what + "\""});
    const float content = std::max(column.ContentMaxXFrozen, column.ContentMaxXUnfrozen);
    if (content > right + 1.0f)
      audit.add({panel, "clipped",
                 "table column \"" + what + "\": a cell " + pixels(content - right) +
                     " wider than the column"});
  }
}

}  // namespace

void LayoutAudit::add(LayoutFinding finding) {
  if (std::find(findings_.begin(), findings_.end(), finding) == findings_.end())
    findings_.push_back(std::move(finding));
}

LayoutAudit* running_layout_audit() {
  return LayoutAudit::Scope::open();
}

void audit_finding(const char* kind, const std::string& text) {
  if (!running_layout_audit()) return;
  running_layout_audit()->add({running_layout_audit()->panel().empty()
                                   ? std::string("overlay")
                                   : running_layout_audit()->panel(),
                               kind, text});
}

void audit_finding_in(const char* panel, const char* kind, const std::string& text) {
  if (running_layout_audit()) running_layout_audit()->add({panel, kind, text});
}

AuditPanel::AuditPanel(const char* panel) {
  if (!running_layout_audit()) return;
  previous_ = running_layout_audit()->panel_;
  running_layout_audit()->panel_ = panel;
  first_window_order_ = GImGui->WindowsActiveCount;
}

AuditPanel::~AuditPanel() {
  if (!running_layout_audit()) return;
  ImGuiContext& g = *GImGui;
  const std::string panel = running_layout_audit()->panel_;
  const auto ours = [&](const ImGuiWindow* w) {
    return w && w->LastFrameActive == g.FrameCount &&
           w->BeginOrderWithinContext >= first_window_order_ &&
           !(w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup |
                         ImGuiWindowFlags_AlwaysAutoResize));
  };
  for (const ImGuiWindow* w : g.Windows)
    if (ours(w)) check_window(*running_layout_audit(), panel, w);
  for (int n = 0; n < g.Tables.GetMapSize(); ++n) {
    const ImGuiTable* table = g.Tables.TryGetMapData(n);
    if (table && table->LastFrameActive == g.FrameCount && ours(table->OuterWindow))
      check_table(*running_layout_audit(), panel, table);
  }
  running_layout_audit()->panel_ = previous_;
}

std::string fit_text(std::string text, float room) {
  if (ImGui::CalcTextSize(text.c_str()).x <= room) return text;
  audit_finding("ellipsized", text);
  while (!text.empty() && ImGui::CalcTextSize((text + "\u2026").c_str()).x > room) {
    text.pop_back();
    while (!text.empty() && (static_cast<unsigned char>(text.back()) & 0xC0) == 0x80)
      text.pop_back();  // never cut a UTF-8 sequence in half
    if (!text.empty() && static_cast<unsigned char>(text.back()) >= 0xC0) text.pop_back();
  }
  return text + "\u2026";
}

namespace {

// fit_parts's choice of parts, joined, before any ellipsis; `room` in the current font.
std::string parts_fitting(const std::string& caption, float room) {
  const std::string sep = " \u2022 ";
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t next = caption.find(sep, at);
    parts.push_back(caption.substr(at, next == std::string::npos ? next : next - at));
    if (next == std::string::npos) break;
    at = next + sep.size();
  }
  const auto joined = [&] {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
    return out;
  };
  while (parts.size() > 2 && ImGui::CalcTextSize(joined().c_str()).x > room) parts.pop_back();
  while (parts.size() > 1 && ImGui::CalcTextSize(joined().c_str()).x > room)
    parts.erase(parts.begin());
  return joined();
}

}  // namespace

std::string fit_parts(const std::string& caption, float room, float text_scale) {
  room /= text_scale;  // measured in the current font, drawn at text_scale of it
  return fit_text(parts_fitting(caption, room), room);
}

bool fits_by_parts(const std::string& caption, float room, float text_scale) {
  room /= text_scale;
  return ImGui::CalcTextSize(parts_fitting(caption, room).c_str()).x <= room;
}

}  // namespace warplens::app
