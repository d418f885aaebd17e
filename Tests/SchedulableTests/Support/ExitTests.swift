import Testing

extension Trait where Self == ConditionTrait {
    /// For a test whose expectations run in a child process (`#expect(processExitsWith:)`): not run
    /// under ThreadSanitizer. The child's ThreadSanitizer report would go to the child's standard error,
    /// which the exit test captures and nobody reads (a race would show at most as another exit status),
    /// while the debug and release suites run the same test; and instrumented children are slow to
    /// start: they were half of the ThreadSanitizer run's time.
    static var exitTest: Self {
        .disabled(if: underThreadSanitizer, "an exit test's child would report a race to output nobody reads")
    }
}
