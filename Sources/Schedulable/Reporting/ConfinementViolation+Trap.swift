/// The one-line forms of a violation: the message a trap stops the process with, and the line that
/// counts repeats. Both name the kind, so a crash log or a flood of repeats says what went wrong even
/// where the full report above it was lost.
extension ConfinementViolation {
    /// The kind in words, as the trap message and the repeat lines start: "wrong context",
    /// "rejected work", "deadlocking wait", ….
    package var kindTitle: String {
        switch kind {
        case .wrongContext: return "wrong context"
        case .rejectedWork: return "rejected work"
        case .concurrentQueue: return "concurrent queue"
        case .deadlock: return "deadlocking wait"
        case .invalidOption: return "invalid option"
        case .unstoredConfinement: return "unstored confinement record"
        case .fixedOwnerChanged: return "fixed owner changed"
        case .waitingRequired: return "waiting required"
        case .cancelledAtShutdown: return "cancelled at shutdown"
        case .isolationCheck: return "Swift isolation check failed"
        default: return kind.rawValue
        }
    }

    /// What happened, in a few words after the kind: "Counter.increment() used outside its owner".
    package var summaryLine: String {
        switch kind {
        case .wrongContext:
            return "\(qualifiedMember) used outside its owner"
        case .rejectedWork:
            return "\(qualifiedMember) not accepted by \(expectedOwner)"
        case .concurrentQueue:
            return "\(qualifiedMember) ran on a context that is not serial: \(actualContext)"
        case .deadlock:
            return "\(qualifiedMember) would wait forever for \(expectedOwner)"
        case .invalidOption:
            return "an option of \(objectType ?? "a protected type") names no protected member"
        case .unstoredConfinement:
            return "\(objectType ?? "a protected type") does not store its confinement record"
        case .fixedOwnerChanged:
            return "\(qualifiedMember) called on an object whose owner is fixed"
        case .waitingRequired:
            return "\(qualifiedMember) had to wait"
        case .cancelledAtShutdown:
            return "\(qualifiedMember): work cancelled by the shutdown of \(expectedOwner)"
        case .isolationCheck:
            return "\(member) outside \(expectedOwner)"
        default:
            return qualifiedMember
        }
    }

    /// The message the process stops with after the report was printed: the kind, what happened, and
    /// a pointer to the report. One line, escaped like the report's.
    package var trapMessage: String {
        Self.escapedReportLine("Schedulable: \(kindTitle): \(summaryLine) (report above)")
    }

    /// The text of an Xcode runtime issue raised for the violation: the kind and what happened, one
    /// line. Raised on the violating thread, whose stack Xcode shows beside it, before the report is
    /// symbolicated and written on the reporting thread.
    package var runtimeIssueLine: String {
        Self.escapedReportLine("Schedulable: \(kindTitle): \(summaryLine)")
    }

    /// The line that stands for a repeat of an already-printed violation: what happened, the site (the
    /// call site, else the access site) and the count so far.
    ///
    /// - Parameters:
    ///   - count: How many times the site has violated so far.
    ///   - suffix: Added inside the parentheses after the count.
    ///   - namingCallSite: Whether the line names the call site (a handler that counts per member, not per
    ///     site, leaves it out: the site of the latest repeat is not where the others were).
    /// - Returns: The line, newline-terminated.
    package func repeatLine(count: Int, suffix: String = "", namingCallSite: Bool = true) -> String {
        let place = namingCallSite ? sitePlace : ""
        let note = tier == .note ? "note: " : ""
        return Self.escapedReportLine(
            "Schedulable: \(note)\(summaryLine) again\(place) (\(count) times so far\(suffix))"
        ) + "\n"
    }
}
