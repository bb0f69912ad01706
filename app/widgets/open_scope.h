// One object of a kind open at a time on the UI thread, for a scope's lifetime: how the shell
// hands the views it draws a legend slot (legend_slot.h), a view step (view_step.h), A/B's
// strip scale (strip_scale.h) or the running layout audit (layout_audit.h) without passing them
// through every lab. OpenScope<T>(t) opens `t`; when the scope ends, the one open before is open
// again.
#pragma once

namespace warplens::app {

template <typename T>
class OpenScope {
 public:
  explicit OpenScope(T& opened) : previous_(open_) { open_ = &opened; }
  ~OpenScope() { open_ = previous_; }
  OpenScope(const OpenScope&) = delete;
  OpenScope& operator=(const OpenScope&) = delete;

  /// The open one, or nullptr.
  [[nodiscard]] static T* open() { return open_; }

 private:
  T* previous_;
  static inline T* open_ = nullptr;
};

}  // namespace warplens::app
