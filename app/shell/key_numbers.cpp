// The presenter's key numbers of a lab without its own list (presenter.h: key_numbers_from):
// built from its A/B column.
#include <string>
#include <vector>

#include "presenter.h"
#include "ui_widgets.h"

namespace warplens::app {

std::vector<KeyNumber> key_numbers_from(const CompareColumn& c, bool with_access, bool unmeasured,
                                        bool fold_agreeing) {
  std::vector<KeyNumber> numbers;
  const std::string tick = "\u2713";
  const bool agree = !c.counters_stale && c.counters.size() > tick.size() &&
                     c.counters.compare(c.counters.size() - tick.size(), tick.size(), tick) == 0;
  const bool fold = fold_agreeing && agree && !c.model.empty();
  // A historical model's count may span several requests of one instruction ("in 2 requests":
  // Kepler's half-warps): then it is per warp instruction, not per request.
  const bool several_requests = c.model.find(" requests") != std::string::npos;
  if (!c.model.empty())
    numbers.push_back(
        {std::string(several_requests ? "model, one warp instruction" : "model, per warp request") +
             (c.access.empty() || !with_access ? "" : " (" + c.access + ")") +
             (fold ? "; the GPU's counters agree" : ""),
         c.model + (fold ? " " + tick : ""), ""});
  numbers.insert(numbers.end(), c.more.begin(), c.more.end());
  if (!fold && !c.counters.empty() && c.counters != "\u2014")
    numbers.push_back({"GPU counters, per request", c.counters,
                       c.counters_stale ? "from the previous parameters" : ""});
  const Headline& h = c.headline;
  const std::string what = h.what.empty() ? std::string("measured") : h.what;
  if (!h.value && !h.busy) {  // nothing measured: one quiet line, not a large dash
    if (!unmeasured) return numbers;
    numbers.push_back({what + ": " + (h.note.empty() ? "not measured yet" : h.note), "", ""});
  } else {
    numbers.push_back({what, headline_text(h.value, h.unit, "", h.busy), h.note});
  }
  return numbers;
}

}  // namespace warplens::app
