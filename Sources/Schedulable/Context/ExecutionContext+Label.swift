extension ExecutionContext {
    /// Refuses a label that says nothing: empty, or only whitespace and line breaks.
    ///
    /// Every report names a scheduler by its label (`expected owner:  queue "com.app.uploads"`); a
    /// report that says `queue ""` cannot be acted on, and a generated label would name where the
    /// scheduler was made, not what it is for. So the mistake stops the program where it is made,
    /// with the call site and the fix, in every build (labels are chosen when the code is written, so
    /// the first run finds it). Labels with line breaks or control characters are allowed: reports
    /// escape them, so a report line stays one line.
    ///
    /// - Parameters:
    ///   - label: The label (or a branch's own name) to check.
    ///   - api: The initializer or method, for the message: `SerialQueueScheduler(label:qos:)`.
    ///   - file: The caller's call site.
    ///   - line: The caller's call site.
    package static func requireMeaningfulLabel(_ label: String, in api: String, file: StaticString, line: UInt) {
        guard label.unicodeScalars.allSatisfy(\.properties.isWhitespace) else { return }
        let what = label.isEmpty ? "is empty" : "is only whitespace (\(String(reflecting: label)))"
        fatalError(
            "Schedulable: \(api) at \(file):\(line): the label \(what); every report names the scheduler by "
                + "its label, so give it one that says what the scheduler is for, such as \"com.app.uploads\"",
            file: file, line: line
        )
    }
}
