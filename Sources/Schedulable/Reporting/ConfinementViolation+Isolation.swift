#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The report of a failed Swift isolation check (``ConfinementViolation/Kind/isolationCheck``).
extension ConfinementViolation {
    /// Which of Swift's dynamic isolation checks failed, told by the function that made it.
    package enum IsolationCheck: String, Sendable, CaseIterable {
        /// `MainActor.assumeIsolated` or an actor's `assumeIsolated`.
        case assumeIsolated = "assumeIsolated"
        /// `MainActor.preconditionIsolated` or an actor's `preconditionIsolated`.
        case preconditionIsolated = "preconditionIsolated"
        /// The entry of a `@preconcurrency` conformance's witness, called outside its actor.
        case witness = "a @preconcurrency witness's entry"
        /// The entry of an isolated closure or function the compiler checks (SE-0423), called outside
        /// its actor: a `@MainActor` closure handed to code that calls it on another thread.
        case entry = "an isolated closure's entry"

        /// The check that `frames` (innermost first, from the capturing code) were making: the first
        /// frame that names one; an entry check when none does.
        static func made(by frames: [CallStack.Frame]) -> IsolationCheck {
            for frame in frames {
                let name = frame.name ?? frame.rawName ?? ""
                if Self.name(name, contains: "assumeIsolated") { return .assumeIsolated }
                if Self.name(name, contains: "preconditionIsolated") { return .preconditionIsolated }
                if name.hasPrefix("protocol witness for ") { return .witness }
                if StackFrameClassifier.isWitnessThunk(frame) { return .witness }
            }
            return .entry
        }

        /// ``made(by:)`` for a captured stack, once per stack: a check that fails again at the same
        /// site (a loop, a handler called again) has the same return addresses, and is answered without
        /// symbolicating anything on the violating thread.
        static func made(at stack: CallStack) -> IsolationCheck {
            if let known = madeAt.withLock({ $0[stack.addresses] }) { return known }
            let check = made(by: stack.frames())
            madeAt.withLock { known in
                if known.count >= 1_024 { known.removeAll() }
                known[stack.addresses] = check
            }
            return check
        }

        private static let madeAt = LockedValue<[[UInt]: IsolationCheck]>([:])

        /// Whether `name` holds `part`, by the C library's `strstr` (`String.contains` of a string is
        /// `_StringProcessing`'s, which sets an OS floor without Foundation). Asked on the violating
        /// thread for every frame of a new site's stack, in the one build that installs the hook
        /// (-Onone), where a byte loop in Swift cost more than the report's whole budget
        /// (Benchmarks/scripts/isolation-hook-cost.sh).
        private static func name(_ name: String, contains part: String) -> Bool {
            name.withCString { name in part.withCString { strstr(name, $0) != nil } }
        }
    }

    /// Code isolated to `expectedOwner` (`MainActor`, `actor App.Store`) that Swift's own check found
    /// running outside it. Made on the violating thread, inside the runtime's check: the stack is
    /// captured here, and the check's kind is read from its frames (already symbolicated frames come
    /// from the process's symbol cache).
    ///
    /// - Parameter expectedOwner: The executor the check expected, as a report names it.
    package static func isolationCheck(expectedOwner: String) -> ConfinementViolation {
        var violation = ConfinementViolation(
            kind: .isolationCheck,
            tier: .assert,
            member: IsolationCheck.entry.rawValue,
            expectedOwner: expectedOwner,
            actualContext: CurrentExecution.description,
            detail: "Swift's runtime check (SE-0423) found this code outside \(expectedOwner); without SchedulableTesting "
                + "(or ConfinementSystem.reportSwiftIsolationChecks()) the Swift runtime stops the process here"
        )
        violation.intruder = .current
        violation.captureAccessSite(atEntry: true)
        if case .captured(let capture) = violation.access {
            violation.member = IsolationCheck.made(at: capture.stack).rawValue
        }
        return violation
    }
}
