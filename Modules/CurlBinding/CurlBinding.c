#include "CurlBinding.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// The types and prototypes below are curl.h's, declared here so building needs no libcurl -dev package.
typedef void CURL;
typedef void CURLM;
typedef int CURLcode;
typedef int CURLMcode;
typedef int CURLoption;
typedef int CURLINFO;
struct curl_waitfd;
typedef struct {
    int msg; // CURLMSG: 1 is CURLMSG_DONE
    CURL *easy_handle;
    union {
        void *whatever;
        CURLcode result;
    } data;
} CURLMsg;

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_cleanup)(CURLM *);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
} curl;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char failure[256];

static void load(void) {
#ifdef __APPLE__
    static const char *const names[] = {"libcurl.4.dylib", "libcurl.dylib"};
#else
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
#endif
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !library; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        // The first name's failure is the one worth reading: the others are fallbacks.
        const char *why = library ? NULL : dlerror();
        if (i == 0 && why) snprintf(failure, sizeof failure, "%s", why);
    }
    if (!library) return;
#define BIND(field, symbol)                                                                                    \
    do {                                                                                                       \
        *(void **)(&curl.field) = dlsym(library, symbol);                                                      \
        if (!curl.field) {                                                                                     \
            snprintf(failure, sizeof failure, "libcurl has no %s (7.68 or newer is needed)", symbol);         \
            return;                                                                                            \
        }                                                                                                      \
    } while (0)
    BIND(global_init, "curl_global_init");
    BIND(easy_init, "curl_easy_init");
    BIND(easy_setopt, "curl_easy_setopt");
    BIND(easy_getinfo, "curl_easy_getinfo");
    BIND(easy_cleanup, "curl_easy_cleanup");
    BIND(easy_strerror, "curl_easy_strerror");
    BIND(multi_init, "curl_multi_init");
    BIND(multi_add_handle, "curl_multi_add_handle");
    BIND(multi_remove_handle, "curl_multi_remove_handle");
    BIND(multi_perform, "curl_multi_perform");
    BIND(multi_poll, "curl_multi_poll");
    BIND(multi_wakeup, "curl_multi_wakeup");
    BIND(multi_info_read, "curl_multi_info_read");
    BIND(multi_cleanup, "curl_multi_cleanup");
    BIND(slist_append, "curl_slist_append");
    BIND(slist_free_all, "curl_slist_free_all");
#undef BIND
    if (curl.global_init(3 /* CURL_GLOBAL_ALL */) != 0) {
        snprintf(failure, sizeof failure, "curl_global_init failed");
        return;
    }
    loaded = 1;
}

int courier_curl_load(char *reason, size_t capacity) {
    pthread_once(&once, load);
    if (!loaded && reason && capacity > 0) snprintf(reason, capacity, "%s", failure);
    return loaded;
}

void *courier_curl_easy_init(void) { return curl.easy_init(); }
int courier_curl_easy_setopt_long(void *easy, int option, long value) { return curl.easy_setopt(easy, option, value); }
int courier_curl_easy_setopt_pointer(void *easy, int option, const void *value) {
    return curl.easy_setopt(easy, option, value);
}
int courier_curl_easy_setopt_write_callback(void *easy, courier_curl_write_callback callback) {
    return curl.easy_setopt(easy, 20011 /* CURLOPT_WRITEFUNCTION */, callback);
}
int courier_curl_easy_getinfo_long(void *easy, int info, long *value) { return curl.easy_getinfo(easy, info, value); }
void courier_curl_easy_cleanup(void *easy) { curl.easy_cleanup(easy); }
const char *courier_curl_easy_strerror(int code) { return curl.easy_strerror(code); }

void *courier_curl_multi_init(void) { return curl.multi_init(); }
int courier_curl_multi_add_handle(void *multi, void *easy) { return curl.multi_add_handle(multi, easy); }
int courier_curl_multi_remove_handle(void *multi, void *easy) { return curl.multi_remove_handle(multi, easy); }
int courier_curl_multi_perform(void *multi, int *running) { return curl.multi_perform(multi, running); }
int courier_curl_multi_poll(void *multi, int timeout_ms) {
    int events = 0;
    return curl.multi_poll(multi, NULL, 0, timeout_ms, &events);
}
int courier_curl_multi_wakeup(void *multi) { return curl.multi_wakeup(multi); }
int courier_curl_multi_next_done(void *multi, void **easy, int *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = curl.multi_info_read(multi, &left))) {
        if (message->msg == 1) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
void courier_curl_multi_cleanup(void *multi) { curl.multi_cleanup(multi); }
void *courier_curl_slist_append(void *list, const char *line) { return curl.slist_append(list, line); }
void courier_curl_slist_free_all(void *list) { curl.slist_free_all(list); }
