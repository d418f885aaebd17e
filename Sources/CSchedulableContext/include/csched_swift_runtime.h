// Swift runtime internals: entry points the runtime exports but does not document as API. Every
// caller goes through Platform/PlatformInternals.swift, which checks the kill switch of each.

#ifndef C_SCHEDULABLE_SWIFT_RUNTIME_H
#define C_SCHEDULABLE_SWIFT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The current Swift task's id (`swift_task_getJobTaskId`: 64 bits, never reused in a process), or 0
/// outside any task — and on an Apple OS whose Swift runtime does not export the function (looked up
/// at run time there), where tasks on the pool then get no construction window.
uint64_t csched_current_task_id(void);

/// The identity of the executor the calling code runs on, as the Swift runtime tracks it
/// (`swift_task_getCurrentExecutor`): an actor, the main actor's executor, a custom executor; 0 for the
/// generic executor (a task on the cooperative pool outside any actor), outside any job, and whenever
/// `csched_current_task_id` is always 0. It changes when a task hops to another executor, and only then.
uintptr_t csched_current_executor_identity(void);

/// Whether the task-id and executor functions were found (Apple: looked up at run time) and
/// `SCHEDULABLE_DISABLE_TASK_IDS` is not set. When false, every task id is 0: tasks get no
/// construction window of their own.
bool csched_task_ids_available(void);

/// Whether an object is running its deinit: the Swift runtime's own answer for Swift-native objects.
/// Objects whose class is rooted in Objective-C (NSObject subclasses, Darwin only) have no Swift
/// reference count to read, so the answer for them is false.
bool csched_object_is_deallocating(const void *_Nonnull object);

/// Whether `object`'s class is Swift-native (always, outside Darwin; on Darwin, rooted in Swift's
/// own root class rather than NSObject).
bool csched_object_is_swift_native(const void *_Nonnull object);

/// Calls `field` for each stored property of the Swift type `type` (its metadata; a class's
/// superclasses' fields first): name (`""` when the binary has no reflection names), byte offset,
/// type metadata; `field` returns false to stop. The Swift runtime's own field walk (what the standard
/// library's reflection SPI `_forEachField` calls), found at run time on Apple OSes. Returns 1 when
/// every field was visited, 0 when `field` stopped, -1 when the runtime has no field walk.
int csched_for_each_field(const void *_Nonnull type, void *_Nullable context,
                          bool (*_Nonnull field)(void *_Nullable context, const char *_Nonnull name, intptr_t offset,
                                                 const void *_Nonnull type));

#ifdef __cplusplus
}
#endif

#endif
