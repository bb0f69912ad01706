#include "predict.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace warplens::app {

namespace {

std::string number(double v) {
  char text[64];
  if (std::abs(v - std::round(v)) < 1e-9 && std::abs(v) < 1e12) {
    std::snprintf(text, sizeof text, "%.0f", v);
  } else {
    std::snprintf(text, sizeof text, "%.2f", v);
  }
  return text;
}

}  // namespace

const char* to_string(PredictStage stage) {
  switch (stage) {
    case PredictStage::Hidden: return "hidden";
    case PredictStage::Guessed: return "guessed";
    case PredictStage::Revealed: return "revealed";
  }
  return "?";
}

void Prediction::guess(double count, std::optional<double> gbps) {
  if (stage_ == PredictStage::Revealed)
    throw std::logic_error("the answer is shown: ask again first (key Q twice, or \"Ask again\")");
  if (!std::isfinite(count) || count < 0)
    throw std::invalid_argument("a guess of " + question_.unit + " must be a number >= 0");
  if (gbps && (!std::isfinite(*gbps) || *gbps <= 0))
    throw std::invalid_argument("a guess of GB/s must be a number > 0");
  count_ = count;
  gbps_ = gbps;
  stage_ = PredictStage::Guessed;
}

void Prediction::reveal() {
  stage_ = PredictStage::Revealed;
}

void Prediction::ask_again(std::optional<Question> question) {
  if (question) question_ = std::move(*question);
  stage_ = PredictStage::Hidden;
  count_.reset();
  gbps_.reset();
}

std::vector<std::string> Prediction::verdict_lines(const PredictAnswer& answer) const {
  const std::string unit = " " + question_.unit;
  std::vector<std::string> lines;
  // The model's answer first, the guess beside it: on a narrow projector column the first line is
  // what shows. Words, not a tick: in WarpLens a tick means the GPU confirmed a number.
  std::string model = "Model " + number(answer.model) + unit;
  if (!count_) {
    model += " (no guess)";
  } else if (std::abs(*count_ - answer.model) < 1e-9) {
    model += ": your guess is right";
  } else {
    model += ": your guess " + number(*count_) + " is off by " +
             number(std::abs(*count_ - answer.model));
  }
  lines.push_back(model);
  if (answer.gpu) lines.push_back("GPU trace " + number(*answer.gpu) + unit);
  char text[128];
  if (answer.gbps) {
    std::snprintf(text, sizeof text, "Measured %.0f GB/s", *answer.gbps);
    std::string line = text;
    if (gbps_) {
      std::snprintf(text, sizeof text, " (guess %.0f, %+.0f %%)", *gbps_,
                    100.0 * (*gbps_ - *answer.gbps) / *answer.gbps);
      line += text;
    }
    lines.push_back(line);
  } else if (gbps_) {
    std::snprintf(text, sizeof text, "GB/s guess %.0f: not measured (no GPU)", *gbps_);
    lines.emplace_back(text);
  }
  return lines;
}

}  // namespace warplens::app
