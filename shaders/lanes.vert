#version 330 core
// Lane boxes (u_mode 0) and lane-to-memory connectors (u_mode 1), 6 vertices per lane. Where
// each connector lands comes from the warp trace, the same buffer the memory strip reads.
uniform usamplerBuffer u_trace;
uniform int u_mode;
uniform vec2 u_viewport;
uniform vec4 u_lane_rect;          // lane row x0, y0, x1, y1 (pixels, origin top-left)
uniform float u_lane_gap;          // pixels between lane boxes
uniform float u_warp_gap;          // pixels between the warps' groups of 32 lanes
uniform int u_warps;               // warps side by side
uniform float u_strip_top;         // y of the memory strip's top edge
uniform int u_line_count;
uniform uint u_line_address[256];
uniform float u_line_x[256];
uniform float u_px_per_byte;
uniform float u_connector_width;
uniform vec3 u_lane_color[32];
uniform vec3 u_inactive;
out vec3 v_color;

vec4 to_ndc(vec2 p) { return vec4(p.x / u_viewport.x * 2.0 - 1.0, 1.0 - p.y / u_viewport.y * 2.0, 0.0, 1.0); }

void main() {
  int record = gl_VertexID / 6;  // trace record: warp slot record / 32, lane record % 32
  int group = record / 32;
  int lane = record % 32;
  int corner = gl_VertexID % 6;
  const vec2 corners[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));
  vec2 c = corners[corner];
  uvec4 r = texelFetch(u_trace, record);
  bool lane_active = r.w != 0u;
  v_color = lane_active ? u_lane_color[lane] : u_inactive;

  // The same arithmetic as StripLayout::lane_box.
  float group_w = (u_lane_rect.z - u_lane_rect.x - float(u_warps - 1) * u_warp_gap) / float(u_warps);
  float box_w = (group_w - 31.0 * u_lane_gap) / 32.0;
  float box_x = u_lane_rect.x + float(group) * (group_w + u_warp_gap) + float(lane) * (box_w + u_lane_gap);
  if (u_mode == 0) {
    gl_Position = to_ndc(vec2(box_x, u_lane_rect.y) + c * vec2(box_w, u_lane_rect.w - u_lane_rect.y));
    return;
  }
  // Connector: from the bottom of the lane box to the middle of the lane's bytes.
  float target_x = -1.0;
  uint line_address = r.x & ~127u;
  for (int i = 0; i < u_line_count; ++i) {
    if (u_line_address[i] == line_address) {
      target_x = u_line_x[i] + (float(r.x - line_address) + 0.5 * float(r.z)) * u_px_per_byte;
    }
  }
  if (!lane_active || target_x < 0.0) {  // nothing to connect: a degenerate triangle
    gl_Position = vec4(0.0);
    return;
  }
  vec2 a = vec2(box_x + 0.5 * box_w, u_lane_rect.w);
  vec2 b = vec2(target_x, u_strip_top);
  vec2 dir = normalize(b - a);
  vec2 normal = vec2(-dir.y, dir.x) * 0.5 * u_connector_width;
  vec2 p = mix(a, b, c.x) + normal * (c.y * 2.0 - 1.0);
  gl_Position = to_ndc(p);
}
