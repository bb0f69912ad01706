#include "heat_strip.h"

#include "embedded.h"

namespace warplens::viz {

HeatStrip::HeatStrip()
    : heat_(kHeatBufferBytes, GL_RG32UI),
      program_("sector heatmap", shaders::source("fullscreen.vert"),
               shaders::source("heat_strip.frag")) {
  glGenVertexArrays(1, &vertex_array_);
  publish(SectorHeatmap{});
}

HeatStrip::~HeatStrip() {
  glDeleteVertexArrays(1, &vertex_array_);
}

void HeatStrip::publish(const SectorHeatmap& heat) {
  heat_.upload(heat.data(), kHeatBufferBytes);
}

SectorHeatmap HeatStrip::contents() const {
  SectorHeatmap heat{};
  heat_.read(heat.data(), kHeatBufferBytes);
  return heat;
}

GLuint HeatStrip::render(int width, int height, float x0, float x1, float scale,
                         const Theme& theme) {
  const FramebufferScope restore;
  target_.begin_view(width, height, theme.background.r, theme.background.g, theme.background.b);
  glBindVertexArray(vertex_array_);
  glUseProgram(program_.id());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, heat_.texture());
  const auto w = static_cast<float>(width), h = static_cast<float>(height);
  glUniform1i(program_.uniform("u_heat"), 0);
  glUniform1i(program_.uniform("u_sectors"), kHeatSectors);
  glUniform2f(program_.uniform("u_viewport"), w, h);
  glUniform4f(program_.uniform("u_rect"), x0, 0, x1, h);
  glUniform1f(program_.uniform("u_split"), 0.5f * h);
  glUniform1f(program_.uniform("u_scale"), scale);
  glUniform3fv(program_.uniform("u_untouched"), 1, &theme.untouched.r);
  glUniform3fv(program_.uniform("u_sector"), 1, &theme.sector.r);
  glUniform3fv(program_.uniform("u_dense"), 1, &theme.text.r);
  glUniform3fv(program_.uniform("u_overfetch"), 1, &theme.overfetch.r);
  glUniform3fv(program_.uniform("u_rule"), 1, &theme.rule.r);
  glUniform3fv(program_.uniform("u_background"), 1, &theme.background.r);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindVertexArray(0);
  glUseProgram(0);
  return target_.texture();
}

}  // namespace warplens::viz
