// Predict, then reveal (issue 14, key Q): a class mode in which the view's answer (the served
// wavefronts, the moved sectors, the conflict marks and counts) and the lab's numbers are hidden
// while the panel asks the question; the lecturer (or a student alone) types a guess, then
// reveals, and the window shows the guess beside the model's answer, the GPU's and the measured
// bandwidth. The state machine here is pure (tested in predict_tests); the shell draws it
// (app/shell/class_mode.h) and the labs answer through LabInstance::predict_answer (lab.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace warplens::app {

/// The question a scenario asks (a preset's [question] table), or the lab's default.
struct Question {
  std::string text;      ///< e.g. "How many wavefronts does this warp's request take?"
  std::string unit;      ///< what the count counts: "wavefronts" or "sectors"
  bool ask_gbps = true;  ///< also ask for the measured GB/s
};

/// What a lab answers with, per warp request of the access shown.
struct PredictAnswer {
  Question question;           ///< the lab's default question for the access shown
  double model = 0;            ///< the model's count (wavefronts or sectors per request)
  std::optional<double> gpu;   ///< the same count from the GPU's trace; nullopt without a GPU
  std::optional<double> gbps;  ///< measured GB/s (10^9 bytes/s, read + write); nullopt if none
  std::string gbps_what;       ///< what the GB/s measures, e.g. "copy kernel, bytes read + written"
};

enum class PredictStage {
  Hidden,    ///< the answer is hidden; no guess yet
  Guessed,   ///< a guess is in; the answer is still hidden
  Revealed,  ///< the answer is shown beside the guess
};

const char* to_string(PredictStage stage);

/// One round of predict-then-reveal for one access.
class Prediction {
 public:
  explicit Prediction(Question question) : question_(std::move(question)) {}

  [[nodiscard]] PredictStage stage() const { return stage_; }
  [[nodiscard]] const Question& question() const { return question_; }
  /// Hidden or Guessed -> Guessed. `count` must be finite and >= 0, `gbps` (when given) finite
  /// and > 0: else std::invalid_argument, and nothing changes. After the reveal:
  /// std::logic_error ("ask again first").
  void guess(double count, std::optional<double> gbps = std::nullopt);
  /// Guessed -> Revealed. Hidden (no guess) -> Revealed as well: the class may give up.
  /// Revealed: no change.
  void reveal();
  /// Any stage -> Hidden, the guess forgotten (the next access, or the same one again).
  void ask_again(std::optional<Question> question = std::nullopt);

  [[nodiscard]] std::optional<double> guessed_count() const { return count_; }
  [[nodiscard]] std::optional<double> guessed_gbps() const { return gbps_; }
  /// Whether the view and the numbers hide the answer (Hidden and Guessed).
  [[nodiscard]] bool hides_answer() const { return stage_ != PredictStage::Revealed; }

  /// The revealed stage's lines, e.g. "Model 32 wavefronts: your guess 4 is off by 28", "GPU
  /// trace 32 wavefronts", "Measured 1812 GB/s (guess 2000, +10 %)"; "Model 32 wavefronts (no
  /// guess)" when the class gave up.
  [[nodiscard]] std::vector<std::string> verdict_lines(const PredictAnswer& answer) const;

 private:
  Question question_;
  PredictStage stage_ = PredictStage::Hidden;
  std::optional<double> count_, gbps_;
};

}  // namespace warplens::app
