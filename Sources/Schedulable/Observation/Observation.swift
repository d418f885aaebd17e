/// Observation, the model behind ``ConfinementObservations``: which contexts use an object, as steps.
///
/// An observed use is a step of this model, never a violation and never a refusal. Every step enters
/// through ``record(_:in:step:)``, from three places in the Checking layer and above: the verdict (an
/// observed record's use that moved it, rule 5), a hand-off of an observed record (its new owner, at the
/// hand-off's line) and the delivery of a declared owner's report at the ``ConfinementLevel/observe``
/// level (`Delivery.deliver()`: a use that would have been reported). The ``Store`` keeps them; ``File``
/// writes them out at exit. A layer of its own above Reporting: a step carries a report's stack,
/// access site and intruder side, and Reporting names nothing of it.
package enum Observation {
    /// A use of an observed record as the record remembers it (its most recent use in its context):
    /// the member, the return addresses (never symbolicated unless a step names it as where that
    /// context let go) and the context it was in.
    package struct Use {
        /// The member used.
        package let member: ConfinedMemberReference
        /// The calling thread's return addresses at the use.
        package let stack: CallStack
        /// The id of the context the use was in; `nil` outside anything serial (nothing to let go of).
        package let contextID: UInt?

        package init(member: ConfinedMemberReference, stack: CallStack, contextID: UInt?) {
            self.member = member
            self.stack = stack
            self.contextID = contextID
        }

        /// Captures the calling thread's return addresses for a use of `member` in `context` (as many as
        /// a report's access site needs, without its shown stack).
        package static func here(_ member: ConfinedMemberReference, in context: ExecutionContext?) -> Use {
            Use(member: member, stack: CallStack.capture(limit: CapturedAccess.libraryFrameAllowance), contextID: context?.id)
        }
    }

    /// Where a step's use was made, found as a report's access site is: the stack's first user frame (a
    /// property's access), or for a method guard the line that called the method.
    struct Site {
        /// The captured stack, or what a violation carries.
        var access: ViolationAccess
        /// A method guard's own line: the site is then its caller.
        var callSite: CodeLocation?
        /// A site the caller knows better than any stack (a hand-off's call).
        var given: CodeLocation?

        /// The site of a use of `member` whose stack is `stack` (`member` named as a report names it).
        init(_ member: ConfinedMemberReference, stack: CallStack) {
            access = .captured(CapturedAccess(stack: stack, member: member.displayName, depth: 0))
            callSite = member.callSite
        }

        init(access: ViolationAccess, callSite: CodeLocation?, given: CodeLocation? = nil) {
            self.access = access
            self.callSite = callSite
            self.given = given
        }

        /// The file's `{"fileID", "line", "function", "path"?}`: the given site, else the line an editor
        /// should open (``ViolationAccess/failureSite(isMethodGuard:)``), else the guard's line, else
        /// `null`.
        var json: String {
            if let given { return File.location(given) }
            guard let frame = access.failureSite(isMethodGuard: callSite != nil), let line = frame.line,
                let fileID = frame.fileID
            else { return callSite.map(File.location) ?? "null" }
            var fields = [("fileID", JSON.string(fileID)), ("line", String(line)), ("function", JSON.string(frame.function))]
            if let path = frame.file, path.hasPrefix("/") { fields.append(("path", JSON.string(path))) }
            return JSON.object(fields)
        }
    }

    /// One step: a use by a context other than the instance's previous one (or its first use).
    package struct Step {
        /// The member, as a report names it.
        var member: String
        /// Where the use was made.
        var site: Site
        /// Where the previous context let go: its most recent use, when the record remembers it.
        var letGo: Site?
        /// What the new user was running (the report's intruder side), read on its thread; `nil` for a
        /// hand-off, made on the handing thread.
        var work: ConfinementViolation.Intruder?

        /// An observed record's use here that moved it (the verdict's rule 5); `letGo` is the most
        /// recent use in the context it left. Members are named by the caller (``ConfinedMemberReference``
        /// as a report names them).
        package static func use(
            _ member: ConfinedMemberReference, stack: CallStack, letGo: (member: ConfinedMemberReference, stack: CallStack)?
        ) -> Step {
            Step(
                member: member.displayName, site: Site(member, stack: stack),
                letGo: letGo.map { Site($0.member, stack: $0.stack) }, work: .current
            )
        }

        /// A hand-off of an observed record (`handOff(to:)`), made at `site` on the handing thread.
        package static func handOff(_ member: ConfinedMemberReference, at site: CodeLocation) -> Step {
            Step(member: member.displayName, site: Site(access: .none, callSite: member.callSite, given: site))
        }

        /// A declared owner's use that the ``ConfinementLevel/observe`` level records instead of
        /// reporting: the violation's member, access site and intruder side.
        package static func declared(_ violation: ConfinementViolation) -> Step {
            Step(
                member: violation.member,
                site: Site(access: violation.access, callSite: violation.isMethodGuard ? violation.callSite : nil),
                work: violation.intruder
            )
        }
    }

    /// What a step is of.
    package enum Subject {
        /// An instance of a type whose confinement is ``Confinement/observed(file:line:)``, created at
        /// `createdAt`.
        case observed(AnyObject, createdAt: CodeLocation?)
        /// The object of a declared owner's violation (the ``ConfinementLevel/observe`` level).
        case declared(ConfinementViolation)
    }

    /// Records a step of `subject` in `context`, when it is a new one (see ``Store``). The one entry
    /// into observation.
    ///
    /// - Parameters:
    ///   - subject: The instance the step is of.
    ///   - context: The context the step is in: the calling code's, or a hand-off's new owner.
    ///   - step: Builds the step; called, outside any lock, only when the step is kept or the context
    ///     is new for the type.
    package static func record(_ subject: Subject, in context: Context, step: () -> Step) {
        Store.shared.record(subject, in: context, step: step)
    }
}
