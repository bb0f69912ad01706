// Where a lab's session publishes what it traced: the GL views implement these interfaces (the
// data lands in the GL buffer the shaders draw from, written by the GPU through CUDA-GL interop
// or filled from the host model), and tests implement them in host memory, so a session's logic
// runs in CI without GL or a GPU.
//
// Shapes: TraceRecords (index_math.h: kTraceRecords lane records, warp slot k's lane l at
// 32k + l), SectorHeatmap (kHeatSectors sectors of 32 bytes), transactions as byte ranges.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "index_math.h"

namespace warplens {

/// A sink for one kind of traced data (`Data`: TraceRecords or SectorHeatmap).
template <typename Data>
class Sink {
 public:
  virtual ~Sink() = default;
  /// Takes the host model's data (or a test's): what the view draws next.
  virtual void publish(const Data& data) = 0;
  /// What the sink holds now, also after the GPU wrote it through interop.
  [[nodiscard]] virtual Data contents() const = 0;
  /// The GL buffer object behind the sink (sizeof(Data) bytes) that a GPU kernel writes
  /// through CUDA-GL interop; 0 when there is none (a host-memory sink: the session then shows
  /// the host model and says why).
  [[nodiscard]] virtual unsigned interop_buffer() const = 0;
};

/// One transaction of a historical memory model (Fermi's 128-byte lines, G80's segments):
/// bytes [begin, end) from the buffer base, moved for warp slot `slot`.
struct TransactionRange {
  std::uint64_t begin = 0, end = 0;
  int slot = 0;
  friend bool operator==(const TransactionRange&, const TransactionRange&) = default;
};

/// The bytes one box of the warp view's sector row stands for: 32 (a sector), or, where every
/// transaction of `ranges` (each with `begin` and `end`) is one block of 64 or 128 bytes at a
/// multiple of its size (Fermi's caching loads: 128-byte lines; a G80 half-warp's segments),
/// that size, so one transaction is drawn as one box, not as its 32-byte pieces.
template <typename Ranges>
int transaction_box_bytes(const Ranges& ranges) {
  std::int64_t size = -1;
  for (const auto& r : ranges) {
    const auto begin = static_cast<std::int64_t>(r.begin);
    const std::int64_t length = static_cast<std::int64_t>(r.end) - begin;
    if ((length != 64 && length != 128) || (size >= 0 && length != size) || begin % length != 0)
      return 32;
    size = length;
  }
  return size > 0 ? static_cast<int>(size) : 32;
}

/// A warp trace with, for the historical models, the transactions to shade over it (none: the
/// modern model, whose 32-byte sectors the view derives from the trace itself).
class WarpTraceSink : public Sink<TraceRecords> {
 public:
  static constexpr int kMaxTransactions = 1024;
  /// At most kMaxTransactions; more throw std::length_error.
  virtual void publish_transactions(const std::vector<TransactionRange>& transactions) = 0;
};

using BankTraceSink = Sink<TraceRecords>;
using HeatmapSink = Sink<SectorHeatmap>;

/// Host-memory sinks: what tests (and any caller without GL) give a session. `Base` is the
/// interface implemented (Sink<Data>, or WarpTraceSink for warp traces).
template <typename Data, typename Base = Sink<Data>>
class HostSink : public Base {
 public:
  void publish(const Data& data) override { data_ = data; }
  [[nodiscard]] Data contents() const override { return data_; }
  [[nodiscard]] unsigned interop_buffer() const override { return 0; }

 private:
  Data data_{};
};

class HostWarpTraceSink final : public HostSink<TraceRecords, WarpTraceSink> {
 public:
  void publish_transactions(const std::vector<TransactionRange>& transactions) override {
    if (transactions.size() > static_cast<std::size_t>(kMaxTransactions))
      throw std::length_error("a warp view shows at most " + std::to_string(kMaxTransactions) +
                              " transactions");
    transactions_ = transactions;
  }
  [[nodiscard]] const std::vector<TransactionRange>& transactions() const { return transactions_; }

 private:
  std::vector<TransactionRange> transactions_;
};

}  // namespace warplens
