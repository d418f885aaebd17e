import Testing

// Tests that ThreadSanitizer cannot check, left out of its run (the debug, release and release +
// ReleaseChecks suites run every one of them): instrumented, they cost much and find nothing.

extension Trait where Self == ConditionTrait {
    /// For a test whose expectations run in a child process (`#expect(processExitsWith:)`): not run
    /// under ThreadSanitizer. The child's ThreadSanitizer report would go to the child's standard error,
    /// which the exit test captures and nobody reads (a race would show at most as another exit status);
    /// and instrumented children are slow to start: they were half of the ThreadSanitizer run's time.
    static var exitTest: Self {
        .disabled(if: underThreadSanitizer, "an exit test's child would report a race to output nobody reads")
    }

    /// For a test that runs on one thread only (a parser over bytes, a comparison with another tool):
    /// there is no race for ThreadSanitizer to find, and instrumented it is many times slower.
    static var singleThreaded: Self {
        .disabled(if: underThreadSanitizer, "one thread: nothing for ThreadSanitizer to find")
    }
}
