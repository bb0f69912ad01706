// Small RAII helpers over GL 3.3 core objects. All need a current context.
#pragma once

#include <glad/gl.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace warplens::viz {

/// A GL failure (shader compile/link, incomplete framebuffer); what() holds the GL info log.
class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class GlProgram {
 public:
  GlProgram() = default;
  /// Compiles and links; throws GlError with the info log (naming `label`) on failure.
  GlProgram(std::string_view label, std::string_view vertex_source,
            std::string_view fragment_source);
  ~GlProgram();
  GlProgram(GlProgram&& other) noexcept : id_(other.id_) { other.id_ = 0; }
  GlProgram& operator=(GlProgram&& other) noexcept;
  GlProgram(const GlProgram&) = delete;
  GlProgram& operator=(const GlProgram&) = delete;

  [[nodiscard]] GLuint id() const { return id_; }
  [[nodiscard]] GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }

 private:
  GLuint id_ = 0;
};

/// A GL buffer object the shaders read as a texture buffer (usamplerBuffer) of `format` texels,
/// e.g. GL_RGBA32UI. Its buffer name is what CUDA registers for interop.
class TextureBuffer {
 public:
  TextureBuffer(GLsizeiptr bytes, GLenum format);
  ~TextureBuffer();
  TextureBuffer(const TextureBuffer&) = delete;
  TextureBuffer& operator=(const TextureBuffer&) = delete;

  void upload(const void* data, GLsizeiptr bytes);
  void read(void* data, GLsizeiptr bytes) const;
  [[nodiscard]] GLuint buffer() const { return buffer_; }
  [[nodiscard]] GLuint texture() const { return texture_; }

 private:
  GLuint buffer_ = 0, texture_ = 0;
};

/// Remembers the bound framebuffer and viewport, and binds them again when it goes out of
/// scope (the views draw into their own targets in the middle of an ImGui frame).
class FramebufferScope {
 public:
  FramebufferScope();
  ~FramebufferScope();
  FramebufferScope(const FramebufferScope&) = delete;
  FramebufferScope& operator=(const FramebufferScope&) = delete;

 private:
  GLint draw_framebuffer_ = 0, read_framebuffer_ = 0;
  GLint viewport_[4] = {};
};

/// A colour texture with a framebuffer around it, resized on demand.
class RenderTarget {
 public:
  RenderTarget() = default;
  ~RenderTarget();
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;

  /// Makes the target `width` x `height` pixels (re-allocating only when the size changes) and
  /// binds its framebuffer. Throws GlError if the framebuffer is incomplete.
  void bind(int width, int height);
  /// bind(), then the state every view draws in (no scissor, depth test, culling or blending)
  /// and the target cleared to `background` (linear RGB, 0..1).
  void begin_view(int width, int height, float r, float g, float b);
  [[nodiscard]] GLuint texture() const { return texture_; }
  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }

 private:
  GLuint framebuffer_ = 0, texture_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace warplens::viz
