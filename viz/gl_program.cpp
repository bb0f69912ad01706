#include "gl_program.h"

#include <utility>
#include <vector>

#include "embedded.h"

namespace warplens::shaders {
std::string_view source(std::string_view name) {
  for (std::size_t i = 0; i < file_count; ++i) {
    if (files[i].path.ends_with(name)) return files[i].text;
  }
  throw std::runtime_error("no embedded shader named " + std::string(name));
}
}  // namespace warplens::shaders

namespace warplens::viz {

namespace {
GLuint compile(std::string_view label, GLenum type, std::string_view source) {
  const GLuint shader = glCreateShader(type);
  const char* text = source.data();
  const GLint length = static_cast<GLint>(source.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint log_length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &log_length);
    std::vector<char> log(static_cast<std::size_t>(log_length) + 1);
    glGetShaderInfoLog(shader, log_length, nullptr, log.data());
    glDeleteShader(shader);
    throw GlError(std::string(label) + (type == GL_VERTEX_SHADER ? " vertex" : " fragment") +
                  " shader does not compile: " + log.data());
  }
  return shader;
}
}  // namespace

GlProgram::GlProgram(std::string_view label, std::string_view vertex_source,
                     std::string_view fragment_source) {
  const GLuint vs = compile(label, GL_VERTEX_SHADER, vertex_source);
  GLuint fs = 0;
  try {
    fs = compile(label, GL_FRAGMENT_SHADER, fragment_source);
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  id_ = glCreateProgram();
  glAttachShader(id_, vs);
  glAttachShader(id_, fs);
  glLinkProgram(id_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[4096] = {};
    glGetProgramInfoLog(id_, sizeof log, nullptr, log);
    glDeleteProgram(id_);
    id_ = 0;
    throw GlError(std::string(label) + " program does not link: " + log);
  }
}

GlProgram::~GlProgram() {
  if (id_) glDeleteProgram(id_);
}

GlProgram& GlProgram::operator=(GlProgram&& other) noexcept {
  std::swap(id_, other.id_);
  return *this;
}

TextureBuffer::TextureBuffer(GLsizeiptr bytes, GLenum format) {
  glGenBuffers(1, &buffer_);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
  glBufferData(GL_TEXTURE_BUFFER, bytes, nullptr, GL_DYNAMIC_DRAW);
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_BUFFER, texture_);
  glTexBuffer(GL_TEXTURE_BUFFER, format, buffer_);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

TextureBuffer::~TextureBuffer() {
  glDeleteTextures(1, &texture_);
  glDeleteBuffers(1, &buffer_);
}

void TextureBuffer::upload(const void* data, GLsizeiptr bytes) {
  glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
  glBufferSubData(GL_TEXTURE_BUFFER, 0, bytes, data);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void TextureBuffer::read(void* data, GLsizeiptr bytes) const {
  glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
  glGetBufferSubData(GL_TEXTURE_BUFFER, 0, bytes, data);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

FramebufferScope::FramebufferScope() {
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_framebuffer_);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_framebuffer_);
  glGetIntegerv(GL_VIEWPORT, viewport_);
}

FramebufferScope::~FramebufferScope() {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_framebuffer_));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_framebuffer_));
  glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
}

RenderTarget::~RenderTarget() {
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  if (texture_) glDeleteTextures(1, &texture_);
}

void RenderTarget::begin_view(int width, int height, float r, float g, float b) {
  bind(width, height);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

void RenderTarget::bind(int width, int height) {
  if (!framebuffer_) {
    glGenFramebuffers(1, &framebuffer_);
    glGenTextures(1, &texture_);
  }
  if (width != width_ || height != height_) {
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
      throw GlError("offscreen framebuffer " + std::to_string(width) + "x" +
                    std::to_string(height) + " is incomplete (status " + std::to_string(status) +
                    ")");
    }
    width_ = width;
    height_ = height;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width, height);
}

}  // namespace warplens::viz
