import Foundation
import Testing

extension Trait where Self == ConditionTrait {
    /// For a test whose expectations run in a child process: not under ThreadSanitizer, whose report
    /// from the child would go to output nobody reads (as SchedulableTests' trait of the same name says).
    static var exitTest: Self {
        // ThreadSanitizer's runtime is linked into the executable when the build is instrumented.
        .disabled(if: dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil, "an exit test's child would report a race to output nobody reads")
    }
}
