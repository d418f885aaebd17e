extension ExecutionContext {
    /// The label a scheduler gets: `label` itself, or — for one that says nothing (empty, or only
    /// whitespace and line breaks) — a stand-in naming the call site, after saying so.
    ///
    /// Every report names a scheduler by its label (`expected owner:  queue "com.app.uploads"`); a
    /// report that says `queue ""` cannot be acted on. A debug build of the library stops the program
    /// here, with the call site and the fix, so the first run finds the mistake. A release build never
    /// crashes for it (a label may come from data the program reads): it prints one warning line with
    /// the same text and gives the scheduler the label `unlabelled (App/Services.swift:12)`, so its
    /// reports still say which scheduler they mean. Labels with line breaks or control characters are
    /// allowed: reports escape them, so a report line stays one line.
    ///
    /// - Parameters:
    ///   - label: The label (or a branch's own name) to check.
    ///   - api: The initializer or method, for the message: `SerialQueueScheduler(label:qos:)`.
    ///   - file: The caller's call site.
    ///   - line: The caller's call site.
    /// - Returns: `label`, or the stand-in.
    package static func meaningfulLabel(_ label: String, in api: String, file: StaticString, line: UInt) -> String {
        guard label.unicodeScalars.allSatisfy(\.properties.isWhitespace) else { return label }
        let what = label.isEmpty ? "is empty" : "is only whitespace (\(String(reflecting: label)))"
        let message = "Schedulable: \(api) at \(file):\(line): the label \(what); every report names the scheduler "
            + "by its label, so give it one that says what the scheduler is for, such as \"com.app.uploads\""
        let standIn = "unlabelled (\(file):\(line))"
        #if SCHEDULABLE_DEBUG_BUILD
        fatalError(message, file: file, line: line)
        #else
        StandardError.write("\(message) (using \"\(standIn)\" instead)\n")
        return standIn
        #endif
    }
}
