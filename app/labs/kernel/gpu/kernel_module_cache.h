// A bounded cache keyed by text, least recently used out first: "Your kernel" keeps its compiled
// modules in one, keyed by the generated source (kernel_lab.h), so going back to an earlier
// program does not compile it again. Header-only and CUDA-free, so it is tested on the host.
#pragma once

#include <cstddef>
#include <list>
#include <string>
#include <utility>

namespace warplens::gpu {

template <typename Value>
class BoundedCache {
 public:
  /// Holds at most `capacity` values (at least 1).
  explicit BoundedCache(std::size_t capacity) : capacity_(capacity ? capacity : 1) {}

  /// The value stored under `key`, now the most recently used; null when there is none.
  Value* find(const std::string& key) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first != key) continue;
      entries_.splice(entries_.begin(), entries_, it);
      return &entries_.front().second;
    }
    return nullptr;
  }

  /// Stores `value` under `key` (replacing an older one) as the most recently used; the least
  /// recently used value leaves (is destroyed) when the cache is full. Returns the stored value.
  Value& insert(const std::string& key, Value value) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first == key) {
        entries_.erase(it);
        break;
      }
    entries_.emplace_front(key, std::move(value));
    while (entries_.size() > capacity_) {
      entries_.pop_back();
      ++evictions_;
    }
    return entries_.front().second;
  }

  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] std::size_t capacity() const { return capacity_; }
  /// Values that left because the cache was full.
  [[nodiscard]] std::size_t evictions() const { return evictions_; }
  void clear() { entries_.clear(); }

 private:
  std::size_t capacity_;
  std::size_t evictions_ = 0;
  std::list<std::pair<std::string, Value>> entries_;  // most recently used first
};

}  // namespace warplens::gpu
