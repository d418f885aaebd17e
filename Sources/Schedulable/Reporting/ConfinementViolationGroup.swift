/// The violations of one object from one wrong context: one bug, so one test failure and one warn-once
/// report, whose text lists every member and site touched, in order.
///
/// ## Why this key
/// A wrong call usually touches several members: the guard of the method called from the wrong thread,
/// then the properties that method uses, then the reads in the test's assertion. Each is a violation
/// (the checks are per access, and exact), but they are one mistake: the object was used from a
/// context that does not own it. The key is what the report already names: the object (its type and
/// address, and a serial that tells it from a later object at the same address) and the actual context (`thread 4242 "…"`, a queue, the main thread). A
/// violation with no object, or of another kind than ``ConfinementViolation/Kind/wrongContext``, is a
/// group of its own.
package struct ConfinementViolationGroup: Sendable {
    /// What violations of one group share.
    package struct Key: Hashable, Sendable {
        /// The object's type.
        package var objectType: String?
        /// The object's address.
        package var objectIdentity: String
        /// Tells the object apart from a later one at the same address.
        var objectSerial: UInt64?
        /// The context, as the report's `actual context` line names it — or, where a caller knows
        /// better (a test's own task, whichever thread it resumed on), what the caller sets.
        package var actualContext: String
    }

    /// The violations, in the order they were reported; never empty.
    package private(set) var violations: [ConfinementViolation]

    /// A group of one violation.
    ///
    /// - Parameter first: The group's first violation.
    package init(_ first: ConfinementViolation) {
        violations = [first]
    }

    /// The first violation: its report heads the group's, and its failure site locates the failure.
    package var first: ConfinementViolation { violations[0] }

    /// Adds a later violation of the group.
    ///
    /// - Parameter violation: A violation with the group's key.
    package mutating func append(_ violation: ConfinementViolation) {
        violations.append(violation)
    }

    /// The first violation's report, then, when the group has more than one, every access in order
    /// (member and the line to look at; a method guard's call and guard lines).
    package var description: String {
        guard violations.count > 1 else { return first.description }
        var lines = [first.description]
        lines.append("  accesses:        \(violations.count), all of this object from this context, in order:")
        for (index, violation) in violations.enumerated() {
            lines.append(ConfinementViolation.escapedReportLine("                   \(index + 1). \(violation.accessLine)"))
        }
        return lines.joined(separator: "\n")
    }
}

extension ConfinementViolation {
    /// The key of the group this violation belongs to (see ``ConfinementViolationGroup``); `nil` for a
    /// violation that is a group of its own.
    package var groupKey: ConfinementViolationGroup.Key? {
        guard kind == .wrongContext, let objectIdentity else { return nil }
        return ConfinementViolationGroup.Key(
            objectType: objectType, objectIdentity: objectIdentity, objectSerial: objectSerial,
            actualContext: actualContext
        )
    }

    /// Whether the violation is a method guard's (`assertIsolated()` in a method): it knows the guard's
    /// line, and the line to fix is the one that called the method.
    package var isMethodGuard: Bool { kind == .wrongContext && callSite != nil }

    /// Where a test failure for this violation points, and what an editor should open: for a method
    /// guard, the line that called the guarded method (the guard's own line is ``callSite``); otherwise
    /// the access site.
    package var failureSite: StackFrame? { access.failureSite(isMethodGuard: isMethodGuard) }

    /// One access, as a group's report lists it: `isPaused at App/Service.swift:33 in toggle()`, or for
    /// a method guard `togglePause() called at AppTests/T.swift:27 in test() (guard at App/S.swift:32)`.
    package var accessLine: String {
        if isMethodGuard, let callSite {
            let caller = callerOfAccessSite.map { " called at \($0)" } ?? ""
            return "\(member)\(caller) (guard at \(callSite))"
        }
        return member + (accessSite.map { " at \($0)" } ?? "")
    }
}

/// What warn-once handlers print for a new site: the whole report for the first violation of a group,
/// one line for a new site of a group already reported (the same object, from the same context).
package final class WarnOnceGroups: Sendable {
    // Asked only at a new site, so it holds at most one key per site the handler has counted.
    private let reported = LockedValue<Set<ConfinementViolationGroup.Key>>([])

    package init() {}

    /// The entry to print for the first violation at a new site.
    ///
    /// - Parameter violation: The first violation at its site.
    /// - Returns: The whole report, or one line when the violation's group was reported already.
    package func entry(forNewSite violation: ConfinementViolation) -> String {
        guard let key = violation.groupKey, !reported.withLock({ $0.insert(key).inserted }) else {
            return violation.description + "\n"
        }
        let object = violation.objectIdentity.map { " (\($0))" } ?? ""
        return ConfinementViolation.escapedReportLine(
            "Schedulable: also used outside its owner: \(violation.accessLine) — the same "
                + "\(violation.objectType ?? "object")\(object) from the same context as a report above"
        ) + "\n"
    }
}
