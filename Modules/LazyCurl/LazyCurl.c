// Lazy binding of libcurl for the statically linked order-tracking (see Apps/OrderTracking/README.md, "Start-up").
//
// FoundationNetworking's static archive calls the 23 curl functions listed below. Release builds define
// COURIER_LAZY_CURL: this file then provides them, and each forwards to libcurl.so.4, opened (with all 23
// symbols resolved) once, on the first call. A screen on the embedded backend therefore never maps libcurl
// and the ~30 libraries it needs. Debug builds link Foundation dynamically (libFoundationNetworking.so
// needs libcurl itself), so there only the probe is compiled.
#include "LazyCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef COURIER_LAZY_CURL

// curl's handles are opaque, its enums and result codes are ints, so the real prototypes are not needed
// (curl/curl.h is only on machines with the -dev package). X(return type, name, parameters, arguments).
#define CURL_FUNCTIONS(X)                                                                                    \
    X(int, curl_global_init, (long flags), (flags))                                                          \
    X(void *, curl_easy_init, (void), ())                                                                    \
    X(int, curl_easy_pause, (void *easy, int mask), (easy, mask))                                            \
    X(const char *, curl_easy_strerror, (int code), (code))                                                  \
    X(void *, curl_multi_init, (void), ())                                                                   \
    X(int, curl_multi_add_handle, (void *multi, void *easy), (multi, easy))                                  \
    X(int, curl_multi_remove_handle, (void *multi, void *easy), (multi, easy))                               \
    X(int, curl_multi_assign, (void *multi, int socket, void *pointer), (multi, socket, pointer))            \
    X(int, curl_multi_cleanup, (void *multi), (multi))                                                       \
    X(void *, curl_multi_info_read, (void *multi, int *queued), (multi, queued))                             \
    X(int, curl_multi_socket_action, (void *multi, int socket, int mask, int *running),                      \
      (multi, socket, mask, running))                                                                        \
    X(void *, curl_slist_append, (void *list, const char *text), (list, text))                               \
    X(void *, curl_url, (void), ())                                                                          \
    X(int, curl_url_get, (const void *url, int part, char **value, unsigned flags), (url, part, value, flags)) \
    X(int, curl_url_set, (void *url, int part, const char *value, unsigned flags), (url, part, value, flags)) \
    X(char *, curl_version, (void), ())                                                                      \
    X(void *, curl_version_info, (int age), (age))

// The ones that return nothing.
#define CURL_VOID_FUNCTIONS(X)                                                                               \
    X(void, curl_easy_cleanup, (void *easy), (easy))                                                         \
    X(void, curl_free, (void *pointer), (pointer))                                                           \
    X(void, curl_slist_free_all, (void *list), (list))

// The variadic ones take exactly one option argument of pointer size (long, pointer, function pointer or
// curl_off_t), which LP64 calling conventions pass in the same register or stack slot as a void *.
#define CURL_VARIADIC_FUNCTIONS(X) X(curl_easy_setopt) X(curl_easy_getinfo) X(curl_multi_setopt)

static struct {
#define FIELD(ret, name, params, args) ret(*name) params;
#define VARIADIC_FIELD(name) int (*name)(void *, int, ...);
    CURL_FUNCTIONS(FIELD)
    CURL_VOID_FUNCTIONS(FIELD)
    CURL_VARIADIC_FUNCTIONS(VARIADIC_FIELD)
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : "cannot open libcurl.so.4");
        return;
    }
#define RESOLVE(name)                                                                                        \
    if (!(*(void **)&curl.name = dlsym(library, #name))) {                                                   \
        snprintf(failure, sizeof failure, "libcurl.so.4 has no %s (too old)", #name);                        \
        return;                                                                                              \
    }
#define RESOLVE_FUNCTION(ret, name, params, args) RESOLVE(name)
    CURL_FUNCTIONS(RESOLVE_FUNCTION)
    CURL_VOID_FUNCTIONS(RESOLVE_FUNCTION)
    CURL_VARIADIC_FUNCTIONS(RESOLVE)
    loaded = 1;
}

int lazy_curl_available(char *reason, size_t capacity) {
    pthread_once(&once, load);
    if (!loaded && reason && capacity) snprintf(reason, capacity, "%s", failure);
    return loaded;
}

// A backstop: the host checks lazy_curl_available before it builds an HTTP backend.
static void require_curl(void) {
    char reason[512];
    if (lazy_curl_available(reason, sizeof reason)) return;
    fprintf(stderr, "order-tracking: the HTTP backend needs libcurl: %s; install libcurl4\n", reason);
    exit(1);
}

#define FORWARD(ret, name, params, args)                                                                     \
    ret name params {                                                                                        \
        require_curl();                                                                                      \
        return curl.name args;                                                                               \
    }
#define FORWARD_VOID(ret, name, params, args)                                                                \
    void name params {                                                                                       \
        require_curl();                                                                                      \
        curl.name args;                                                                                      \
    }
#define FORWARD_VARIADIC(name)                                                                               \
    int name(void *handle, int option, ...) {                                                                \
        require_curl();                                                                                      \
        va_list list;                                                                                        \
        va_start(list, option);                                                                              \
        void *argument = va_arg(list, void *);                                                               \
        va_end(list);                                                                                        \
        return curl.name(handle, option, argument);                                                          \
    }
CURL_FUNCTIONS(FORWARD)
CURL_VOID_FUNCTIONS(FORWARD_VOID)
CURL_VARIADIC_FUNCTIONS(FORWARD_VARIADIC)

#else

int lazy_curl_available(char *reason, size_t capacity) {
    (void)reason;
    (void)capacity;
    return 1;
}

#endif
