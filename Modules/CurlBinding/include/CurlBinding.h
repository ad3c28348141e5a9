// libcurl's C interface, bound with dlopen on first use. Only the calls CoreHTTP makes are bound, each through
// a pointer of its real type (the variadic setopt/getinfo included), and wrapped in plain functions Swift can call.
#ifndef COURIER_CURL_BINDING_H
#define COURIER_CURL_BINDING_H

#include <stddef.h>

/// Loads libcurl once per process; 1 when ready, else 0 with the loader's reason in `reason`.
int courier_curl_load(char *reason, size_t capacity);

typedef size_t (*courier_curl_write_callback)(char *data, size_t size, size_t count, void *context);

void *courier_curl_easy_init(void);
int courier_curl_easy_setopt_long(void *easy, int option, long value);
int courier_curl_easy_setopt_pointer(void *easy, int option, const void *value);
int courier_curl_easy_setopt_write_callback(void *easy, courier_curl_write_callback callback);
int courier_curl_easy_getinfo_long(void *easy, int info, long *value);
void courier_curl_easy_cleanup(void *easy);
const char *courier_curl_easy_strerror(int code);

void *courier_curl_multi_init(void);
int courier_curl_multi_add_handle(void *multi, void *easy);
int courier_curl_multi_remove_handle(void *multi, void *easy);
int courier_curl_multi_perform(void *multi, int *running);
int courier_curl_multi_poll(void *multi, int timeout_ms);
int courier_curl_multi_wakeup(void *multi);
/// Reads one finished transfer: 1 with its handle and result code, 0 when none is left.
int courier_curl_multi_next_done(void *multi, void **easy, int *result);
void courier_curl_multi_cleanup(void *multi);

/// A header list for a request (NULL `list` starts one); NULL when out of memory. Free it after the transfer.
void *courier_curl_slist_append(void *list, const char *line);
void courier_curl_slist_free_all(void *list);

#endif
