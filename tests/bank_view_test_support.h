// What the bank-view tests share: warp 0's shared access as a trace and its analysis, and the
// headless-GL fixture that renders it through the view.
#pragma once

#include <string>

#include "bank_view.h"
#include "copy_pattern.h"
#include "headless_gl_test.h"
#include "memory_model.h"
#include "png_writer.h"

namespace warplens::test {

struct Access {
  TraceRecords trace{};
  model::SharedAnalysis analysis;
};

/// Warp 0 of a `block` block reading shared element `index` (an index expression) in words of
/// `word_bytes`, as a trace and the model's analysis of that trace.
inline Access shared_access(const std::string& index, int word_bytes, const char* block = "32x1",
                            model::HardwareModel hw = model::HardwareModel::Modern) {
  model::AccessPattern pattern;
  pattern.space = model::Space::Shared;
  pattern.word_bytes = word_bytes;
  pattern.block = model::parse_block(block);
  pattern.index = index;
  Access a;
  put_accesses(model::evaluate_lanes(pattern), word_bytes, 0, a.trace);
  a.analysis =
      model::analyze_shared(accesses_from_trace(a.trace, 0), word_bytes, model::Op::Load, hw);
  return a;
}

class BankViewTest : public test::HeadlessGlTest {
 protected:
  /// Renders `a` through the view's trace buffer and reads the texture back.
  /// `step`: the wavefronts served so far (BankView::render); -1 the whole access.
  viz::Image render(viz::BankView& view, const Access& a, const viz::Theme& theme, int width = 1400,
                    int height = 700, int step = -1) {
    view.publish(a.trace);
    const GLuint texture =
        view.render(view.contents(), a.analysis, width, height, 1.0f, theme, false, step);
    GLuint fbo = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
    viz::Image image = viz::read_framebuffer(width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    return image;
  }
};

}  // namespace warplens::test
