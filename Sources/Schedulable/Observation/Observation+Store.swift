extension Observation {
    /// What a run observed: for each protected type, which contexts used each member (the first site of
    /// each), and for each kept instance the order in which contexts followed one another — a hand-off
    /// (A, then B) reads differently from sharing (A, B, A). ``ConfinementObservations`` writes it out.
    ///
    /// Steps come through ``Observation/record(_:in:step:)``: of records created with
    /// ``Confinement/observed(file:line:)``, whose every change of user is a step, and, at the
    /// ``ConfinementLevel/observe`` level, of records with a declared owner (what would have been reported).
    ///
    /// Memory is bounded per type: the steps of the first ``instancesPerType`` instances, at most
    /// ``stepsPerInstance`` each; for the members, at most ``contextsPerMember`` contexts with their first
    /// site. Everything beyond is counted, not kept. A step keeps its stacks' return addresses, symbolicated
    /// when the file is written.
    package final class Store: Sendable {
        /// The process's store.
        package static let shared = Store()

        /// Instances per type whose steps are kept.
        package static let instancesPerType = 64
        /// Steps kept per instance.
        package static let stepsPerInstance = 8
        /// Contexts kept per member.
        package static let contextsPerMember = 16

        /// A kept step (by a context other than the instance's previous one), or a member's first use by a
        /// context.
        struct Use {
            var context: Context
            var step: Step
        }

        struct Instance {
            var serial: UInt64
            var steps: [Use] = []
            var stepsDropped = 0
            var last: Context
        }

        struct TypeEntry {
            var name: String
            var module: String?
            /// `Confinement.observed()`'s line for an observed type; `nil` for a declared owner.
            var observedAt: CodeLocation?
            /// A declared owner (the `observe` level), with its bind site.
            var declaredOwner: Context?
            var declaredAt: CodeLocation?
            var instances: [UInt64: Instance] = [:]
            /// Serials in the order their first step came.
            var order: [UInt64] = []
            /// Steps of instances beyond the bound.
            var droppedSteps = 0
            /// Contexts seen by any instance, kept or not: a new one is always recorded in ``members``.
            var contexts: Set<Context> = []
            var members: [String: [Use]] = [:]
            var contextsDropped: [String: Int] = [:]
        }

        struct State {
            /// Entries by key: an observed type's fully qualified name, so that two types of one name (in
            /// two modules, or nested in two others) are two entries; a declared owner's object type.
            var types: [String: TypeEntry] = [:]
            /// Key and name of the observed types met so far, so that a miss builds no string.
            var names: [ObjectIdentifier: (key: String, name: String)] = [:]
            var exitRegistered = false
        }

        let state = LockedValue(State())

        /// Records a step of `subject` in `context` (``Observation/record(_:in:step:)``), when it is a new
        /// one: the instance's first use, or a use from another context than its last one. `step` is
        /// called, outside the lock, only when the step is kept or the context is new for the type.
        func record(_ subject: Subject, in context: Context, step: () -> Step) {
            let key: String, name: String, serial: UInt64, update: (inout TypeEntry) -> Void
            switch subject {
            case .observed(let object, let createdAt):
                let type: AnyObject.Type = Swift.type(of: object)
                serial = ObjectSerials.serial(of: object)
                // A type's names are made once: a use builds no string.
                (key, name) = state.withLock { state in
                    if let known = state.names[ObjectIdentifier(type)] { return known }
                    let known = (key: String(reflecting: type), name: String(describing: type))
                    state.names[ObjectIdentifier(type)] = known
                    return known
                }
                update = { entry in
                    entry.observedAt = entry.observedAt ?? createdAt
                    entry.module = entry.module ?? Self.module(of: type)
                }
            case .declared(let violation):
                name = violation.objectType ?? violation.member
                key = name
                serial = violation.objectSerial ?? 0
                update = { entry in
                    if entry.declaredOwner == nil, let owner = violation.ownerContext {
                        entry.declaredOwner = Context(owner)
                        entry.declaredAt = violation.ownerBoundAt
                    }
                }
            }
            let needed = state.withLock { state in
                Self.needsStep(&state.types[key, default: TypeEntry(name: name)], serial: serial, context: context)
            }
            guard needed else { return }
            add(Use(context: context, step: step()), key: key, name: name, serial: serial, update: update)
        }

        /// Whether a use of `serial` in `context` is worth a step: a new step of a kept instance (or the
        /// first of a new one, within the bound), or a context the type has not seen. Counts the rest. In
        /// place (the dictionary's `default:` subscript): a copy of the entry would copy its tables per miss.
        private static func needsStep(_ entry: inout TypeEntry, serial: UInt64, context: Context) -> Bool {
            if let index = entry.instances.index(forKey: serial) {
                let instance = entry.instances.values[index]
                if instance.last == context { return false }
                if instance.steps.count < stepsPerInstance { return true }
                entry.instances.values[index].stepsDropped += 1
                entry.instances.values[index].last = context
                return !entry.contexts.contains(context)
            }
            if entry.instances.count < instancesPerType { return true }
            entry.droppedSteps += 1
            return !entry.contexts.contains(context)
        }

        /// Adds a built use: a step of its instance when kept, and its member's use by its context when new.
        private func add(_ use: Use, key: String, name: String, serial: UInt64, update: (inout TypeEntry) -> Void) {
            let isFirst = state.withLock { state -> Bool in
                Self.add(use, to: &state.types[key, default: TypeEntry(name: name)], serial: serial, update: update)
                defer { state.exitRegistered = true }
                return !state.exitRegistered
            }
            if isFirst { ConfinementObservations.writeAtExit() }
        }

        private static func add(_ use: Use, to entry: inout TypeEntry, serial: UInt64, update: (inout TypeEntry) -> Void) {
            update(&entry)
            let context = use.context
            entry.contexts.insert(context)
            if let index = entry.instances.index(forKey: serial) {
                let instance = entry.instances.values[index]
                if instance.last != context, instance.steps.count < stepsPerInstance {
                    entry.instances.values[index].steps.append(use)
                    entry.instances.values[index].last = context
                }
            } else if entry.instances.count < instancesPerType {
                entry.instances[serial] = Instance(serial: serial, steps: [use], last: context)
                entry.order.append(serial)
            }
            let member = use.step.member
            let uses = entry.members[member, default: []]
            guard !uses.contains(where: { $0.context == context }) else { return }
            if uses.count < contextsPerMember {
                entry.members[member, default: []].append(use)
            } else {
                entry.contextsDropped[member, default: 0] += 1
            }
        }

        /// The module of `type`, from its fully qualified name (`App.UploadQueue`); `nil` when it has none.
        private static func module(of type: AnyObject.Type) -> String? {
            let qualified = String(reflecting: type)
            guard let dot = qualified.firstIndex(of: ".") else { return nil }
            return String(qualified[..<dot])
        }

        /// A copy of what was observed, for writing.
        var snapshot: [TypeEntry] {
            // The same order in every run: by name, module and `observed()` line. Not by key alone: a
            // private type's qualified name holds an address, which differs between builds and runs.
            state.withLock { state in
                state.types.sorted { a, b in
                    let (x, y) = (a.value, b.value)
                    return (x.name, x.module ?? "", x.observedAt?.fileID ?? "", x.observedAt?.line ?? 0, a.key)
                        < (y.name, y.module ?? "", y.observedAt?.fileID ?? "", y.observedAt?.line ?? 0, b.key)
                }.map(\.value)
            }
        }
    }
}
