// The two-monitor speaker view, run for real: an X server with two monitors, `warplens --lesson`
// on it, the lesson window and the speaker window on different monitors, the clicker's keys sent
// to either window moving both, and both windows captured to PNG (out/speaker-window/).
//
// The X server is TigerVNC's Xvnc: its RandR outputs follow the screen layout a VNC client asks
// for (the test asks, over the RFB protocol, for two 1920x1080 screens side by side), and GLFW
// counts a monitor per connected RandR output with a CRTC. Xvfb cannot stand in: it has one
// RandR output per X screen and GLFW reads the default screen's outputs only, so `-screen 0 ...
// -screen 1 ...` (with or without +xinerama, whose two heads GLFW does not read) and
// `xrandr --setmonitor` (RandR 1.5 monitors, which GLFW 3.3 does not read) all give GLFW one
// monitor. The two-monitor test skips, saying why, where Xvnc is not installed or makes no second
// monitor; the one-monitor test (the speaker view drawn over the lesson window) runs on Xvfb.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "png_writer.h"
#include "test_support.h"

// Xlib last: its macros (None, Bool, Status) would clash with the headers above.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>

namespace warplens::test {
namespace {

const std::string kOut = WARPLENS_TEST_OUT_DIR;
constexpr int kMonitorW = 1920, kMonitorH = 1080;

// A program started in the background (its output into `log`), ended with SIGTERM.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const std::string& display, const std::string& log,
        int keep_fd = -1) {
    pid_ = fork();
    if (pid_ != 0) return;
    if (!display.empty()) setenv("DISPLAY", display.c_str(), 1);
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) {
      dup2(out, 1);
      dup2(out, 2);
    }
    for (int fd = 3; fd < 1024; ++fd)
      if (fd != keep_fd) close(fd);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  ~Child() { stop(); }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  [[nodiscard]] bool running() {
    if (pid_ <= 0) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) pid_ = -1;
    return pid_ > 0;
  }
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    for (int i = 0; i < 100 && waitpid(pid_, nullptr, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (waitpid(pid_, nullptr, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
};

// Polls `done` every 50 ms until it holds or `seconds` pass (a deadline, not a measurement).
bool wait_for(const std::function<bool()>& done, int seconds = 90) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

bool read_all(int fd, void* data, std::size_t size) {
  auto* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = recv(fd, p, size, 0);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

template <typename T>
void put(std::string& msg, T value) {
  if constexpr (sizeof(T) == 2) value = static_cast<T>(htons(static_cast<std::uint16_t>(value)));
  if constexpr (sizeof(T) == 4) value = static_cast<T>(htonl(static_cast<std::uint32_t>(value)));
  msg.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Asks the VNC server at unix socket `path` for `screens` (x, y, w, h) as its layout: the RFB
// handshake (security type None), SetDesktopSize, and its answer (an ExtendedDesktopSize
// rectangle of reason "client"). Empty on success, else what went wrong.
std::string set_vnc_layout(const std::string& path,
                           const std::vector<std::array<int, 4>>& screens) {
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return "no socket";
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  timeval timeout{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    return "cannot connect to " + path;
  char version[12];
  if (!read_all(fd, version, sizeof version)) return "no RFB version";
  send(fd, "RFB 003.008\n", 12, 0);
  std::uint8_t count = 0;
  if (!read_all(fd, &count, 1) || count == 0) return "no security types";
  std::vector<std::uint8_t> types(count);
  if (!read_all(fd, types.data(), count)) return "no security types";
  if (std::find(types.begin(), types.end(), 1) == types.end()) return "security type None off";
  const std::uint8_t none = 1, shared = 1;
  send(fd, &none, 1, 0);
  std::uint32_t result = 1;
  if (!read_all(fd, &result, 4) || result != 0) return "security handshake failed";
  send(fd, &shared, 1, 0);
  std::uint8_t init[24];
  std::uint32_t name_length = 0;
  if (!read_all(fd, init, 20) || !read_all(fd, &name_length, 4)) return "no ServerInit";
  std::string name(ntohl(name_length), '\0');
  if (!read_all(fd, name.data(), name.size())) return "no ServerInit name";

  int width = 0, height = 0;
  for (const auto& s : screens) {
    width = std::max(width, s[0] + s[2]);
    height = std::max(height, s[1] + s[3]);
  }
  std::string msg;
  put<std::uint8_t>(msg, 2);  // SetEncodings: ExtendedDesktopSize, for the answer
  put<std::uint8_t>(msg, 0);
  put<std::uint16_t>(msg, 1);
  put<std::int32_t>(msg, -308);
  put<std::uint8_t>(msg, 251);  // SetDesktopSize
  put<std::uint8_t>(msg, 0);
  put<std::uint16_t>(msg, static_cast<std::uint16_t>(width));
  put<std::uint16_t>(msg, static_cast<std::uint16_t>(height));
  put<std::uint8_t>(msg, static_cast<std::uint8_t>(screens.size()));
  put<std::uint8_t>(msg, 0);
  std::uint32_t id = 1;
  for (const auto& s : screens) {
    put<std::uint32_t>(msg, id++);
    for (int v : s) put<std::uint16_t>(msg, static_cast<std::uint16_t>(v));
    put<std::uint32_t>(msg, 0);
  }
  std::string request;  // FramebufferUpdateRequest of one pixel, to read the answer
  put<std::uint8_t>(request, 3);
  put<std::uint8_t>(request, 1);
  for (int v : {0, 0, 1, 1}) put<std::uint16_t>(request, static_cast<std::uint16_t>(v));
  msg += request;
  send(fd, msg.data(), msg.size(), 0);
  for (int updates = 0; updates < 50; ++updates) {
    std::uint8_t header[4];
    if (!read_all(fd, header, 4)) return "no answer";
    if (header[0] != 0) return "unexpected RFB message " + std::to_string(header[0]);
    const int rects = (header[2] << 8) | header[3];
    for (int r = 0; r < rects; ++r) {
      std::uint8_t rect[12];
      if (!read_all(fd, rect, 12)) return "short rectangle";
      const int x = (rect[0] << 8) | rect[1], y = (rect[2] << 8) | rect[3];
      const int w = (rect[4] << 8) | rect[5], h = (rect[6] << 8) | rect[7];
      std::int32_t encoding = 0;
      std::memcpy(&encoding, rect + 8, 4);
      encoding = static_cast<std::int32_t>(ntohl(static_cast<std::uint32_t>(encoding)));
      if (encoding == -308) {
        std::uint8_t head[4];
        if (!read_all(fd, head, 4)) return "short layout";
        std::vector<std::uint8_t> layout(16u * head[0]);
        if (!read_all(fd, layout.data(), layout.size())) return "short layout";
        if (x == 1)
          return y == 0 ? "" : "SetDesktopSize refused (status " + std::to_string(y) + ")";
      } else if (encoding == 0) {
        std::vector<std::uint8_t> pixels(static_cast<std::size_t>(w) * h * 4);
        if (!read_all(fd, pixels.data(), pixels.size())) return "short pixels";
      } else {
        return "unexpected encoding " + std::to_string(encoding);
      }
    }
    send(fd, request.data(), request.size(), 0);
  }
  return "no answer to SetDesktopSize";
}

// A top-level window of the X server: its id, title, place on the root and size.
struct TopWindow {
  Window id = 0;
  std::string title;
  int x = 0, y = 0, width = 0, height = 0;
};

class XServer {
 public:
  explicit XServer(Display* d) : d_(d) {}
  ~XServer() {
    if (d_) XCloseDisplay(d_);
  }
  XServer(const XServer&) = delete;
  XServer& operator=(const XServer&) = delete;

  // The mapped top-level windows whose title starts with "WarpLens".
  std::vector<TopWindow> warplens_windows() {
    std::vector<TopWindow> found;
    Window root_return = 0, parent = 0, *children = nullptr;
    unsigned count = 0;
    if (!XQueryTree(d_, root(), &root_return, &parent, &children, &count)) return found;
    for (unsigned i = 0; i < count; ++i) {
      XWindowAttributes a{};
      if (!XGetWindowAttributes(d_, children[i], &a) || a.map_state != IsViewable) continue;
      const std::string title = title_of(children[i]);
      if (title.rfind("WarpLens", 0) != 0) continue;
      found.push_back({children[i], title, a.x, a.y, a.width, a.height});
    }
    if (children) XFree(children);
    return found;
  }

  std::optional<TopWindow> window_titled(const std::string& prefix) {
    for (const TopWindow& w : warplens_windows())
      if (w.title.rfind(prefix, 0) == 0) return w;
    return std::nullopt;
  }

  // Presses and releases `keysym` in `window` (XSendEvent: no focus needed), a fake clock 100 ms
  // on per event so that GLFW takes no press for a key repeat.
  void press(Window window, KeySym keysym) {
    XKeyEvent e{};
    e.display = d_;
    e.window = window;
    e.root = root();
    e.same_screen = True;
    e.keycode = XKeysymToKeycode(d_, keysym);
    for (const int type : {KeyPress, KeyRelease}) {
      e.type = type;
      e.time = (clock_ += 100);
      XSendEvent(d_, window, True, type == KeyPress ? KeyPressMask : KeyReleaseMask,
                 reinterpret_cast<XEvent*>(&e));
    }
    XFlush(d_);
  }

  // `window`'s pixels as an image.
  viz::Image capture(const TopWindow& w) {
    viz::Image image;
    XImage* x = XGetImage(d_, w.id, 0, 0, static_cast<unsigned>(w.width),
                          static_cast<unsigned>(w.height), AllPlanes, ZPixmap);
    if (!x) return image;
    image.width = w.width;
    image.height = w.height;
    image.rgba.resize(static_cast<std::size_t>(w.width) * w.height * 4);
    const auto channel = [](unsigned long pixel, unsigned long mask) {
      int shift = 0;
      while (mask && !(mask & 1)) {
        mask >>= 1;
        ++shift;
      }
      return static_cast<std::uint8_t>(((pixel >> shift) & mask) * 255 / (mask ? mask : 1));
    };
    for (int yy = 0; yy < w.height; ++yy)
      for (int xx = 0; xx < w.width; ++xx) {
        const unsigned long p = XGetPixel(x, xx, yy);
        std::uint8_t* out = image.rgba.data() + (static_cast<std::size_t>(yy) * w.width + xx) * 4;
        out[0] = channel(p, x->red_mask);
        out[1] = channel(p, x->green_mask);
        out[2] = channel(p, x->blue_mask);
        out[3] = 255;
      }
    XDestroyImage(x);
    return image;
  }

  [[nodiscard]] int root_width() const { return DisplayWidth(d_, DefaultScreen(d_)); }

 private:
  [[nodiscard]] Window root() const { return DefaultRootWindow(d_); }
  std::string title_of(Window w) {
    const Atom net_name = XInternAtom(d_, "_NET_WM_NAME", False);
    const Atom utf8 = XInternAtom(d_, "UTF8_STRING", False);
    Atom type = 0;
    int format = 0;
    unsigned long items = 0, after = 0;
    unsigned char* data = nullptr;
    std::string title;
    if (XGetWindowProperty(d_, w, net_name, 0, 1024, False, utf8, &type, &format, &items, &after,
                           &data) == Success &&
        data) {
      title.assign(reinterpret_cast<char*>(data), items);
      XFree(data);
    }
    return title;
  }

  Display* d_;
  Time clock_ = 1000;
};

// Share of `image`'s pixels that are its most common colour, and how many are far from it.
struct Colours {
  double dominant = 0;
  int other = 0;
};
Colours colours(const viz::Image& image) {
  std::map<std::uint32_t, int> counts;
  for (std::size_t i = 0; i + 3 < image.rgba.size(); i += 4)
    ++counts[(image.rgba[i] << 16) | (image.rgba[i + 1] << 8) | image.rgba[i + 2]];
  std::uint32_t top = 0;
  int top_count = 0;
  for (const auto& [c, n] : counts)
    if (n > top_count) {
      top = c;
      top_count = n;
    }
  Colours result;
  const int total = image.width * image.height;
  result.dominant = total ? static_cast<double>(top_count) / total : 0;
  for (std::size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    const int d = std::abs(image.rgba[i] - static_cast<int>(top >> 16)) +
                  std::abs(image.rgba[i + 1] - static_cast<int>((top >> 8) & 255)) +
                  std::abs(image.rgba[i + 2] - static_cast<int>(top & 255));
    result.other += d > 96;
  }
  return result;
}

// A fixture with an X server of its own (a free display picked by -displayfd) and warplens on it.
class OnXServer : public ::testing::Test {
 protected:
  // Starts `argv` (an X server) with "-displayfd N" added; empty on success, else why not.
  std::string start_server(std::vector<std::string> argv) {
    int fds[2];
    if (pipe(fds) != 0) return "no pipe";
    argv.insert(argv.begin() + 1, {"-displayfd", std::to_string(fds[1])});
    const std::string log = temp_path(argv[0] + ".log");
    server_ = std::make_unique<Child>(argv, "", log, fds[1]);
    close(fds[1]);
    std::string number;
    pollfd p{fds[0], POLLIN, 0};
    while (poll(&p, 1, 20000) > 0) {
      char c = 0;
      if (read(fds[0], &c, 1) != 1 || c == '\n') break;
      number += c;
    }
    close(fds[0]);
    if (number.empty()) return argv[0] + " did not start: " + run_command("cat " + log).output;
    display_ = ":" + number;
    return "";
  }
  // Connects to the server started; empty on success.
  std::string connect() {
    Display* d = XOpenDisplay(display_.c_str());
    if (!d) return "cannot open display " + display_;
    // An X error (a window gone between listing and reading it) is a failed look, not an exit.
    XSetErrorHandler([](Display*, XErrorEvent*) { return 0; });
    x_ = std::make_unique<XServer>(d);
    std::filesystem::create_directories(kOut + "/speaker-window");
    return "";
  }
  void TearDown() override {
    warplens_.reset();
    x_.reset();
    server_.reset();
  }

  void start_warplens(const std::vector<std::string>& args) {
    std::vector<std::string> argv{kWarplens, "--model-only"};
    argv.insert(argv.end(), args.begin(), args.end());
    log_ = temp_path("warplens-window.log");
    warplens_ = std::make_unique<Child>(argv, display_, log_);
  }
  std::string log() { return run_command("cat " + log_).output; }

  // The lesson window's title says step `k` (of `n`), and the speaker window's too where
  // `speaker`.
  bool at(int k, int n, bool speaker = true) {
    const std::string at = "step " + std::to_string(k) + " of " + std::to_string(n);
    const auto lesson = x_->window_titled(kLessonTitle);
    const auto notes = x_->window_titled(kSpeakerTitle);
    return lesson && lesson->title.find(at) != std::string::npos &&
           (!speaker || (notes && notes->title.find(at) != std::string::npos));
  }
  std::string titles() {
    std::string all;
    for (const TopWindow& w : x_->warplens_windows())
      all += "\n  \"" + w.title + "\" at " + std::to_string(w.x) + "," + std::to_string(w.y) + " " +
             std::to_string(w.width) + "x" + std::to_string(w.height);
    return all.empty() ? "(no WarpLens window)" : all;
  }

  static constexpr const char* kLessonTitle = "WarpLens \u2014 CUDA optimization, part 2";
  static constexpr const char* kSpeakerTitle = "WarpLens \u2014 speaker view";
  static constexpr int kSteps = 17;  // cuda-optimization-part2's
  std::string display_, log_;
  std::unique_ptr<Child> server_, warplens_;
  std::unique_ptr<XServer> x_;
};

class TwoMonitors : public OnXServer {
 protected:
  void SetUp() override {
    if (run_command("command -v Xvnc").exit_code != 0)
      GTEST_SKIP() << "Xvnc is not installed (Debian: tigervnc-standalone-server): the "
                      "two-monitor speaker view needs an X server with two RandR outputs, which "
                      "Xvfb cannot give GLFW";
    socket_ = temp_path("vnc.sock");
    const std::string size = std::to_string(kMonitorW) + "x" + std::to_string(kMonitorH);
    if (const std::string why =
            start_server({"Xvnc", "-geometry", size, "-depth", "24", "-SecurityTypes", "None",
                          "-rfbport", "-1", "-rfbunixpath", socket_, "-nolisten", "tcp"});
        !why.empty())
      GTEST_SKIP() << why;
    if (const std::string why = set_vnc_layout(
            socket_, {{0, 0, kMonitorW, kMonitorH}, {kMonitorW, 0, kMonitorW, kMonitorH}});
        !why.empty())
      GTEST_SKIP() << "Xvnc gave no second monitor: " << why;
    if (const std::string why = connect(); !why.empty()) GTEST_SKIP() << why;
    if (x_->root_width() != 2 * kMonitorW)
      GTEST_SKIP() << "Xvnc's screen is " << x_->root_width() << " wide after the layout, not "
                   << 2 * kMonitorW << ": no second monitor";
  }
  void TearDown() override {
    OnXServer::TearDown();
    if (!socket_.empty()) std::filesystem::remove(socket_);
  }
  std::string socket_;
};

class OneMonitor : public OnXServer {
 protected:
  void SetUp() override {
    if (run_command("command -v Xvfb").exit_code != 0) GTEST_SKIP() << "Xvfb is not installed";
    if (const std::string why =
            start_server({"Xvfb", "-screen", "0",
                          std::to_string(kMonitorW) + "x" + std::to_string(kMonitorH) + "x24",
                          "-nolisten", "tcp"});
        !why.empty())
      GTEST_SKIP() << why;
    if (const std::string why = connect(); !why.empty()) GTEST_SKIP() << why;
  }
};

// Pixels that differ (by more than a little) between `a` and `b` within the rectangle of
// fractions [fx0, fx1) x [fy0, fy1) of their size.
int differing(const viz::Image& a, const viz::Image& b, double fx0, double fy0, double fx1,
              double fy1) {
  if (a.width != b.width || a.height != b.height) return -1;
  int n = 0;
  for (int y = static_cast<int>(fy0 * a.height); y < static_cast<int>(fy1 * a.height); ++y)
    for (int x = static_cast<int>(fx0 * a.width); x < static_cast<int>(fx1 * a.width); ++x) {
      const std::uint8_t *p = a.pixel(x, y), *q = b.pixel(x, y);
      n += std::abs(p[0] - q[0]) + std::abs(p[1] - q[1]) + std::abs(p[2] - q[2]) > 48;
    }
  return n;
}

TEST_F(TwoMonitors, TheSpeakerViewOpensOnTheOtherMonitorAndTakesTheSameKeys) {
  start_warplens({"--lesson", "cuda-optimization-part2"});
  const int n = kSteps;
  ASSERT_TRUE(wait_for([&] { return at(1, n) || !warplens_->running(); }))
      << "no lesson window and speaker window at step 1:" << titles() << "\n"
      << log();
  ASSERT_TRUE(at(1, n)) << titles() << "\n" << log();
  const TopWindow lesson = *x_->window_titled(kLessonTitle);
  const TopWindow speaker = *x_->window_titled(kSpeakerTitle);
  // On different monitors: the lesson window's centre on the first, the speaker's on the second.
  const auto monitor = [](const TopWindow& w) { return (w.x + w.width / 2) / kMonitorW; };
  EXPECT_EQ(monitor(lesson), 0) << titles();
  EXPECT_EQ(monitor(speaker), 1) << titles();
  EXPECT_GE(speaker.x, kMonitorW) << titles();
  EXPECT_LE(speaker.x + speaker.width, 2 * kMonitorW) << titles();
  EXPECT_GE(speaker.width, kMonitorW / 2) << titles();  // most of the laptop's screen

  // The clicker's keys in either window move the lesson, and both windows follow.
  const std::vector<std::tuple<const TopWindow*, KeySym, int>> presses = {
      {&lesson, XK_Next, 2},  {&speaker, XK_Next, 3},  {&speaker, XK_Right, 4},
      {&lesson, XK_Right, 5}, {&speaker, XK_Prior, 4}, {&lesson, XK_Left, 3},
      {&speaker, XK_End, n},  {&lesson, XK_Home, 1},   {&lesson, XK_End, n},
      {&speaker, XK_Home, 1}, {&speaker, XK_Next, 2},  {&speaker, XK_Next, 3}};
  for (const auto& [window, key, wanted] : presses) {
    const int step = wanted;  // a lambda cannot capture a structured binding before C++20
    x_->press(window->id, key);
    EXPECT_TRUE(wait_for([&] { return at(step, n); }))
        << XKeysymToString(key) << " in the " << (window == &lesson ? "lesson" : "speaker")
        << " window: not both at step " << step << ":" << titles();
  }

  // Both windows as they are at step 3, for a look (out/speaker-window/).
  for (const auto& [title, file] : {std::pair{kLessonTitle, "lesson-window.png"},
                                    std::pair{kSpeakerTitle, "speaker-window.png"}}) {
    const auto w = x_->window_titled(title);
    ASSERT_TRUE(w) << titles();
    const viz::Image image = x_->capture(*w);
    ASSERT_EQ(image.width, w->width);
    viz::write_png(image, kOut + "/speaker-window/" + file);
    const Colours c = colours(image);
    EXPECT_GT(c.dominant, 0.3) << file << ": no background";
    EXPECT_GT(c.other, 2000) << file << ": almost nothing drawn";
  }

  // S in the speaker window closes it; S in the lesson window opens it again, on the laptop's
  // monitor, at the same step.
  x_->press(speaker.id, XK_s);
  EXPECT_TRUE(wait_for([&] { return !x_->window_titled(kSpeakerTitle); })) << titles();
  EXPECT_TRUE(x_->window_titled(kLessonTitle)) << titles();
  x_->press(lesson.id, XK_s);
  EXPECT_TRUE(wait_for([&] { return at(3, n); })) << titles();
  if (const auto again = x_->window_titled(kSpeakerTitle)) {
    EXPECT_EQ(monitor(*again), 1) << titles();
  }
  EXPECT_TRUE(warplens_->running()) << log();
}

// One monitor: no second window; S draws the speaker view over the lesson window's right part,
// the clicker's keys go on moving the lesson, and S again takes it away.
TEST_F(OneMonitor, KeySDrawsTheSpeakerViewOverTheLessonWindow) {
  start_warplens({"--lesson", "cuda-optimization-part2"});
  ASSERT_TRUE(wait_for([&] { return at(1, kSteps, false) || !warplens_->running(); }))
      << titles() << "\n"
      << log();
  x_->press(x_->window_titled(kLessonTitle)->id, XK_Next);
  ASSERT_TRUE(wait_for([&] { return at(2, kSteps, false); })) << titles();
  const TopWindow lesson = *x_->window_titled(kLessonTitle);
  EXPECT_EQ(x_->warplens_windows().size(), 1u) << titles();
  // Settled: two captures a moment apart alike.
  viz::Image before = x_->capture(lesson);
  ASSERT_TRUE(wait_for([&] {
    const viz::Image now = x_->capture(lesson);
    const bool same = differing(before, now, 0, 0, 1, 1) < 50;
    before = now;
    return same;
  }));
  const int area = static_cast<int>(0.43 * lesson.width * 0.62 * lesson.height);
  x_->press(lesson.id, XK_s);
  viz::Image with;
  EXPECT_TRUE(wait_for([&] {
    with = x_->capture(lesson);
    return differing(before, with, 0.55, 0.08, 0.98, 0.70) > area / 20;
  })) << "S drew nothing over the window's right part";
  viz::write_png(with, kOut + "/speaker-window/one-monitor.png");
  EXPECT_EQ(x_->warplens_windows().size(), 1u) << "a second window on one monitor:" << titles();
  // The left part (the views' start) is the lesson's still.
  EXPECT_LT(differing(before, with, 0.0, 0.3, 0.25, 0.9), area / 50);
  x_->press(lesson.id, XK_Next);
  EXPECT_TRUE(wait_for([&] { return at(3, kSteps, false); })) << titles();
  x_->press(lesson.id, XK_s);
  EXPECT_TRUE(warplens_->running()) << log();
}

}  // namespace
}  // namespace warplens::test
