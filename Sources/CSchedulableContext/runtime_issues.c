// Xcode runtime issues (csched_runtime_issues.h): Apple only.

#include "csched_private.h"

// MARK: - Xcode runtime issues

#if defined(__APPLE__)
typedef os_log_t (*csched_os_log_create_fn)(const char *, const char *);
typedef void (*csched_os_log_impl_fn)(void *, os_log_t, os_log_type_t, const char *, uint8_t *, uint32_t);

static csched_os_log_create_fn csched_os_log_create;
static csched_os_log_impl_fn csched_os_log_impl;
static os_log_t csched_runtime_issues_log;
static void *csched_runtime_issues_dso;
static pthread_once_t csched_runtime_issues_once = PTHREAD_ONCE_INIT;

static void csched_find_runtime_issues(void) {
    csched_os_log_create = (csched_os_log_create_fn)dlsym(RTLD_DEFAULT, "os_log_create");
    csched_os_log_impl = (csched_os_log_impl_fn)dlsym(RTLD_DEFAULT, "_os_log_impl");
    if (csched_os_log_create == NULL || csched_os_log_impl == NULL) return;
    csched_runtime_issues_log = csched_os_log_create("com.apple.runtime-issues", "Schedulable");
    // Xcode shows a fault from this subsystem as a runtime issue only when a system framework logs
    // it: log on behalf of SwiftUI's image when it is loaded, else (a plain fault log) our own.
    Dl_info info;
    void *swiftui = dlsym(RTLD_DEFAULT, "$s7SwiftUI4ViewMp");
    if (swiftui != NULL && dladdr(swiftui, &info) != 0 && info.dli_fbase != NULL) {
        csched_runtime_issues_dso = info.dli_fbase;
    } else if (dladdr((const void *)&csched_raise_runtime_issue, &info) != 0) {
        csched_runtime_issues_dso = info.dli_fbase;
    }
}
#endif

void csched_raise_runtime_issue(const char *message) {
#if defined(__APPLE__)
    pthread_once(&csched_runtime_issues_once, csched_find_runtime_issues);
    if (csched_runtime_issues_log == NULL || csched_runtime_issues_dso == NULL) return;
    // What the os_log macros expand to, with our own dso: the arguments encoded by the compiler.
    __attribute__((section("__TEXT,__oslogstring,cstring_literals"))) static const char format[] = "%{public}s";
    uint8_t buffer[__builtin_os_log_format_buffer_size("%{public}s", message)];
    __builtin_os_log_format(buffer, "%{public}s", message);
    csched_os_log_impl(csched_runtime_issues_dso, csched_runtime_issues_log, OS_LOG_TYPE_FAULT, format, buffer,
                       (uint32_t)sizeof buffer);
#else
    (void)message;
#endif
}

bool csched_runtime_issues_available(void) {
#if defined(__APPLE__)
    pthread_once(&csched_runtime_issues_once, csched_find_runtime_issues);
    return csched_runtime_issues_log != NULL && csched_runtime_issues_dso != NULL;
#else
    return false;
#endif
}
