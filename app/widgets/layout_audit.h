// The layout audit: what the window could not show whole. `warplens render --audit` draws each
// scenario headless and reports every text that was cut or ellipsized and every view element
// hidden for lack of space, so a figure that fails on a projector fails a test first.
//
// Findings come from two places:
//  - the app's own layout code: fit_text when it shortens a text, the views when they thin
//    labels, elide rows or cannot place a label without overlapping (audit_finding);
//  - ImGui's layout after each panel is drawn (AuditPanel's destructor): a window whose
//    content runs past its right edge without a horizontal scrollbar (clipped), past its bottom
//    without a scrollbar (hidden) or with one (scrolls), and a table column whose header or
//    cells are wider than the column (ImGui soft-clips both).
//
// Nothing is recorded unless an audit is running (LayoutAudit::Scope), so the interactive
// window pays one pointer test per call.
#pragma once

#include <string>
#include <vector>

#include "open_scope.h"

namespace warplens::app {

/// One thing the layout could not show whole.
struct LayoutFinding {
  /// "header", "parameters", "view", "numbers", "status" or "overlay"; "title": the scenario's
  /// title in the presenter layout, which a lecture starts from (any finding there fails).
  std::string panel;
  /// "ellipsized": a text shortened with "…" (fit_text, table headers);
  /// "clipped": text or a control cut at a window's or column's edge;
  /// "hidden": an element not drawn for lack of space (rows elided, labels thinned);
  /// "scrolls": a panel whose content is taller than the panel (it scrolls);
  /// "missing": something the lesson needs on screen not there at all (the scenario's title, a
  /// tile view, a chart's lines, a device line): it fails the audit in any panel.
  std::string kind;
  std::string text;  ///< what was cut or hidden, as the user would read it
  bool operator==(const LayoutFinding&) const = default;
};

class LayoutAudit {
 public:
  /// Makes an audit the running one for the scope's lifetime (one at a time, one thread: the
  /// thread drawing the UI).
  using Scope = OpenScope<LayoutAudit>;

  /// Findings since the last clear, without repeats.
  [[nodiscard]] const std::vector<LayoutFinding>& findings() const { return findings_; }
  void clear() { findings_.clear(); }
  void add(LayoutFinding finding);

  /// The panel findings are attributed to now ("" outside any AuditPanel).
  [[nodiscard]] const std::string& panel() const { return panel_; }

 private:
  friend class AuditPanel;
  std::vector<LayoutFinding> findings_;
  std::string panel_;
};

/// The running audit, or nullptr.
[[nodiscard]] LayoutAudit* running_layout_audit();

/// Records a finding of `kind` in the current panel if an audit is running.
void audit_finding(const char* kind, const std::string& text);
/// The same in the panel named `panel`.
void audit_finding_in(const char* panel, const char* kind, const std::string& text);

/// `text` as drawn in the current ImGui font: whole when it fits in `room` pixels, else cut at
/// a UTF-8 character boundary and ended with an ellipsis (an "ellipsized" finding).
std::string fit_text(std::string text, float room);

/// A caption of " \u2022 "-separated parts (warp, access, kernel) in `room` pixels, drawn at
/// `text_scale` of the current font: whole when it fits; else without its trailing parts (down
/// to two), then without its leading ones; cut with an ellipsis (fit_text) only when one part
/// alone is too wide.
std::string fit_parts(const std::string& caption, float room, float text_scale = 1.0f);
/// Whether fit_parts keeps `caption` (or some of its parts) whole, without an ellipsis.
bool fits_by_parts(const std::string& caption, float room, float text_scale = 1.0f);

/// Names the panel for the ImGui windows begun and ended within its lifetime; on destruction
/// checks those windows and their tables (see the file comment). No-op without a running audit.
class AuditPanel {
 public:
  explicit AuditPanel(const char* panel);
  ~AuditPanel();
  AuditPanel(const AuditPanel&) = delete;
  AuditPanel& operator=(const AuditPanel&) = delete;

 private:
  std::string previous_;
  int first_window_order_ = 0;  ///< ImGui's Begin order of the first window of this panel
};

}  // namespace warplens::app
