#include "figure.h"

namespace warplens::viz {

namespace {

FigureRole role_of(const FigureItem& item) {
  return std::visit([](const auto& p) { return p.role; }, item);
}

}  // namespace

std::size_t Figure::count(FigureRole role) const {
  std::size_t n = 0;
  for (const FigureItem& item : items) n += role_of(item) == role ? 1 : 0;
  return n;
}

std::vector<const FigureText*> Figure::texts(FigureRole role) const {
  std::vector<const FigureText*> out;
  for (const FigureText* t : texts())
    if (t->role == role) out.push_back(t);
  return out;
}

std::vector<const FigureText*> Figure::texts() const {
  std::vector<const FigureText*> out;
  for (const FigureItem& item : items)
    if (const auto* t = std::get_if<FigureText>(&item)) out.push_back(t);
  return out;
}

}  // namespace warplens::viz
