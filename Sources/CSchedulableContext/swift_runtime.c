// Swift runtime internals (csched_swift_runtime.h): the current task's id and executor, whether an
// object is deallocating, whether its class is Swift-native, a type's stored fields.

#include "csched_private.h"

// Declared by the Swift runtime (HeapObject.h); exported on every platform Swift supports.
extern bool swift_isDeallocating(void *object);

// MARK: - Tasks

// Swift's concurrency runtime (libswift_Concurrency). The three functions use the Swift calling
// convention, and all three are found once: looked up at run time on Apple OSes (the library's floor, macOS 10.15 /
// iOS 13, predates some of the OS runtimes that export them, and a missing symbol must mean "no task
// windows", not a launch failure), linked on Linux (the runtime ships with the toolchain). The same
// pointers and the same checks on both, so the Linux tests run the logic Apple builds use.
typedef __attribute__((swiftcall)) void *(*csched_get_current_task_fn)(void);
typedef __attribute__((swiftcall)) uint64_t (*csched_get_task_id_fn)(void *);
// `SerialExecutorRef` (include/swift/ABI/Executor.h): the executor's identity (a heap object: the
// actor, the main executor, a custom executor; null for the generic executor) and its witness table
// with flag bits. Two words, returned in registers by the Swift calling convention. The function is
// part of the runtime's ABI since Swift 5.5: the compiler emits calls to it (`#isolation`, hop-back).
typedef struct {
    const void *identity;
    uintptr_t implementation;
} csched_executor_ref;
typedef __attribute__((swiftcall)) csched_executor_ref (*csched_get_current_executor_fn)(void);
static csched_get_current_task_fn csched_get_current_task = NULL;
static csched_get_task_id_fn csched_get_task_id = NULL;
static csched_get_current_executor_fn csched_get_current_executor = NULL;
static pthread_once_t csched_task_functions_once = PTHREAD_ONCE_INIT;
// 0 not looked up yet, 1 found, 2 missing or switched off. Published with release after the pointers,
// so the hot path (a task's object creation) is one acquiring load and a compare, not a pthread_once.
static _Atomic int csched_task_functions_state = 0;

#if !defined(__APPLE__)
extern __attribute__((swiftcall)) void *swift_task_getCurrent(void);
extern __attribute__((swiftcall)) uint64_t swift_task_getJobTaskId(void *job);
extern __attribute__((swiftcall)) csched_executor_ref swift_task_getCurrentExecutor(void);
#endif

static void csched_find_task_functions(void) {
    if (!csched_switched_off("SCHEDULABLE_DISABLE_TASK_IDS")) {
#if defined(__APPLE__)
        csched_get_current_task = (csched_get_current_task_fn)dlsym(RTLD_DEFAULT, "swift_task_getCurrent");
        csched_get_task_id = (csched_get_task_id_fn)dlsym(RTLD_DEFAULT, "swift_task_getJobTaskId");
        csched_get_current_executor = (csched_get_current_executor_fn)dlsym(RTLD_DEFAULT, "swift_task_getCurrentExecutor");
#else
        csched_get_current_task = swift_task_getCurrent;
        csched_get_task_id = swift_task_getJobTaskId;
        csched_get_current_executor = swift_task_getCurrentExecutor;
#endif
    }
    // A window needs all three: without the executor, a window could not end at an executor hop.
    bool found = csched_get_current_task != NULL && csched_get_task_id != NULL && csched_get_current_executor != NULL;
    atomic_store_explicit(&csched_task_functions_state, found ? 1 : 2, memory_order_release);
}

__attribute__((noinline)) static int csched_task_functions_first_use(void) {
    pthread_once(&csched_task_functions_once, csched_find_task_functions);
    return atomic_load_explicit(&csched_task_functions_state, memory_order_acquire);
}

bool csched_task_ids_available(void) {
    int state = atomic_load_explicit(&csched_task_functions_state, memory_order_acquire);
    if (__builtin_expect(state == 0, 0)) state = csched_task_functions_first_use();
    return state == 1;
}

// Once found, Linux calls the linked functions themselves (the pointers hold their addresses): a
// direct call costs less than a load and an indirect one, and object creation in a task asks this.
#if defined(__APPLE__)
#define CSCHED_GET_CURRENT_TASK csched_get_current_task
#define CSCHED_GET_TASK_ID csched_get_task_id
#define CSCHED_GET_CURRENT_EXECUTOR csched_get_current_executor
#else
#define CSCHED_GET_CURRENT_TASK swift_task_getCurrent
#define CSCHED_GET_TASK_ID swift_task_getJobTaskId
#define CSCHED_GET_CURRENT_EXECUTOR swift_task_getCurrentExecutor
#endif

uint64_t csched_current_task_id(void) {
    if (!csched_task_ids_available()) return 0;
    void *task = CSCHED_GET_CURRENT_TASK();
    return task == NULL ? 0 : CSCHED_GET_TASK_ID(task);
}

uintptr_t csched_current_executor_identity(void) {
    if (!csched_task_ids_available()) return 0;
    return (uintptr_t)CSCHED_GET_CURRENT_EXECUTOR().identity;
}

#if defined(__APPLE__)
static Class csched_swift_root_class = Nil;
static pthread_once_t csched_swift_root_once = PTHREAD_ONCE_INIT;

static void csched_find_swift_root_class(void) {
    // The Objective-C name of Swift's root class, Swift._SwiftObject.
    csched_swift_root_class = objc_getClass("_TtCs12_SwiftObject");
}
#endif

bool csched_object_is_swift_native(const void *object) {
#if defined(__APPLE__)
    // Swift-native classes are rooted in Swift's own root class; NSObject subclasses are not, and
    // their second word is an ivar, not the Swift reference count swift_isDeallocating reads.
    pthread_once(&csched_swift_root_once, csched_find_swift_root_class);
    Class root = Nil;
    for (Class cls = object_getClass((id)(void *)object); cls != Nil; cls = class_getSuperclass(cls)) root = cls;
    return root != Nil && root == csched_swift_root_class;
#else
    (void)object;
    return true;  // Outside Darwin there is no Objective-C runtime: every class is Swift-native.
#endif
}

bool csched_object_is_deallocating(const void *object) {
    if (!csched_object_is_swift_native(object)) return false;
    return swift_isDeallocating((void *)object);
}

// MARK: - Stored fields

// The runtime functions the standard library's `_forEachField` is made of (ReflectionMirror.swift).
// `_forEachField` itself is `@_spi(Reflection)`: declared only in a toolchain's private interface,
// which Apple's release toolchains do not ship ("cannot find '_forEachField' in scope"). The runtime
// exports these since Swift 5.2 (macOS 10.15.4, iOS 13.4): looked up at run time on Apple OSes (below
// that, and if a runtime stops exporting them, properties are named by their declaration site),
// linked on Linux, as for the task functions above. Swift calling convention.
//
// Field `index`'s metadata: runtimes before Swift 5.4 write the name and its free function through two
// out-pointers, later ones a struct whose first two fields are those. Passing the struct and a pointer
// to its second field suits both (the later runtimes ignore the fourth argument).
typedef struct {
    const char *name;
    void (*free_name)(const char *);
    bool is_strong;
    bool is_var;
} csched_field_metadata;
typedef __attribute__((swiftcall)) intptr_t (*csched_field_count_fn)(const void *type);
typedef __attribute__((swiftcall)) const void *(*csched_field_metadata_fn)(
    const void *type, intptr_t index, csched_field_metadata *field, void (**free_name)(const char *));
typedef __attribute__((swiftcall)) intptr_t (*csched_field_offset_fn)(const void *type, intptr_t index);
static csched_field_count_fn csched_field_count = NULL;
static csched_field_metadata_fn csched_field_at = NULL;
static csched_field_offset_fn csched_field_offset = NULL;
static pthread_once_t csched_field_functions_once = PTHREAD_ONCE_INIT;

#if !defined(__APPLE__)
extern __attribute__((swiftcall)) intptr_t swift_reflectionMirror_recursiveCount(const void *type);
extern __attribute__((swiftcall)) const void *swift_reflectionMirror_recursiveChildMetadata(
    const void *type, intptr_t index, csched_field_metadata *field, void (**free_name)(const char *));
extern __attribute__((swiftcall)) intptr_t swift_reflectionMirror_recursiveChildOffset(const void *type, intptr_t index);
#endif

static void csched_find_field_functions(void) {
#if defined(__APPLE__)
    csched_field_count = (csched_field_count_fn)dlsym(RTLD_DEFAULT, "swift_reflectionMirror_recursiveCount");
    csched_field_at = (csched_field_metadata_fn)dlsym(RTLD_DEFAULT, "swift_reflectionMirror_recursiveChildMetadata");
    csched_field_offset = (csched_field_offset_fn)dlsym(RTLD_DEFAULT, "swift_reflectionMirror_recursiveChildOffset");
#else
    csched_field_count = swift_reflectionMirror_recursiveCount;
    csched_field_at = swift_reflectionMirror_recursiveChildMetadata;
    csched_field_offset = swift_reflectionMirror_recursiveChildOffset;
#endif
}

int csched_for_each_field(const void *type, void *context,
                          bool (*field)(void *context, const char *name, intptr_t offset, const void *type)) {
    pthread_once(&csched_field_functions_once, csched_find_field_functions);
    if (csched_field_count == NULL || csched_field_at == NULL || csched_field_offset == NULL) return -1;
    intptr_t count = csched_field_count(type);
    for (intptr_t index = 0; index < count; index++) {
        intptr_t offset = csched_field_offset(type, index);
        csched_field_metadata metadata = {NULL, NULL, true, false};
        const void *field_type = csched_field_at(type, index, &metadata, &metadata.free_name);
        bool more = field(context, metadata.name != NULL ? metadata.name : "", offset, field_type);
        if (metadata.free_name != NULL) metadata.free_name(metadata.name);
        if (!more) return 0;
    }
    return 1;
}
