extension ConfinementViolation {
    /// Where a protected object was created, how it changed hands, and the last legitimate access the
    /// library saw — the ownership history a ``Kind/wrongContext`` report of a ``Confinement`` record
    /// carries in builds with the debug tier (see the Reporting Violations article).
    ///
    /// Kept at a bounded cost: the creating thread is one word stored at creation; the rest is recorded
    /// only by slow paths that already take the record's lock, and only once the object has changed
    /// hands. Accesses that pass the fast path (the owner's own scheduler running the code) are never
    /// recorded, so ``lastLegitimateAccess`` is the last one a *slow path* saw, not the last one made.
    package struct History: Sendable, Hashable {
        /// One change of owner: a hand-off, a detach, or a binding.
        package struct OwnerChange: Sendable, Hashable {
            /// What happened: `handOff`, `detach`, `boundByFirstUse` (a detached object bound by its first
            /// checked use) or `boundBySending` (sent into a `SchedulableObject`). These identifiers are
            /// what the JSON Lines record writes; the text report says the same in words.
            package var kind: String
            /// The owner after the change (its description), or `detached`.
            package var newOwner: String
            /// Where the change was made (the call, or the first use that bound the object).
            package var at: CodeLocation?
            /// Where the code making the change ran: a library scheduler and the OS thread id
            /// (`queue "q" (thread 4242)`), `main thread`, or the OS thread id and name (`thread 4242
            /// "worker"`).
            package var context: String

            /// Creates a change.
            ///
            /// - Parameters:
            ///   - kind: What happened.
            ///   - newOwner: The owner after the change.
            ///   - at: Where the change was made.
            ///   - context: Where the code making the change ran.
            package init(kind: String, newOwner: String, at: CodeLocation?, context: String) {
                self.kind = kind
                self.newOwner = newOwner
                self.at = at
                self.context = context
            }

            /// The change in words, as the report's line starts: `handed off to queue "q"`, `detached`,
            /// `bound to queue "q" by its first use`, `bound to queue "q" by being sent into a
            /// SchedulableObject`. A reader of a report has never seen the case names; a kind this
            /// version does not know is shown as it is.
            var phrase: String {
                // The identifiers of the Confinement layer's `OwnershipEventKind`, a layer above this
                // one; OwnershipHistoryTests checks that every case has its words here.
                switch kind {
                case "handOff": return "handed off to \(newOwner)"
                case "detach": return "detached"
                case "boundByFirstUse": return "bound to \(newOwner) by its first use"
                case "boundBySending": return "bound to \(newOwner) by being sent into a SchedulableObject"
                default: return "\(kind) to \(newOwner)"
                }
            }
        }

        /// A legitimate access that a slow path saw.
        package struct Access: Sendable, Hashable {
            /// The member, as ``ConfinementViolation/member`` spells it.
            package var member: String
            /// The call site (methods), or the property's declaration site.
            package var at: CodeLocation?
            /// Where the access ran, spelt like ``OwnerChange/context``.
            package var context: String

            /// Creates an access.
            ///
            /// - Parameters:
            ///   - member: The member.
            ///   - at: The call or declaration site.
            ///   - context: Where the access ran.
            package init(member: String, at: CodeLocation?, context: String) {
                self.member = member
                self.at = at
                self.context = context
            }
        }

        /// How many owner changes a history keeps: the latest ones.
        package static let ownerChangeCapacity = 4

        /// Where the confinement record was created: the `Confinement(owner:)` call, or the
        /// `Confinement.detached()` call.
        package var createdAt: CodeLocation?
        /// The thread that created it: `main thread`; when the object's first change of owner was made on
        /// that same thread, spelt like ``OwnerChange/context``; the reporting thread's id and name when it
        /// is that thread; else the library's never-reused thread number (`another thread (library thread
        /// #12)`): the creation itself stores one word, not the OS id or name.
        package var createdOn: String
        /// The last ``ownerChangeCapacity`` changes of owner, oldest first.
        package var ownerChanges: [OwnerChange] = []
        /// How many changes of owner there were in all (more than `ownerChanges.count` when older ones
        /// were dropped).
        package var ownerChangeCount = 0
        /// The last legitimate access seen by a slow path that takes the record's lock (the building
        /// thread, the owner's first use, bindings, hand-offs), once the object has changed hands.
        /// Accesses on the fast path and lock-free slow paths (raw work on the owner's queue, a
        /// branch) are not recorded.
        package var lastLegitimateAccess: Access?

        /// Creates a history.
        ///
        /// - Parameters:
        ///   - createdAt: Where the record was created.
        ///   - createdOn: The thread that created it.
        package init(createdAt: CodeLocation?, createdOn: String) {
            self.createdAt = createdAt
            self.createdOn = createdOn
        }

        /// The report's lines for the history, in its fixed shape (see ``ConfinementViolation/description``).
        var reportLines: [String] {
            typealias Field = ConfinementViolation.Field
            var lines = [Field.line("created at", "\(createdAt.map { "\($0)" } ?? "unknown site") on \(createdOn)")]
            if ownerChangeCount > ownerChanges.count {
                lines.append(Field.line("owner changes", "\(ownerChangeCount), the last \(ownerChanges.count) below"))
            }
            for change in ownerChanges {
                let site = change.at.map { " at \($0)" } ?? ""
                lines.append(Field.line("owner change", "\(change.phrase)\(site), made on \(change.context)"))
            }
            if let access = lastLegitimateAccess {
                let site = access.at.map { " (\($0))" } ?? ""
                lines.append(Field.line(
                    "last legitimate",
                    "\(access.member)\(site) on \(access.context) (the last the checks recorded; the owner's own work records none)"
                ))
            }
            return lines
        }

        /// The history as a report field's value (see ``ConfinementViolation/fields``).
        var value: ConfinementViolation.FieldValue {
            typealias Field = ConfinementViolation.Field
            var fields: [Field] = []
            fields.append("createdAt", createdAt.map(ConfinementViolation.FieldValue.location))
            fields.append(Field("createdOn", createdOn))
            fields.append(Field("ownerChangeCount", .number(ownerChangeCount)))
            let changes = ownerChanges.map { change in
                var entry = [Field("kind", change.kind), Field("newOwner", change.newOwner)]
                entry.append("at", change.at.map(ConfinementViolation.FieldValue.location))
                entry.append(Field("context", change.context))
                return ConfinementViolation.FieldValue.object(entry)
            }
            fields.append(Field("ownerChanges", .array(changes)))
            if let access = lastLegitimateAccess {
                var entry = [Field("member", access.member)]
                entry.append("at", access.at.map(ConfinementViolation.FieldValue.location))
                entry.append(Field("context", access.context))
                fields.append(Field("lastLegitimateAccess", .object(entry)))
            }
            return .object(fields)
        }
    }
}
