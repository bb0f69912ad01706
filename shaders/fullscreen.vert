#version 330 core
// A rectangle in view pixels (origin top-left), drawn as two triangles from gl_VertexID.
uniform vec4 u_rect;      // x0, y0, x1, y1 in pixels
uniform vec2 u_viewport;  // width, height in pixels
void main() {
  const vec2 corners[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));
  vec2 c = corners[gl_VertexID];
  vec2 p = mix(u_rect.xy, u_rect.zw, c);
  gl_Position = vec4(p.x / u_viewport.x * 2.0 - 1.0, 1.0 - p.y / u_viewport.y * 2.0, 0.0, 1.0);
}
