// OS thread facts (csched_threads.h): the main thread, OS ids, names, starting and joining threads,
// stack sizes, QoS.

#include "csched_private.h"

#include <sys/resource.h>

_Thread_local int csched_tls_main_state = 0;   // 0 unknown, 1 main, 2 not main (csched_private.h)

bool csched_is_main_thread(void) {
    int state = csched_tls_main_state;
    if (state == 0) {
#if defined(__APPLE__)
        state = pthread_main_np() ? 1 : 2;
#elif defined(__linux__)
        state = ((pid_t)syscall(SYS_gettid) == getpid()) ? 1 : 2;
#else
        state = 2;  // Unknown platform: never a false "yes".
#endif
        csched_tls_main_state = state;
    }
    return state == 1;
}

uint64_t csched_os_thread_id(void) {
#if defined(__linux__)
    return (uint64_t)syscall(SYS_gettid);
#elif defined(__APPLE__)
    uint64_t tid = 0;
    pthread_threadid_np(NULL, &tid);
    return tid;
#else
    return (uint64_t)(uintptr_t)pthread_self();
#endif
}

// The full name the library gave the calling thread (the kernel keeps 15 bytes of it on Linux);
// freed by the key's destructor when the thread ends.
static pthread_key_t csched_full_name_key;
static pthread_once_t csched_full_name_once = PTHREAD_ONCE_INIT;

static void csched_make_full_name_key(void) {
    pthread_key_create(&csched_full_name_key, free);
}

bool csched_thread_has_library_name(void) {
    pthread_once(&csched_full_name_once, csched_make_full_name_key);
    return pthread_getspecific(csched_full_name_key) != NULL;
}

bool csched_thread_name(char *buffer, unsigned long size) {
    if (size == 0) return false;
    buffer[0] = 0;
    pthread_once(&csched_full_name_once, csched_make_full_name_key);
    const char *full = pthread_getspecific(csched_full_name_key);
    if (full != NULL) {
        strncpy(buffer, full, size - 1);
        buffer[size - 1] = 0;
        return buffer[0] != 0;
    }
#if defined(__linux__) || defined(__APPLE__)
    if (pthread_getname_np(pthread_self(), buffer, size) != 0) return false;
#endif
    return buffer[0] != 0;
}

void csched_set_thread_name(const char *name) {
    pthread_once(&csched_full_name_once, csched_make_full_name_key);
    free(pthread_getspecific(csched_full_name_key));
    pthread_setspecific(csched_full_name_key, strdup(name));
#if defined(__linux__)
    char truncated[16];  // the kernel's limit, terminator included; longer names are refused
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(pthread_self(), truncated);
#elif defined(__APPLE__)
    char truncated[64];  // MAXTHREADNAMESIZE
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(truncated);
#endif
}

// MARK: - Threads

int csched_thread_start(uintptr_t *handle, void *(*entry)(void *), void *argument, size_t stack_size,
                        unsigned int qos_class) {
    pthread_attr_t attributes;
    int result = pthread_attr_init(&attributes);
    if (result != 0) return result;
    // Darwin refuses a size that is not a multiple of the page size (16 KiB on arm64).
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = stack_size < (size_t)PTHREAD_STACK_MIN ? (size_t)PTHREAD_STACK_MIN : stack_size;
    size = (size + page - 1) / page * page;
    result = pthread_attr_setstacksize(&attributes, size);
#if defined(__APPLE__)
    // Born with its QoS, so not even its first instructions run at the creator's.
    if (result == 0 && qos_class != 0) result = pthread_attr_set_qos_class_np(&attributes, (qos_class_t)qos_class, 0);
#else
    (void)qos_class;  // Linux: the thread sets its nice value itself when it starts.
#endif
    pthread_t thread;
    if (result == 0) result = pthread_create(&thread, &attributes, entry, argument);
    pthread_attr_destroy(&attributes);
    if (result == 0) *handle = (uintptr_t)thread;
    return result;
}

int csched_thread_join(uintptr_t handle) {
    return pthread_join((pthread_t)handle, NULL);
}

int csched_thread_detach(uintptr_t handle) {
    return pthread_detach((pthread_t)handle);
}

size_t csched_current_thread_stack_size(void) {
#if defined(__APPLE__)
    return pthread_get_stacksize_np(pthread_self());
#elif defined(__linux__)
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    size_t size = 0;
    pthread_attr_getstacksize(&attributes, &size);
    pthread_attr_destroy(&attributes);
    return size;
#else
    return 0;
#endif
}

void *csched_qos_override_start(uintptr_t handle) {
#if defined(__APPLE__)
    // Only raises: an override below the thread's own QoS changes nothing.
    qos_class_t mine = qos_class_self();
    if (mine == QOS_CLASS_UNSPECIFIED) return NULL;
    return pthread_override_qos_class_start_np((pthread_t)handle, mine, 0);
#else
    (void)handle;
    return NULL;
#endif
}

void csched_qos_override_end(void *token) {
#if defined(__APPLE__)
    if (token != NULL) pthread_override_qos_class_end_np((pthread_override_t)token);
#else
    (void)token;
#endif
}

int csched_set_thread_qos(uint64_t os_thread_id, unsigned int qos_class, int nice_value) {
    (void)qos_class;
#if defined(__linux__)
    return setpriority(PRIO_PROCESS, (id_t)os_thread_id, nice_value) == 0 ? 1 : 0;
#else
    (void)os_thread_id;
    (void)nice_value;
    return -1;  // Darwin sets a thread's QoS class only from the thread itself.
#endif
}

bool csched_set_current_thread_qos(unsigned int qos_class, int nice_value) {
#if defined(__APPLE__)
    (void)nice_value;
    return pthread_set_qos_class_self_np((qos_class_t)qos_class, 0) == 0;
#elif defined(__linux__)
    (void)qos_class;
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice_value) == 0;
#else
    (void)qos_class;
    (void)nice_value;
    return false;
#endif
}
