#ifndef COURIER_LAZY_CURL_H
#define COURIER_LAZY_CURL_H

#include <stddef.h>

/// Loads libcurl on first use (release builds link FoundationNetworking statically and bind curl lazily, so
/// the embedded-backend screen never pays for libcurl's ~30 shared libraries). Returns 1 when libcurl is
/// usable; otherwise 0 with the loader's reason in `reason` (always NUL-terminated).
int lazy_curl_available(char *reason, size_t capacity);

#endif
