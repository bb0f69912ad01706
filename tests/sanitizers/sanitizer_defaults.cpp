// Built into every program of a sanitized build (WARPLENS_SANITIZE, cmake/Sanitizers.cmake):
// the sanitizers' default options, so a report fails the program the same way under ctest, when a
// test starts the warplens binary, and by hand. ASAN_OPTIONS, UBSAN_OPTIONS and LSAN_OPTIONS in
// the environment still override them.
//
// dlclose() keeps every library mapped (it marks it RTLD_NODELETE, then closes as asked): the GL
// loader (glad) unloads libEGL at exit and libEGL unloads Mesa's driver when its display is
// terminated. LeakSanitizer checks at exit; with those libraries gone it could neither read their
// globals, so everything they still point to (Mesa's one-time allocations) would look leaked,
// nor name them in a stack. Kept mapped, they hide nothing of WarpLens's own: a block only a
// WarpLens object pointed to is reported as before.
#include <dlfcn.h>
#include <link.h>

extern "C" {

__attribute__((visibility("default"))) int dlclose(void* handle) noexcept {
  static const auto real = reinterpret_cast<int (*)(void*)>(dlsym(RTLD_NEXT, "dlclose"));
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && map->l_name[0]) {
    // Mark the library RTLD_NODELETE: it stays mapped after this close.
    if (void* again = dlopen(map->l_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)) real(again);
  }
  return real(handle);
}

// Called by the ASan runtime before main(); the symbol must have default visibility.
// intercept_tls_get_addr=0: clang 14's runtime guesses the bounds of a dynamic TLS block from the
// 16 bytes before it when the block starts 16 bytes past a page boundary (glibc 2.19's layout);
// a block that glibc took from ASan's malloc can start there too, and LSan then scans a garbage
// range and dies ("Tracer caught signal 11"), depending only on where the heap put that block
// (seen with `warplens render --scenario bank-word-16`). Without the interception LSan still
// scans static TLS and finds dynamic TLS blocks as ordinary heap blocks glibc points to.
__attribute__((visibility("default"), used)) const char* __asan_default_options() {
  return "detect_leaks=1:check_initialization_order=1:strict_init_order=1:"
         "detect_stack_use_after_return=1:strict_string_checks=1:intercept_tls_get_addr=0";
}

// cairo keeps its font and pattern caches in static data until cairo_debug_reset_static_data(),
// which may run only when no cairo object is alive: LeakSanitizer reported them (472 to 1416
// bytes, allocated inside libcairo) after every figure the figures' tests write. Only blocks whose
// allocation stack passes through libcairo are left out.
__attribute__((visibility("default"), used)) const char* __lsan_default_suppressions() {
  return "leak:libcairo.so\n";
}

__attribute__((visibility("default"), used)) const char* __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}
}
